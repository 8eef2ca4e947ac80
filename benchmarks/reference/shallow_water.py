"""NumPy reference for benchmarks/programs/shallow_water.arr (shallow water equations,
two-step Lax-Wendroff, reflective boundaries, a Gaussian droplet on still water)."""
import numpy as np

G = 9.8
DT = 0.02
DX = 1.0
DY = 1.0


def droplet_height(n):
    """1 + a Gaussian bump centred at (x, y) = (0.2, -0.1); x along axis 1, y along axis 0."""
    x = np.linspace(-1.0, 1.0, n + 2) - 0.2
    y = np.linspace(-1.0, 1.0, n + 2) + 0.1
    return 1.0 + 0.5 * np.exp(-25.0 * (x[np.newaxis, :] * x[np.newaxis, :] + y[:, np.newaxis] * y[:, np.newaxis]))


def reflect(H, U, V):
    """Reflective boundaries: copy the neighbouring interior line; U (axis-0 velocity) is
    negated on the first/last row, V (axis-1 velocity) on the first/last column."""
    H[:, 0] = H[:, 1]
    U[:, 0] = U[:, 1]
    V[:, 0] = -V[:, 1]
    H[:, -1] = H[:, -2]
    U[:, -1] = U[:, -2]
    V[:, -1] = -V[:, -2]
    H[0, :] = H[1, :]
    U[0, :] = -U[1, :]
    V[0, :] = V[1, :]
    H[-1, :] = H[-2, :]
    U[-1, :] = -U[-2, :]
    V[-1, :] = V[-2, :]


def shallow_water(n=64, iterations=20):
    g, dt, dx, dy = G, DT, DX, DY
    H = droplet_height(n)
    U = np.zeros((n + 2, n + 2))
    V = np.zeros((n + 2, n + 2))
    for _ in range(iterations):
        reflect(H, U, V)
        # first half step on the midpoints between rows: (n+1) x n
        h1, h0 = H[1:, 1:-1], H[:-1, 1:-1]
        u1, u0 = U[1:, 1:-1], U[:-1, 1:-1]
        v1, v0 = V[1:, 1:-1], V[:-1, 1:-1]
        Hx = (h1 + h0) / 2.0 - dt / (2.0 * dx) * (u1 - u0)
        Ux = (u1 + u0) / 2.0 - dt / (2.0 * dx) * ((u1 * u1 / h1 + g / 2.0 * (h1 * h1)) - (u0 * u0 / h0 + g / 2.0 * (h0 * h0)))
        Vx = (v1 + v0) / 2.0 - dt / (2.0 * dx) * (u1 * v1 / h1 - u0 * v0 / h0)
        # first half step on the midpoints between columns: n x (n+1)
        h1, h0 = H[1:-1, 1:], H[1:-1, :-1]
        u1, u0 = U[1:-1, 1:], U[1:-1, :-1]
        v1, v0 = V[1:-1, 1:], V[1:-1, :-1]
        Hy = (h1 + h0) / 2.0 - dt / (2.0 * dy) * (v1 - v0)
        Uy = (u1 + u0) / 2.0 - dt / (2.0 * dy) * (v1 * u1 / h1 - v0 * u0 / h0)
        Vy = (v1 + v0) / 2.0 - dt / (2.0 * dy) * ((v1 * v1 / h1 + g / 2.0 * (h1 * h1)) - (v0 * v0 / h0 + g / 2.0 * (h0 * h0)))
        # second half step: fluxes through the four faces of each interior cell
        fx_h = Ux
        fx_u = Ux * Ux / Hx + g / 2.0 * (Hx * Hx)
        fx_v = Ux * Vx / Hx
        fy_h = Vy
        fy_u = Vy * Uy / Hy
        fy_v = Vy * Vy / Hy + g / 2.0 * (Hy * Hy)
        H[1:-1, 1:-1] = H[1:-1, 1:-1] - dt / dx * (fx_h[1:, :] - fx_h[:-1, :]) - dt / dy * (fy_h[:, 1:] - fy_h[:, :-1])
        U[1:-1, 1:-1] = U[1:-1, 1:-1] - dt / dx * (fx_u[1:, :] - fx_u[:-1, :]) - dt / dy * (fy_u[:, 1:] - fy_u[:, :-1])
        V[1:-1, 1:-1] = V[1:-1, 1:-1] - dt / dx * (fx_v[1:, :] - fx_v[:-1, :]) - dt / dy * (fy_v[:, 1:] - fy_v[:, :-1])
    return H, U, V
