# 2-D lattice Boltzmann (D2Q9, BGK) flow around a cylinder (bh107/benchpress at c16e8ec,
# benchmarks/lbm_2d/python_numpy/lbm_2d.py, FlowKit's port of Palabos' cylinder example):
# an nx x ny channel (the original: 520 x 180, 200 steps) with a cylinder of radius ny // 9
# at (nx // 4, ny // 2), Reynolds number 220 and inlet velocity 0.04 with a small sine
# perturbation. Each step: outflow on the right wall (copy of the previous column for the
# populations going left), density and velocity, a Zou/He inlet on the left wall,
# equilibrium, BGK collision, bounce-back in the cylinder and streaming by np.roll.
# Deviations from the NumPy spelling:
# * The module-level constants nx, ny, maxIter are parameters; Python 2's integer `/`
#   (nx/4, ny/2, ny/9) is `//`.
# * The list comprehensions that build c (velocities), the norm test for the weights t and
#   noslip (`c.tolist().index(...)`, the opposite direction) are an array literal, the same
#   test `sqrt(cx**2 + cy**2) < 1.1` (la.norm), and a loop taking the first match with argmax;
#   i1, i2, i3 are the same filters of arange(q).
# * `np.dot(c, u.transpose(1,0,2))` and `np.dot(c.transpose(), fin.transpose((1,0,2)))`, dot of
#   a matrix with a 3-d array (arrayc's dot takes 1-d and 2-d operands), are the matrix
#   products with the lattice flattened, `reshape(c @ reshape(u, (2, nx * ny)), (q, nx, ny))`.
# * `np.fromfunction(f, shape)` is f of the index grids (f64, as fromfunction's), broadcast
#   into an array of the shape.
# * `equilibrium(1.0, vel)`, the first call with a scalar density, is called with an array of
#   1.0 (the same values: 1.0 * t[i]).
# * `fout[i, obstacle] = fin[noslip[i], obstacle]` (a boolean mask beside an integer index is
#   E0409) writes through the view: `fout[i][obstacle] = fin[noslip[i]][obstacle]`.
# * np.sum(x, axis=0) (sumpop) is sum(x, axis=0).
# Results: the populations fin after the last step, and that step's density and velocity.
fn equilibrium(rho: f64[NX, NY], u: f64[2, NX, NY], c: i64[9, 2], t: f64[9]) -> f64[9, NX, NY] {
    let cu = 3.0 * reshape(c @ reshape(u, (2, NX * NY)), (9, NX, NY));
    let usqr = 3.0 / 2.0 * (u[0] ** 2 + u[1] ** 2);
    let feq = zeros(9, NX, NY);
    for i in range(9) {
        feq[i, :, :] = rho * t[i] * (1.0 + cu[i] + 0.5 * cu[i] ** 2 - usqr);
    }
    return feq;
}

fn lbm_2d(nx: i64 = 104, ny: i64 = 36, iterations: i64 = 20) -> (f64[9, nx, ny], f64[nx, ny], f64[2, nx, ny]) {
    # flow definition
    let re = 220.0;
    let ly = f64(ny) - 1.0;
    let q = 9;
    let cx = nx // 4;
    let cy = ny // 2;
    let r = ny // 9;
    let ulb = 0.04;
    let nulb = ulb * f64(r) / re;
    let omega = 1.0 / (3.0 * nulb + 0.5);
    # lattice constants
    let c = [[0, 0], [0, -1], [0, 1], [-1, 0], [-1, -1], [-1, 1], [1, 0], [1, -1], [1, 1]];
    let t = 1.0 / 36.0 * ones(q);
    t[sqrt(f64(c[:, 0] ** 2 + c[:, 1] ** 2)) < 1.1] = 1.0 / 9.0;
    t[0] = 4.0 / 9.0;
    let noslip = zeros(q, dtype=i64);
    for i in range(q) {
        noslip[i] = argmax(c[:, 0] == -c[i, 0] & c[:, 1] == -c[i, 1]);
    }
    let i1 = arange(q)[c[:, 0] < 0];
    let i2 = arange(q)[c[:, 0] == 0];
    let i3 = arange(q)[c[:, 0] > 0];
    # set-up: cylindrical obstacle and velocity inlet with perturbation
    let x = f64(arange(nx))[:, newaxis];
    let y = f64(arange(ny));
    let obstacle = (x - f64(cx)) ** 2 + (y - f64(cy)) ** 2 < f64(r ** 2);
    let d = f64(arange(2))[:, newaxis, newaxis];
    let vel = zeros(2, nx, ny);
    vel[...] = (1.0 - d) * ulb * (1.0 + 1e-4 * sin(y / ly * 2.0 * pi));
    let feq = equilibrium(full(nx, ny, 1.0), vel, c, t);
    let fin = copy(feq);
    let rho = zeros(nx, ny);
    let u = zeros(2, nx, ny);
    # main time loop
    for time in range(iterations) {
        fin[i1, -1, :] = fin[i1, -2, :];          # right wall: outflow condition
        rho = sum(fin, axis=0);                   # macroscopic density and velocity
        u = reshape(c.T @ reshape(fin, (q, nx * ny)), (2, nx, ny)) / rho;
        u[:, 0, :] = vel[:, 0, :];                # left wall: density from known populations
        rho[0, :] = 1.0 / (1.0 - u[0, 0, :]) * (sum(fin[i2, 0, :], axis=0) + 2.0 * sum(fin[i1, 0, :], axis=0));
        feq = equilibrium(rho, u, c, t);          # left wall: Zou/He boundary condition
        fin[i3, 0, :] = fin[i1, 0, :] + feq[i3, 0, :] - fin[i1, 0, :];
        let fout = fin - omega * (fin - feq);     # collision step
        for i in range(q) {
            fout[i][obstacle] = fin[noslip[i]][obstacle];
        }
        for i in range(q) {                       # streaming step
            fin[i, :, :] = roll(roll(fout[i, :, :], c[i, 0], axis=0), c[i, 1], axis=1);
        }
    }
    return (fin, rho, u);
}
