"""Copies between overlapping views of one array (docs/language.md): the value is read completely
before the target is written, under every partition algorithm, on the CPU and the emulated GPU.

NumPy does this for views of two or more axes and for 1-d views with strides of opposite signs
(it copies the source first), and for 1-d views with equal strides (it copies in the safe
direction), which are compared with NumPy as they are. For 1-d views with strides of the same sign
that differ, NumPy copies in place and reads elements it has already written (`a[0:5:2] = a[0:3]`
gives `a[4]` the new `a[2]`; found by the differential generator, seed 95611), so those cases are
compared with NumPy on a copy of the source.
"""
import os

import numpy as np
import pytest

from arrayc_examples import ALGORITHMS, TARGETS, run_source

OVERLAPS = """
fn main(x: f64[12], m: f64[4, 6]) -> (f64[12], f64[12], f64[12], f64[12], f64[4, 6]) {
    let a = x + 0.0;
    a[0:5:2] = a[0:3];
    let b = x + 0.0;
    b[1:7] = b[0:12:2];
    let c = x + 0.0;
    c[1:] = c[:-1];
    let d = x + 0.0;
    d[::-1] = d;
    let e = m + 0.0;
    e[:, 0:6:2] = e[:, 0:3];
    return (a, b, c, d, e);
}
"""


@pytest.mark.parametrize("algo", ALGORITHMS)
@pytest.mark.parametrize("target", TARGETS)
def test_a_copy_between_overlapping_views_reads_the_source_first(algo, target, tmp_path):
    rng = np.random.default_rng(95611)
    x, m = rng.standard_normal(12), rng.standard_normal((4, 6))
    env = dict(os.environ, ARRAYC_GPU_EMULATION_GRID="2,3,32")
    proc, res = run_source(OVERLAPS, {"x": x, "m": m}, tmp_path, flags=("--fuse", algo, "--target", target), env=env)
    assert proc.returncode == 0, proc.stderr
    a = x.copy()
    a[0:5:2] = a[0:3].copy()  # NumPy in place would read its own writes here (module docs)
    b = x.copy()
    b[1:7] = b[0:12:2].copy()  # likewise
    c = x.copy()
    c[1:] = c[:-1]
    d = x.copy()
    d[::-1] = d
    e = m.copy()
    e[:, 0:6:2] = e[:, 0:3]
    for got, want in zip(res, [a, b, c, d, e]):
        np.testing.assert_array_equal(got, want)


def test_numpy_reads_its_own_writes_in_a_strided_one_d_copy():
    """The NumPy behaviour the module docs describe, so that the copies above stay justified: if a
    later NumPy reads the source first here too, this fails and they can go."""
    a = np.arange(5.0)
    a[0:5:2] = a[0:3]
    assert a[4] == 1.0  # the new a[2]; reading the source first gives 2.0
