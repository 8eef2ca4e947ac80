"""Python's f-strings and `print`'s `sep=` / `end=` (issue 31: a NumPy user's script prints with
them): every field's text compared with the same f-string run by Python on NumPy's scalars of the
same dtype (`np.float64`, `np.int64`, `np.float32`, `np.bool_`), on the CPU and on the emulated GPU
target; and the errors for what arrayc does not take."""
import numpy as np
import pytest

from arrayc_examples import TARGETS, assert_check_error, run_source

FLOATS = np.array([0.0, -0.0, 1.0, -1.5, 0.1, 2.5, 0.125, 123.456, 1234567.891, 9.9999995, 1e-5, -3.3e-7,
                   1.5e16, 1e300, np.nan, np.inf, -np.inf])
INTS = np.array([0, 7, -42, 255, 1234567, -(2 ** 40), 2 ** 62], dtype=np.int64)
F32S = np.array([0.1, 3.5, -2.75e-3], dtype=np.float32)
BOOLS = np.array([True, False])
FLOAT_SPECS = ["", ".3f", "10.2f", "<10.1f", "^12.3e", "+.2e", " g", ".4", ".0", ".1", "#g", ",.2f", "_.1f", "%",
               ".1%", "08.2f", "z.1f", "E", "G", "F", ".12g", "*>14,.2f", "=+10.1f", "#.0f", "#.0e", ".3g", "010,.1f",
               "e", "f", "g", "12", "-^9.2f"]
INT_SPECS = ["", "d", "5d", "<5d", "^7d", "+d", " d", "08d", ",d", "_d", "x", "#x", "X", "#X", "o", "#o", "b", "#b",
             "_b", "_x", ".2f", "e", "g", "%", "010,d", "+08d", "=8d", "*<6", ".3e"]


def _program(specs_f, specs_i):
    lines = ["fn main(xf: f64[A], xi: i64[B], xs: f32[C], xb: bool[D]) {"]
    for s in specs_f:
        lines.append(f'    for v in xf {{ print(f"[{{v:{s}}}]"); }}')
        lines.append(f'    for v in xs {{ print(f"[{{v:{s}}}]"); }}')
    for s in specs_i:
        lines.append(f'    for v in xi {{ print(f"[{{v:{s}}}]"); }}')
        lines.append(f'    for v in xb {{ print(f"[{{v:{s}}}]"); }}')
    lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("target", TARGETS)
def test_format_specs_match_python(target, tmp_path):
    """Each spec of Python's mini-language arrayc takes (fill, align, sign, `z`, `#`, `0`, width,
    grouping, precision, the float types `e E f F g G %` and none, the integer types `b d o x X`
    and none, floats' types on integers), on floats at the edges (signed zero, halfway cases,
    rounding up to a power of ten, tiny and huge, NaN, infinities), integers (negative, large),
    `f32` (formatted as the `f64` it converts to, as NumPy's `np.float32.__format__`) and bools."""
    src = _program(FLOAT_SPECS, INT_SPECS)
    inputs = {"xf": FLOATS, "xi": INTS, "xs": F32S, "xb": BOOLS}
    proc, _ = run_source(src, inputs, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = []
    for s in FLOAT_SPECS:
        want += [f"[{format(v, s)}]" for v in FLOATS]
        want += [f"[{format(v, s)}]" for v in F32S]
    for s in INT_SPECS:
        want += [f"[{format(v, s)}]" for v in INTS]
        want += [f"[{format(v, s)}]" for v in BOOLS]
    got = proc.stdout.splitlines()
    assert len(got) == len(want)
    bad = [(g, w) for g, w in zip(got, want) if g != w]
    assert not bad, bad[:20]


@pytest.mark.parametrize("target", TARGETS)
def test_print_fstrings_sep_end_and_escapes(target, tmp_path):
    """f-strings with several fields (expressions, calls, slices' reductions, arithmetic), text
    around them, `{{`/`}}`, the other quote inside, triple quotes, a raw `rf` string, an array field
    (NumPy's `str`), `f32` and bool fields without a spec; `print`'s `sep=` and `end=`, `print()`,
    backslash escapes in plain strings; every argument evaluated before anything is printed."""
    src = '''fn noisy(x: f64) -> f64 {
    print("inside", end=" ");
    return x * 2.0;
}

fn main(x: f64[N], k: i64, h: f32) {
    s = x.sum();
    print(f"sum = {s:.3f}, n = {len(x)}, mean of two = {x[1:3].mean():.4g}, k*2 = {k * 2}");
    print(f"{{literal}} {k:#x} '{s:>10.2e}' {noisy(x[0])}");
    print(f'x = {x}', f"{h}", f"{x[0] > 0.0}", f"{x[0] < 0.0:>5}", sep=" | ");
    print("a\\tb", "c\\nd", 'it\\'s', end="\\n--\\n");
    print();
    print(x[0], x[1], k, sep="", end=";\\n");
    print(f"""triple {k}""", rf"raw \\n {k}", f"");
    print(f"{s:.2f}", end="");
    print(" after", flush=True);
    print(f"{h!s}|{h!s:>6}|{x!s}|{x[0] > 0.0!s:^7}|", "%s/%-5s/%.2s" % (h, x[0] > 0.0, k), "{!s:*>5}".format(k));
}
'''
    x = np.array([1.5, -2.25, 3.125, 0.5])
    k, h = 42, np.float32(0.1)
    proc, _ = run_source(src, {"x": x, "k": k, "h": h}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr

    import contextlib
    import io

    def noisy(v):
        print("inside", end=" ")
        return v * 2.0

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        s = x.sum()
        print(f"sum = {s:.3f}, n = {len(x)}, mean of two = {x[1:3].mean():.4g}, k*2 = {k * 2}")
        print(f"{{literal}} {k:#x} '{s:>10.2e}' {noisy(x[0])}")
        print(f'x = {x}', f"{h}", f"{x[0] > 0.0}", f"{x[0] < 0.0:>5}", sep=" | ")
        print("a\tb", "c\nd", 'it\'s', end="\n--\n")
        print()
        print(x[0], x[1], k, sep="", end=";\n")
        print(f"""triple {k}""", rf"raw \n {k}", f"")
        print(f"{s:.2f}", end="")
        print(" after", flush=True)
        print(f"{h!s}|{h!s:>6}|{x!s}|{x[0] > 0.0!s:^7}|", "%s/%-5s/%.2s" % (h, x[0] > 0.0, k), "{!s:*>5}".format(k))
    assert proc.stdout == out.getvalue()


PERCENT_SPECS = ["%d", "%5d", "%-5d|", "%05d", "%+d", "% d", "%x", "%#X", "%o", "%.2f", "%8.3f", "%-8.1f|", "%+.2e",
                 "%E", "%g", "%.3g", "%#g", "%s", "%10s", "%-10s|", "%i", "%u"]
BRACE_SPECS = ["{}", "{:.2f}", "{:>8}", "{:+.3e}", "{0:^9.1f}", "{:,.2f}", "{:g}"]


@pytest.mark.parametrize("target", TARGETS)
def test_percent_and_format_method_match_python(target, tmp_path):
    """Python's printf-style `"fmt" % v` / `% (a, b)` (flags, width, precision, `d i u x X o e E f g G
    s` and `%%`; `%d` of a float truncates, as Python's) and `"fmt".format(args, key=v)` (automatic
    and manual numbering, a value used twice, keywords, `{{`), as `print` arguments, on floats,
    integers and f32; a shape printed (`print(x.shape)`, `f"{x.shape}"`, a name bound to it) as
    Python's tuple, against Python."""
    lines = ["fn main(xf: f64[A], xi: i64[B], xs: f32[C], m: f64[R, K], v: f64[A]) {"]
    for s in PERCENT_SPECS:
        for arr in ("xf", "xi", "xs"):
            if s in ("%x", "%#X", "%o") and arr != "xi":
                continue
            lines.append(f'    for t in {arr} {{ print("[{s}]" % t); }}')
    for s in BRACE_SPECS:
        for arr in ("xf", "xi", "xs"):
            lines.append(f'    for t in {arr} {{ print("[{s}]".format(t)); }}')
    lines += ['    print("%d of %d: %.2f%%" % (len(xi), xi[0], xf[1]), "{1}-{0}-{1} {k:>4}".format(xi[1], xf[0], k=xi[2]));',
              '    g = m.shape;',
              '    print(m.shape, v.shape, g, f"<{m.shape}|{g}>", "{}".format(g[1]));',
              '}']
    src = "\n".join(lines) + "\n"
    xf = np.array([1.5, -2.25, 3.7, 0.0, 1234.5678])
    xi = np.array([42, -7, 255, 0, 123456], dtype=np.int64)
    xs = np.array([0.1, -2.5], dtype=np.float32)
    m, v = np.zeros((4, 6)), np.zeros(5)
    proc, _ = run_source(src, {"xf": xf, "xi": xi, "xs": xs, "m": m, "v": v}, tmp_path, flags=("--target", target))
    assert proc.returncode == 0, proc.stderr
    want = []
    for s in PERCENT_SPECS:
        for arr in (xf, xi, xs):
            if s in ("%x", "%#X", "%o") and arr is not xi:
                continue
            want += [f"[{s}]" % t for t in arr]
    for s in BRACE_SPECS:
        for arr in (xf, xi, xs):
            want += [f"[{s}]".format(t) for t in arr]
    want.append("%d of %d: %.2f%%" % (len(xi), xi[0], xf[1]) + " " + "{1}-{0}-{1} {k:>4}".format(xi[1], xf[0], k=xi[2]))
    g = m.shape
    want.append(" ".join(map(str, [m.shape, v.shape, g, f"<{m.shape}|{g}>", "{}".format(g[1])])))
    got = proc.stdout.splitlines()
    assert len(got) == len(want)
    bad = [(g_, w) for g_, w in zip(got, want) if g_ != w]
    assert not bad, bad[:20]


@pytest.mark.parametrize("src, code, words", [
    ('fn f(s: f64) {\n    print(f"{s:d}");\n}\n', "E0325", "Unknown format code 'd' for object of type 'float'"),
    ('fn f(k: i64) {\n    print(f"{k:.2d}");\n}\n', "E0325", "Precision not allowed in integer format specifier"),
    ('fn f(k: i64) {\n    print(f"{k:,x}");\n}\n', "E0325", "Cannot specify ',' with 'x'."),
    ('fn f(x: f64[N]) {\n    print(f"{x:.2f}");\n}\n', "E0325", "numpy.ndarray.__format__"),
    ('fn f(k: i64) {\n    print(f"{k:c}");\n}\n', "E0325", "'c'"),
    ('fn f(k: i64) {\n    print(f"{k!r}");\n}\n', "E0119", "conversion `!r`"),
    ('fn f(k: i64) {\n    print(f"{k=}");\n}\n', "E0119", "self-documenting"),
    ('fn f(k: i64) {\n    print(f"{k:{k}}");\n}\n', "E0119", "inside a format spec"),
    ('fn f(k: i64) {\n    print(f"{k:abc}");\n}\n', "E0119", "Invalid format specifier 'abc'"),
    ('fn f(k: i64) {\n    print(f"a } b");\n}\n', "E0119", "single '}' is not allowed"),
    ('fn f(k: i64) {\n    print(f"a {k");\n}\n', "E0119", "expecting '}'"),
    ('fn f(k: i64) {\n    print(f"{}");\n}\n', "E0119", "empty expression"),
    ('fn f(k: i64) {\n    print(f"{k +}");\n}\n', "E0119", "not an arrayc expression"),
    ('fn f(k: i64) {\n    print(f"abc);\n}\n', "E0119", "unterminated"),
    ('fn f(k: i64) {\n    print(k, file=k);\n}\n', "E0119", "unexpected keyword argument 'file'"),
    ('fn f(k: i64) {\n    print(sep="", k);\n}\n', "E0119", "positional argument follows keyword argument"),
    ('fn f(k: i64) {\n    print(k, end=k);\n}\n', "E0119", "takes a literal"),
    ('fn f(k: i64) {\n    print(k, end="", end="");\n}\n', "E0119", "keyword argument repeated"),
    ('fn f(k: i64) -> i64 {\n    let t = f"{k}";\n    return k;\n}\n', "E0317", "an f-string is not a value"),
    ('fn f(k: i64) {\n    print("%d %d" % k);\n}\n', "E0119", "not enough arguments for format string"),
    ('fn f(k: i64) {\n    print("%d" % (k, k));\n}\n', "E0119", "not all arguments converted"),
    ('fn f(k: i64) {\n    print("%r" % k);\n}\n', "E0119", "`%r` is not in arrayc"),
    ('fn f(x: f64[N]) {\n    print("%d x" % x.shape);\n}\n', "E0119", "a shape on the right of `%`"),
    ('fn f(k: i64) {\n    print("{} {1}".format(k, k));\n}\n', "E0119", "cannot switch from automatic"),
    ('fn f(k: i64) {\n    print("{} {}".format(k));\n}\n', "E0119", "out of range"),
    ('fn f(k: i64) {\n    print("{!r}".format(k));\n}\n', "E0119", "is not in arrayc"),
    ('fn f(s: f64) {\n    print("{:d}".format(s));\n}\n', "E0325", "Unknown format code 'd'"),
])
def test_fstring_errors(src, code, words, tmp_path):
    """What arrayc does not take is an error with its code and Python's words where Python
    raises (ValueError, TypeError, SyntaxError texts), never a panic."""
    assert_check_error(src, code, words, tmp_path)
