//! Kernel back end: hand-built kernels compiled with the JIT and launched on views, checked against
//! plain Rust reference loops.

use arrayc_codegen::{jit, kernel_codegen};
use arrayc_core::abi::KernelAbi;
use arrayc_core::semantics::NEGATIVE_INT_POWER;
use arrayc_core::DType;
use arrayc_dialect::ir::{self, BinFn, ComputeFn, OpKind, ReduceKind, Scalar, Type, UnFn, ValueId};
use arrayc_runtime::array::View;
use arrayc_runtime::launch::{LaunchError, CHUNK_ELEMS, SPLIT_MAX_OUT};
use arrayc_runtime::value::{KernelLauncher, RtValue};

/// A new zero-filled array (`View::zeros`); the tests' sizes always fit in memory.
fn zeros(dtype: DType, shape: &[i64]) -> View {
    View::zeros(dtype, shape).expect("a test array fits in memory")
}

type OpSpec = (ComputeFn, usize, Vec<usize>);

/// A kernel with parameters of `params` types and body ops referring to parameters by position.
fn kernel(name: &str, params: &[Type], ops: &[OpSpec]) -> ir::Func {
    let mut f = ir::Func::new(name, true);
    for (i, &t) in params.iter().enumerate() {
        let v = f.new_value(t, None);
        f.params.push(v);
        f.param_names.push(format!("p{i}"));
        f.param_defaults.push(None);
    }
    for (func, out, ins) in ops {
        let p = |i: usize| f.params[i] as ValueId;
        let kind = OpKind::Compute { func: *func, out: p(*out), ins: ins.iter().map(|&i| p(i)).collect() };
        f.body.push(ir::Op { kind, loc: None, block: None });
    }
    f.body.push(ir::Op { kind: OpKind::Return { values: vec![] }, loc: None, block: None });
    f
}

fn module(funcs: Vec<ir::Func>) -> ir::Module {
    ir::Module { source_name: "test.arr".into(), funcs }
}

fn compile1(f: ir::Func) -> jit::JitKernels {
    let m = module(vec![f]);
    match jit::compile(&m, None) {
        Ok(k) => k,
        Err(e) => panic!("{e}\n--- MLIR ---\n{}", kernel_codegen::kernels_module_mlir(&m).unwrap()),
    }
}

fn arr(d: DType, r: usize) -> Type {
    Type::Array(d, r)
}
fn sc(d: DType) -> Type {
    Type::Scalar(d)
}

/// A contiguous view of `shape` with elements `data` (row-major, cast to `d`).
fn view(d: DType, shape: &[i64], data: &[Scalar]) -> View {
    let v = zeros(d, shape);
    assert_eq!(v.len() as usize, data.len());
    let mut i = 0;
    v.for_each_offset(|off| {
        v.write_at(off, data[i]);
        i += 1;
    });
    v
}
fn fview(shape: &[i64], data: &[f64]) -> View {
    view(DType::F64, shape, &data.iter().map(|&x| Scalar::F64(x)).collect::<Vec<_>>())
}
fn elems(v: &View) -> Vec<Scalar> {
    let mut out = vec![];
    v.for_each(|s| out.push(s));
    out
}
fn vals(n: usize, seed: u64) -> Vec<f64> {
    // Deterministic pseudo-random values in [-5, 5) with a few special ones.
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 11) as f64 / (1u64 << 53) as f64) * 10.0 - 5.0
        })
        .collect()
}
fn ivals(n: usize, seed: u64) -> Vec<i64> {
    vals(n, seed).into_iter().map(|x| (x * 3.0).round() as i64).collect()
}
fn rv(v: &View) -> RtValue {
    RtValue::View(v.clone())
}
fn rs(s: Scalar) -> RtValue {
    RtValue::Scalar(s)
}

fn same_f64(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}
fn assert_close(got: &[Scalar], want: &[Scalar], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = match (g, w) {
            (Scalar::F64(a), Scalar::F64(b)) => same_f64(*a, *b),
            (Scalar::F32(a), Scalar::F32(b)) => {
                same_f64(*a as f64, *b as f64) || (a - b).abs() <= 1e-6 * a.abs().max(b.abs())
            }
            _ => g == w,
        };
        assert!(ok, "{what}: element {i}: got {g:?}, want {w:?}");
    }
}

// ---------------------------------------------------------------- reference semantics

fn np_rem_i(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        r + b
    } else {
        r
    }
}
/// Python's `a // b` on integers (exact, in i128), with NumPy's results where Python raises or
/// overflows: 0 for `b == 0`, wrapping for `i64::MIN // -1`.
fn np_floor_div_i(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    (a as i128).div_euclid(b as i128) as i64 - i64::from(b < 0 && (a as i128).rem_euclid(b as i128) != 0)
}
/// Python's `a // b` on floats for the finite operands of these tests (`(a - a % b) / b`, which is
/// an integer there), and `a / b` for `b == 0` (NumPy's `inf`/NaN).
fn np_floor_div_f(a: f64, b: f64) -> f64 {
    if b == 0.0 || a.is_nan() {
        return a / b;
    }
    let q = ((a - np_rem_f(a, b)) / b).round();
    if q == 0.0 {
        0.0f64.copysign(a / b)
    } else {
        q
    }
}
fn np_rem_f(a: f64, b: f64) -> f64 {
    let r = a % b;
    if r != 0.0 && ((r < 0.0) != (b < 0.0)) {
        r + b
    } else {
        r
    }
}
fn ipow(a: i64, b: i64) -> i64 {
    assert!(b >= 0, "NumPy raises for a negative integer exponent");
    let mut r = 1i64;
    for _ in 0..b {
        r = r.wrapping_mul(a);
    }
    r
}
fn fmin_nan(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}
fn fmax_nan(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

fn ref_bin_f64(op: BinFn, a: f64, b: f64) -> Scalar {
    use BinFn::*;
    match op {
        Add => Scalar::F64(a + b),
        Sub => Scalar::F64(a - b),
        Mul => Scalar::F64(a * b),
        Div => Scalar::F64(a / b),
        Rem => Scalar::F64(np_rem_f(a, b)),
        Pow => Scalar::F64(a.powf(b)),
        Minimum => Scalar::F64(fmin_nan(a, b)),
        Maximum => Scalar::F64(fmax_nan(a, b)),
        Eq => Scalar::Bool(a == b),
        Ne => Scalar::Bool(a != b),
        Lt => Scalar::Bool(a < b),
        Le => Scalar::Bool(a <= b),
        Gt => Scalar::Bool(a > b),
        Ge => Scalar::Bool(a >= b),
        Arctan2 => Scalar::F64(a.atan2(b)),
        Copysign => Scalar::F64(a.copysign(b)),
        FloorDiv => Scalar::F64(np_floor_div_f(a, b)),
        And | Or | Xor | Shl | Shr => unreachable!("not defined on floats"),
    }
}
fn ref_bin_i64(op: BinFn, a: i64, b: i64) -> Scalar {
    use BinFn::*;
    match op {
        Add => Scalar::I64(a.wrapping_add(b)),
        Sub => Scalar::I64(a.wrapping_sub(b)),
        Mul => Scalar::I64(a.wrapping_mul(b)),
        Rem => Scalar::I64(np_rem_i(a, b)),
        Pow => Scalar::I64(ipow(a, b)),
        Minimum => Scalar::I64(a.min(b)),
        Maximum => Scalar::I64(a.max(b)),
        Eq => Scalar::Bool(a == b),
        Ne => Scalar::Bool(a != b),
        Lt => Scalar::Bool(a < b),
        Le => Scalar::Bool(a <= b),
        Gt => Scalar::Bool(a > b),
        Ge => Scalar::Bool(a >= b),
        FloorDiv => Scalar::I64(np_floor_div_i(a, b)),
        And => Scalar::I64(a & b),
        Or => Scalar::I64(a | b),
        Xor => Scalar::I64(a ^ b),
        Shl => Scalar::I64(if (0..64).contains(&b) { a << b } else { 0 }),
        Shr => Scalar::I64(if (0..64).contains(&b) { a >> b } else { -i64::from(a < 0) }),
        Div | Arctan2 | Copysign => unreachable!("computed in a float"),
    }
}

/// The binary functions on floats: every one but the bitwise `&`, `|`, `^`, `<<`, `>>`.
fn fbin() -> Vec<BinFn> {
    BinFn::ALL.into_iter().filter(|op| !matches!(op, BinFn::And | BinFn::Or) && !op.is_bitwise()).collect()
}

// ---------------------------------------------------------------- tests

#[test]
fn f64_binary_all_ops_2d() {
    let shape = [7i64, 9];
    let n = 63;
    let mut a = vals(n, 1);
    let mut b = vals(n, 2);
    a[3] = f64::NAN;
    b[5] = 0.0;
    a[6] = -0.0;
    b[7] = 2.0;
    a[7] = -3.0;
    let (va, vb) = (fview(&shape, &a), fview(&shape, &b));
    let funcs: Vec<ir::Func> = fbin()
        .into_iter()
        .map(|op| {
            let od = if op.is_comparison() { DType::Bool } else { DType::F64 };
            kernel(
                &format!("k_{}", op.name()),
                &[arr(od, 2), arr(DType::F64, 2), arr(DType::F64, 2)],
                &[(ComputeFn::Binary(op), 0, vec![1, 2])],
            )
        })
        .collect();
    let jk = jit::compile(&module(funcs), None).unwrap();
    for op in fbin() {
        let od = if op.is_comparison() { DType::Bool } else { DType::F64 };
        let out = zeros(od, &shape);
        jk.launch(&format!("k_{}", op.name()), &[rv(&out), rv(&va), rv(&vb)]).unwrap();
        let want: Vec<Scalar> = a.iter().zip(&b).map(|(&x, &y)| ref_bin_f64(op, x, y)).collect();
        assert_close(&elems(&out), &want, op.name());
    }
}

#[test]
fn i64_binary_ops_with_edge_cases() {
    // Every function on integers: not the float ones (`/`, arctan2, ...).
    let ops: Vec<BinFn> = BinFn::ALL.into_iter().filter(|op| !op.in_float()).collect();
    let mut a = ivals(40, 3);
    let mut b: Vec<i64> = ivals(40, 4).into_iter().map(|x| x % 7).collect();
    // Edge cases: zero divisor, i64::MIN % -1, negative exponents of 1, -1, 0, 2.
    let edges = [
        (7, 0),
        (-7, 0),
        (i64::MIN, -1),
        (1, -3),
        (-1, -3),
        (-1, -4),
        (0, -1),
        (2, -2),
        (-7, 3),
        (7, -3),
        (-7, -3),
        (3, 0),
        (0, 0),
        (i64::MIN, 0),
        (5, 64),
        (-5, 70),
        (-5, 63),
    ];
    for (i, &(x, y)) in edges.iter().enumerate() {
        a[i] = x;
        b[i] = y;
    }
    let sh = [40i64];
    let va = view(DType::I64, &sh, &a.iter().map(|&x| Scalar::I64(x)).collect::<Vec<_>>());
    let vb = view(DType::I64, &sh, &b.iter().map(|&x| Scalar::I64(x)).collect::<Vec<_>>());
    for op in ops {
        let od = if op.is_comparison() { DType::Bool } else { DType::I64 };
        let jk = compile1(kernel(
            "k",
            &[arr(od, 1), arr(DType::I64, 1), arr(DType::I64, 1)],
            &[(ComputeFn::Binary(op), 0, vec![1, 2])],
        ));
        let out = zeros(od, &sh);
        let (vb, b) = if op == BinFn::Pow {
            // Negative exponents are NumPy's error: the launch fails with the op's kernel fault.
            match jk.launch("k", &[rv(&out), rv(&va), rv(&vb)]) {
                Err(LaunchError::Fault(f)) => assert_eq!((f.op, f.message.as_str()), (0, NEGATIVE_INT_POWER)),
                other => panic!("a negative integer exponent gave {other:?}"),
            }
            let b: Vec<i64> = b.iter().map(|y| y.abs()).collect();
            (view(DType::I64, &sh, &b.iter().map(|&x| Scalar::I64(x)).collect::<Vec<_>>()), b)
        } else {
            (vb.clone(), b.clone())
        };
        jk.launch("k", &[rv(&out), rv(&va), rv(&vb)]).unwrap();
        let want: Vec<Scalar> = a.iter().zip(&b).map(|(&x, &y)| ref_bin_i64(op, x, y)).collect();
        assert_close(&elems(&out), &want, op.name());
    }
}

/// A kernel fault is reported for the faulting op of smallest index, with its source position,
/// whatever the thread count and however many iterations fault; the kernel lowers its fault cell
/// with `memref.atomic_rmw mins` (MLIR's spelling checks the attribute the builder sets).
#[test]
fn fault_cell_is_lowered_atomically() {
    let mut f = kernel(
        "k",
        &[arr(DType::I64, 1), arr(DType::I64, 1), arr(DType::I64, 1), arr(DType::I64, 1)],
        &[(ComputeFn::Binary(BinFn::Pow), 0, vec![2, 3]), (ComputeFn::Binary(BinFn::Pow), 1, vec![2, 3])],
    );
    f.body[0].loc = Some(ir::Loc { line: 7, col: 3 });
    f.body[1].loc = Some(ir::Loc { line: 8, col: 5 });
    let text = kernel_codegen::kernel_to_mlir(&f).unwrap();
    assert_eq!(text.matches("memref.atomic_rmw mins").count(), 2, "{text}");
    let jk = compile1(f);
    let n = 300_000i64; // several chunks
    let base = view(DType::I64, &[n], &vec![Scalar::I64(3); n as usize]);
    let exps: Vec<Scalar> = (0..n).map(|i| Scalar::I64(if i % 1000 == 999 { -1 } else { 2 })).collect();
    let exp = view(DType::I64, &[n], &exps);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let (o0, o1) = (zeros(DType::I64, &[n]), zeros(DType::I64, &[n]));
        let r = pool.install(|| jk.launch("k", &[rv(&o0), rv(&o1), rv(&base), rv(&exp)]));
        match r {
            Err(LaunchError::Fault(f)) => assert_eq!((f.op, f.line, f.col), (0, 7, 3), "{threads} threads"),
            other => panic!("{threads} threads: {other:?}"),
        }
    }
    let ok = view(DType::I64, &[n], &vec![Scalar::I64(2); n as usize]);
    let (o0, o1) = (zeros(DType::I64, &[n]), zeros(DType::I64, &[n]));
    jk.launch("k", &[rv(&o0), rv(&o1), rv(&base), rv(&ok)]).unwrap();
    assert!(elems(&o1).iter().all(|&x| x == Scalar::I64(9)));
}

#[test]
fn mixed_dtypes_promote() {
    // f32 + i64 -> f64 out; bool + bool -> i64 out; f32 < i64 compares in f64; i64 / i64 -> f64.
    let n = 10;
    let fa: Vec<f64> = vals(n, 5).into_iter().map(|x| x as f32 as f64).collect();
    let ib = ivals(n, 6);
    let bb: Vec<bool> = ib.iter().map(|x| x % 2 == 0).collect();
    let vf32 = view(DType::F32, &[n as i64], &fa.iter().map(|&x| Scalar::F32(x as f32)).collect::<Vec<_>>());
    let vi = view(DType::I64, &[n as i64], &ib.iter().map(|&x| Scalar::I64(x)).collect::<Vec<_>>());
    let vb = view(DType::Bool, &[n as i64], &bb.iter().map(|&x| Scalar::Bool(x)).collect::<Vec<_>>());
    let f = |name: &str, od: DType, a: DType, b: DType, op: BinFn| {
        kernel(name, &[arr(od, 1), arr(a, 1), arr(b, 1)], &[(ComputeFn::Binary(op), 0, vec![1, 2])])
    };
    let jk = jit::compile(
        &module(vec![
            f("add_f32_i64", DType::F64, DType::F32, DType::I64, BinFn::Add),
            f("add_bool", DType::I64, DType::Bool, DType::Bool, BinFn::Add),
            f("lt_f32_i64", DType::Bool, DType::F32, DType::I64, BinFn::Lt),
            f("div_i64", DType::F64, DType::I64, DType::I64, BinFn::Div),
            f("and_bool", DType::Bool, DType::Bool, DType::Bool, BinFn::And),
            f("or_bool", DType::Bool, DType::Bool, DType::Bool, BinFn::Or),
            f("max_bool", DType::Bool, DType::Bool, DType::Bool, BinFn::Maximum),
            f("gt_bool", DType::Bool, DType::Bool, DType::Bool, BinFn::Gt),
        ]),
        None,
    )
    .unwrap();
    let run = |k: &str, od: DType, a: &View, b: &View| {
        let out = zeros(od, &[n as i64]);
        jk.launch(k, &[rv(&out), rv(a), rv(b)]).unwrap();
        elems(&out)
    };
    let bb2: Vec<bool> = bb.iter().rev().copied().collect();
    let vb2 = view(DType::Bool, &[n as i64], &bb2.iter().map(|&x| Scalar::Bool(x)).collect::<Vec<_>>());
    assert_close(
        &run("add_f32_i64", DType::F64, &vf32, &vi),
        &(0..n).map(|i| Scalar::F64(fa[i] + ib[i] as f64)).collect::<Vec<_>>(),
        "f32+i64",
    );
    assert_close(
        &run("add_bool", DType::I64, &vb, &vb2),
        &(0..n).map(|i| Scalar::I64(bb[i] as i64 + bb2[i] as i64)).collect::<Vec<_>>(),
        "bool+bool",
    );
    assert_close(
        &run("lt_f32_i64", DType::Bool, &vf32, &vi),
        &(0..n).map(|i| Scalar::Bool(fa[i] < ib[i] as f64)).collect::<Vec<_>>(),
        "f32<i64",
    );
    let vi2 = view(DType::I64, &[n as i64], &(0..n).map(|i| Scalar::I64(i as i64 - 4)).collect::<Vec<_>>());
    assert_close(
        &run("div_i64", DType::F64, &vi, &vi2),
        &(0..n).map(|i| Scalar::F64(ib[i] as f64 / (i as f64 - 4.0))).collect::<Vec<_>>(),
        "i64/i64",
    );
    assert_close(
        &run("and_bool", DType::Bool, &vb, &vb2),
        &(0..n).map(|i| Scalar::Bool(bb[i] & bb2[i])).collect::<Vec<_>>(),
        "and",
    );
    assert_close(
        &run("or_bool", DType::Bool, &vb, &vb2),
        &(0..n).map(|i| Scalar::Bool(bb[i] | bb2[i])).collect::<Vec<_>>(),
        "or",
    );
    assert_close(
        &run("max_bool", DType::Bool, &vb, &vb2),
        &(0..n).map(|i| Scalar::Bool(bb[i] | bb2[i])).collect::<Vec<_>>(),
        "max bool",
    );
    assert_close(
        &run("gt_bool", DType::Bool, &vb, &vb2),
        &(0..n).map(|i| Scalar::Bool(bb[i] & !bb2[i])).collect::<Vec<_>>(),
        "gt bool",
    );
}

/// Distance in units in the last place between two finite f64 of the same sign.
fn ulps(a: f64, b: f64) -> u64 {
    (a.to_bits() as i64).abs_diff(b.to_bits() as i64)
}

#[test]
fn exp_and_log_f64_are_within_a_few_ulp_of_libm() {
    // The kernels compute f64 exp and log inline (vectorisable), not through libm: compare with the
    // Rust standard library (libm) over a wide range, and the special values exactly.
    let mut xs: Vec<f64> = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1e-300,
        5e-324,
        2.2e-308,
        1e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        709.7,
        709.79,
        -745.0,
        -745.2,
        710.0,
        -800.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1.0 + 1e-15,
        1.0 - 1e-15,
        std::f64::consts::SQRT_2,
        std::f64::consts::FRAC_1_SQRT_2,
    ];
    let mut state = 12345u64;
    for _ in 0..20000 {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let u = (state >> 11) as f64 / (1u64 << 53) as f64;
        xs.push((u - 0.5) * 1500.0); // exp's whole range
        xs.push(10f64.powf((u - 0.5) * 600.0)); // log over 600 decades
        xs.push(1.0 + (u - 0.5) * 1e-3); // log near 1
    }
    let n = xs.len() as i64;
    let vx = fview(&[n], &xs);
    for (op, r, tol) in [(UnFn::Exp, f64::exp as fn(f64) -> f64, 4u64), (UnFn::Log, f64::ln, 4)] {
        let jk =
            compile1(kernel("u", &[arr(DType::F64, 1), arr(DType::F64, 1)], &[(ComputeFn::Unary(op), 0, vec![1])]));
        let out = zeros(DType::F64, &[n]);
        jk.launch("u", &[rv(&out), rv(&vx)]).unwrap();
        for (x, g) in xs.iter().zip(out.to_f64_vec()) {
            let want = r(*x);
            let ok = if want.is_nan() {
                g.is_nan()
            } else if !want.is_finite() || want == 0.0 || !g.is_finite() {
                g == want
            } else if want.abs() < f64::MIN_POSITIVE {
                (g - want).abs() <= 4.0 * 5e-324 // subnormal results: absolute ulps
            } else {
                g.signum() == want.signum() && ulps(g, want) <= tol
            };
            assert!(ok, "{}({x:e}) = {g:e}, libm gives {want:e}", op.name());
        }
    }
}

#[test]
fn unary_functions() {
    let n = 30usize;
    let mut a = vals(n, 7);
    a[0] = f64::NAN;
    a[1] = -0.0;
    let va = fview(&[n as i64], &a);
    let va32 = view(DType::F32, &[n as i64], &a.iter().map(|&x| Scalar::F32(x as f32)).collect::<Vec<_>>());
    type Reference = fn(f64) -> f64;
    let fs: [(UnFn, Reference); 8] = [
        (UnFn::Neg, |x| -x),
        (UnFn::Abs, f64::abs),
        (UnFn::Sqrt, f64::sqrt),
        (UnFn::Exp, f64::exp),
        (UnFn::Log, f64::ln),
        (UnFn::Sin, f64::sin),
        (UnFn::Cos, f64::cos),
        (UnFn::Tanh, f64::tanh),
    ];
    for (op, r) in fs {
        for d in [DType::F64, DType::F32] {
            let jk = compile1(kernel("u", &[arr(d, 1), arr(d, 1)], &[(ComputeFn::Unary(op), 0, vec![1])]));
            let out = zeros(d, &[n as i64]);
            jk.launch("u", &[rv(&out), rv(if d == DType::F64 { &va } else { &va32 })]).unwrap();
            let want: Vec<Scalar> = a
                .iter()
                .map(|&x| if d == DType::F64 { Scalar::F64(r(x)) } else { Scalar::F32(r(x as f32 as f64) as f32) })
                .collect();
            assert_close(&elems(&out), &want, &format!("{} {:?}", op.name(), d));
        }
    }
    // Integer neg/abs, bool not.
    let ia = [-3i64, 0, 5, i64::MAX, -7];
    let vi = view(DType::I64, &[5], &ia.iter().map(|&x| Scalar::I64(x)).collect::<Vec<_>>());
    for (op, r) in [(UnFn::Neg, (|x: i64| x.wrapping_neg()) as fn(i64) -> i64), (UnFn::Abs, |x: i64| x.wrapping_abs())]
    {
        let jk =
            compile1(kernel("u", &[arr(DType::I64, 1), arr(DType::I64, 1)], &[(ComputeFn::Unary(op), 0, vec![1])]));
        let out = zeros(DType::I64, &[5]);
        jk.launch("u", &[rv(&out), rv(&vi)]).unwrap();
        assert_close(&elems(&out), &ia.iter().map(|&x| Scalar::I64(r(x))).collect::<Vec<_>>(), op.name());
    }
    let vb = view(DType::Bool, &[3], &[Scalar::Bool(true), Scalar::Bool(false), Scalar::Bool(true)]);
    let jk = compile1(kernel(
        "u",
        &[arr(DType::Bool, 1), arr(DType::Bool, 1)],
        &[(ComputeFn::Unary(UnFn::Not), 0, vec![1])],
    ));
    let out = zeros(DType::Bool, &[3]);
    jk.launch("u", &[rv(&out), rv(&vb)]).unwrap();
    assert_eq!(elems(&out), vec![Scalar::Bool(false), Scalar::Bool(true), Scalar::Bool(false)]);
}

#[test]
fn fill_copy_where_arange() {
    // Fill from a scalar and from a 0-d view, over 3-d.
    let jk = jit::compile(
        &module(vec![
            kernel("fill_s", &[arr(DType::I64, 3), sc(DType::F64)], &[(ComputeFn::Fill, 0, vec![1])]),
            kernel("fill_v", &[arr(DType::F32, 3), arr(DType::F64, 0)], &[(ComputeFn::Fill, 0, vec![1])]),
            kernel("copy_fb", &[arr(DType::Bool, 2), arr(DType::F64, 2)], &[(ComputeFn::Copy, 0, vec![1])]),
            kernel("copy_fi", &[arr(DType::I64, 2), arr(DType::F64, 2)], &[(ComputeFn::Copy, 0, vec![1])]),
            kernel("copy_bf", &[arr(DType::F64, 2), arr(DType::Bool, 2)], &[(ComputeFn::Copy, 0, vec![1])]),
            kernel(
                "where",
                &[arr(DType::F64, 2), arr(DType::Bool, 2), arr(DType::I64, 2), sc(DType::F64)],
                &[(ComputeFn::Where, 0, vec![1, 2, 3])],
            ),
            kernel(
                "arange_f",
                &[arr(DType::F64, 1), sc(DType::F64), sc(DType::F64)],
                &[(ComputeFn::Arange, 0, vec![1, 2])],
            ),
            kernel(
                "arange_i",
                &[arr(DType::I64, 1), sc(DType::I64), sc(DType::I64)],
                &[(ComputeFn::Arange, 0, vec![1, 2])],
            ),
        ]),
        None,
    )
    .unwrap();
    let o = zeros(DType::I64, &[2, 3, 4]);
    jk.launch("fill_s", &[rv(&o), rs(Scalar::F64(-2.7))]).unwrap();
    assert!(elems(&o).iter().all(|&s| s == Scalar::I64(-2)));
    let o = zeros(DType::F32, &[2, 3, 4]);
    let z = fview(&[], &[1.5]);
    jk.launch("fill_v", &[rv(&o), rv(&z)]).unwrap();
    assert!(elems(&o).iter().all(|&s| s == Scalar::F32(1.5)));

    let a = vec![0.0, -0.0, 2.5, -2.5, f64::NAN, 1e-300];
    let va = fview(&[2, 3], &a);
    let o = zeros(DType::Bool, &[2, 3]);
    jk.launch("copy_fb", &[rv(&o), rv(&va)]).unwrap();
    assert_eq!(elems(&o), a.iter().map(|&x| Scalar::Bool(x != 0.0)).collect::<Vec<_>>());
    let a2 = vec![0.0, -0.9, 2.5, -2.5, 7.99, -1e3];
    let va2 = fview(&[2, 3], &a2);
    let o = zeros(DType::I64, &[2, 3]);
    jk.launch("copy_fi", &[rv(&o), rv(&va2)]).unwrap();
    assert_eq!(elems(&o), a2.iter().map(|&x| Scalar::I64(x as i64)).collect::<Vec<_>>());
    let bools: Vec<Scalar> = [true, false, true, true, false, false].iter().map(|&b| Scalar::Bool(b)).collect();
    let vb = view(DType::Bool, &[2, 3], &bools);
    let o = zeros(DType::F64, &[2, 3]);
    jk.launch("copy_bf", &[rv(&o), rv(&vb)]).unwrap();
    assert_eq!(elems(&o), bools.iter().map(|s| Scalar::F64(s.as_f64())).collect::<Vec<_>>());

    let vi = view(DType::I64, &[2, 3], &(0..6).map(|i| Scalar::I64(i * 10)).collect::<Vec<_>>());
    let o = zeros(DType::F64, &[2, 3]);
    jk.launch("where", &[rv(&o), rv(&vb), rv(&vi), rs(Scalar::F64(-1.0))]).unwrap();
    let want: Vec<Scalar> =
        (0..6).map(|i| Scalar::F64(if bools[i].as_i64() != 0 { i as f64 * 10.0 } else { -1.0 })).collect();
    assert_eq!(elems(&o), want);

    let o = zeros(DType::F64, &[5]);
    jk.launch("arange_f", &[rv(&o), rs(Scalar::F64(0.5)), rs(Scalar::F64(0.25))]).unwrap();
    assert_eq!(elems(&o), (0..5).map(|i| Scalar::F64(0.5 + i as f64 * 0.25)).collect::<Vec<_>>());
    let o = zeros(DType::I64, &[4]);
    jk.launch("arange_i", &[rv(&o), rs(Scalar::I64(10)), rs(Scalar::I64(-3))]).unwrap();
    assert_eq!(elems(&o), (0..4).map(|i| Scalar::I64(10 - 3 * i)).collect::<Vec<_>>());
}

#[test]
fn random_matches_runtime_philox() {
    let jk = compile1(kernel("rnd", &[arr(DType::F64, 2), sc(DType::I64)], &[(ComputeFn::Random, 0, vec![1])]));
    for seed in [0i64, 42, -1, 1 << 40] {
        let o = zeros(DType::F64, &[300, 301]);
        jk.launch("rnd", &[rv(&o), rs(Scalar::I64(seed))]).unwrap();
        let got = elems(&o);
        for (k, g) in got.iter().enumerate() {
            assert_eq!(*g, Scalar::F64(arrayc_runtime::rng::uniform_f64(seed as u64, k as u64)), "seed {seed} k {k}");
        }
    }
    // Into a transposed view: k is the position in the view's row-major order.
    let base = zeros(DType::F64, &[4, 3]);
    let t = View { shape: vec![3, 4], strides: vec![1, 3], ..base.clone() };
    jk.launch("rnd", &[rv(&t), rs(Scalar::I64(7))]).unwrap();
    let got = elems(&t);
    for (k, g) in got.iter().enumerate() {
        assert_eq!(*g, Scalar::F64(arrayc_runtime::rng::uniform_f64(7, k as u64)));
    }
}

#[test]
fn strided_views_negative_zero_strides_0d_3d() {
    let jk = jit::compile(
        &module(vec![
            kernel(
                "add2",
                &[arr(DType::F64, 2), arr(DType::F64, 2), arr(DType::F64, 2)],
                &[(ComputeFn::Binary(BinFn::Add), 0, vec![1, 2])],
            ),
            kernel(
                "mul0",
                &[arr(DType::F64, 0), arr(DType::F64, 0), sc(DType::F64)],
                &[(ComputeFn::Binary(BinFn::Mul), 0, vec![1, 2])],
            ),
            kernel(
                "sub3",
                &[arr(DType::I64, 3), arr(DType::I64, 3), arr(DType::I64, 3)],
                &[(ComputeFn::Binary(BinFn::Sub), 0, vec![1, 2])],
            ),
        ]),
        None,
    )
    .unwrap();
    // a: 2-d reversed in both dims (negative strides) of a 4x5 base; b: a row broadcast (stride 0).
    let base: Vec<f64> = (0..20).map(|i| i as f64).collect();
    let vb = fview(&[4, 5], &base);
    let a = View { offset: 19, strides: vec![-5, -1], ..vb.clone() };
    let row = fview(&[5], &[100.0, 200.0, 300.0, 400.0, 500.0]);
    let b = View { shape: vec![4, 5], strides: vec![0, 1], ..row.clone() };
    // Output: a transposed strided view into a bigger base (every other column of an 5x8 base).
    let obase = zeros(DType::F64, &[5, 8]);
    let o = View { shape: vec![4, 5], strides: vec![2, 8], offset: 1, ..obase.clone() };
    jk.launch("add2", &[rv(&o), rv(&a), rv(&b)]).unwrap();
    for i in 0..4 {
        for j in 0..5 {
            let want = base[(19 - 5 * i - j) as usize] + 100.0 * (j + 1) as f64;
            assert_eq!(o.read_at(o.element_offset(&[i, j])), Scalar::F64(want), "({i},{j})");
        }
    }
    // Elements of obase not in o stay zero.
    let touched: std::collections::HashSet<i64> = (0..4).flat_map(|i| (0..5).map(move |j| 1 + 2 * i + 8 * j)).collect();
    for off in 0..40 {
        if !touched.contains(&off) {
            assert_eq!(obase.read_at(off), Scalar::F64(0.0));
        }
    }
    // 0-d with an offset.
    let zb = fview(&[3], &[1.0, 2.0, 3.0]);
    let z_in = View { shape: vec![], strides: vec![], offset: 2, ..zb.clone() };
    let z_out = View { shape: vec![], strides: vec![], offset: 0, ..zb.clone() };
    jk.launch("mul0", &[rv(&z_out), rv(&z_in), rs(Scalar::F64(4.0))]).unwrap();
    assert_eq!(zb.to_f64_vec(), vec![12.0, 2.0, 3.0]);
    // 3-d with a permuted input.
    let sh = [3i64, 4, 5];
    let x: Vec<i64> = ivals(60, 9);
    let vx = view(DType::I64, &sh, &x.iter().map(|&v| Scalar::I64(v)).collect::<Vec<_>>());
    let ybase = view(DType::I64, &[5, 4, 3], &(0..60).map(Scalar::I64).collect::<Vec<_>>());
    let y = View { shape: sh.to_vec(), strides: vec![1, 3, 12], ..ybase.clone() };
    let o = zeros(DType::I64, &sh);
    jk.launch("sub3", &[rv(&o), rv(&vx), rv(&y)]).unwrap();
    let mut want = vec![];
    for i in 0..3 {
        for j in 0..4 {
            for k in 0..5 {
                want.push(Scalar::I64(x[(i * 20 + j * 5 + k) as usize] - (i + 3 * j + 12 * k)));
            }
        }
    }
    assert_eq!(elems(&o), want);
}

#[test]
fn fused_elementwise_body() {
    // t = a * b; out = t + c (c scalar); mask = out > 0 — one loop nest.
    let f = kernel(
        "fused",
        &[
            arr(DType::F64, 2),
            arr(DType::F64, 2),
            arr(DType::F64, 2),
            sc(DType::F64),
            arr(DType::F64, 2),
            arr(DType::Bool, 2),
        ],
        &[
            (ComputeFn::Binary(BinFn::Mul), 0, vec![1, 2]),
            (ComputeFn::Binary(BinFn::Add), 4, vec![0, 3]),
            (ComputeFn::Binary(BinFn::Gt), 5, vec![4, 3]),
        ],
    );
    let text = kernel_codegen::kernel_to_mlir(&f).unwrap();
    // One parallel loop over both dimensions of the iteration space, no sequential loop.
    assert_eq!(text.matches("scf.parallel (%arg6, %arg7) = ").count(), 1, "{text}");
    assert!(!text.contains("scf.for"), "{text}");
    let jk = compile1(f);
    let sh = [300i64, 500]; // > 64K elements: several chunks
    let n = 150000;
    let (a, b) = (vals(n, 11), vals(n, 12));
    let (va, vb) = (fview(&sh, &a), fview(&sh, &b));
    let (t, o, m) = (zeros(DType::F64, &sh), zeros(DType::F64, &sh), zeros(DType::Bool, &sh));
    jk.launch("fused", &[rv(&t), rv(&va), rv(&vb), rs(Scalar::F64(0.5)), rv(&o), rv(&m)]).unwrap();
    let (got_o, got_m) = (o.to_f64_vec(), elems(&m));
    for i in 0..n {
        let w = a[i] * b[i] + 0.5;
        assert_eq!(got_o[i], w);
        assert_eq!(got_m[i], Scalar::Bool(w > 0.5));
    }
}

fn ref_reduce(kind: ReduceKind, xs: &[f64]) -> f64 {
    let mut acc = match kind {
        ReduceKind::Sum => 0.0,
        ReduceKind::Prod => 1.0,
        ReduceKind::Min => f64::INFINITY,
        ReduceKind::Max => f64::NEG_INFINITY,
        ReduceKind::ArgMin | ReduceKind::ArgMax => unreachable!("a value reduction"),
    };
    for &x in xs {
        acc = match kind {
            ReduceKind::Sum => acc + x,
            ReduceKind::Prod => acc * x,
            ReduceKind::Min => fmin_nan(acc, x),
            ReduceKind::Max => fmax_nan(acc, x),
            ReduceKind::ArgMin | ReduceKind::ArgMax => unreachable!("a value reduction"),
        };
    }
    acc
}

/// [`ref_reduce`] in the order of the CPU's innermost reduction loop over one chunk or row from the
/// identity: [`kernel_codegen::SUM_ACCUMULATORS`] interleaved partials (element `i` into partial
/// `i % k`), combined pairwise, then the remaining elements in order (min and max come out the same
/// in any order).
fn ref_split(kind: ReduceKind, xs: &[f64]) -> f64 {
    let k = kernel_codegen::SUM_ACCUMULATORS;
    let whole = xs.len() / k * k;
    let mut parts: Vec<f64> =
        (0..k).map(|j| ref_reduce(kind, &xs[..whole].iter().skip(j).step_by(k).copied().collect::<Vec<_>>())).collect();
    while parts.len() > 1 {
        parts = parts.chunks(2).map(|p| ref_reduce(kind, p)).collect();
    }
    let rest: Vec<f64> = std::iter::once(parts[0]).chain(xs[whole..].iter().copied()).collect();
    ref_reduce(kind, &rest)
}

const KINDS: [ReduceKind; 4] = [ReduceKind::Sum, ReduceKind::Prod, ReduceKind::Min, ReduceKind::Max];

/// One output element of a reduction along an axis into `out_elems` outputs, reduced over `xs` (the
/// axis) in the order of `launch`: when it splits the axis, each chunk from the identity (in order,
/// or along the `last` axis as [`ref_split`]), then the partials combined in chunk order.
fn in_launch_order(kind: ReduceKind, xs: &[f64], out_elems: i64, last: bool) -> f64 {
    let chunk = |c: &[f64]| if last { ref_split(kind, c) } else { ref_reduce(kind, c) };
    let rows_per_chunk = CHUNK_ELEMS / out_elems;
    if out_elems > SPLIT_MAX_OUT || xs.len() as i64 <= rows_per_chunk {
        return chunk(xs);
    }
    let partials = xs.chunks(rows_per_chunk as usize).map(chunk);
    partials.reduce(|acc, p| ref_reduce(kind, &[acc, p])).expect("a non-empty axis")
}

#[test]
fn reductions_3d_all_and_each_axis() {
    let sh = [6i64, 7, 8];
    let n = 336;
    // Values near 1 so products stay finite.
    let x: Vec<f64> = vals(n, 21).into_iter().map(|v| 1.0 + v / 50.0).collect();
    let vx = fview(&sh, &x);
    for kind in KINDS {
        let jk = compile1(kernel(
            "r",
            &[arr(DType::F64, 0), arr(DType::F64, 3)],
            &[(ComputeFn::Reduce(kind, None), 0, vec![1])],
        ));
        let o = zeros(DType::F64, &[]);
        jk.launch("r", &[rv(&o), rv(&vx)]).unwrap();
        let got = o.to_f64_vec()[0];
        let want = ref_reduce(kind, &x);
        assert!(same_f64(got, want), "{kind:?} all: {got} vs {want}");
        for axis in 0..3 {
            let jk = compile1(kernel(
                "r",
                &[arr(DType::F64, 2), arr(DType::F64, 3)],
                &[(ComputeFn::Reduce(kind, Some(axis)), 0, vec![1])],
            ));
            let mut osh = sh.to_vec();
            osh.remove(axis);
            let o = zeros(DType::F64, &osh);
            jk.launch("r", &[rv(&o), rv(&vx)]).unwrap();
            let got = o.to_f64_vec();
            let mut want = vec![];
            for p in 0..osh[0] {
                for q in 0..osh[1] {
                    let xs: Vec<f64> = (0..sh[axis])
                        .map(|k| {
                            let mut idx = vec![p, q];
                            idx.insert(axis, k);
                            x[(idx[0] * 56 + idx[1] * 8 + idx[2]) as usize]
                        })
                        .collect();
                    want.push(ref_reduce(kind, &xs));
                }
            }
            for (g, w) in got.iter().zip(&want) {
                assert!(same_f64(*g, *w), "{kind:?} axis {axis}: {g} vs {w}");
            }
        }
    }
}

#[test]
fn reductions_int_bool_nan_empty() {
    // i64 sum/min/max, bool sum -> i64, bool max, NaN propagation, empty input identity.
    let xi: Vec<i64> = ivals(1000, 31);
    let vi = view(DType::I64, &[10, 100], &xi.iter().map(|&v| Scalar::I64(v)).collect::<Vec<_>>());
    let vbool = view(DType::Bool, &[10, 100], &xi.iter().map(|&v| Scalar::Bool(v > 0)).collect::<Vec<_>>());
    let jk = jit::compile(
        &module(vec![
            kernel(
                "isum",
                &[arr(DType::I64, 0), arr(DType::I64, 2)],
                &[(ComputeFn::Reduce(ReduceKind::Sum, None), 0, vec![1])],
            ),
            kernel(
                "imin1",
                &[arr(DType::I64, 1), arr(DType::I64, 2)],
                &[(ComputeFn::Reduce(ReduceKind::Min, Some(1)), 0, vec![1])],
            ),
            kernel(
                "imax0",
                &[arr(DType::I64, 1), arr(DType::I64, 2)],
                &[(ComputeFn::Reduce(ReduceKind::Max, Some(0)), 0, vec![1])],
            ),
            kernel(
                "bsum",
                &[arr(DType::I64, 0), arr(DType::Bool, 2)],
                &[(ComputeFn::Reduce(ReduceKind::Sum, None), 0, vec![1])],
            ),
            kernel(
                "bmax1",
                &[arr(DType::Bool, 1), arr(DType::Bool, 2)],
                &[(ComputeFn::Reduce(ReduceKind::Max, Some(1)), 0, vec![1])],
            ),
            kernel(
                "fmin",
                &[arr(DType::F64, 0), arr(DType::F64, 1)],
                &[(ComputeFn::Reduce(ReduceKind::Min, None), 0, vec![1])],
            ),
            kernel(
                "fmax1",
                &[arr(DType::F64, 1), arr(DType::F64, 2)],
                &[(ComputeFn::Reduce(ReduceKind::Max, Some(1)), 0, vec![1])],
            ),
            kernel(
                "fprod",
                &[arr(DType::F64, 0), arr(DType::F64, 1)],
                &[(ComputeFn::Reduce(ReduceKind::Prod, None), 0, vec![1])],
            ),
            kernel(
                "f32sum0d",
                &[arr(DType::F32, 0), arr(DType::F32, 0)],
                &[(ComputeFn::Reduce(ReduceKind::Sum, None), 0, vec![1])],
            ),
        ]),
        None,
    )
    .unwrap();
    let o = zeros(DType::I64, &[]);
    jk.launch("isum", &[rv(&o), rv(&vi)]).unwrap();
    assert_eq!(elems(&o)[0], Scalar::I64(xi.iter().sum()));
    let o = zeros(DType::I64, &[10]);
    jk.launch("imin1", &[rv(&o), rv(&vi)]).unwrap();
    assert_eq!(
        elems(&o),
        (0..10).map(|r| Scalar::I64(*xi[r * 100..r * 100 + 100].iter().min().unwrap())).collect::<Vec<_>>()
    );
    let o = zeros(DType::I64, &[100]);
    jk.launch("imax0", &[rv(&o), rv(&vi)]).unwrap();
    assert_eq!(
        elems(&o),
        (0..100).map(|c| Scalar::I64((0..10).map(|r| xi[r * 100 + c]).max().unwrap())).collect::<Vec<_>>()
    );
    let o = zeros(DType::I64, &[]);
    jk.launch("bsum", &[rv(&o), rv(&vbool)]).unwrap();
    assert_eq!(elems(&o)[0], Scalar::I64(xi.iter().filter(|&&v| v > 0).count() as i64));
    let o = zeros(DType::Bool, &[10]);
    jk.launch("bmax1", &[rv(&o), rv(&vbool)]).unwrap();
    assert_eq!(
        elems(&o),
        (0..10).map(|r| Scalar::Bool(xi[r * 100..r * 100 + 100].iter().any(|&v| v > 0))).collect::<Vec<_>>()
    );

    let mut big = vals(200_000, 41);
    big[123_456] = f64::NAN;
    let o = zeros(DType::F64, &[]);
    jk.launch("fmin", &[rv(&o), rv(&fview(&[200_000], &big))]).unwrap();
    assert!(o.to_f64_vec()[0].is_nan());
    let o = zeros(DType::F64, &[2]);
    jk.launch("fmax1", &[rv(&o), rv(&fview(&[2, 3], &[1.0, f64::NAN, 2.0, 1.0, 5.0, 2.0]))]).unwrap();
    let g = o.to_f64_vec();
    assert!(g[0].is_nan() && g[1] == 5.0);
    // Empty inputs give the identity.
    let o = fview(&[], &[7.0]);
    jk.launch("fprod", &[rv(&o), rv(&zeros(DType::F64, &[0]))]).unwrap();
    assert_eq!(o.to_f64_vec(), vec![1.0]);
    let o = fview(&[], &[7.0]);
    jk.launch("fmin", &[rv(&o), rv(&zeros(DType::F64, &[0]))]).unwrap();
    assert_eq!(o.to_f64_vec(), vec![f64::INFINITY]);
    let o = zeros(DType::F64, &[0]);
    jk.launch("fmax1", &[rv(&o), rv(&zeros(DType::F64, &[0, 3]))]).unwrap();
    let o = fview(&[2], &[3.0, 3.0]);
    jk.launch("fmax1", &[rv(&o), rv(&zeros(DType::F64, &[2, 0]))]).unwrap();
    assert_eq!(o.to_f64_vec(), vec![f64::NEG_INFINITY; 2]);
    // 0-d input.
    let o = zeros(DType::F32, &[]);
    let x = view(DType::F32, &[], &[Scalar::F32(2.5)]);
    jk.launch("f32sum0d", &[rv(&o), rv(&x)]).unwrap();
    assert_eq!(elems(&o), vec![Scalar::F32(2.5)]);
}

#[test]
fn chunked_reductions_are_accurate_and_deterministic() {
    let sh = [130i64, 40, 30]; // 156000 elements: several chunks
    let n = 156_000usize;
    let x = vals(n, 51);
    let vx = fview(&sh, &x);
    let jk = jit::compile(
        &module(vec![
            kernel(
                "sum_all",
                &[arr(DType::F64, 0), arr(DType::F64, 3)],
                &[(ComputeFn::Reduce(ReduceKind::Sum, None), 0, vec![1])],
            ),
            kernel(
                "sum_ax2",
                &[arr(DType::F64, 2), arr(DType::F64, 3)],
                &[(ComputeFn::Reduce(ReduceKind::Sum, Some(2)), 0, vec![1])],
            ),
            kernel(
                "sum_ax0",
                &[arr(DType::F64, 2), arr(DType::F64, 3)],
                &[(ComputeFn::Reduce(ReduceKind::Sum, Some(0)), 0, vec![1])],
            ),
        ]),
        None,
    )
    .unwrap();
    let seq: f64 = x.iter().sum();
    let run_all = |jk: &jit::JitKernels| {
        let o = zeros(DType::F64, &[]);
        jk.launch("sum_all", &[rv(&o), rv(&vx)]).unwrap();
        o.to_f64_vec()[0]
    };
    let got = run_all(&jk);
    assert!((got - seq).abs() <= 1e-12 * x.iter().map(|v| v.abs()).sum::<f64>(), "{got} vs {seq}");
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let four = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
    let g1 = one.install(|| run_all(&jk));
    let g4 = four.install(|| run_all(&jk));
    assert_eq!(g1.to_bits(), g4.to_bits());
    assert_eq!(g1.to_bits(), got.to_bits());
    for (k, axis) in [("sum_ax2", 2usize), ("sum_ax0", 0)] {
        let mut osh = sh.to_vec();
        osh.remove(axis);
        let run = |jk: &jit::JitKernels| {
            let o = zeros(DType::F64, &osh);
            jk.launch(k, &[rv(&o), rv(&vx)]).unwrap();
            o.to_f64_vec()
        };
        let g1 = one.install(|| run(&jk));
        let g4 = four.install(|| run(&jk));
        assert_eq!(g1, g4);
        let mut want = vec![];
        for p in 0..osh[0] {
            for q in 0..osh[1] {
                let mut s = 0.0;
                for r in 0..sh[axis] {
                    let mut idx = vec![p, q];
                    idx.insert(axis, r);
                    s += x[(idx[0] * 1200 + idx[1] * 30 + idx[2]) as usize];
                }
                want.push(s);
            }
        }
        for (g, w) in g1.iter().zip(&want) {
            assert!(same_f64(*g, *w), "{k}: {g} vs {w}");
        }
    }
}

#[test]
fn shape_mismatch_and_out_of_bounds_are_errors() {
    let jk = compile1(kernel(
        "add",
        &[arr(DType::F64, 2), arr(DType::F64, 2), arr(DType::F64, 2)],
        &[(ComputeFn::Binary(BinFn::Add), 0, vec![1, 2])],
    ));
    let (o, a) = (zeros(DType::F64, &[3, 5]), zeros(DType::F64, &[3, 5]));
    let b = zeros(DType::F64, &[3, 4]);
    let e = jk.launch("add", &[rv(&o), rv(&a), rv(&b)]).unwrap_err().to_string();
    assert_eq!(e, "shape mismatch: operand 2 has shape (3, 4) but the kernel iterates over (3, 5)");
    // A view running past the end of its base, and one before its start.
    let bad = View { shape: vec![3, 5], strides: vec![6, 1], ..zeros(DType::F64, &[3, 5]) };
    let e = jk.launch("add", &[rv(&o), rv(&a), rv(&bad)]).unwrap_err().to_string();
    assert!(e.contains("out of bounds"), "{e}");
    let bad = View { offset: 2, strides: vec![5, -1], ..zeros(DType::F64, &[3, 5]) };
    let e = jk.launch("add", &[rv(&bad), rv(&a), rv(&a)]).unwrap_err().to_string();
    assert!(e.contains("out of bounds"), "{e}");
    let huge = View {
        base: zeros(DType::F64, &[1]).base,
        dtype: DType::F64,
        offset: 0,
        shape: vec![1 << 40, 1 << 40],
        strides: vec![1 << 40, 1],
    };
    assert!(jk.launch("add", &[rv(&o), rv(&a), rv(&huge)]).is_err());
    // Wrong dtype, rank, kind, count, unknown kernel.
    assert!(jk.launch("add", &[rv(&o), rv(&a), rv(&zeros(DType::F32, &[3, 5]))]).is_err());
    assert!(jk.launch("add", &[rv(&o), rv(&a), rv(&zeros(DType::F64, &[15]))]).is_err());
    assert!(jk.launch("add", &[rv(&o), rv(&a), rs(Scalar::F64(1.0))]).is_err());
    assert!(jk.launch("add", &[rv(&o), rv(&a)]).is_err());
    assert!(jk.launch("nope", &[]).is_err());
    // Reduction output of the wrong shape.
    let jk = compile1(kernel(
        "r",
        &[arr(DType::F64, 1), arr(DType::F64, 2)],
        &[(ComputeFn::Reduce(ReduceKind::Sum, Some(1)), 0, vec![1])],
    ));
    let e = jk.launch("r", &[rv(&zeros(DType::F64, &[4])), rv(&zeros(DType::F64, &[3, 4]))]).unwrap_err().to_string();
    assert!(e.contains("shape mismatch"), "{e}");
}

/// A kernel with `arr.inner_strides` has one loop nest, on views cast to those strides: it computes
/// on views that have them (or whose last dimension has one element, or that are empty, where the
/// stride moves no address), and the launcher rejects any other view instead of computing with the
/// wrong stride.
#[test]
fn inner_strides_are_checked_at_launch() {
    let mut k = kernel(
        "add",
        &[arr(DType::F64, 2), arr(DType::F64, 2), arr(DType::F64, 2)],
        &[(ComputeFn::Binary(BinFn::Add), 0, vec![1, 2])],
    );
    k.inner_strides = vec![Some(1), Some(1), Some(0)];
    let jk = compile1(k);
    let (a, b) = (vals(12, 1), vals(4, 2));
    let xa = fview(&[3, 4], &a);
    // A column of 3 broadcast along the last dimension (stride 0).
    let col = fview(&[3], &b[..3]);
    let xb = View { shape: vec![3, 4], strides: vec![1, 0], ..col };
    let o = zeros(DType::F64, &[3, 4]);
    jk.launch("add", &[rv(&o), rv(&xa), rv(&xb)]).unwrap();
    let want: Vec<f64> = (0..12).map(|i| a[i] + b[i / 4]).collect();
    assert_eq!(o.to_f64_vec(), want);
    // A last dimension of one element: any stride is as good as the expected one.
    let (o1, a1) = (zeros(DType::F64, &[3, 1]), View { strides: vec![4, 7], shape: vec![3, 1], ..xa.clone() });
    let b1 = View { shape: vec![3, 1], strides: vec![1, 5], ..xb.clone() };
    jk.launch("add", &[rv(&o1), rv(&a1), rv(&b1)]).unwrap();
    assert_eq!(o1.to_f64_vec(), (0..3).map(|i| a[4 * i] + b[i]).collect::<Vec<_>>());
    // Empty views: no address at all, whatever their strides.
    let (o0, a0) = (zeros(DType::F64, &[0, 4]), View { shape: vec![0, 4], strides: vec![8, 2], ..xa.clone() });
    let b0 = View { shape: vec![0, 4], strides: vec![0, 1], ..xb.clone() };
    jk.launch("add", &[rv(&o0), rv(&a0), rv(&b0)]).unwrap();
    // Every third element of a row: not the stride the kernel was compiled for.
    let wide = fview(&[3, 12], &vals(36, 3));
    let strided = View { shape: vec![3, 4], strides: vec![12, 3], ..wide };
    let e = jk.launch("add", &[rv(&o), rv(&strided), rv(&xb)]).unwrap_err().to_string();
    assert_eq!(
        e,
        "kernel @add: operand 1 has last-dimension stride 3, but the kernel was compiled for stride 1 \
         (an internal error of arrayc: please report it)"
    );
    let e = jk.launch("add", &[rv(&o), rv(&xa), rv(&xa)]).unwrap_err().to_string();
    assert!(e.contains("operand 2 has last-dimension stride 1, but the kernel was compiled for stride 0"), "{e}");
    assert_eq!(o.to_f64_vec(), want, "a rejected launch writes nothing");
}

#[test]
fn emit_stages_and_empty_module() {
    let m = module(vec![
        ir::Func::new("main", false),
        kernel("k0", &[arr(DType::F64, 1), arr(DType::F64, 1)], &[(ComputeFn::Unary(UnFn::Sqrt), 0, vec![1])]),
        kernel(
            "k1",
            &[arr(DType::I64, 0), arr(DType::I64, 2)],
            &[(ComputeFn::Reduce(ReduceKind::Sum, None), 0, vec![1])],
        ),
    ]);
    let text = kernel_codegen::kernels_module_mlir(&m).unwrap();
    assert!(text.contains("func.func @k0(") && text.contains("func.func @k1(") && !text.contains("@main"), "{text}");
    assert!(text.contains("memref<?xf64, strided<[?], offset: ?>>"));
    assert!(text.contains("memref<i64, strided<[], offset: ?>>"));
    let mlir = jit::kernels_mlir(&m).unwrap();
    assert!(mlir.contains("scf.parallel") && mlir.contains("math.sqrt"), "{mlir}");
    // The CPU target's chunk bounds: two more index arguments, dimension 0 over [lo, hi).
    assert!(mlir.contains("%arg2: index, %arg3: index)") && mlir.contains("= (%arg2) to (%arg3)"), "{mlir}");
    assert!(!mlir.contains("arrayc.chunk"), "{mlir}");
    // The target-neutral form: no chunk bounds, the full extent, the chunked dimension marked.
    let neutral =
        "func.func @k0(%arg0: memref<?xf64, strided<[?], offset: ?>>, %arg1: memref<?xf64, strided<[?], offset: ?>>) {";
    assert!(text.contains(neutral) && text.contains("{arrayc.chunk = 0 : index}"), "{text}");
    let ll = jit::llvm_ir(&m).unwrap();
    assert!(ll.contains("define void @k0(") && ll.contains("define void @k1("), "{ll}");
    let empty = jit::compile(&module(vec![ir::Func::new("main", false)]), None).unwrap();
    assert!(empty.launch("k", &[]).is_err());
    // Not a kernel / bad body: codegen errors, not panics.
    assert!(kernel_codegen::kernel_to_mlir(&ir::Func::new("main", false)).is_err());
    assert!(jit::compile(&module(vec![kernel("bad", &[arr(DType::F64, 1)], &[(ComputeFn::Copy, 0, vec![])])]), None)
        .is_err());
}

#[test]
fn kernels_launch_from_rayon_workers() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<jit::JitKernels>();
    let jk = compile1(kernel("fill", &[arr(DType::F64, 1), sc(DType::F64)], &[(ComputeFn::Fill, 0, vec![1])]));
    use rayon::prelude::*;
    let outs: Vec<View> = (0..16).map(|_| zeros(DType::F64, &[1000])).collect();
    outs.par_iter().enumerate().for_each(|(i, o)| jk.launch("fill", &[rv(o), rs(Scalar::F64(i as f64))]).unwrap());
    for (i, o) in outs.iter().enumerate() {
        assert!(o.to_f64_vec().iter().all(|&v| v == i as f64));
    }
}

#[test]
fn packed_abi_layout() {
    // `_mlir_<name>(void **args)`: args[i] points to the i-th LLVM-level argument; a rank-r memref is
    // (allocated ptr, aligned ptr, offset, r sizes, r strides), then the trailing lo/hi indices.
    let jk = compile1(kernel(
        "cp",
        &[arr(DType::F64, 1), arr(DType::I64, 1), sc(DType::F64)],
        &[(ComputeFn::Binary(BinFn::Add), 0, vec![1, 2])],
    ));
    let (entry, f) = jk.get("cp").unwrap();
    assert_eq!(f.params.len(), 3);
    let mut out = vec![0.0f64; 8];
    let src: Vec<i64> = (0..8).collect();
    // out[1 + 2*i] = src[7 - i] + 0.5 for i in [1, 3).
    let mut w: Vec<u64> = vec![
        out.as_mut_ptr() as u64,
        out.as_mut_ptr() as u64,
        1,
        4,
        2, // out: offset 1, size 4, stride 2
        src.as_ptr() as u64,
        src.as_ptr() as u64,
        7,
        4,
        (-1i64) as u64, // src: offset 7, size 4, stride -1
        0.5f64.to_bits(),
        1,
        3, // lo, hi
    ];
    let mut ptrs: Vec<*mut ()> = w.iter_mut().map(|x| x as *mut u64 as *mut ()).collect();
    // SAFETY: the words are the kernel's signature (a 1-d f64 and a 1-d i64 view, a scalar, lo and hi); both
    // views lie inside `out` (elements 1..=7) and `src` (elements 4..=7), which outlive the call.
    unsafe { (entry.0)(ptrs.as_mut_ptr()) };
    assert_eq!(out, vec![0.0, 0.0, 0.0, 6.5, 0.0, 5.5, 0.0, 0.0]);
}

/// The types of the inputs of function `op` (a `func.func` or `gpu.func`) against `abi`: one input
/// per argument, of the argument's MLIR type, and the words of a packed call counted from the MLIR
/// types themselves (a memref of rank `r`: `3 + 2r`, anything else 1) where the ABI puts them.
fn assert_signature(context: &melior::Context, op: melior::ir::OperationRef, abi: &KernelAbi, what: &str) {
    use melior::ir::attribute::TypeAttribute;
    use melior::ir::operation::OperationLike;
    use melior::ir::r#type::{FunctionType, MemRefType, ShapedTypeLike, TypeLike};
    let ty = op.attribute("function_type").expect("a function type");
    let ty = FunctionType::try_from(TypeAttribute::try_from(ty).expect("a type attribute").value()).unwrap();
    assert_eq!(ty.input_count(), abi.args().len(), "{what}: {ty}");
    let mut words = 0;
    for (i, a) in abi.args().iter().enumerate() {
        let input = ty.input(i).unwrap();
        assert_eq!(input, kernel_codegen::abi::arg_type(context, a.ty), "{what}: argument {i} ({:?}) in {ty}", a.arg);
        assert_eq!(a.first_word, words, "{what}: the first word of argument {i} ({:?})", a.arg);
        words += if input.is_mem_ref() { 3 + 2 * MemRefType::try_from(input).unwrap().rank() } else { 1 };
    }
    assert_eq!(abi.word_count(), words, "{what}: words of a packed call");
}

/// The kernel ABI (`arrayc_core::abi::KernelAbi`, by which every launcher packs its words) against
/// the code generator, for blocks with and without a fault cell, a chunked scan, an axis split and
/// a reduction over everything, on every target: the arguments the ABI lists are the ones written
/// out here; the CPU kernel's MLIR function, the GPU's `gpu.func` and the emulation's function have
/// exactly the ABI's arguments, types and word positions; and the words of a packed call are the
/// parameters of the CPU kernel's LLVM function and of the GPU kernel's PTX entry (counted by LLVM's
/// own lowering of the memrefs).
#[test]
fn kernel_signatures_follow_the_abi() {
    use arrayc_core::abi::{KernelArg::*, Target, GRID_COORDS};
    use arrayc_passes::kernel_layout::launch_plan;
    use melior::ir::{block::BlockLike, Location, Module};
    let (i1, f1, f2) = (arr(DType::I64, 1), arr(DType::F64, 1), arr(DType::F64, 2));
    let pow = ComputeFn::Binary(BinFn::Pow);
    let cumsum = ComputeFn::Scan(ReduceKind::Sum, 0);
    // (kernel, its CPU arguments after the parameters, its GPU arguments after them)
    let cases = [
        (
            kernel("ew", &[f1, f1, sc(DType::F64)], &[(ComputeFn::Binary(BinFn::Add), 0, vec![1, 2])]),
            vec![ChunkLo, ChunkHi],
            vec![],
        ),
        (kernel("pow", &[i1, i1, i1], &[(pow, 0, vec![1, 2])]), vec![FaultCell, ChunkLo, ChunkHi], vec![FaultCell]),
        (
            kernel("scan", &[i1, i1], &[(cumsum, 0, vec![1])]),
            vec![ScanCarries, ScanPass, ChunkLo, ChunkHi],
            vec![ScanCarries, ScanPass],
        ),
        (
            kernel("powscan", &[i1, i1, i1, i1], &[(pow, 1, vec![2, 3]), (cumsum, 0, vec![1])]),
            vec![FaultCell, ScanCarries, ScanPass, ChunkLo, ChunkHi],
            vec![FaultCell, ScanCarries, ScanPass],
        ),
        (
            kernel("axis", &[f1, f2], &[(ComputeFn::Reduce(ReduceKind::Sum, Some(0)), 0, vec![1])]),
            vec![ChunkLo, ChunkHi, AxisLo, AxisHi],
            vec![],
        ),
        (
            kernel(
                "all",
                &[arr(DType::I64, 0), arr(DType::Bool, 2)],
                &[(ComputeFn::Reduce(ReduceKind::Sum, None), 0, vec![1])],
            ),
            vec![ChunkLo, ChunkHi],
            vec![Partials(0)],
        ),
    ];
    for (f, cpu, gpu) in cases {
        let name = f.name.clone();
        let plan = launch_plan(&f).unwrap();
        let l = &plan.layout;
        let flags = (!l.faults.is_empty(), l.chunked_scan, l.axis_split, l.reduces_all);
        let want_flags =
            (cpu.contains(&FaultCell), cpu.contains(&ScanCarries), cpu.contains(&AxisLo), gpu.contains(&Partials(0)));
        assert_eq!(flags, want_flags, "{name}: the block's layout");
        let params = (0..f.params.len()).map(Param);
        let grid = GRID_COORDS.map(Grid);
        let emulated: Vec<_> = params.clone().chain(gpu.iter().copied()).chain(grid).collect();
        for (target, want) in [
            (Target::Cpu, params.clone().chain(cpu).collect::<Vec<_>>()),
            (Target::Gpu, params.clone().chain(gpu).collect()),
            (Target::GpuEmulated, emulated),
        ] {
            let got: Vec<_> = plan.abi(target).args().iter().map(|a| a.arg).collect();
            assert_eq!(got, want, "{name} on {target:?}");
        }
        let m = module(vec![f.clone()]);

        // The CPU kernel and its LLVM function.
        let context = kernel_codegen::context(false);
        let cpu = kernel_codegen::cpu_kernels_module(&context, &[&f], 4).unwrap();
        let op = cpu.body().first_operation().expect("the kernel");
        let abi = plan.abi(Target::Cpu);
        assert_signature(&context, op, &abi, &format!("{name} on the CPU"));
        let ll = jit::llvm_ir(&m).unwrap();
        let define =
            ll.lines().find(|l| l.starts_with(&format!("define void @{name}("))).expect("the kernel's LLVM function");
        assert_eq!(define.matches('%').count(), abi.word_count(), "{name}: {define}");

        // The GPU kernel, its emulation and its PTX entry.
        let context = kernel_codegen::context(true);
        let gm = kernel_codegen::gpu::gpu_container(&context);
        kernel_codegen::gpu::build_gpu_kernel(&context, &gm, &f).unwrap();
        let op = kernel_codegen::gpu::gpu_body(&gm).first_operation().expect("the gpu.func");
        let abi = plan.abi(Target::Gpu);
        assert_signature(&context, op, &abi, &format!("{name} on the GPU"));
        let em = Module::new(Location::unknown(&context));
        kernel_codegen::gpu::build_emulated_kernel(&context, &em, &f).unwrap();
        let op = em.body().first_operation().expect("the emulated kernel");
        assert_signature(&context, op, &plan.abi(Target::GpuEmulated), &format!("{name} emulated"));
        let (ptx, ..) = arrayc_codegen::ptx::compile(&m, None).unwrap();
        let entry = ptx.split(&format!(".entry {name}(")).nth(1).expect("the kernel's PTX entry");
        let params = entry.split(')').next().unwrap_or_default().matches(".param").count();
        assert_eq!(params, abi.word_count(), "{name}: {entry}");
    }
}

// ------------------------------------------------ fused blocks with array contraction (Sec. IV-A)

/// A kernel whose operands are `params` (positions `0..params.len()`) and contracted temporaries
/// `temps` (positions `params.len()..`): non-parameter array values created inside the block.
fn kernel_t(name: &str, params: &[Type], temps: &[Type], ops: &[OpSpec]) -> ir::Func {
    let mut f = kernel(name, params, &[]);
    f.body.clear();
    let mut ids: Vec<ValueId> = f.params.clone();
    for &t in temps {
        ids.push(f.new_value(t, None));
    }
    for (func, out, ins) in ops {
        let kind = OpKind::Compute { func: *func, out: ids[*out], ins: ins.iter().map(|&i| ids[i]).collect() };
        f.body.push(ir::Op { kind, loc: None, block: None });
    }
    f.body.push(ir::Op { kind: OpKind::Return { values: vec![] }, loc: None, block: None });
    f
}

#[test]
fn fused_chain_contracts_temporaries() {
    // t = a * b; u = t + c; out = sqrt(u) with t, u contracted (positions 4, 5).
    let f2 = arr(DType::F64, 2);
    let f = kernel_t(
        "chain",
        &[f2, f2, f2, f2],
        &[f2, f2],
        &[
            (ComputeFn::Binary(BinFn::Mul), 4, vec![0, 1]),
            (ComputeFn::Binary(BinFn::Add), 5, vec![4, 2]),
            (ComputeFn::Unary(UnFn::Sqrt), 3, vec![5]),
        ],
    );
    assert!(kernel_codegen::fusible_block(&f));
    let text = kernel_codegen::kernel_to_mlir(&f).unwrap();
    // Only the parameters are touched in memory: 3 loads (a, b, c), 1 store (out); no allocation.
    assert_eq!(text.matches("memref.store").count(), 1, "{text}");
    assert_eq!(text.matches("memref.load").count(), 3, "{text}");
    assert!(!text.contains("alloc"), "{text}"); // the temporaries are SSA scalars: never allocated
    let jk = compile1(f);
    let sh = [300i64, 250]; // 75000 elements: several chunks
    let n = 75_000;
    let (a, b, c) = (vals(n, 61), vals(n, 62), vals(n, 63));
    let (va, vb, vc) = (fview(&sh, &a), fview(&sh, &b), fview(&sh, &c));
    let o = zeros(DType::F64, &sh);
    jk.launch("chain", &[rv(&va), rv(&vb), rv(&vc), rv(&o)]).unwrap();
    let want: Vec<Scalar> = (0..n).map(|i| Scalar::F64((a[i] * b[i] + c[i]).sqrt())).collect();
    assert_close(&elems(&o), &want, "chain");
    // Shape checks still apply to every view parameter.
    let bad = zeros(DType::F64, &[300, 249]);
    let e = jk.launch("chain", &[rv(&va), rv(&vb), rv(&bad), rv(&o)]).unwrap_err().to_string();
    assert_eq!(e, "shape mismatch: operand 2 has shape (300, 249) but the kernel iterates over (300, 250)");
}

#[test]
fn fig1_in_place_temporary() {
    // Fig. 1 style: fill t 0; add t t a; mul out t b — t (position 4) updated in place, never stored.
    let f1 = arr(DType::F64, 1);
    let f = kernel_t(
        "fig1",
        &[f1, f1, f1, sc(DType::F64)],
        &[f1],
        &[
            (ComputeFn::Fill, 4, vec![3]),
            (ComputeFn::Binary(BinFn::Add), 4, vec![4, 0]),
            (ComputeFn::Binary(BinFn::Mul), 2, vec![4, 1]),
        ],
    );
    let text = kernel_codegen::kernel_to_mlir(&f).unwrap();
    assert_eq!(text.matches("memref.store").count(), 1, "{text}");
    assert_eq!(text.matches("memref.load").count(), 2, "{text}");
    let jk = compile1(f);
    let n = 100_000;
    let (a, b) = (vals(n, 71), vals(n, 72));
    let o = zeros(DType::F64, &[n as i64]);
    jk.launch("fig1", &[rv(&fview(&[n as i64], &a)), rv(&fview(&[n as i64], &b)), rv(&o), rs(Scalar::F64(0.25))])
        .unwrap();
    let got = o.to_f64_vec();
    for i in 0..n {
        assert_eq!(got[i], (0.25 + a[i]) * b[i], "element {i}");
    }
}

#[test]
fn fused_reduce_all_of_contracted_product() {
    // o = sum(a * b + one) with t = a * b and u = t + one contracted (positions 4, 5).
    let f2 = arr(DType::F64, 2);
    let f = kernel_t(
        "sum_ab1",
        &[arr(DType::F64, 0), f2, f2, sc(DType::F64)],
        &[f2, f2],
        &[
            (ComputeFn::Binary(BinFn::Mul), 4, vec![1, 2]),
            (ComputeFn::Binary(BinFn::Add), 5, vec![4, 3]),
            (ComputeFn::Reduce(ReduceKind::Sum, None), 0, vec![5]),
        ],
    );
    assert!(kernel_codegen::fusible_block(&f));
    let text = kernel_codegen::kernel_to_mlir(&f).unwrap();
    assert_eq!(text.matches("memref.store").count(), 1, "{text}");
    // a and b once per iteration: SUM_ACCUMULATORS iterations in the split loop, one in the rest's.
    assert_eq!(text.matches("memref.load").count(), 2 * (kernel_codegen::SUM_ACCUMULATORS + 1), "{text}");
    let jk = compile1(f);
    let sh = [1000i64, 200]; // 200K elements: several chunks
    let n = 200_000;
    let (a, b) = (vals(n, 81), vals(n, 82));
    let (va, vb) = (fview(&sh, &a), fview(&sh, &b));
    let run = |jk: &jit::JitKernels| {
        let o = zeros(DType::F64, &[]);
        jk.launch("sum_ab1", &[rv(&o), rv(&va), rv(&vb), rs(Scalar::F64(1.0))]).unwrap();
        o.to_f64_vec()[0]
    };
    let seq: f64 = (0..n).map(|i| a[i] * b[i] + 1.0).sum();
    let mag: f64 = (0..n).map(|i| (a[i] * b[i]).abs() + 1.0).sum();
    let got = run(&jk);
    assert!((got - seq).abs() <= 1e-12 * mag, "{got} vs {seq}");
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let three = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let eight = rayon::ThreadPoolBuilder::new().num_threads(8).build().unwrap();
    assert_eq!(one.install(|| run(&jk)).to_bits(), got.to_bits());
    assert_eq!(three.install(|| run(&jk)).to_bits(), got.to_bits());
    assert_eq!(eight.install(|| run(&jk)).to_bits(), got.to_bits());
    // Empty input: the identity.
    let o = fview(&[], &[5.0]);
    let e = zeros(DType::F64, &[0, 200]);
    jk.launch("sum_ab1", &[rv(&o), rv(&e), rv(&e), rs(Scalar::F64(1.0))]).unwrap();
    assert_eq!(o.to_f64_vec(), vec![0.0]);
    // The reduction output must be 0-d.
    assert!(jk.launch("sum_ab1", &[rv(&zeros(DType::F64, &[1])), rv(&va), rv(&vb), rs(Scalar::F64(1.0))]).is_err());
}

#[test]
fn fused_axis_reductions_with_contracted_producer() {
    // t = a * b (contracted, position 4); p = t (a materialized copy); o = max/sum(t, axis).
    let f2 = arr(DType::F64, 2);
    let mk = |name: &str, kind: ReduceKind, axis: usize| {
        kernel_t(
            name,
            &[arr(DType::F64, 1), f2, f2, f2],
            &[f2],
            &[
                (ComputeFn::Binary(BinFn::Mul), 4, vec![1, 2]),
                (ComputeFn::Copy, 3, vec![4]),
                (ComputeFn::Reduce(kind, Some(axis)), 0, vec![4]),
            ],
        )
    };
    let ks = [
        ("sum0", ReduceKind::Sum, 0usize),
        ("sum1", ReduceKind::Sum, 1),
        ("max0", ReduceKind::Max, 0),
        ("max1", ReduceKind::Max, 1),
    ];
    let funcs: Vec<ir::Func> = ks.iter().map(|&(n, k, a)| mk(n, k, a)).collect();
    for (f, &(_, kind, axis)) in funcs.iter().zip(&ks) {
        let text = kernel_codegen::kernel_to_mlir(f).unwrap();
        // t is contracted: never stored or loaded. Along axis 1 (the last) the accumulator is a loop
        // value: stores p and loads a and b once per iteration (a sum's loop: SUM_ACCUMULATORS
        // iterations in the split loop, one in the rest's), stores o once. Along axis 0 it lives in
        // o: o is also initialised and loaded once per element.
        let k = if kind == ReduceKind::Sum { kernel_codegen::SUM_ACCUMULATORS + 1 } else { 1 };
        let (stores, loads) = if axis == 1 { (k + 1, 2 * k) } else { (3, 3) };
        assert_eq!(text.matches("memref.store").count(), stores, "{text}");
        assert_eq!(text.matches("memref.load").count(), loads, "{text}");
    }
    let m = module(funcs);
    let jk = jit::compile(&m, None).unwrap();
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    for sh in [[7i64, 5], [400, 300]] {
        let (r, c) = (sh[0] as usize, sh[1] as usize);
        let (a, b) = (vals(r * c, 91), vals(r * c, 92));
        let (va, vb) = (fview(&sh, &a), fview(&sh, &b));
        for &(name, kind, axis) in &ks {
            let osh = [sh[1 - axis]];
            let run = || {
                let (o, p) = (zeros(DType::F64, &osh), zeros(DType::F64, &sh));
                jk.launch(name, &[rv(&o), rv(&va), rv(&vb), rv(&p)]).unwrap();
                (o.to_f64_vec(), p.to_f64_vec())
            };
            let (got, gp) = run();
            assert_eq!(one.install(run).0, got);
            for i in 0..r * c {
                assert_eq!(gp[i], a[i] * b[i], "{name}: p[{i}]");
            }
            for (j, g) in got.iter().enumerate() {
                let xs: Vec<f64> = (0..sh[axis] as usize)
                    .map(|k| if axis == 0 { a[k * c + j] * b[k * c + j] } else { a[j * c + k] * b[j * c + k] })
                    .collect();
                // [400, 300]: the axis split into chunks.
                assert_eq!(*g, in_launch_order(kind, &xs, osh[0], axis == 1), "{name} {sh:?}: out[{j}]");
            }
            // Wrong output shape.
            let bad = zeros(DType::F64, &[sh[axis] + 1]);
            let e =
                jk.launch(name, &[rv(&bad), rv(&va), rv(&vb), rv(&zeros(DType::F64, &sh))]).unwrap_err().to_string();
            assert!(e.contains("shape mismatch"), "{e}");
        }
    }
}

#[test]
fn small_outputs_split_the_axis_among_chunks() {
    // A long axis into few outputs (a tall narrow sum(x, axis=0), a middle axis of a 3-d input, the
    // last axis): the launcher splits the axis, each chunk writes partial outputs (accumulated in
    // them, or stored from loop values along the last axis), combined in chunk order.
    for (sh, axis) in [(vec![50_001i64, 3], 0usize), (vec![3, 30_001, 4], 1), (vec![3, 70_001], 1)] {
        let n: i64 = sh.iter().product();
        // Values near 1 so that products stay finite.
        let x: Vec<f64> = vals(n as usize, 61).into_iter().map(|v| 1.0 + v / 1000.0).collect();
        let vx = fview(&sh, &x);
        let mut osh = sh.clone();
        osh.remove(axis);
        let out_elems: i64 = osh.iter().product();
        for kind in KINDS {
            let f = kernel(
                "r",
                &[arr(DType::F64, osh.len()), arr(DType::F64, sh.len())],
                &[(ComputeFn::Reduce(kind, Some(axis)), 0, vec![1])],
            );
            // The axis loop's bounds are placeholders (`ChunkBound::AxisLo`, `AxisHi`) for the CPU
            // target, which gives it bounds of its own.
            let text = kernel_codegen::kernel_to_mlir(&f).unwrap();
            assert!(text.contains("{arrayc.chunk_bound = 3 : index}"), "{text}");
            let m = module(vec![f]);
            let mlir = jit::kernels_mlir(&m).unwrap();
            assert!(!mlir.contains("arrayc.chunk_bound") && mlir.contains("index, %arg5: index)"), "{mlir}");
            let jk = jit::compile(&m, None).unwrap();
            let run = || {
                let o = zeros(DType::F64, &osh);
                jk.launch("r", &[rv(&o), rv(&vx)]).unwrap();
                o.to_f64_vec()
            };
            let got = run();
            let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
            let four = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
            assert_eq!(one.install(run), got, "{kind:?} {sh:?}: 1 thread");
            assert_eq!(four.install(run), got, "{kind:?} {sh:?}: 4 threads");
            let strides: Vec<i64> = (0..sh.len()).map(|d| sh[d + 1..].iter().product()).collect();
            for (j, g) in got.iter().enumerate() {
                // The input offset of out[j] (row-major) at index 0 of the axis.
                let mut rest = j as i64;
                let mut base = 0;
                for d in (0..sh.len()).rev().filter(|&d| d != axis) {
                    base += rest % sh[d] * strides[d];
                    rest /= sh[d];
                }
                let xs: Vec<f64> = (0..sh[axis]).map(|k| x[(base + k * strides[axis]) as usize]).collect();
                assert!(
                    same_f64(*g, in_launch_order(kind, &xs, out_elems, axis + 1 == sh.len())),
                    "{kind:?} {sh:?}: out[{j}]"
                );
            }
        }
    }
}

#[test]
fn several_reductions_along_one_axis_share_a_loop_nest() {
    // t = a * b (contracted, position 3); o1 = sum(t, axis); o2 = max(a, axis) — one kernel with two
    // reductions, along the first axis (accumulated in the outputs) and the last (loop values).
    let f2 = arr(DType::F64, 2);
    let mk = |name: &str, axis: usize| {
        kernel_t(
            name,
            &[arr(DType::F64, 1), arr(DType::F64, 1), f2, f2],
            &[f2],
            &[
                (ComputeFn::Binary(BinFn::Mul), 4, vec![2, 3]),
                (ComputeFn::Reduce(ReduceKind::Sum, Some(axis)), 0, vec![4]),
                (ComputeFn::Reduce(ReduceKind::Max, Some(axis)), 1, vec![2]),
            ],
        )
    };
    let m = module(vec![mk("two0", 0), mk("two1", 1)]);
    let jk = jit::compile(&m, None).unwrap();
    for sh in [[7i64, 5], [300, 200]] {
        let (r, c) = (sh[0] as usize, sh[1] as usize);
        let (a, b) = (vals(r * c, 93), vals(r * c, 94));
        let (va, vb) = (fview(&sh, &a), fview(&sh, &b));
        for (name, axis) in [("two0", 0usize), ("two1", 1)] {
            let osh = [sh[1 - axis]];
            let (o1, o2) = (zeros(DType::F64, &osh), zeros(DType::F64, &osh));
            jk.launch(name, &[rv(&o1), rv(&o2), rv(&va), rv(&vb)]).unwrap();
            let at = |k: usize, j: usize| if axis == 0 { k * c + j } else { j * c + k };
            for j in 0..osh[0] as usize {
                let prods: Vec<f64> = (0..sh[axis] as usize).map(|k| a[at(k, j)] * b[at(k, j)]).collect();
                let xs: Vec<f64> = (0..sh[axis] as usize).map(|k| a[at(k, j)]).collect();
                let want =
                    if axis == 1 { ref_split(ReduceKind::Sum, &prods) } else { ref_reduce(ReduceKind::Sum, &prods) };
                assert_eq!(o1.to_f64_vec()[j], want, "{name} {sh:?}: o1[{j}]");
                assert_eq!(o2.to_f64_vec()[j], ref_reduce(ReduceKind::Max, &xs), "{name} {sh:?}: o2[{j}]");
            }
            // The second output's shape is checked too.
            let bad = zeros(DType::F64, &[osh[0] + 1]);
            let e = jk.launch(name, &[rv(&o1), rv(&bad), rv(&va), rv(&vb)]).unwrap_err().to_string();
            assert!(e.contains("shape mismatch"), "{e}");
        }
    }
    // Reductions over everything share a kernel too: one accumulator each, each result the one
    // its own kernel gives (Robinson et al. 2014, Fig. 1).
    let all = kernel_t(
        "all",
        &[arr(DType::F64, 0), arr(DType::F64, 0), arr(DType::I64, 0), f2],
        &[],
        &[
            (ComputeFn::Reduce(ReduceKind::Sum, None), 0, vec![3]),
            (ComputeFn::Reduce(ReduceKind::Max, None), 1, vec![3]),
            (ComputeFn::Reduce(ReduceKind::Sum, None), 2, vec![3]),
        ],
    );
    assert!(kernel_codegen::fusible_block(&all));
    let jk = compile1(all);
    for sh in [[7i64, 5], [300, 2000], [0, 3]] {
        let a = vals((sh[0] * sh[1]) as usize, 95);
        let va = fview(&sh, &a);
        let (o1, o2, o3) = (zeros(DType::F64, &[]), zeros(DType::F64, &[]), zeros(DType::I64, &[]));
        if sh[0] == 0 {
            // An empty space: the identities (max's is checked by the front end's assert).
            jk.launch("all", &[rv(&o1), rv(&o2), rv(&o3), rv(&va)]).unwrap();
            assert_eq!((o1.to_f64_vec()[0], o3.to_f64_vec()[0]), (0.0, 0.0));
            continue;
        }
        jk.launch("all", &[rv(&o1), rv(&o2), rv(&o3), rv(&va)]).unwrap();
        let sum = ref_reduce(ReduceKind::Sum, &a);
        assert!((o1.to_f64_vec()[0] - sum).abs() <= 1e-9 * sum.abs().max(1.0), "{sh:?}: sum");
        assert_eq!(o2.to_f64_vec()[0], ref_reduce(ReduceKind::Max, &a), "{sh:?}: max");
        assert_eq!(o3.to_f64_vec()[0], a.iter().map(|&x| x as i64).sum::<i64>() as f64, "{sh:?}: i64 sum");
    }
    // Reductions along different axes do not share a kernel.
    let cross = kernel_t(
        "cross",
        &[arr(DType::F64, 1), arr(DType::F64, 1), f2],
        &[],
        &[
            (ComputeFn::Reduce(ReduceKind::Sum, Some(0)), 0, vec![2]),
            (ComputeFn::Reduce(ReduceKind::Max, Some(1)), 1, vec![2]),
        ],
    );
    assert!(!kernel_codegen::fusible_block(&cross));
}

#[test]
fn param_written_then_read_is_forwarded() {
    // add a, a, x; mul y, a, two — y uses the new a; a is loaded once and stored once.
    let f1 = arr(DType::F64, 1);
    let f = kernel(
        "fwd",
        &[f1, f1, f1, sc(DType::F64)],
        &[(ComputeFn::Binary(BinFn::Add), 0, vec![0, 1]), (ComputeFn::Binary(BinFn::Mul), 2, vec![0, 3])],
    );
    let text = kernel_codegen::kernel_to_mlir(&f).unwrap();
    assert_eq!(text.matches("memref.load").count(), 2, "{text}"); // a, x
    assert_eq!(text.matches("memref.store").count(), 2, "{text}"); // a, y
    let jk = compile1(f);
    let n = 70_000;
    let (a, x) = (vals(n, 101), vals(n, 102));
    let (va, vx, vy) = (fview(&[n as i64], &a), fview(&[n as i64], &x), zeros(DType::F64, &[n as i64]));
    jk.launch("fwd", &[rv(&va), rv(&vx), rv(&vy), rs(Scalar::F64(2.0))]).unwrap();
    let (ga, gy) = (va.to_f64_vec(), vy.to_f64_vec());
    for i in 0..n {
        assert_eq!(ga[i], a[i] + x[i]);
        assert_eq!(gy[i], (a[i] + x[i]) * 2.0);
    }
    // A written parameter is forwarded in its own dtype: an i64 out read back by a float op.
    let f = kernel(
        "fwd_i",
        &[arr(DType::I64, 1), f1, f1],
        &[(ComputeFn::Copy, 0, vec![1]), (ComputeFn::Binary(BinFn::Add), 2, vec![0, 1])],
    );
    let jk = compile1(f);
    let (vi, vz) = (zeros(DType::I64, &[3]), zeros(DType::F64, &[3]));
    jk.launch("fwd_i", &[rv(&vi), rv(&fview(&[3], &[1.5, -2.5, 3.25])), rv(&vz)]).unwrap();
    assert_eq!(elems(&vi), vec![Scalar::I64(1), Scalar::I64(-2), Scalar::I64(3)]);
    assert_eq!(vz.to_f64_vec(), vec![2.5, -4.5, 6.25]);
}

#[test]
fn unsupported_blocks_are_rejected_before_the_jit() {
    let (f0, f1) = (arr(DType::F64, 0), arr(DType::F64, 1));
    let sum = ComputeFn::Reduce(ReduceKind::Sum, None);
    let add = ComputeFn::Binary(BinFn::Add);
    let rejected = [
        // An op after the reduction.
        kernel("after", &[f0, f1, f1], &[(sum, 0, vec![1]), (add, 2, vec![1, 1])]),
        // Two reductions, one over everything, one along an axis.
        kernel(
            "two",
            &[f0, f1, arr(DType::F64, 2)],
            &[(sum, 0, vec![2]), (ComputeFn::Reduce(ReduceKind::Sum, Some(0)), 1, vec![2])],
        ),
        // The reduction output used by the elementwise part.
        kernel("outused", &[f0, f1], &[(ComputeFn::Fill, 0, vec![1]), (sum, 0, vec![1])]),
        // A temporary read before it is written.
        kernel_t("early", &[f1, f1], &[f1], &[(add, 0, vec![2, 1]), (ComputeFn::Copy, 2, vec![1])]),
        // A contracted temporary of another rank than the iteration space.
        kernel_t("rank", &[f1, f1], &[arr(DType::F64, 2)], &[(ComputeFn::Copy, 2, vec![1]), (add, 0, vec![2, 1])]),
        // A reduction of a contracted temporary without a view to take its shape from.
        kernel_t("noshape", &[f0, sc(DType::F64)], &[f1], &[(ComputeFn::Fill, 2, vec![1]), (sum, 0, vec![2])]),
        // A contracted reduction output.
        kernel_t("tmpout", &[f1], &[f0], &[(sum, 1, vec![0])]),
    ];
    for f in &rejected {
        assert!(!kernel_codegen::fusible_block(f), "@{} accepted", f.name);
        assert!(kernel_codegen::kernel_to_mlir(f).is_err(), "@{}", f.name);
        assert!(jit::compile(&module(vec![f.clone()]), None).is_err(), "@{}", f.name);
    }
    // No view parameter at all: the kernel does nothing and launches fine.
    let f = kernel_t("noview", &[sc(DType::F64)], &[f1], &[(ComputeFn::Fill, 1, vec![0])]);
    assert!(kernel_codegen::fusible_block(&f));
    let jk = compile1(f);
    jk.launch("noview", &[rs(Scalar::F64(1.0))]).unwrap();
}

/// `minimum`, `maximum` and `%` on signed zeros, NaN and infinities, in f64 and f32, against NumPy
/// 2.4's results (taken with `np.minimum(a, b)`, `np.maximum(a, b)`, `np.remainder(a, b)`), compared
/// bit for bit (signs of zeros included; any NaN for NaN); and min/max reductions over signed zeros
/// and NaN, which are IEEE 754's `minimum`/`maximum` (docs/language.md: -0.0 below 0.0 in any order,
/// NaN propagates), where NumPy's `np.min`/`np.max` give either zero depending on the length
/// (`np.min([-0.0, 0.0])` is 0.0, the later element, but `np.min([0.0] * 20 + [-0.0] + [0.0] * 20)`
/// is 0.0 too).
#[test]
fn numpy_signed_zeros_nan_min_max_remainder() {
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    let a = [-0.0, 0.0, nan, 1.0, nan, -0.0, 2.0, 0.0, -0.0, -3.0, 3.0, 5.5, inf, 1.0];
    let b = [0.0, -0.0, 1.0, nan, nan, -0.0, 2.0, -1.0, 1.0, inf, -inf, -2.0, 2.0, 0.0];
    let min = [0.0, -0.0, nan, nan, nan, -0.0, 2.0, -1.0, -0.0, -3.0, -inf, -2.0, 2.0, 0.0];
    let max = [0.0, -0.0, nan, nan, nan, -0.0, 2.0, 0.0, 1.0, inf, 3.0, 5.5, inf, 1.0];
    let rem = [nan, nan, nan, nan, nan, nan, 0.0, -0.0, 0.0, inf, -inf, -0.5, nan, nan];
    let same_bits = |got: f64, want: f64| (got.is_nan() && want.is_nan()) || got.to_bits() == want.to_bits();
    for d in [DType::F64, DType::F32] {
        let ops = [(BinFn::Minimum, "min", &min), (BinFn::Maximum, "max", &max), (BinFn::Rem, "rem", &rem)];
        let funcs = ops
            .iter()
            .map(|&(op, name, _)| {
                kernel(name, &[arr(d, 1), arr(d, 1), arr(d, 1)], &[(ComputeFn::Binary(op), 0, vec![1, 2])])
            })
            .chain([
                kernel("rmin", &[arr(d, 0), arr(d, 1)], &[(ComputeFn::Reduce(ReduceKind::Min, None), 0, vec![1])]),
                kernel("rmax", &[arr(d, 0), arr(d, 1)], &[(ComputeFn::Reduce(ReduceKind::Max, None), 0, vec![1])]),
            ])
            .collect();
        let jk = jit::compile(&module(funcs), None).unwrap();
        let cast =
            |xs: &[f64]| view(d, &[xs.len() as i64], &xs.iter().map(|&x| Scalar::F64(x).cast(d)).collect::<Vec<_>>());
        let f64s = |v: &View| elems(v).iter().map(|s| s.cast(DType::F64).as_f64()).collect::<Vec<f64>>();
        let (va, vb) = (cast(&a), cast(&b));
        for (_, name, want) in ops {
            let o = zeros(d, &[a.len() as i64]);
            jk.launch(name, &[rv(&o), rv(&va), rv(&vb)]).unwrap();
            for (i, (g, w)) in f64s(&o).into_iter().zip(want.iter()).enumerate() {
                assert!(same_bits(g, *w), "{d:?} {name}({}, {}) = {g}, NumPy gives {w}", a[i], b[i]);
            }
        }
        // IEEE 754 minimum/maximum: -0.0 below 0.0 whatever the order; NaN propagates.
        for (name, xs, want) in [
            ("rmin", vec![-0.0, 0.0], -0.0),
            ("rmin", vec![0.0, -0.0], -0.0),
            ("rmax", vec![0.0, -0.0], 0.0),
            ("rmax", vec![-0.0, 0.0], 0.0),
            ("rmin", vec![1.0, nan, 0.0], nan),
            ("rmax", vec![nan, 1.0], nan),
        ] {
            let o = zeros(d, &[]);
            jk.launch(name, &[rv(&o), rv(&cast(&xs))]).unwrap();
            let g = f64s(&o)[0];
            assert!(same_bits(g, want), "{d:?} {name}({xs:?}) = {g}, IEEE 754 gives {want}");
        }
    }
}

/// The JIT's compile groups: every kernel in exactly one group, in module order within a group, at
/// most `n` groups, the work (body ops) balanced: the largest group is within one kernel of the
/// ideal (longest processing time first).
#[test]
fn compile_groups_cover_every_kernel_once_and_balance_work() {
    let funcs: Vec<ir::Func> = (0..9)
        .map(|i| {
            let ops: Vec<OpSpec> = (0..1 + (i * 7) % 5).map(|_| (ComputeFn::Copy, 0, vec![1])).collect();
            kernel(&format!("k{i}"), &[arr(DType::F64, 1), arr(DType::F64, 1)], &ops)
        })
        .collect();
    let refs: Vec<&ir::Func> = funcs.iter().collect();
    for n in [1, 2, 3, 4, 16] {
        let groups = jit::compile_groups(&refs, n);
        assert!(!groups.is_empty() && groups.len() <= n.min(refs.len()), "n = {n}");
        for g in &groups {
            assert!(g.windows(2).all(|w| w[0] < w[1]), "module order within a group: {g:?}");
        }
        let mut seen: Vec<usize> = groups.iter().flatten().copied().collect();
        seen.sort();
        assert_eq!(seen, (0..refs.len()).collect::<Vec<_>>(), "n = {n}");
        let work = |g: &Vec<usize>| g.iter().map(|&i| refs[i].body.len() + 1).sum::<usize>();
        let total: usize = refs.iter().map(|f| f.body.len() + 1).sum();
        let biggest = refs.iter().map(|f| f.body.len() + 1).max().unwrap();
        let max = groups.iter().map(work).max().unwrap();
        assert!(max <= total / groups.len() + biggest, "n = {n}: max group work {max} of {total}");
    }
    assert!(jit::compile_groups(&[], 4).is_empty());
}

/// The kernel cache is keyed per kernel, whatever its name: two kernels with the same code are
/// compiled once (one group, one object file, one kernel entry), a second compile reads both from
/// that file, a module that adds a kernel compiles only the new one, and a kernel whose object
/// file is gone is compiled again.
#[test]
fn the_kernel_cache_shares_code_between_names_and_modules() {
    use arrayc_codegen::jit::CacheOutcome;
    use arrayc_passes::disk_cache::DiskCache;
    let binary = |name: &str, op: BinFn| {
        kernel(
            name,
            &[arr(DType::F64, 1), arr(DType::F64, 1), arr(DType::F64, 1)],
            &[(ComputeFn::Binary(op), 0, vec![1, 2])],
        )
    };
    let add = |name: &str| binary(name, BinFn::Add);
    let dir = tempfile::tempdir().unwrap();
    let cache = DiskCache::new(dir.path().to_path_buf(), 1 << 30);
    let entries =
        || std::fs::read_dir(dir.path()).unwrap().filter(|e| e.as_ref().unwrap().path().extension().is_some()).count();
    let first = jit::compile(&module(vec![add("a"), add("b")]), Some(&cache)).unwrap();
    assert_eq!(
        (first.groups, first.objects_read, &first.cache[..]),
        (1, 0, &[CacheOutcome::Miss, CacheOutcome::Miss][..])
    );
    assert_eq!(first.get("a").unwrap().0 .0 as usize, first.get("b").unwrap().0 .0 as usize, "compiled once");
    assert_eq!(entries(), 2, "one object file and one kernel entry");
    let again = jit::compile(&module(vec![add("b"), add("c")]), Some(&cache)).unwrap();
    assert_eq!(
        (again.groups, again.objects_read, &again.cache[..]),
        (0, 1, &[CacheOutcome::Hit, CacheOutcome::Hit][..])
    );
    let more = jit::compile(&module(vec![add("x"), binary("m", BinFn::Mul)]), Some(&cache)).unwrap();
    assert_eq!((more.groups, more.objects_read, &more.cache[..]), (1, 1, &[CacheOutcome::Hit, CacheOutcome::Miss][..]));
    // An object file evicted (or removed) while kernel entries still name it: those kernels are
    // compiled again, not an error.
    // (Kernel entries are a key and a name; object files are kilobytes.)
    for path in std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()) {
        if std::fs::metadata(&path).unwrap().len() > 1000 {
            std::fs::remove_file(path).unwrap();
        }
    }
    let evicted = jit::compile(&module(vec![add("e")]), Some(&cache)).unwrap();
    assert_eq!((evicted.groups, evicted.objects_read, &evicted.cache[..]), (1, 0, &[CacheOutcome::Miss][..]));
    let sh = [5i64];
    let (x, y) = (view(DType::F64, &sh, &[Scalar::F64(1.5); 5]), view(DType::F64, &sh, &[Scalar::F64(2.0); 5]));
    let cases = [(&again, "b", 3.5), (&again, "c", 3.5), (&more, "x", 3.5), (&more, "m", 3.0), (&evicted, "e", 3.5)];
    for (jk, name, want) in cases {
        let out = zeros(DType::F64, &sh);
        jk.launch(name, &[rv(&out), rv(&x), rv(&y)]).unwrap();
        assert_eq!(elems(&out), vec![Scalar::F64(want); 5], "@{name}");
    }
}

/// The GPU target's PTX goes through the compile cache like the CPU's object code: compiled and
/// stored once, then read back unchanged; a damaged entry is detected, removed and replaced.
#[test]
fn ptx_is_cached_and_a_damaged_entry_is_replaced() {
    use arrayc_codegen::jit::CacheOutcome;
    use arrayc_codegen::ptx;
    use arrayc_passes::disk_cache::DiskCache;
    let f = kernel("k", &[arr(DType::F64, 2), arr(DType::F64, 2)], &[(ComputeFn::Binary(BinFn::Add), 0, vec![0, 1])]);
    let m = module(vec![f]);
    let dir = tempfile::tempdir().unwrap();
    let cache = DiskCache::new(dir.path().to_path_buf(), 1 << 30);
    let (first, plans, outcome) = ptx::compile(&m, Some(&cache)).unwrap();
    assert_eq!((outcome, plans.len()), (CacheOutcome::Miss, 1));
    assert!(first.contains(".entry k(") && first.contains(".target sm_90"), "{first}");
    let (second, _, outcome) = ptx::compile(&m, Some(&cache)).unwrap();
    assert_eq!((outcome, &second), (CacheOutcome::Hit, &first));
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        std::fs::write(&path, bytes).unwrap();
    }
    let (third, _, outcome) = ptx::compile(&m, Some(&cache)).unwrap();
    assert!(matches!(outcome, CacheOutcome::Replaced(_)), "{outcome:?}");
    assert_eq!(third, first);
}

/// On the GPU a block whose scatters all add into `f64`, `f32` or `i64` runs on the whole grid,
/// each add a `memref.atomic_rmw` (repeated indices accumulate in any order), while a scatter that
/// sets, or adds into `bool`, keeps the one-thread, row-major launch (the last write wins, as in
/// NumPy); the CPU runs every block with a scatter in order.
#[test]
fn gpu_scatter_adds_are_atomic() {
    use arrayc_dialect::ir::{ScatterKind, ScatterMode};
    use arrayc_passes::kernel_layout::kernel_layout;
    use arrayc_runtime::gpu::{launch_geometry, UNKNOWN_DEVICE};
    let scatter = |kind| ComputeFn::Scatter(kind, ScatterMode::Raise);
    let add = scatter(ScatterKind::Add);
    let set = scatter(ScatterKind::Set);
    let n = 100_000;
    // (ops, target dtype, whole grid on the GPU)
    let cases: [(Vec<OpSpec>, DType, bool); 5] = [
        (vec![(add, 0, vec![1, 2])], DType::F64, true),
        (vec![(add, 0, vec![1, 2])], DType::I64, true),
        (vec![(add, 0, vec![1, 2])], DType::Bool, false),
        (vec![(set, 0, vec![1, 2])], DType::F64, false),
        (vec![(add, 0, vec![1, 2]), (set, 3, vec![1, 2])], DType::F64, false),
    ];
    for (ops, d, parallel) in cases {
        let f = kernel("k", &[arr(d, 1), arr(DType::I64, 1), arr(d, 1), arr(d, 1)], &ops);
        let layout = kernel_layout(&f).unwrap();
        assert!(layout.in_order(), "the CPU runs every scatter in order");
        let geometry = launch_geometry(&layout, &[n], UNKNOWN_DEVICE).unwrap();
        assert_eq!(geometry != (1, 1, 1), parallel, "{ops:?} into {d:?}: {geometry:?}");
        let text = arrayc_codegen::ptx::gpu_mlir(&module(vec![f])).unwrap();
        let atomic_adds =
            text.matches("memref.atomic_rmw addf").count() + text.matches("memref.atomic_rmw addi").count();
        let want = if d == DType::Bool { 0 } else { ops.iter().filter(|(func, ..)| *func == add).count() };
        assert_eq!(atomic_adds, want, "{ops:?} into {d:?}:\n{text}");
    }
}

/// On the GPU, the float functions NVPTX has an instruction for are calls of LLVM's intrinsics
/// (no `math` op, which `convert-gpu-to-nvvm` would make a libdevice call), in f64 and f32, and
/// `exp` of f64 (arrayc's own, with fma and roundeven) uses only those; `sin` stays `math.sin`
/// (libdevice). The emulation of the same kernel, which the CPU compiles, keeps the `math` ops.
#[test]
fn gpu_native_math_functions_are_llvm_intrinsics() {
    use melior::ir::{Location, Module};
    let native = [
        (UnFn::Abs, "llvm.fabs"),
        (UnFn::Sqrt, "llvm.sqrt"),
        (UnFn::Rint, "llvm.roundeven"),
        (UnFn::Floor, "llvm.floor"),
        (UnFn::Ceil, "llvm.ceil"),
        (UnFn::Trunc, "llvm.trunc"),
    ];
    for (d, suffix) in [(DType::F64, "f64"), (DType::F32, "f32")] {
        for (func, intrinsic) in native {
            let f = kernel("k", &[arr(d, 1), arr(d, 1)], &[(ComputeFn::Unary(func), 0, vec![1])]);
            let text = arrayc_codegen::ptx::gpu_mlir(&module(vec![f.clone()])).unwrap();
            let call = format!("llvm.call_intrinsic \"{intrinsic}.{suffix}\"");
            assert!(text.contains(&call) && !text.contains("math."), "{func:?} of {d:?}:\n{text}");
            let context = kernel_codegen::context(true);
            let em = Module::new(Location::unknown(&context));
            kernel_codegen::gpu::build_emulated_kernel(&context, &em, &f).unwrap();
            let emulated = em.as_operation().to_string();
            assert!(!emulated.contains("llvm.call_intrinsic"), "{func:?} of {d:?} emulated:\n{emulated}");
        }
    }
    let copysign = kernel("k", &[arr(DType::F64, 1); 3], &[(ComputeFn::Binary(BinFn::Copysign), 0, vec![1, 2])]);
    let text = arrayc_codegen::ptx::gpu_mlir(&module(vec![copysign])).unwrap();
    assert!(text.contains("llvm.call_intrinsic \"llvm.copysign.f64\"") && !text.contains("math."), "{text}");
    let exp = kernel("k", &[arr(DType::F64, 1); 2], &[(ComputeFn::Unary(UnFn::Exp), 0, vec![1])]);
    let text = arrayc_codegen::ptx::gpu_mlir(&module(vec![exp])).unwrap();
    assert!(text.contains("\"llvm.fma.f64\"") && text.contains("\"llvm.roundeven.f64\""), "{text}");
    assert!(!text.contains("math."), "{text}");
    let sin = kernel("k", &[arr(DType::F64, 1); 2], &[(ComputeFn::Unary(UnFn::Sin), 0, vec![1])]);
    let text = arrayc_codegen::ptx::gpu_mlir(&module(vec![sin])).unwrap();
    assert!(text.contains("math.sin") && !text.contains("llvm.call_intrinsic"), "{text}");
}

/// A 1-d block of integer scans runs as a chunked scan (a totals pass, the carries, a final pass)
/// where any grouping gives the sequential result; a float scan, a scan of a scan, a 2-d scan and a
/// block that runs in order keep the sequential loop. A filter's block (positions scanned from the
/// mask, then a scatter that drops) is chunked and no longer in order. Launched over several
/// chunks, chunked scans of every kind match a sequential loop (sums and products wrap).
#[test]
fn integer_scans_run_chunked() {
    use arrayc_dialect::ir::{ScatterKind, ScatterMode};
    use arrayc_passes::kernel_layout::kernel_layout;
    let scan = |k| ComputeFn::Scan(k, 0);
    let sum = scan(ReduceKind::Sum);
    let filter = |mode| {
        let ops = vec![(sum, 0, vec![1]), (ComputeFn::Scatter(ScatterKind::Set, mode), 2, vec![0, 3])];
        (vec![arr(DType::I64, 1), arr(DType::Bool, 1), arr(DType::F64, 1), arr(DType::F64, 1)], ops)
    };
    let two = |d: DType, r: usize| vec![arr(d, r), arr(d, r)];
    type Block = (Vec<Type>, Vec<OpSpec>);
    let cases: [(Block, bool); 7] = [
        ((two(DType::I64, 1), vec![(sum, 0, vec![1])]), true),
        ((vec![arr(DType::I64, 1), arr(DType::Bool, 1)], vec![(sum, 0, vec![1])]), true),
        ((two(DType::F64, 1), vec![(sum, 0, vec![1])]), false),
        ((vec![arr(DType::I64, 1); 3], vec![(sum, 0, vec![1]), (sum, 2, vec![0])]), false),
        ((two(DType::I64, 2), vec![(sum, 0, vec![1])]), false),
        (filter(ScatterMode::Drop), true),
        (filter(ScatterMode::Raise), false),
    ];
    for ((params, ops), chunked) in cases {
        let layout = kernel_layout(&kernel("k", &params, &ops)).unwrap();
        assert_eq!(layout.chunked_scan, chunked, "{ops:?}");
        assert_eq!(layout.in_order(), ops.iter().any(|(_, _, ins)| ins.len() == 2) && !chunked, "{ops:?}");
    }

    let n = 3 * CHUNK_ELEMS as usize + 17;
    let xs = ivals(n, 7);
    for kind in [ReduceKind::Sum, ReduceKind::Prod, ReduceKind::Min, ReduceKind::Max] {
        // Products of values near 1 and -1 and of large ones wrap.
        let xs: Vec<i64> =
            xs.iter().map(|&x| if kind == ReduceKind::Prod { x % 3 + (x & 1) * (1 << 40) } else { x }).collect();
        let f = kernel("k", &two(DType::I64, 1), &[(scan(kind), 0, vec![1])]);
        let jk = compile1(f);
        let input = view(DType::I64, &[n as i64], &xs.iter().map(|&x| Scalar::I64(x)).collect::<Vec<_>>());
        let out = zeros(DType::I64, &[n as i64]);
        jk.launch("k", &[rv(&out), rv(&input)]).unwrap();
        let mut acc: Option<i64> = None;
        let want: Vec<Scalar> = xs
            .iter()
            .map(|&x| {
                let y = match (kind, acc) {
                    (_, None) => x,
                    (ReduceKind::Sum, Some(a)) => a.wrapping_add(x),
                    (ReduceKind::Prod, Some(a)) => a.wrapping_mul(x),
                    (ReduceKind::Min, Some(a)) => a.min(x),
                    (ReduceKind::Max, Some(a)) => a.max(x),
                    (ReduceKind::ArgMin | ReduceKind::ArgMax, Some(_)) => unreachable!("scans are of values"),
                };
                acc = Some(y);
                Scalar::I64(y)
            })
            .collect();
        assert_eq!(elems(&out), want, "{kind:?}");
    }
}
