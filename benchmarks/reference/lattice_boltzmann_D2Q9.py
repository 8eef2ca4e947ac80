"""NumPy reference for benchmarks/programs/lattice_boltzmann_D2Q9.arr: bh107/benchpress's
lattice_boltzmann_D2Q9 (benchpress/benchmarks/lattice_boltzmann_D2Q9/python_numpy/
lattice_boltzmann_D2Q9.py; the method by Jonas Latt, 2006) in Python 3 and NumPy 2 (`np.bool`
is `bool`), without the plot and its limits; returns fIn after `iterations` steps."""
import numpy as np

# D2Q9 lattice constants
t = [4 / 9., 1 / 9., 1 / 9., 1 / 9., 1 / 9., 1 / 36., 1 / 36., 1 / 36., 1 / 36.]
cx = [0, 1, 0, -1, 0, 1, -1, -1, 1]
cy = [0, 0, 1, 0, -1, 1, 1, -1, -1]
opp = [0, 3, 4, 1, 2, 7, 8, 5, 6]
uMax = 0.02  # maximum velocity of the Poiseuille inflow
Re = 100  # Reynolds number


def cylinder(height, width):
    lx, ly = width, height
    obst_x = lx / 5. + 1  # position of the cylinder; (exact
    obst_y = ly / 2. + 0  # y-symmetry is avoided)
    obst_r = ly / 10. + 1  # radius of the cylinder
    nu = uMax * 2. * obst_r / Re  # kinematic viscosity
    omega = 1. / (3 * nu + 1. / 2.)  # relaxation parameter
    col = np.arange(1, ly - 1)

    y, x = np.meshgrid(np.arange(ly), np.arange(lx))
    obst = (x - obst_x) ** 2 + (y - obst_y) ** 2 <= obst_r ** 2
    obst[:, 0] = obst[:, ly - 1] = 1
    bbRegion = np.asarray(obst, dtype=bool)

    t_3d = np.asarray(t)[:, np.newaxis, np.newaxis]
    fIn = np.array(t_3d.repeat(lx, axis=1).repeat(ly, axis=2))
    return fIn, float(omega), bbRegion, col


def solve(fIn, omega, bbRegion, col, timesteps):
    lx, ly = fIn.shape[1], fIn.shape[2]
    cx_3d = np.asarray(cx)[:, np.newaxis, np.newaxis]
    cy_3d = np.asarray(cy)[:, np.newaxis, np.newaxis]
    for _ in range(timesteps):
        rho = np.sum(fIn, axis=0)
        ux = np.sum(cx_3d * fIn, axis=0) / rho
        uy = np.sum(cy_3d * fIn, axis=0) / rho

        L = ly - 2.0
        y = col - 0.5
        ux[0, 1:ly - 1] = 4 * uMax / (L ** 2) * (y * L - y ** 2)
        uy[0, 1:ly - 1] = 0

        t1 = np.zeros(ly - 2)
        for i in [0, 2, 4]:
            t1 += fIn[i, 0, 1:ly - 1]
        t2 = np.zeros(ly - 2)
        for i in [3, 6, 7]:
            t2 += fIn[i, 0, 1:ly - 1]
        t2 *= 2
        rho[0, 1:ly - 1] = 1 / (1 - ux[0, 1:ly - 1]) * (t1 + t2)

        rho[lx - 1, 1:ly - 1] = 4.0 / 3 * rho[lx - 2, 1:ly - 1] - 1.0 / 3 * rho[lx - 3, 1:ly - 1]
        uy[lx - 1, 1:ly - 1] = 0
        ux[lx - 1, 1:ly - 1] = 4.0 / 3 * ux[lx - 2, 1:ly - 1] - 1.0 / 3 * ux[lx - 3, 1:ly - 1]

        fEq = np.zeros((9, lx, ly))
        fOut = np.zeros((9, lx, ly))
        for i in range(0, 9):
            cu = 3 * (cx[i] * ux + cy[i] * uy)
            fEq[i] = rho * t[i] * (1 + cu + 0.5 * cu ** 2 - 1.5 * (ux ** 2 + uy ** 2))
            fOut[i] = fIn[i] - omega * (fIn[i] - fEq[i])

        for i in range(0, 9):
            fOut[i, 0, 1:ly - 1] = fEq[i, 0, 1:ly - 1] + 18 * t[i] * cx[i] * cy[i] * \
                (fIn[7, 0, 1:ly - 1] - fIn[6, 0, 1:ly - 1] - fEq[7, 0, 1:ly - 1] + fEq[6, 0, 1:ly - 1])
            fOut[i, lx - 1, 1:ly - 1] = fEq[i, lx - 1, 1:ly - 1] + 18 * t[i] * cx[i] * cy[i] * \
                (fIn[5, lx - 1, 1:ly - 1] - fIn[8, lx - 1, 1:ly - 1]
                 - fEq[5, lx - 1, 1:ly - 1] + fEq[8, lx - 1, 1:ly - 1])
            masked = fIn[opp[i]].copy() * bbRegion
            fOut[i] = fOut[i] * ~bbRegion + masked

        for i in range(0, 9):
            if cx[i] == 1:
                t1 = np.empty_like(fOut[i])
                t1[1:] = fOut[i][:-1]
                t1[0] = fOut[i][-1]
                fOut[i] = t1
            elif cx[i] == -1:
                t1 = np.empty_like(fOut[i])
                t1[:-1] = fOut[i][1:]
                t1[-1] = fOut[i][0]
                fOut[i] = t1
            if cy[i] == 1:
                t1 = np.empty_like(fOut[i])
                t1[:, 1:] = fOut[i][:, :-1]
                t1[:, 0] = fOut[i][:, -1]
                fIn[i] = t1
            elif cy[i] == -1:
                t1 = np.empty_like(fOut[i])
                t1[:, :-1] = fOut[i][:, 1:]
                t1[:, -1] = fOut[i][:, 0]
                fIn[i] = t1
            else:
                fIn[i] = fOut[i]


def lattice_boltzmann_D2Q9(height=50, width=100, iterations=10):
    fIn, omega, bbRegion, col = cylinder(height, width)
    solve(fIn, omega, bbRegion, col, iterations)
    return (fIn,)
