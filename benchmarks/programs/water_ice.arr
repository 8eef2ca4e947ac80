# Water-ice simulation: temperature and salinity of a sheet of sea ice (Benchpress
# "Water-Ice Simulation"; this model is written from that description).
# The ice is nl layers deep (axis 0; layer 0 is the surface, layer nl-1 touches the ocean)
# and nw columns wide (axis 1). t is the temperature (deg C), s the bulk salinity (psu).
# Depth z runs from 0 (surface) to 1 (bottom). Initial state (seeds derived from `seed`):
#   t = -15 + 13.2 z + 0.5 (u - 0.5)  (a linear profile from -15 to -1.8, u uniform)
#   s = 4 + 6 z + 2 u'                (saltier towards the bottom)
#   cover = 0.6 + 0.4 u''             (per column: the share of the air temperature that
#                                      reaches the ice surface through the snow)
# The bottom layer stays at the ocean's freezing point, -1.8.
# Step i (of `steps`; `year` steps make one year, season = (i mod year) / year):
#   * seasonal forcing: in winter (season < 0.5) the air is at -20 - 15 sin(2 pi season)
#     and there is no sun; in summer the air is at -5 + 4 sin(2 pi (season - 0.5)) and
#     the sun heats the ice with 0.05 sin(2 pi (season - 0.5)), absorbed with depth as
#     exp(-z / 0.1) (Beer-Lambert);
#   * freezing point of the brine (UNESCO 1983 formula, surface pressure):
#     tf = -0.0575 s + 1.710523e-3 s**1.5 - 2.154996e-4 s^2;
#   * surface temperature t[0] = minimum(air * cover, tf[0]);
#   * relative thermal conductivity (Untersteiner 1961), at least 0.2:
#     k = maximum(1 - 0.0576 s / (|t| + 0.01), 0.2), and relative heat capacity with the
#     latent heat of internal melting (Ono 1967): c = 1 + 8.6 s / (t^2 + 0.01);
#   * vertical diffusion of heat between neighbouring layers (offset views along axis 0):
#     face conductivities kf = (k[:-1] + k[1:]) / 2, fluxes kf (t[1:] - t[:-1]); the
#     interior layers gain (0.4 (flux[1:] - flux[:-1]) + solar absorption) / c, and
#     cannot get warmer than their freezing point (minimum with tf). The surface is
#     already at most tf[0], and the bottom's -1.8 is below tf for s < 33;
#   * brine volume fraction of the new temperatures (Frankenstein and Garner 1967), at
#     most 1: phi = minimum(s (0.0532 + 4.919 / (|t| + 0.01)) 1e-2, 1);
#   * gravity drainage of brine where the brine network is connected (phi > 0.05, the
#     "rule of fives"), faster in colder ice: s -= 0.05 max(phi - 0.05, 0) |t|**0.5 s;
#   * hist[i] = the column-mean temperature.
# Results: t and s after the last step, f64[nl, nw]; hist, f64[steps, nw].
fn water_ice(nl: i64 = 32, nw: i64 = 1000, steps: i64 = 20, year: i64 = 20, seed: i64 = 5) -> (f64[nl, nw], f64[nl, nw], f64[steps, nw]) {
    let twopi = 6.283185307179586;
    let z = linspace(0.0, 1.0, nl)[:, newaxis];
    let t = -15.0 + 13.2 * z + 0.5 * (random(nl, nw, seed=seed) - 0.5);
    let s = 4.0 + 6.0 * z + 2.0 * random(nl, nw, seed=seed + 1);
    let cover = 0.6 + 0.4 * random(nw, seed=seed + 2);
    let absorb = exp(-z / 0.1);
    t[-1, :] = -1.8;
    let hist = zeros(steps, nw);
    for i in 0..steps {
        let season = f64(i % year) / f64(year);
        let air = 0.0;
        let solar = 0.0;
        if season < 0.5 {
            air = -20.0 - 15.0 * sin(twopi * season);
        } else {
            air = -5.0 + 4.0 * sin(twopi * (season - 0.5));
            solar = 0.05 * sin(twopi * (season - 0.5));
        }
        let tf = -0.0575 * s + 1.710523e-3 * s**1.5 - 2.154996e-4 * (s * s);
        t[0, :] = minimum(air * cover, tf[0]);
        let k = maximum(1.0 - 0.0576 * s / (abs(t) + 0.01), 0.2);
        let c = 1.0 + 8.6 * s / (t * t + 0.01);
        let kf = 0.5 * (k[:-1] + k[1:]);
        let flux = kf * (t[1:] - t[:-1]);
        t[1:-1] = minimum(t[1:-1] + (0.4 * (flux[1:] - flux[:-1]) + solar * absorb[1:-1]) / c[1:-1], tf[1:-1]);
        let phi = minimum(s * (0.0532 + 4.919 / (abs(t) + 0.01)) * 0.01, 1.0);
        s -= 0.05 * maximum(phi - 0.05, 0.0) * abs(t)**0.5 * s;
        hist[i, :] = mean(t, axis=0);
    }
    return (t, s, hist);
}
