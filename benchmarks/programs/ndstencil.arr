# N-dimensional dense stencil (bh107/benchpress at c16e8ec,
# benchmarks/ndstencil/python_numpy/ndstencil.py), for D = 3 dimensions: a world of
# 2^size core elements split over the D axes (create_shape: axis k gets
# 2^(size_left // dims_left) + 2 elements), its edge held at 255.0 and its core starting at
# 0.0; each of `iterations` steps replaces the core by the sum of the 3^D views of the world
# shifted by -1, 0, +1 along every axis (itertools.product order: first axis outermost),
# times 1 / 3^D.
# Deviations from the original:
# * The original works for any rank D, given at run time: it builds the world with
#   `np.empty(shape)` of a list of D sizes and the 3^D views as `world[tuple(s)]` of tuples of
#   slices. arrayc's ranks are static and it has no indexing by a tuple of slices built at run
#   time (docs/language.md, "Rank-generic functions"), and `...` reaches only the leading or
#   trailing axes, so this port fixes D = 3 (the readme's largest example, --size=25*10*3) and
#   writes the 27 views out, in the product's order; the shape is still computed by
#   create_shape's loop.
# * Python's builtin `sum(stencil)` of the list of views is their sum left to right (from 0,
#   which changes nothing); `w[:] = w.dtype.type(edge_v)` is `world[...] = 255.0`.
# Result: the world after `iterations` steps.
fn ndstencil(size: i64 = 12, iterations: i64 = 10) -> f64[?, ?, ?] {
    # create_shape(3, size)
    let shape = zeros(3, dtype=i64);
    let dims = 3;
    let left = size;
    for k in range(3) {
        let ds = left // dims;
        shape[k] = 2 ** ds + 2;
        dims -= 1;
        left -= ds;
    }
    # create_world(shape, 0.0, 255.0)
    let world = empty(shape[0], shape[1], shape[2]);
    world[...] = 255.0;
    world[1:-1, 1:-1, 1:-1] = 0.0;
    # solve(stencil, world, iterations)
    let fac = 1.0 / 27.0;
    let center = world[1:-1, 1:-1, 1:-1];
    for it in range(iterations) {
        center[:] = (
            world[:-2, :-2, :-2] + world[:-2, :-2, 1:-1] + world[:-2, :-2, 2:] +
            world[:-2, 1:-1, :-2] + world[:-2, 1:-1, 1:-1] + world[:-2, 1:-1, 2:] +
            world[:-2, 2:, :-2] + world[:-2, 2:, 1:-1] + world[:-2, 2:, 2:] +
            world[1:-1, :-2, :-2] + world[1:-1, :-2, 1:-1] + world[1:-1, :-2, 2:] +
            world[1:-1, 1:-1, :-2] + world[1:-1, 1:-1, 1:-1] + world[1:-1, 1:-1, 2:] +
            world[1:-1, 2:, :-2] + world[1:-1, 2:, 1:-1] + world[1:-1, 2:, 2:] +
            world[2:, :-2, :-2] + world[2:, :-2, 1:-1] + world[2:, :-2, 2:] +
            world[2:, 1:-1, :-2] + world[2:, 1:-1, 1:-1] + world[2:, 1:-1, 2:] +
            world[2:, 2:, :-2] + world[2:, 2:, 1:-1] + world[2:, 2:, 2:]) * fac;
    }
    return world;
}
