# NBody (Benchpress `nbody`): n bodies under mutual Newtonian gravity, all pairs, explicit Euler steps,
# in units with G = 1.
# Bodies start at rest at random positions in the unit cube, with random masses in [0.5, 1.5).
# Each step: dx[i, j] = x[j] - x[i] comes from x - x[newaxis, :].T (and dy, dz alike), r is the
# distance, and F[i, j] = m_i m_j / r^3 * dx[i, j] is the force of body j on body i. The diagonal
# (i = j, where r = 0 and F is 0/0) is set to 0 through the diagonal view. F is antisymmetric, so
# the force on body j is minus sum(F, axis=0)[j]; velocities and positions are updated with time
# step dt.
# Results: positions x, y, z and velocities vx, vy, vz, each f64[n].
fn nbody(n: i64 = 100, steps: i64 = 10, seed: i64 = 1) -> (f64[n], f64[n], f64[n], f64[n], f64[n], f64[n]) {
    let dt = 0.001;
    let x = random(n, seed=seed);
    let y = random(n, seed=seed + 1);
    let z = random(n, seed=seed + 2);
    let m = random(n, seed=seed + 3) + 0.5;
    let vx = zeros(n);
    let vy = zeros(n);
    let vz = zeros(n);
    let pm = m * m[newaxis, :].T;
    for s in 0..steps {
        let dx = x - x[newaxis, :].T;
        let dy = y - y[newaxis, :].T;
        let dz = z - z[newaxis, :].T;
        let r = (dx * dx + dy * dy + dz * dz) ** 0.5;
        let f = pm / (r * r * r);
        let fx = f * dx;
        let fy = f * dy;
        let fz = f * dz;
        let dfx = diagonal(fx);
        dfx[:] = 0.0;
        let dfy = diagonal(fy);
        dfy[:] = 0.0;
        let dfz = diagonal(fz);
        dfz[:] = 0.0;
        vx -= sum(fx, axis=0) * dt / m;
        vy -= sum(fy, axis=0) * dt / m;
        vz -= sum(fz, axis=0) * dt / m;
        x += vx * dt;
        y += vy * dt;
        z += vz * dt;
    }
    return (x, y, z, vx, vy, vz);
}
