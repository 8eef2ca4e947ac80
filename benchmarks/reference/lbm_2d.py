"""NumPy reference for benchmarks/programs/lbm_2d.arr: bh107/benchpress (c16e8ec)
benchmarks/lbm_2d/python_numpy/lbm_2d.py (2-D flow around a cylinder, D2Q9 BGK) in
Python 3: the module-level sizes and step count are parameters (Python 2's integer `/` as
`//`), the debugging prints left out, and the last step's fin, rho and u returned."""
import numpy as np
import numpy.linalg as la


def lbm_2d(nx=104, ny=36, iterations=20):
    re = 220.0
    ly = ny - 1.0
    q = 9
    cx, cy, r = nx // 4, ny // 2, ny // 9
    ulb = 0.04
    nulb = ulb * r / re
    omega = 1.0 / (3.0 * nulb + 0.5)

    c = np.array([(x, y) for x in [0, -1, 1] for y in [0, -1, 1]])
    t = 1.0 / 36.0 * np.ones(q)
    t[np.asarray([la.norm(ci) for ci in c]) < 1.1] = 1.0 / 9.0
    t[0] = 4.0 / 9.0
    noslip = [c.tolist().index((-c[i]).tolist()) for i in range(q)]
    i1 = np.arange(q)[np.asarray([ci[0] < 0 for ci in c])]
    i2 = np.arange(q)[np.asarray([ci[0] == 0 for ci in c])]
    i3 = np.arange(q)[np.asarray([ci[0] > 0 for ci in c])]

    def sumpop(fin):
        return np.sum(fin, axis=0)

    def equilibrium(rho, u):
        cu = 3.0 * np.dot(c, u.transpose(1, 0, 2))
        usqr = 3.0 / 2.0 * (u[0] ** 2 + u[1] ** 2)
        feq = np.zeros((q, nx, ny))
        for i in range(q):
            feq[i, :, :] = rho * t[i] * (1.0 + cu[i] + 0.5 * cu[i] ** 2 - usqr)
        return feq

    obstacle = np.fromfunction(lambda x, y: (x - cx) ** 2 + (y - cy) ** 2 < r**2, (nx, ny))
    vel = np.fromfunction(lambda d, x, y: (1 - d) * ulb * (1.0 + 1e-4 * np.sin(y / ly * 2 * np.pi)), (2, nx, ny))
    feq = equilibrium(1.0, vel)
    fin = feq.copy()
    for _ in range(iterations):
        fin[i1, -1, :] = fin[i1, -2, :]
        rho = sumpop(fin)
        u = np.dot(c.transpose(), fin.transpose((1, 0, 2))) / rho
        u[:, 0, :] = vel[:, 0, :]
        rho[0, :] = 1.0 / (1.0 - u[0, 0, :]) * (sumpop(fin[i2, 0, :]) + 2.0 * sumpop(fin[i1, 0, :]))
        feq = equilibrium(rho, u)
        fin[i3, 0, :] = fin[i1, 0, :] + feq[i3, 0, :] - fin[i1, 0, :]
        fout = fin - omega * (fin - feq)
        for i in range(q):
            fout[i, obstacle] = fin[noslip[i], obstacle]
        for i in range(q):
            fin[i, :, :] = np.roll(np.roll(fout[i, :, :], c[i, 0], axis=0), c[i, 1], axis=1)
    return fin, rho, u
