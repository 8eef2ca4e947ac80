"""NumPy's everyday idioms of issue 31, eighth set: `np.apply_along_axis` of a lambda or of a
program's function (`grammar/src/apply_along_axis.rs`), and small whole programs that grow lists,
read names after their loops and update lists of arrays in place, against NumPy on the CPU and on
the GPU kernels (emulated, and the GPU where there is one)."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, assert_results_close, python_ref, run_fails, run_ok

M = np.random.default_rng(81).standard_normal((5, 4))


@pytest.mark.parametrize("target", TARGETS)
def test_apply_along_axis_of_a_function(target, tmp_path):
    """A lambda (inline or bound), a program's function; scalar and vector results; axis 0, 1, -1,
    -2: NumPy's shapes, `(a,)`, `(a, L)`, `(b,)`, `(L, b)`."""
    src = """fn spread(r: f64[k]) -> f64 {
    return r.max() - r.min();
}
fn main(m: f64[a, b]) -> (f64[?], f64[?], f64[?], f64[?, ?], f64[?, ?], f64[?]) {
    g = lambda c: np.sort(c)[-2:];
    return (np.apply_along_axis(lambda r: r.max() - r.min(), 1, m),
            np.apply_along_axis(spread, 0, m),
            np.apply_along_axis(lambda r: (r ** 2).sum() if r[0] > 0 else -1.0, -1, m),
            np.apply_along_axis(g, 0, m),
            np.apply_along_axis(g, -1, m),
            np.apply_along_axis(np.median, -2, m));
}
"""
    g = lambda c: np.sort(c)[-2:]
    want = [np.apply_along_axis(lambda r: r.max() - r.min(), 1, M),
            np.apply_along_axis(lambda r: r.max() - r.min(), 0, M),
            np.apply_along_axis(lambda r: (r ** 2).sum() if r[0] > 0 else -1.0, -1, M),
            np.apply_along_axis(g, 0, M), np.apply_along_axis(g, -1, M), np.apply_along_axis(np.median, -2, M)]
    for i, (got, w) in enumerate(zip(run_ok(src, {"m": M}, tmp_path, target), want)):
        assert got.dtype == w.dtype and got.shape == w.shape, f"result {i}"
        np.testing.assert_allclose(got, w, rtol=1e-14, err_msg=f"result {i}")


def test_apply_along_axis_of_a_function_needs_a_2d_array(tmp_path):
    """Of another rank, a run-time error naming the line (never a slice of the wrong rank)."""
    src = "fn main(x: f64[a, b, c]) -> f64[?] {\n    return np.apply_along_axis(lambda r: r.sum(), 1, x).ravel();\n}\n"
    run_fails(src, {"x": np.ones((2, 3, 4))}, tmp_path, "prog.arr:2:12: error: AssertionError: ValueError: arrayc's "
              "`apply_along_axis` of a function takes a 2-d array")


RNG = np.random.default_rng(21)
X = RNG.standard_normal((40, 3))
y = (X @ np.array([1.0, -2.0, 0.5]) + 0.3 * RNG.standard_normal(40) > 0).astype(np.float64)
rng = RNG
PROGRAMS = [
("mlp_train", """fn sigmoid(z: f64[...]) -> f64[...] {
    return 1.0 / (1.0 + np.exp(-z));
}
fn main(X: f64[n, d], y: f64[n]) -> (f64[?], f64[d, 4], f64[4], f64[4]) {
    W1 = np.ones((d, 4)) * 0.1;
    b1 = np.zeros(4);
    w2 = np.linspace(-0.5, 0.5, 4);
    params = [W1, b1, w2];
    history = [];
    for epoch in range(25) {
        h = np.tanh(X @ W1 + b1);
        p = sigmoid(h @ w2);
        loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12));
        history.append(loss);
        dz = (p - y) / n;
        gw2 = h.T @ dz;
        dh = np.outer(dz, w2) * (1 - h ** 2);
        gW1 = X.T @ dh;
        gb1 = dh.sum(axis=0);
        grads = [gW1, gb1, gw2];
        for param, grad in zip(params, grads) {
            param -= 0.5 * grad;
        }
    }
    return (np.array(history), W1, b1, w2);
}
""", """
def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))
def ref(X, y):
    n, d = X.shape
    W1 = np.ones((d, 4)) * 0.1
    b1 = np.zeros(4)
    w2 = np.linspace(-0.5, 0.5, 4)
    params = [W1, b1, w2]
    history = []
    for epoch in range(25):
        h = np.tanh(X @ W1 + b1)
        p = sigmoid(h @ w2)
        loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
        history.append(loss)
        dz = (p - y) / n
        gw2 = h.T @ dz
        dh = np.outer(dz, w2) * (1 - h ** 2)
        gW1 = X.T @ dh
        gb1 = dh.sum(axis=0)
        grads = [gW1, gb1, gw2]
        for param, grad in zip(params, grads):
            param -= 0.5 * grad
    return np.array(history), W1, b1, w2
""", dict(X=X, y=y)),
("kmeans_history", """fn main(P: f64[n, 2]) -> (f64[?, ?, ?], i64, f64[?]) {
    C = P[:3].copy();
    centers = [C.copy()];
    shifts = [];
    for it in range(50) {
        d = ((P[:, None, :] - C[None, :, :]) ** 2).sum(axis=2);
        lab = d.argmin(axis=1);
        newC = np.array([P[lab == k].mean(axis=0) for k in range(3)]);
        shift = np.abs(newC - C).max();
        shifts.append(shift);
        C = newC;
        centers.append(C.copy());
        if shift < 1e-10 {
            break;
        }
    }
    return (np.array(centers), it, np.array(shifts));
}
""", """
def ref(P):
    C = P[:3].copy()
    centers = [C.copy()]
    shifts = []
    for it in range(50):
        d = ((P[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
        lab = d.argmin(axis=1)
        newC = np.array([P[lab == k].mean(axis=0) for k in range(3)])
        shift = np.abs(newC - C).max()
        shifts.append(shift)
        C = newC
        centers.append(C.copy())
        if shift < 1e-10:
            break
    return np.array(centers), it, np.array(shifts)
""", dict(P=np.concatenate([rng.standard_normal((10, 2)) + c for c in ([0, 0], [5, 5], [0, 6])]))),
("nbody_energy", """fn main(pos: f64[n, 3], vel: f64[n, 3]) -> (f64[?], f64[n, 3]) {
    energies = [];
    dt = 0.01;
    for step in range(20) {
        diff = pos[None, :, :] - pos[:, None, :];
        r2 = (diff ** 2).sum(-1) + 0.01;
        inv = r2 ** -1.5;
        np.fill_diagonal(inv, 0.0);
        acc = (diff * inv[:, :, None]).sum(axis=1);
        vel += dt * acc;
        pos += dt * vel;
        ke = 0.5 * (vel ** 2).sum();
        pe = -np.triu(1.0 / np.sqrt(r2), 1).sum();
        energies.append(ke + pe);
    }
    return (np.array(energies), pos);
}
""", """
def ref(pos, vel):
    energies = []
    dt = 0.01
    for step in range(20):
        diff = pos[None, :, :] - pos[:, None, :]
        r2 = (diff ** 2).sum(-1) + 0.01
        inv = r2 ** -1.5
        np.fill_diagonal(inv, 0.0)
        acc = (diff * inv[:, :, None]).sum(axis=1)
        vel += dt * acc
        pos += dt * vel
        ke = 0.5 * (vel ** 2).sum()
        pe = -np.triu(1.0 / np.sqrt(r2), 1).sum()
        energies.append(ke + pe)
    return np.array(energies), pos
""", dict(pos=rng.standard_normal((8, 3)), vel=np.zeros((8, 3)))),
("gauss_seidel_conv", """fn main(A: f64[n, n], b: f64[n]) -> (f64[n], i64, f64[?]) {
    x = np.zeros(n);
    res = [];
    for k in range(200) {
        for i in range(n) {
            s = A[i] @ x - A[i, i] * x[i];
            x[i] = (b[i] - s) / A[i, i];
        }
        r = np.linalg.norm(A @ x - b);
        res.append(r);
        if r < 1e-10 {
            break;
        }
    }
    return (x, k, np.array(res));
}
""", """
def ref(A, b):
    n = len(b)
    x = np.zeros(n)
    res = []
    for k in range(200):
        for i in range(n):
            s = A[i] @ x - A[i, i] * x[i]
            x[i] = (b[i] - s) / A[i, i]
        r = np.linalg.norm(A @ x - b)
        res.append(r)
        if r < 1e-10:
            break
    return x, k, np.array(res)
""", dict(A=np.eye(6) * 4 + rng.random((6, 6)) * 0.5, b=rng.standard_normal(6))),
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p[0])
def test_small_programs(program, target, tmp_path):
    """Whole programs as NumPy users write them: a training loop updating a list of parameters
    through `zip` with a loss history, k-means keeping every center and stopping early, an n-body
    energy history, Gauss-Seidel with its residuals."""
    name, src, py, inputs = program
    assert_results_close(run_ok(src, inputs, tmp_path, target), python_ref(py, inputs), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("target", TARGETS)
def test_vectorize_branch_with_a_literal_of_the_same_dtype(target, tmp_path):
    """`np.vectorize(lambda t: t * t if t > 0 else 0.0)` of a `float64` array: both branches are
    `float64` as NumPy's scalars, so NumPy's dtype does not depend on the data; of an `int64`
    array it would (`int64` or `float64`): E0215."""
    x = np.random.default_rng(82).standard_normal(9)
    src = ("fn main(x: f64[n]) -> f64[n] {\n    f = np.vectorize(lambda t: t * t if t > 0 else 0.0);\n"
           "    return f(x);\n}\n")
    want = np.vectorize(lambda t: t * t if t > 0 else 0.0)(x)
    got = run_ok(src, {"x": x}, tmp_path, target)[0]
    assert got.dtype == want.dtype and np.array_equal(got, want)
    assert_check_error(src.replace("f64[n]", "i64[n]"), "E0215", "depends on the data (`int64` or `float64`)",
                       tmp_path)
