# X-ray simulation: bh107/benchpress (master), benchpress/benchmarks/xraysim/python_numpy/
# (xraysim.py, xraysimgeometry.py, xraysimphysics.py, scene_objects.py, material.py; by Mads
# Thoudahl), "X-ray sim" (size <screen-res>*<detector-res>*<iterations>). The "snake" scene: a
# cube of scene_res^3 voxels, each of one material (blood, polyethylene, bone, soft tissue boxes),
# lit by a point source of 0.080 MeV X-rays and seen by a detector of detector_res^2 pixels. For
# every ray (source to pixel) and voxel, the length of the ray inside the voxel (axis-aligned
# box intersection, a 4-d array of voxels x rays); the attenuation along a ray is the sum of
# those lengths times the voxels' attenuation coefficients, and a pixel detects the source's
# intensity over the squared distance times the pixel area it faces times exp(-attenuation).
# The result is the detector image of the last of `iterations` simulations.
# Deviations from the original's spelling:
# - material.py reads NIST tables (materials/*/*.csv: mu/rho per energy, density) and
#   interpolates mu linearly (Material.getMu); the source's energy, 0.080 MeV, is a table point
#   of every material, so mu is density * mu/rho there. Those 16 values (vacuum, 6 elements, 9
#   biotic materials) are literals below (density * mu/rho, the tables' numbers); the reference
#   keeps the tables' points and the interpolation.
# - Python lists of objects and definitions (the scene, source, detector, the objects' corners
#   and materials) are array literals, `for obj in objlist` is a range over them, and
#   `for material_id in materials.keys()` a range over the literal of ids (arrayc's `for` runs
#   over ranges only; it has no lists or dicts). Only the cube shape and absolute coordinates,
#   which the snake scene uses, are written (addobjtoscene's other branches are not reached).
# - addAAcube's `x0, y0, z0 = mincorner.astype(np.int64)` (unpacking an array) is one `let` per
#   element; `sshp[0]` (the scene's shape) is the size `X`.
# - `np.fromfunction(pcfun, shape=dshape)` is the expression of `pcfun` on the float index
#   grids `f64(arange(r2))[:, newaxis]`, `f64(arange(r1))[newaxis, :]` (no fromfunction, no
#   function values).
# - `np.ones(unitrays.shape) / unitrays` is `ones(raycount, 3) / unitrays`; `x.reshape(a, b)`
#   is `reshape(x, (a, b))`; `source[power]` is `source[3]`.
# - `for source in sourcelist` and `for ... in detectors` (one source, one detector) are the
#   one source and detector; `ret` (a list of one detector image) is that image.

# addAAcube with Reference.absolute: the corners in scene coordinates, converted to voxel
# indices (x_r: floor((x - x0) / dx)), then the box filled with `material`
fn add_aa_cube(matscene: f64[X, Y, Z], mincorner: f64[3], maxcorner: f64[3], material: f64,
               s0: f64[3], s1: f64[3], sr: f64[3]) {
    let dx = 1.0 * (s1 - s0) / sr;
    let rel_mincorner = floor((mincorner - s0) / dx);
    let rel_maxcorner = floor((maxcorner - s0) / dx);
    let lo = i64(rel_mincorner);
    let hi = i64(rel_maxcorner);
    let x0 = lo[0];
    let y0 = lo[1];
    let z0 = lo[2];
    let x1 = hi[0];
    let y1 = hi[1];
    let z1 = hi[2];
    x0 = x0 if x0 < X else X;
    y0 = y0 if y0 < Y else Y;
    z0 = z0 if z0 < Z else Z;
    x1 = x1 if x1 < X else X;
    y1 = y1 if y1 < Y else Y;
    z1 = z1 if z1 < Z else Z;
    x0 = x0 if x0 >= 0 else 0;
    y0 = y0 if y0 >= 0 else 0;
    z0 = z0 if z0 >= 0 else 0;
    x1 = x1 if x1 >= 0 else 0;
    y1 = y1 if y1 >= 0 else 0;
    z1 = z1 if z1 >= 0 else 0;
    matscene[x0:x1, y0:y1, z0:z1] = material;
}

# The original's own `fmin`/`fmax` (arithmetic selections, not NumPy's NaN-ignoring ufuncs): they
# shadow arrayc's builtins of those names, as a Python function shadows NumPy's.
fn fmin(a: f64[...], b: f64[...]) -> f64[...] {
    return a * (a <= b) + b * (b < a);
}

fn fmax(a: f64[...], b: f64[...]) -> f64[...] {
    return a * (a >= b) + b * (b > a);
}

fn xraysim(source: f64[5], c0: f64[3], c1: f64[3], c2: f64[3], r1: i64, r2: i64,
           gx: f64[P, Q, R], gy: f64[P, Q, R], gz: f64[P, Q, R], scenematerials: f64[X, Y, Z],
           material_ids: f64[M], material_mus: f64[M]) -> f64[r2, r1] {
    let invsqr = 1.0 / (pi * 4.0);

    # detectorgeometry: pixel centres, shape (r2, r1, 3), and the pixel area vector
    let di = (c1 - c0) * (1.0 / r1);
    let dj = (c2 - c0) * (1.0 / r2);
    let j = f64(arange(r2))[:, newaxis];
    let i = f64(arange(r1))[newaxis, :];
    let pxs = c0[0] + (i + 0.5) * di[0] + (j + 0.5) * dj[0];
    let pys = c0[1] + (i + 0.5) * di[1] + (j + 0.5) * dj[1];
    let pzs = c0[2] + (i + 0.5) * di[2] + (j + 0.5) * dj[2];
    let pixelpositions = array(dstack((pxs, pys, pzs)));
    let pixelareavector = array(cross(di, dj));
    let result = zeros(r2, r1);

    # the scene's attenuation coefficients at the source's energy
    let sceneattenuates = zeros(X, Y, Z);
    for m in range(M) {
        sceneattenuates += (scenematerials == material_ids[m]) * material_mus[m];
    }

    # raygeometry: unit ray directions from the source to every pixel, lengths, inverses
    let raycount = r2 * r1;
    let origin = [source[0], source[1], source[2]];
    let rays = reshape(pixelpositions, (raycount, 3))[:, 0:3] - origin;
    let raylengths = reshape(sqrt(sum(rays * rays, axis=1)), (raycount, 1));
    let rayudirs = rays / raylengths;
    let rayinverse = ones(raycount, 3) / rayudirs;

    # runAABB: the distance every ray travels in every voxel, shape (X, Y, Z, raycount)
    let txs0 = (gx[:-1, :-1, :-1, newaxis] - origin[0]) * rayinverse[:, 0];
    let txs1 = (gx[1:, 1:, 1:, newaxis] - origin[0]) * rayinverse[:, 0];
    let tys0 = (gy[:-1, :-1, :-1, newaxis] - origin[1]) * rayinverse[:, 1];
    let tys1 = (gy[1:, 1:, 1:, newaxis] - origin[1]) * rayinverse[:, 1];
    let tzs0 = (gz[:-1, :-1, :-1, newaxis] - origin[2]) * rayinverse[:, 2];
    let tzs1 = (gz[1:, 1:, 1:, newaxis] - origin[2]) * rayinverse[:, 2];
    let t_in = fmax(fmin(txs0, txs1), fmax(fmin(tys0, tys1), fmin(tzs0, tzs1)));
    let t_out = fmin(fmax(txs0, txs1), fmin(fmax(tys0, tys1), fmax(tzs0, tzs1)));
    let raydst = (t_out - t_in) * (t_out >= t_in);

    # the attenuation along every ray, and what each pixel detects
    let t = sceneattenuates[..., newaxis] * raydst;
    let tsum = sum(t, axis=(0, 1, 2));
    let dtectattenuates = reshape(tsum, (r2, r1));
    let pixelintensity = reshape((invsqr * source[3] * ones(raycount)[..., newaxis]) / raylengths, (r2, r1));
    let area = reshape(dot(rayudirs, reshape(pixelareavector, (3, 1))), (r2, r1));
    result += pixelintensity * area * exp(-dtectattenuates);
    return result;
}

fn xraysim_snake(scene_res: i64 = 10, detector_res: i64 = 10, iterations: i64 = 1)
    -> f64[detector_res, detector_res] {
    # scene_objects.snake: the source (position, relative power, energy in MeV), the scene (its
    # corners and resolution), the detector (three corners, two resolutions) and 8 boxes
    let source = [0.5, 0.5, 0.0, 1.0, 0.080];
    let s0 = [0.2, 0.2, 1.2];
    let s1 = [0.8, 0.8, 1.8];
    let sr = [f64(scene_res), f64(scene_res), f64(scene_res)];
    let c0 = [0.0, 0.0, 2.0];
    let c1 = [0.0, 1.0, 2.0];
    let c2 = [1.0, 0.0, 2.0];
    let mincorners = [[0.2, 0.2, 1.2], [0.70, 0.25, 1.25], [0.3, 0.25, 1.25], [0.25, 0.25, 1.25],
                      [0.25, 0.25, 1.65], [0.30, 0.65, 1.65], [0.45, 0.4, 1.30], [0.45, 0.35, 1.30]];
    let maxcorners = [[0.8, 0.8, 1.5], [0.75, 0.75, 1.35], [0.7, 0.35, 1.35], [0.30, 0.35, 1.75],
                      [0.30, 0.75, 1.75], [0.45, 0.75, 1.75], [0.55, 0.5, 1.65], [0.55, 0.55, 1.65]];
    # Material ids: blood 802, polyethylene 851, bone 803, soft tissue 806
    let objmaterials = [802.0, 851.0, 803.0, 851.0, 803.0, 851.0, 803.0, 806.0];

    # Material.initAll: vacuum (mu 0), the elements H, C, Al, Ti, Fe, Au and the biotic materials
    # air, blood, bone, brain, muscle, tissue, oak cam, oak, polyethylene; mu at 0.080 MeV is
    # the table's density times mu/rho (g/cm3 times cm2/g; the elements' densities as tabulated)
    let material_ids = [0.0, 1.0, 6.0, 13.0, 22.0, 26.0, 79.0,
                        801.0, 802.0, 803.0, 804.0, 805.0, 806.0, 821.0, 822.0, 851.0];
    let material_mus = [0.0, 0.3091 * 0.00008375, 0.161 * 1700.0, 0.2018 * 2699.0,
                        0.4052 * 4540.0, 0.5952 * 7874.0, 2.185 * 19320.0,
                        0.1662 * 0.001205, 0.1827 * 1.06, 0.2229 * 1.92, 0.1831 * 1.04,
                        0.1823 * 1.05, 0.1823 * 1.06, 0.1823 * 1.86, 0.1823 * 0.93,
                        0.1823 * 0.93];

    # buildscene: the grid's coordinates (coordsAAscene) and the voxels' materials
    let (gx, gy, gz) = meshgrid(linspace(s0[0], s1[0], scene_res + 1),
                                linspace(s0[1], s1[1], scene_res + 1),
                                linspace(s0[2], s1[2], scene_res + 1));
    let scenematerials = zeros(scene_res, scene_res, scene_res);
    for o in range(8) {
        add_aa_cube(scenematerials, mincorners[o], maxcorners[o], objmaterials[o], s0, s1, sr);
    }

    let detector_results = zeros(detector_res, detector_res);
    for it in range(iterations) {
        detector_results = xraysim(source, c0, c1, c2, detector_res, detector_res, gx, gy, gz,
                                   scenematerials, material_ids, material_mus);
    }
    return detector_results;
}
