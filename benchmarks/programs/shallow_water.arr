# Shallow water equations, two-step Lax-Wendroff scheme (Benchpress "Shallow Water",
# Kristensen et al. 2016, Table I; the scheme of the classic MATLAB water-wave code).
# State on an (n+2) x (n+2) grid: water height H and the velocities (momenta) U along
# axis 0 and V along axis 1; the outer ring holds boundary values. g = 9.8, dt = 0.02,
# dx = dy = 1.0.
# Initial condition: still water of height 1 plus a droplet, the Gaussian bump
# 0.5 * exp(-25 * ((x - 0.2)^2 + (y + 0.1)^2)) over coordinates x (axis 1) and y (axis 0)
# from -1 to 1 (built by broadcasting a row and a column: there is no meshgrid);
# U = V = 0.
# Each step:
#  1. reflective boundaries: copy the neighbouring interior row/column to the boundary;
#     the velocity normal to a boundary (U on rows 0 and n+1, V on columns 0 and n+1)
#     is copied negated;
#  2. first half step: H, U, V at the midpoints between rows (Hx, Ux, Vx: (n+1) x n)
#     and between columns (Hy, Uy, Vy: n x (n+1));
#  3. second half step: the interior of H, U, V is updated from the fluxes at the
#     midpoints.
# Results: H, U and V after `iterations` steps (boundary ring included).
fn shallow_water(n: i64 = 64, iterations: i64 = 20) -> (f64[n+2, n+2], f64[n+2, n+2], f64[n+2, n+2]) {
    let g = 9.8;
    let dt = 0.02;
    let dx = 1.0;
    let dy = 1.0;

    let x = linspace(-1.0, 1.0, n + 2) - 0.2;
    let y = linspace(-1.0, 1.0, n + 2) + 0.1;
    let H = 1.0 + 0.5 * exp(-25.0 * (x[newaxis, :] * x[newaxis, :] + y[:, newaxis] * y[:, newaxis]));
    let U = zeros(n + 2, n + 2);
    let V = zeros(n + 2, n + 2);

    # neighbours along axis 0 ("x": rows i+1 and i, interior columns) ...
    let Hxp = H[1:, 1:-1];
    let Hxm = H[:-1, 1:-1];
    let Uxp = U[1:, 1:-1];
    let Uxm = U[:-1, 1:-1];
    let Vxp = V[1:, 1:-1];
    let Vxm = V[:-1, 1:-1];
    # ... and along axis 1 ("y": columns j+1 and j, interior rows)
    let Hyp = H[1:-1, 1:];
    let Hym = H[1:-1, :-1];
    let Uyp = U[1:-1, 1:];
    let Uym = U[1:-1, :-1];
    let Vyp = V[1:-1, 1:];
    let Vym = V[1:-1, :-1];

    for it in 0..iterations {
        # reflective boundary conditions
        H[:, 0] = H[:, 1];
        U[:, 0] = U[:, 1];
        V[:, 0] = -V[:, 1];
        H[:, n + 1] = H[:, n];
        U[:, n + 1] = U[:, n];
        V[:, n + 1] = -V[:, n];
        H[0, :] = H[1, :];
        U[0, :] = -U[1, :];
        V[0, :] = V[1, :];
        H[n + 1, :] = H[n, :];
        U[n + 1, :] = -U[n, :];
        V[n + 1, :] = V[n, :];

        # first half step, midpoints along axis 0
        let Hx = (Hxp + Hxm) / 2.0 - dt / (2.0 * dx) * (Uxp - Uxm);
        let Ux = (Uxp + Uxm) / 2.0 - dt / (2.0 * dx) *
            ((Uxp * Uxp / Hxp + g / 2.0 * (Hxp * Hxp)) - (Uxm * Uxm / Hxm + g / 2.0 * (Hxm * Hxm)));
        let Vx = (Vxp + Vxm) / 2.0 - dt / (2.0 * dx) * (Uxp * Vxp / Hxp - Uxm * Vxm / Hxm);
        # first half step, midpoints along axis 1
        let Hy = (Hyp + Hym) / 2.0 - dt / (2.0 * dy) * (Vyp - Vym);
        let Uy = (Uyp + Uym) / 2.0 - dt / (2.0 * dy) * (Vyp * Uyp / Hyp - Vym * Uym / Hym);
        let Vy = (Vyp + Vym) / 2.0 - dt / (2.0 * dy) *
            ((Vyp * Vyp / Hyp + g / 2.0 * (Hyp * Hyp)) - (Vym * Vym / Hym + g / 2.0 * (Hym * Hym)));

        # second half step: the interior from the midpoint fluxes
        # (Hx, Ux, Vx rows i and i-1; Hy, Uy, Vy columns j and j-1)
        let Hx1 = Hx[1:, :];
        let Hx0 = Hx[:-1, :];
        let Ux1 = Ux[1:, :];
        let Ux0 = Ux[:-1, :];
        let Vx1 = Vx[1:, :];
        let Vx0 = Vx[:-1, :];
        let Hy1 = Hy[:, 1:];
        let Hy0 = Hy[:, :-1];
        let Uy1 = Uy[:, 1:];
        let Uy0 = Uy[:, :-1];
        let Vy1 = Vy[:, 1:];
        let Vy0 = Vy[:, :-1];
        H[1:-1, 1:-1] = H[1:-1, 1:-1] - dt / dx * (Ux1 - Ux0) - dt / dy * (Vy1 - Vy0);
        U[1:-1, 1:-1] = U[1:-1, 1:-1]
            - dt / dx * ((Ux1 * Ux1 / Hx1 + g / 2.0 * (Hx1 * Hx1)) - (Ux0 * Ux0 / Hx0 + g / 2.0 * (Hx0 * Hx0)))
            - dt / dy * (Vy1 * Uy1 / Hy1 - Vy0 * Uy0 / Hy0);
        V[1:-1, 1:-1] = V[1:-1, 1:-1]
            - dt / dx * (Ux1 * Vx1 / Hx1 - Ux0 * Vx0 / Hx0)
            - dt / dy * ((Vy1 * Vy1 / Hy1 + g / 2.0 * (Hy1 * Hy1)) - (Vy0 * Vy0 / Hy0 + g / 2.0 * (Hy0 * Hy0)));
    }
    return (H, U, V);
}
