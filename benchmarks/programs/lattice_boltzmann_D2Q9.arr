# Lattice Boltzmann D2Q9: bh107/benchpress (master), benchpress/benchmarks/lattice_boltzmann_D2Q9/
# python_numpy/lattice_boltzmann_D2Q9.py, "The Lattice Boltzmann Methods D2Q9" (size
# height*width*iterations; the method by Jonas Latt, 2006). Channel flow past a cylindrical
# obstacle: a Poiseuille inflow at the left (Zou/He velocity boundary), zero gradient at the
# right outlet, BGK collision with relaxation omega, bounce-back in the obstacle and on the
# channel walls, streaming along the nine lattice velocities with wrap-around. fIn[q, x, y] is
# the distribution of velocity (cx[q], cy[q]) on the width x height lattice; the result is fIn
# after `iterations` steps.
# Deviations from the original's spelling:
# - the `state` dict of `cylinder` is its tuple of results (fIn, omega, bbRegion, col); its
#   `viz_max`/`viz_min` (an extra `ux` computed only to scale the plot) are left out, as is
#   `bench.plot_surface`; `bench.do_while(loop_body, timesteps, fIn)` is a `for` loop.
# - `np.asarray(obst, dtype=np.bool)` is `obst` (already bool); `np.` is left out, as arrayc
#   writes every builtin (`empty_like(fOut[i])`).
# - the Python lists t, cx, cy, opp are array literals (`cx[i]` reads an element).

fn cylinder(height: i64, width: i64)
    -> (f64[9, width, height], f64, bool[width, height], i64[height - 2]) {
    let t = [4.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0];
    let u_max = 0.02;  # maximum velocity of the Poiseuille inflow
    let re = 100;      # Reynolds number
    let lx = width;
    let ly = height;
    let obst_x = lx / 5. + 1;  # position of the cylinder (exact
    let obst_y = ly / 2. + 0;  # y-symmetry is avoided)
    let obst_r = ly / 10. + 1; # radius of the cylinder

    let nu = u_max * 2. * obst_r / re;    # kinematic viscosity
    let omega = 1. / (3 * nu + 1. / 2.);  # relaxation parameter

    let col = arange(1, ly - 1);

    # the obstacle, and the channel walls
    let (y, x) = meshgrid(arange(ly), arange(lx));
    let obst = (x - obst_x) ** 2 + (y - obst_y) ** 2 <= obst_r ** 2;
    obst[:, 0] = obst[:, ly - 1] = 1;

    # initial condition: (rho = 0, u = 0) ==> fIn[i] = t[i]
    let t_3d = t[:, newaxis, newaxis];
    let f_in = array(repeat(repeat(t_3d, lx, axis=1), ly, axis=2));
    return (f_in, omega, obst, col);
}

fn solve(f_in: f64[9, LX, LY], omega: f64, bb_region: bool[LX, LY], col: i64[LY - 2], timesteps: i64) {
    let t = [4.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 9.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0, 1.0 / 36.0];
    let cx = [0, 1, 0, -1, 0, 1, -1, -1, 1];
    let cy = [0, 0, 1, 0, -1, 1, 1, -1, -1];
    let opp = [0, 3, 4, 1, 2, 7, 8, 5, 6];
    let u_max = 0.02;
    let ly = LY;
    let lx = LX;
    let cx_3d = cx[:, newaxis, newaxis];
    let cy_3d = cy[:, newaxis, newaxis];

    for step in range(timesteps) {
        # macroscopic variables
        let rho = sum(f_in, axis=0);
        let ux = sum(cx_3d * f_in, axis=0) / rho;
        let uy = sum(cy_3d * f_in, axis=0) / rho;

        # macroscopic (Dirichlet) boundary conditions
        # inlet: Poiseuille profile
        let l = ly - 2.0;
        let y = col - 0.5;
        ux[0, 1:ly - 1] = 4 * u_max / (l ** 2) * (y * l - y ** 2);
        uy[0, 1:ly - 1] = 0;

        let t1 = zeros(ly - 2);
        for i in [0, 2, 4] {
            t1 += f_in[i, 0, 1:ly - 1];
        }
        let t2 = zeros(ly - 2);
        for i in [3, 6, 7] {
            t2 += f_in[i, 0, 1:ly - 1];
        }
        t2 *= 2;

        rho[0, 1:ly - 1] = 1 / (1 - ux[0, 1:ly - 1]) * (t1 + t2);

        # outlet: zero gradient on rho and ux
        rho[lx - 1, 1:ly - 1] = 4.0 / 3 * rho[lx - 2, 1:ly - 1] - 1.0 / 3 * rho[lx - 3, 1:ly - 1];
        uy[lx - 1, 1:ly - 1] = 0;
        ux[lx - 1, 1:ly - 1] = 4.0 / 3 * ux[lx - 2, 1:ly - 1] - 1.0 / 3 * ux[lx - 3, 1:ly - 1];

        let f_eq = zeros(9, lx, ly);
        let f_out = zeros(9, lx, ly);
        for i in range(0, 9) {
            let cu = 3 * (cx[i] * ux + cy[i] * uy);
            f_eq[i] = rho * t[i] * (1 + cu + 0.5 * cu ** 2 - 1.5 * (ux ** 2 + uy ** 2));
            f_out[i] = f_in[i] - omega * (f_in[i] - f_eq[i]);
        }

        # microscopic boundary conditions
        for i in range(0, 9) {
            # left boundary
            f_out[i, 0, 1:ly - 1] = f_eq[i, 0, 1:ly - 1] + 18 * t[i] * cx[i] * cy[i] *
                (f_in[7, 0, 1:ly - 1] - f_in[6, 0, 1:ly - 1] - f_eq[7, 0, 1:ly - 1] + f_eq[6, 0, 1:ly - 1]);
            # right boundary
            f_out[i, lx - 1, 1:ly - 1] = f_eq[i, lx - 1, 1:ly - 1] + 18 * t[i] * cx[i] * cy[i] *
                (f_in[5, lx - 1, 1:ly - 1] - f_in[8, lx - 1, 1:ly - 1] -
                 f_eq[5, lx - 1, 1:ly - 1] + f_eq[8, lx - 1, 1:ly - 1]);
            # bounce back region, with an explicit mask
            let masked = copy(f_in[opp[i]]) * bb_region;
            f_out[i] = f_out[i] * ~bb_region + masked;
        }

        # streaming step: np.roll of fOut[i] by cx[i] along axis 0 and cy[i] along axis 1
        for i in range(0, 9) {
            if cx[i] == 1 {
                let t1 = empty_like(f_out[i]);
                t1[1:] = f_out[i][:-1];
                t1[0] = f_out[i][-1];
                f_out[i] = t1;
            } else if cx[i] == -1 {
                let t1 = empty_like(f_out[i]);
                t1[:-1] = f_out[i][1:];
                t1[-1] = f_out[i][0];
                f_out[i] = t1;
            }
            if cy[i] == 1 {
                let t1 = empty_like(f_out[i]);
                t1[:, 1:] = f_out[i][:, :-1];
                t1[:, 0] = f_out[i][:, -1];
                f_in[i] = t1;
            } else if cy[i] == -1 {
                let t1 = empty_like(f_out[i]);
                t1[:, :-1] = f_out[i][:, 1:];
                t1[:, -1] = f_out[i][:, 0];
                f_in[i] = t1;
            } else {
                f_in[i] = f_out[i];
            }
        }
    }
}

fn lattice_boltzmann_D2Q9(height: i64 = 50, width: i64 = 100, iterations: i64 = 10) -> f64[9, width, height] {
    let (f_in, omega, bb_region, col) = cylinder(height, width);
    solve(f_in, omega, bb_region, col, iterations);
    return f_in;
}
