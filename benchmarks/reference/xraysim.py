"""NumPy reference for benchmarks/programs/xraysim.arr: bh107/benchpress's xraysim
(benchpress/benchmarks/xraysim/python_numpy/: xraysim.py, xraysimgeometry.py, xraysimphysics.py,
scene_objects.py, material.py; by Mads Thoudahl) in Python 3 and NumPy 2, the "snake" scene, one
source and one detector, without the plots. Returns the detector image of the last iteration.

The Python-level part stays here: material.py's Material, which reads NIST tables of mu/rho
(cm2/g) per energy (MeV) and a density (g/cm3) from CSV files and interpolates mu linearly. Only
the tables' points at and after the source's energy, 0.080 MeV, are kept (`TABLES`), the numbers
of materials/*/*.csv; getMu below is the original's interpolation over them."""
import numpy as np


class Material:
    """A material of material.py: its table points (energies and mu = mu/rho * density)."""

    def __init__(self, density, energies, mu_rhos):
        self.rho = density
        self.Es = np.array(energies)
        self.mus = np.array(mu_rhos) * self.rho

    def getMu(self, energy):
        for i in range(len(self.Es) - 1)[::-1]:
            if energy - self.Es[i] >= 0:
                break
        return self.mus[i] + (energy - self.Es[i]) * (
            (self.mus[i + 1] - self.mus[i]) / (self.Es[i + 1] - self.Es[i]))


class Vacuum:
    def getMu(self, energy):
        return 0


# uid: (density, [energies], [mu/rho]) from the NIST tables of materials/elemental and
# materials/biotic (the points at 0.08 MeV and the next one)
TABLES = {
    1: (0.00008375, [0.08, 0.1], [0.3091, 0.2944]),  # hydrogen
    6: (1700, [0.08, 0.1], [0.161, 0.1514]),  # carbon
    13: (2699, [0.08, 0.1], [0.2018, 0.1704]),  # aluminium
    22: (4540, [0.08, 0.1], [0.4052, 0.2721]),  # titanium
    26: (7874, [0.08, 0.1], [0.5952, 0.3717]),  # iron
    79: (19320, [0.08, 0.0807249], [2.185, 2.137]),  # gold
    801: (0.001205, [0.08, 0.1], [0.1662, 0.1541]),  # air
    802: (1.06, [0.08, 0.1], [0.1827, 0.1695]),  # blood
    803: (1.92, [0.08, 0.1], [0.2229, 0.1855]),  # bone
    804: (1.04, [0.08, 0.1], [0.1831, 0.1701]),  # brain
    805: (1.05, [0.08, 0.1], [0.1823, 0.1693]),  # muscle
    806: (1.06, [0.08, 0.1], [0.1823, 0.1693]),  # soft tissue
    821: (1.86, [0.08, 0.1], [0.1823, 0.1719]),  # oak cam
    822: (0.93, [0.08, 0.1], [0.1823, 0.1719]),  # oak
    851: (0.93, [0.08, 0.1], [0.1823, 0.1719]),  # polyethylene
}

INVSQR = 1.0 / (np.pi * 4)


def init_materials():
    materials = {0: Vacuum()}
    materials.update({uid: Material(*t) for uid, t in TABLES.items()})
    return materials


def snake(scene_res, detector_res):
    """scene_objects.snake: source, detector, scene definitions, and (material, corners) boxes."""
    source = [0.5, 0.5, 0.0, 1, 0.080]
    scenedefs = [0.2, 0.2, 1.2, 0.8, 0.8, 1.8, scene_res, scene_res, scene_res]
    detector = [0.0, 0.0, 2.0, 0.0, 1.0, 2.0, 1.0, 0.0, 2.0, detector_res, detector_res]
    objects = [
        (802, [[0.2, 0.2, 1.2], [0.8, 0.8, 1.5]]),
        (851, [[0.70, 0.25, 1.25], [0.75, 0.75, 1.35]]),
        (803, [[0.3, 0.25, 1.25], [0.7, 0.35, 1.35]]),
        (851, [[0.25, 0.25, 1.25], [0.30, 0.35, 1.75]]),
        (803, [[0.25, 0.25, 1.65], [0.30, 0.75, 1.75]]),
        (851, [[0.30, 0.65, 1.65], [0.45, 0.75, 1.75]]),
        (803, [[0.45, 0.4, 1.30], [0.55, 0.5, 1.65]]),
        (806, [[0.45, 0.35, 1.30], [0.55, 0.55, 1.65]]),
    ]
    return source, detector, scenedefs, objects


def coordsAAscene(scenedefs):
    x0, y0, z0 = scenedefs[0:3]
    x1, y1, z1 = scenedefs[3:6]
    xres, yres, zres = scenedefs[6:9]
    return np.meshgrid(np.linspace(x0, x1, xres + 1), np.linspace(y0, y1, yres + 1),
                       np.linspace(z0, z1, zres + 1))


def addAAcube_relative(matscene, mincorner, maxcorner, material):
    x0, y0, z0 = mincorner.astype(np.int64)
    x1, y1, z1 = maxcorner.astype(np.int64)
    sshp = np.array(matscene.shape, dtype=int)
    x0 = x0 if x0 < sshp[0] else sshp[0]
    y0 = y0 if y0 < sshp[1] else sshp[1]
    z0 = z0 if z0 < sshp[2] else sshp[2]
    x1 = x1 if x1 < sshp[0] else sshp[0]
    y1 = y1 if y1 < sshp[1] else sshp[1]
    z1 = z1 if z1 < sshp[2] else sshp[2]
    x0 = x0 if x0 >= 0 else 0
    y0 = y0 if y0 >= 0 else 0
    z0 = z0 if z0 >= 0 else 0
    x1 = x1 if x1 >= 0 else 0
    y1 = y1 if y1 >= 0 else 0
    z1 = z1 if z1 >= 0 else 0
    matscene[x0:x1, y0:y1, z0:z1] = material


def addAAcube_absolute(scene, matscene, corners, material):
    def x_r(x, x0, x1, xr):
        dx = 1.0 * (x1 - x0) / xr
        return np.floor((x - x0) / dx)

    x0, x1, xr = np.array(scene[0:3]), np.array(scene[3:6]), np.array(scene[6:9])
    addAAcube_relative(matscene, x_r(np.array(corners[0]), x0, x1, xr),
                       x_r(np.array(corners[1]), x0, x1, xr), material)


def raygeometry(src, detpixpos):
    rayshp = detpixpos.shape
    raycount = rayshp[0] * rayshp[1]
    origin = np.array([src[0], src[1], src[2]])
    rays = detpixpos.reshape(raycount, 3)[:, 0:3] - origin
    raydistances = np.sqrt(np.sum(rays * rays, axis=1)).reshape(raycount, 1)
    unitrays = rays / raydistances
    rayinverses = np.ones(unitrays.shape) / unitrays
    return unitrays, raydistances, rayinverses


def detectorgeometry(ddef):
    c0 = np.array([ddef[0], ddef[1], ddef[2]])
    c1 = np.array([ddef[3], ddef[4], ddef[5]])
    c2 = np.array([ddef[6], ddef[7], ddef[8]])
    r1, r2 = ddef[9], ddef[10]
    dshape = (r2, r1)
    di = (c1 - c0) * (1.0 / r1)
    dj = (c2 - c0) * (1.0 / r2)

    def pcfun(j, i, k):
        return c0[k] + (i + 0.5) * di[k] + (j + 0.5) * dj[k]

    pxs = np.fromfunction(lambda j, i: pcfun(j, i, 0), shape=dshape)
    pys = np.fromfunction(lambda j, i: pcfun(j, i, 1), shape=dshape)
    pzs = np.fromfunction(lambda j, i: pcfun(j, i, 2), shape=dshape)
    pixelpositions = np.array(np.dstack((pxs, pys, pzs)))
    pixelareavector = np.array(np.cross(di, dj))
    return pixelpositions, pixelareavector, dshape, np.zeros(dshape)


def fmin(a, b):
    return a * (a <= b) + b * (b < a)


def fmax(a, b):
    return a * (a >= b) + b * (b > a)


def runAABB(scenegrid, rayudirs, rayorigin, rayinverse):
    txs0 = (scenegrid[0][:-1, :-1, :-1, np.newaxis] - rayorigin[0]) * rayinverse[:, 0]
    txs1 = (scenegrid[0][1:, 1:, 1:, np.newaxis] - rayorigin[0]) * rayinverse[:, 0]
    tys0 = (scenegrid[1][:-1, :-1, :-1, np.newaxis] - rayorigin[1]) * rayinverse[:, 1]
    tys1 = (scenegrid[1][1:, 1:, 1:, np.newaxis] - rayorigin[1]) * rayinverse[:, 1]
    tzs0 = (scenegrid[2][:-1, :-1, :-1, np.newaxis] - rayorigin[2]) * rayinverse[:, 2]
    tzs1 = (scenegrid[2][1:, 1:, 1:, np.newaxis] - rayorigin[2]) * rayinverse[:, 2]
    t_in = fmax(fmin(txs0, txs1), fmax(fmin(tys0, tys1), fmin(tzs0, tzs1)))
    t_out = fmin(fmax(txs0, txs1), fmin(fmax(tys0, tys1), fmax(tzs0, tzs1)))
    return (t_out - t_in) * (t_out >= t_in)


def simulate(sourcelist, detectordeflist, scenegrid, scenematerials, materials, detector_resolution):
    """xraysim.xraysim: the detector images of every source and detector."""
    power = 3
    detectors = [detectorgeometry(ddef) for ddef in detectordeflist]
    ret = []
    for source in sourcelist:
        sx, sy, sz, spower, senergy = source
        rayorigin = sx, sy, sz
        sceneattenuates = np.zeros(scenematerials.shape)
        for material_id in materials.keys():
            sceneattenuates += (scenematerials == material_id) * materials[material_id].getMu(senergy)
        ret = []
        for pixelpositions, pixelareavector, dshape, result in detectors:
            rayudirs, raylengths, rayinverse = raygeometry(rayorigin, pixelpositions)
            raydst = runAABB(scenegrid, rayudirs, rayorigin, rayinverse)
            t = sceneattenuates[..., np.newaxis] * raydst
            t = np.sum(t, axis=(0, 1, 2))
            dtectattenuates = t.reshape(detector_resolution, detector_resolution)
            pixelintensity = ((INVSQR * source[power] * np.ones(raylengths.shape[0])[..., np.newaxis])
                              / raylengths).reshape(dshape)
            area = np.dot(rayudirs, pixelareavector.reshape(3, 1)).reshape(dshape)
            result += pixelintensity * area * np.exp(-dtectattenuates)
            ret.append(result)
    return ret


def setup(scene_res, detector_res):
    source, detector, scenedefs, objects = snake(scene_res, detector_res)
    materials = init_materials()
    scenegrid = coordsAAscene(scenedefs)
    scenematerials = np.zeros(scenedefs[6:9])
    for material, corners in objects:
        addAAcube_absolute(scenedefs, scenematerials, corners, material)
    return [source], [detector], scenegrid, scenematerials, materials, detector_res


def xraysim_snake(scene_res=10, detector_res=10, iterations=1):
    scene = setup(scene_res, detector_res)
    detector_results = [np.zeros((detector_res, detector_res))]
    for _ in range(iterations):
        detector_results = simulate(*scene)
    return (detector_results[0],)
