# European payer swaptions in the LIBOR market model (bh107/benchpress at c16e8ec,
# benchmarks/lmm_swaption_vec/python_numpy/lmm_swaption_vec.py: Leif Andersen, "A simple
# approach to the pricing of Bermudan swaptions in the multifactor LIBOR market model", J.
# Comput. Finance 1999, Table 1): for 16 swaptions (start dates Ts and end dates Te, volatility
# lamb per series), n antithetic pairs of paths of the forward rates are simulated
# (Andreasen-style drift mu, step delta = 0.5, flat initial curve 0.06); each swaption's payoff
# 1 - zcb[-1] - theta * delta * sum(zcb[1:]) (strike theta = 0.06) is discounted by the spot
# measure B_Ts and its mean and standard error, in basis points, appended as a column.
# Deviations from the original:
# * `np.random.normal(loc=0.0, scale=1.0, size=(rows, N))`, one stream for all swaptions, is
#   `normal(rows, n, seed=seed + k)` for the k-th swaption (another generator).
# * Ts_all, a list of lists of different lengths (arrayc arrays are rectangular), is one flat
#   array of start dates `ts_all` with the first index of each series in `first`; the loops
#   over the series and their start dates are kept.
# * `mu`, a closure reading `lamb` and `delta`, is a function taking them as arguments;
#   `np.zeros(tmp.shape)` is `zeros(K - 1, P)`.
# * `np.append(swaptions, [[a], [b]], axis=1)` is `concatenate((swaptions, [[a], [b]]), axis=1)`
#   (arrayc's append takes 1-d arrays only; np.append with an axis is this concatenate);
#   `np.average(x)` is `mean(x)`; `len(a)` of the time and maturity grids is `len(a)`.
# * The original's dead `F_kN_new = np.ones(...)`, overwritten on the next line, is left out.
# Result: swaptions, 2 x 17 (a first column of zeros, then price and standard error per swaption).
fn mu(f: f64[K, P], lamb: f64, delta: f64) -> f64[K - 1, P] {
    let tmp = lamb * (delta * f[1:, :]) / (1.0 + delta * f[1:, :]);   # Andreasen style
    let m = zeros(K - 1, P);
    m[0, :] += tmp[0, :];
    for i in range(m.shape[0] - 1) {
        m[i + 1, :] = m[i, :] + tmp[i + 1, :];
    }
    return m;
}

fn lmm_swaption_vec(n: i64 = 1000, seed: i64 = 1) -> f64[2, ?] {
    let delta = 0.5;
    let f_0 = 0.06;
    let theta = 0.06;
    let ts_all = [1, 2, 3, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18];   # start dates
    let first = [0, 3, 6, 11, 16];                  # series i: ts_all[first[i]:first[i+1]]
    let te_all = [4, 5, 10, 20];                    # end dates
    let lamb_all = [0.2, 0.2, 0.15, 0.1];
    let swaptions = zeros(2, 1);
    for i in range(len(te_all)) {
        let te = te_all[i];
        let lamb = lamb_all[i];
        for k in range(first[i], first[i + 1]) {
            let ts = ts_all[k];
            let time_structure = arange(0, f64(ts) + delta, delta);
            let maturity_structure = arange(0, te, delta);
            # model; variance reduction by antithetic variates
            let eps_tmp = normal(len(time_structure) - 1, n, seed=seed + k, loc=0.0, scale=1.0);
            let eps = concatenate((eps_tmp, -eps_tmp), axis=1);
            # forward LIBOR rates for the spot measure
            let f_kk = zeros(len(time_structure), 2 * n);
            f_kk[0, :] += f_0;
            # the plane of simulated LIBOR rates, one maturity fewer per time step
            let f_kn = ones(len(maturity_structure), 2 * n) * f_0;
            for t in range(1, len(time_structure), 1) {
                let f_kn_new = f_kn[1:, :] * exp(lamb * mu(f_kn, lamb, delta) * delta - 0.5 * lamb * lamb * delta + lamb * eps[t - 1, :] * sqrt(delta));
                f_kk[t, :] = f_kn_new[0, :];
                f_kn = f_kn_new;
            }
            # product: zero coupon bonds
            let zcb = ones(i64(f64(te - ts) / delta) + 1, 2 * n);
            for j in range(len(zcb) - 1) {
                zcb[j + 1, :] = zcb[j, :] / (1.0 + delta * f_kn[j, :]);
            }
            # swaption price at maturity
            let swap_ts = maximum(1.0 - zcb[-1, :] - theta * delta * sum(zcb[1:, :], axis=0), 0);
            # spot measure used for discounting
            let b_ts = ones(2 * n);
            for j in range(i64(f64(ts) / delta)) {
                b_ts *= (1.0 + delta * f_kk[j, :]);
            }
            # swaption price at time 0: expected value and standard error in bps
            let swaption = swap_ts / b_ts;
            swaptions = concatenate((swaptions,
                [[mean((swaption[0:n] + swaption[n:]) / 2.0) * 10000.0],
                 [std((swaption[0:n] + swaption[n:]) / 2.0) / sqrt(f64(n)) * 10000.0]]), axis=1);
        }
    }
    return swaptions;
}
