"""X-ray sim: bh107/benchpress (master), benchpress/benchmarks/xraysim/python_numpy/ (Mads
Thoudahl); the "snake" scene of boxes of four materials X-rayed by a point source onto a detector,
ray-voxel intersections by axis-aligned boxes over a 4-d array of voxels x rays (issue 31)."""
import functools
import importlib.util
from pathlib import Path

import numpy as np

PROGRAM = "benchmarks/programs/xraysim.arr"
ENTRY = "xraysim_snake"
REFERENCE = "benchmarks/reference/xraysim.py"
# Benchpress's test size 10*10*1. (An odd detector_res puts a pixel straight under the source:
# its ray's inverse x direction is inf, and the original's fmin/fmax give NaN there, as arrayc's.)
SMALL = dict(scene_res=10, detector_res=10, iterations=1)
# 8000 voxels x 1024 rays: each 4-d temporary is 65 MB; NumPy 1.6 to 2.9 s per
# iteration on this (loaded, shared) machine.
LARGE = dict(scene_res=20, detector_res=32, iterations=1)
# the 4-d intersection (voxels x rays) is a few compares and multiplies per element, then a sum.
MEMORY_BOUND = True
RTOL = 1e-9
ATOL = 0.0


def _reference():
    path = Path(__file__).resolve().parents[2] / REFERENCE
    spec = importlib.util.spec_from_file_location("ref_xraysim", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def numexpr(scene_res, detector_res, iterations):
    """The reference's set-up and ray geometry in NumPy; the box intersections (runAABB) and the
    attenuation products in numexpr, the sum over the voxels in NumPy."""
    import numexpr as ne

    ref = _reference()
    sources, detectors, grid, scenematerials, materials, _ = ref.setup(scene_res, detector_res)
    source, ddef = sources[0], detectors[0]
    result = None
    for _ in range(iterations):
        pixelpositions, pixelareavector, dshape, result = ref.detectorgeometry(ddef)
        sceneattenuates = np.zeros(scenematerials.shape)
        for material_id in materials.keys():
            sceneattenuates += (scenematerials == material_id) * materials[material_id].getMu(source[4])
        o = source[0:3]
        rayudirs, raylengths, rayinverse = ref.raygeometry(o, pixelpositions)
        lo = [g[:-1, :-1, :-1, None] for g in grid]
        hi = [g[1:, 1:, 1:, None] for g in grid]
        inv = [rayinverse[:, k] for k in range(3)]
        t = [(ne.evaluate("(g - ok) * ik", dict(g=lo[k], ok=o[k], ik=inv[k])),
              ne.evaluate("(g - ok) * ik", dict(g=hi[k], ok=o[k], ik=inv[k]))) for k in range(3)]
        (x0, x1), (y0, y1), (z0, z1) = t
        t_in = ne.evaluate("where(x0 <= x1, x0, x1)")
        t_in = ne.evaluate("where(t_in >= where(y0 <= y1, y0, y1), t_in, where(y0 <= y1, y0, y1))")
        t_in = ne.evaluate("where(t_in >= where(z0 <= z1, z0, z1), t_in, where(z0 <= z1, z0, z1))")
        t_out = ne.evaluate("where(x0 >= x1, x0, x1)")
        t_out = ne.evaluate("where(t_out <= where(y0 >= y1, y0, y1), t_out, where(y0 >= y1, y0, y1))")
        t_out = ne.evaluate("where(t_out <= where(z0 >= z1, z0, z1), t_out, where(z0 >= z1, z0, z1))")
        a = sceneattenuates[..., None]
        att = np.sum(ne.evaluate("a * where(t_out >= t_in, t_out - t_in, 0.0)"), axis=(0, 1, 2))
        intensity = (ref.INVSQR * source[3] / raylengths).reshape(dshape)
        area = np.dot(rayudirs, pixelareavector.reshape(3, 1)).reshape(dshape)
        result += intensity * area * np.exp(-att.reshape(dshape))
    return (result,)


@functools.lru_cache(maxsize=None)
def _jitted():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    @jax.jit
    def detect(gx, gy, gz, sceneattenuates, origin, rayudirs, raylengths, rayinverse, area_vector, power):
        def box(g, k):
            return ((g[:-1, :-1, :-1, None] - origin[k]) * rayinverse[:, k],
                    (g[1:, 1:, 1:, None] - origin[k]) * rayinverse[:, k])

        (x0, x1), (y0, y1), (z0, z1) = box(gx, 0), box(gy, 1), box(gz, 2)
        t_in = jnp.maximum(jnp.minimum(x0, x1), jnp.maximum(jnp.minimum(y0, y1), jnp.minimum(z0, z1)))
        t_out = jnp.minimum(jnp.maximum(x0, x1), jnp.minimum(jnp.maximum(y0, y1), jnp.maximum(z0, z1)))
        raydst = jnp.where(t_out >= t_in, t_out - t_in, 0.0)
        att = jnp.sum(sceneattenuates[..., None] * raydst, axis=(0, 1, 2))
        intensity = 1.0 / (jnp.pi * 4) * power / raylengths[:, 0]
        return intensity * (rayudirs @ area_vector) * jnp.exp(-att)

    return detect


def jax(scene_res, detector_res, iterations):
    ref = _reference()
    sources, detectors, grid, scenematerials, materials, _ = ref.setup(scene_res, detector_res)
    source, ddef = sources[0], detectors[0]
    pixelpositions, area_vector, dshape, _ = ref.detectorgeometry(ddef)
    sceneattenuates = np.zeros(scenematerials.shape)
    for material_id in materials.keys():
        sceneattenuates += (scenematerials == material_id) * materials[material_id].getMu(source[4])
    origin = np.array(source[0:3])
    rayudirs, raylengths, rayinverse = ref.raygeometry(origin, pixelpositions)
    out = None
    for _ in range(iterations):
        out = _jitted()(*grid, sceneattenuates, origin, rayudirs, raylengths, rayinverse, area_vector,
                        float(source[3]))
    return (np.asarray(out).reshape(dshape),)
