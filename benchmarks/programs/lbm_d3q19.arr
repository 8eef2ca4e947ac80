# Lattice Boltzmann D3Q19 (BGK): flow through a periodic box around a sphere (Benchpress
# "Lattice Boltzmann D3Q19", written from its description).
# The lattice is nx x ny x nz, periodic in all three directions. F[q, x, y, z] is the
# distribution of lattice velocity c_q, q = 0..18:
#   q = 0: (0, 0, 0), weight 1/3;  q = 1..6: (+-1, 0, 0), (0, +-1, 0), (0, 0, +-1), 1/18;
#   q = 7..18: (+-1, +-1, 0) ..., 1/36, in the order below; q and q+1 are opposite for
#   every odd q, so opp(q) = q+1 for odd q, q-1 for even q > 0, opp(0) = 0.
#   cx = [0, 1,-1, 0, 0, 0, 0, 1,-1, 1,-1, 1,-1, 1,-1, 0, 0, 0, 0]
#   cy = [0, 0, 0, 1,-1, 0, 0, 1,-1,-1, 1, 0, 0, 0, 0, 1,-1, 1,-1]
#   cz = [0, 0, 0, 0, 0, 1,-1, 0, 0, 0, 0, 1,-1,-1, 1, 1,-1,-1, 1]
# The obstacle is a sphere of radius ny/4 centred at (nx/4, ny/2, nz/2) (mask: squared
# distance < radius^2 in cell coordinates). Initially rho = 1 + 0.02 (u - 0.5) (u
# uniform, `seed`), velocity (0.05, 0, 0) in the fluid and 0 in the sphere, and
# F = the equilibrium of that state.
# Each of the `iterations` steps:
#   * streaming: G[q] = F[q] shifted by c_q with wrap-around, i.e. G[q, x + cx, y + cy,
#     z + cz] = F[q, x, y, z]; per direction the shift is a, b, c = (c_q + n) % n along
#     the three axes and the copy is split into the 8 boxes [a:] / [:a] x [b:] / [:b] x
#     [c:] / [:c] (the boxes of a zero shift are empty);
#   * moments: rho = sum(G, axis=0), u = sum(G c, axis=0) / rho per component;
#   * collision with relaxation rate omega, feq_q = w_q rho (1 + 3 cu + 4.5 cu^2 - 1.5 u^2)
#     with cu = c_q . u, F[q] = G[q] + omega (feq_q - G[q]) in the fluid, and bounce-back
#     in the sphere: F[q] = G[opp(q)] there (where(mask, G[opp(q)], ...)).
# Results: F after the last step, and its density and velocity (rho, ux, uy, uz).
fn lbm_d3q19(nx: i64 = 32, ny: i64 = 16, nz: i64 = 16, iterations: i64 = 10, omega: f64 = 1.2, seed: i64 = 7) -> (f64[19, nx, ny, nz], f64[nx, ny, nz], f64[nx, ny, nz], f64[nx, ny, nz], f64[nx, ny, nz]) {
    # lattice velocities, weights and opposite directions
    let cx = zeros(19, dtype=i64);
    cx[1] = 1;
    cx[2] = -1;
    cx[7:15:2] = 1;
    cx[8:15:2] = -1;
    let cy = zeros(19, dtype=i64);
    cy[3] = 1;
    cy[4] = -1;
    cy[7] = 1;
    cy[8] = -1;
    cy[9] = -1;
    cy[10] = 1;
    cy[15:19:2] = 1;
    cy[16:19:2] = -1;
    let cz = zeros(19, dtype=i64);
    cz[5] = 1;
    cz[6] = -1;
    cz[11] = 1;
    cz[12] = -1;
    cz[13] = -1;
    cz[14] = 1;
    cz[15] = 1;
    cz[16] = -1;
    cz[17] = -1;
    cz[18] = 1;
    let w = full(19, 1.0 / 36.0);
    w[0] = 1.0 / 3.0;
    w[1:7] = 1.0 / 18.0;
    let opp = zeros(19, dtype=i64);
    opp[1::2] = arange(2, 19, 2);
    opp[2::2] = arange(1, 19, 2);
    # the same velocities as f64[19, 1, 1, 1] for the moments
    let ex = f64(cx)[:, newaxis, newaxis, newaxis];
    let ey = f64(cy)[:, newaxis, newaxis, newaxis];
    let ez = f64(cz)[:, newaxis, newaxis, newaxis];

    # the sphere
    let px = f64(arange(nx))[:, newaxis, newaxis] - 0.25 * f64(nx);
    let py = f64(arange(ny))[:, newaxis] - 0.5 * f64(ny);
    let pz = f64(arange(nz)) - 0.5 * f64(nz);
    let radius = 0.25 * f64(ny);
    let mask = px * px + py * py + pz * pz < radius * radius;

    # initial state: equilibrium
    let rho = 1.0 + 0.02 * (random(nx, ny, nz, seed=seed) - 0.5);
    let ux = where(mask, 0.0, 0.05);
    let usq = ux * ux;
    let F = empty(19, nx, ny, nz);
    for q in 0..19 {
        let sx = f64(cx[q]);
        let wq = w[q];
        let cu = sx * ux;
        F[q] = wq * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq);
    }

    let G = empty(19, nx, ny, nz);
    for it in 0..iterations {
        # streaming, periodic
        for q in 0..19 {
            let a = (cx[q] + nx) % nx;
            let b = (cy[q] + ny) % ny;
            let c = (cz[q] + nz) % nz;
            let f = F[q];
            let g = G[q];
            g[a:, b:, c:] = f[:nx - a, :ny - b, :nz - c];
            g[:a, b:, c:] = f[nx - a:, :ny - b, :nz - c];
            g[a:, :b, c:] = f[:nx - a, ny - b:, :nz - c];
            g[:a, :b, c:] = f[nx - a:, ny - b:, :nz - c];
            g[a:, b:, :c] = f[:nx - a, :ny - b, nz - c:];
            g[:a, b:, :c] = f[nx - a:, :ny - b, nz - c:];
            g[a:, :b, :c] = f[:nx - a, ny - b:, nz - c:];
            g[:a, :b, :c] = f[nx - a:, ny - b:, nz - c:];
        }
        # moments
        let rho = sum(G, axis=0);
        let ux = sum(G * ex, axis=0) / rho;
        let uy = sum(G * ey, axis=0) / rho;
        let uz = sum(G * ez, axis=0) / rho;
        let usq = ux * ux + uy * uy + uz * uz;
        # collision in the fluid, bounce-back in the sphere
        for q in 0..19 {
            # host reads first: each one waits for the device, so they would split the
            # fused kernel if they came between the array operations
            let sx = f64(cx[q]);
            let sy = f64(cy[q]);
            let sz = f64(cz[q]);
            let wq = w[q];
            let o = opp[q];
            let cu = sx * ux + sy * uy + sz * uz;
            let feq = wq * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq);
            F[q] = where(mask, G[o], G[q] + omega * (feq - G[q]));
        }
    }
    let rho = sum(F, axis=0);
    let ux = sum(F * ex, axis=0) / rho;
    let uy = sum(F * ey, axis=0) / rho;
    let uz = sum(F * ez, axis=0) / rho;
    return (F, rho, ux, uy, uz);
}
