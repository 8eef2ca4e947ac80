# NBody Nice: a few heavy planets and many massless asteroids (Benchpress "NBody Nice").
# Planets attract each other and the asteroids; asteroids attract nothing, so the work is
# planets x planets plus planets x asteroids pairs instead of all pairs.
# Units with G = 1. Initial state (fixed seeds derived from `seed`):
#   planet positions uniform in [-1, 1)^3, velocities uniform in [-0.1, 0.1)^3,
#   masses uniform in [0.5, 1.5) / planets (total mass about 1);
#   asteroid positions uniform in [-2, 2)^3, at rest.
# Positions and velocities are stored as [3, k] arrays (rows x, y, z).
# Each of the `steps` steps (symplectic Euler, time step dt):
#   pair differences with broadcasting, d[i, j] = x_j - x_i for planets i, j and
#   e[i, k] = x_i - a_k for planet i and asteroid k; softened distances
#   r2 = dx^2 + dy^2 + dz^2 + eps2, weights m / (r2 sqrt(r2));
#   accelerations are sums over the planets (axis 1 of the planets x planets array,
#   axis 0 of the planets x asteroids array). A planet's own term has d = 0 and adds
#   exactly nothing (the softening keeps r2 > 0), so no diagonal mask is needed.
#   Velocities are kicked by dt * acceleration, then positions drift by dt * velocity.
# Results: planet positions and velocities f64[3, planets], asteroid positions and
# velocities f64[3, n].
fn nbody_nice(n: i64 = 1000, planets: i64 = 10, steps: i64 = 10, seed: i64 = 3) -> (f64[3, planets], f64[3, planets], f64[3, n], f64[3, n]) {
    let dt = 0.001;
    let eps2 = 0.01;
    let pp = random(3, planets, seed=seed) * 2.0 - 1.0;
    let pv = (random(3, planets, seed=seed + 1) - 0.5) * 0.2;
    let pm = (random(planets, seed=seed + 2) + 0.5) / f64(planets);
    let ap = random(3, n, seed=seed + 3) * 4.0 - 2.0;
    let av = zeros(3, n);
    let px = pp[0];
    let py = pp[1];
    let pz = pp[2];
    let ax = ap[0];
    let ay = ap[1];
    let az = ap[2];
    for s in 0..steps {
        # planets on planets: [i, j] = x_j - x_i
        let dx = px[newaxis, :] - px[:, newaxis];
        let dy = py[newaxis, :] - py[:, newaxis];
        let dz = pz[newaxis, :] - pz[:, newaxis];
        let r2 = dx * dx + dy * dy + dz * dz + eps2;
        let w = pm[newaxis, :] / (r2 * sqrt(r2));
        pv[0] += dt * sum(w * dx, axis=1);
        pv[1] += dt * sum(w * dy, axis=1);
        pv[2] += dt * sum(w * dz, axis=1);
        # planets on asteroids: [i, k] = x_i - a_k
        let ex = px[:, newaxis] - ax[newaxis, :];
        let ey = py[:, newaxis] - ay[newaxis, :];
        let ez = pz[:, newaxis] - az[newaxis, :];
        let q2 = ex * ex + ey * ey + ez * ez + eps2;
        let wa = pm[:, newaxis] / (q2 * sqrt(q2));
        av[0] += dt * sum(wa * ex, axis=0);
        av[1] += dt * sum(wa * ey, axis=0);
        av[2] += dt * sum(wa * ez, axis=0);
        # drift (the planets' new positions are used from the next step on)
        pp += dt * pv;
        ap += dt * av;
    }
    return (pp, pv, ap, av);
}
