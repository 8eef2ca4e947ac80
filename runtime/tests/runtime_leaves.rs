//! Tests for the leaf modules of the runtime: `rng`, `npy`, `print`, and the traffic count of `array`.
//!
//! Tests that compare against NumPy run `python3` (or `$ARRAYC_TEST_PYTHON`). NumPy is part of the
//! set-up (`scripts/setup.sh`), so they fail, naming what to install, when `import numpy` fails:
//! a comparison that did not run must not pass.

use arrayc_core::DType;
use arrayc_runtime::array::{launch_traffic, Scalar, View};
use arrayc_runtime::npy::{read_npy, write_npy, write_scalar_npy, NpyError};
use arrayc_runtime::print::{format_scalar, format_view};
use arrayc_runtime::rng::{fill_uniform, fill_uniform_chunked, philox4x32_10, uniform_f64};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A new zero-filled array (`View::zeros`); the tests' sizes always fit in memory.
fn zeros(dtype: DType, shape: &[i64]) -> View {
    View::zeros(dtype, shape).expect("a test array fits in memory")
}

// ---------------------------------------------------------------- helpers

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arrayc-rt-{}-{}", std::process::id(), name));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn from_scalars(dtype: DType, shape: &[i64], vals: &[Scalar]) -> View {
    let v = zeros(dtype, shape);
    assert_eq!(v.len() as usize, vals.len());
    for (i, s) in vals.iter().enumerate() {
        v.write_at(i as i64, *s);
    }
    v
}

fn f64s(shape: &[i64], vals: &[f64]) -> View {
    from_scalars(DType::F64, shape, &vals.iter().map(|&x| Scalar::F64(x)).collect::<Vec<_>>())
}
fn f32s(shape: &[i64], vals: &[f32]) -> View {
    from_scalars(DType::F32, shape, &vals.iter().map(|&x| Scalar::F32(x)).collect::<Vec<_>>())
}
fn i64s(shape: &[i64], vals: &[i64]) -> View {
    from_scalars(DType::I64, shape, &vals.iter().map(|&x| Scalar::I64(x)).collect::<Vec<_>>())
}
fn bools(shape: &[i64], vals: &[bool]) -> View {
    from_scalars(DType::Bool, shape, &vals.iter().map(|&x| Scalar::Bool(x)).collect::<Vec<_>>())
}

fn elements(v: &View) -> Vec<Scalar> {
    let mut out = Vec::new();
    v.for_each(|s| out.push(s));
    out
}

/// Bitwise element equality (so NaN == NaN and -0.0 != 0.0).
fn same(a: &[Scalar], b: &[Scalar]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Scalar::F64(x), Scalar::F64(y)) => x.to_bits() == y.to_bits(),
            (Scalar::F32(x), Scalar::F32(y)) => x.to_bits() == y.to_bits(),
            _ => x == y,
        })
}

fn read_err(p: &Path) -> NpyError {
    match read_npy(p) {
        Ok(_) => panic!("reading {} should fail", p.display()),
        Err(e) => e,
    }
}

fn python() -> String {
    std::env::var("ARRAYC_TEST_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// Panics, naming what to install, unless python with numpy can be run.
fn require_numpy(test: &str) {
    let ok = Command::new(python()).args(["-c", "import numpy"]).output().map(|o| o.status.success()).unwrap_or(false);
    assert!(
        ok,
        "{test} compares with NumPy, but `{} -c 'import numpy'` failed: run `bash scripts/setup.sh` \
         (or `pip install numpy`), or point ARRAYC_TEST_PYTHON at a python3 with numpy",
        python()
    );
}

fn run_python(script: &str, args: &[&Path]) -> String {
    let out = Command::new(python()).arg("-c").arg(script).args(args).output().expect("run python");
    assert!(out.status.success(), "python failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

// ---------------------------------------------------------------- rng

#[test]
fn philox_known_answers() {
    // Random123 kat_vectors for philox4x32_10.
    assert_eq!(philox4x32_10([0; 4], [0; 2]), [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
    assert_eq!(philox4x32_10([0xffffffff; 4], [0xffffffff; 2]), [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]);
    assert_eq!(
        philox4x32_10([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0]),
        [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
    );
}

#[test]
fn uniform_matches_recipe() {
    for &(seed, k) in &[(0u64, 0u64), (42, 7), (u64::MAX, u64::MAX), (0x1234_5678_9abc_def0, 1 << 40)] {
        let out = philox4x32_10([k as u32, (k >> 32) as u32, 0, 0], [seed as u32, (seed >> 32) as u32]);
        let bits = (((out[0] as u64) << 32) | out[1] as u64) >> 11;
        assert_eq!(uniform_f64(seed, k), bits as f64 / 9007199254740992.0);
    }
    // counter=0, key=0: out[0..2] = 6627e8d5 e169c58d.
    assert_eq!(uniform_f64(0, 0), (0x6627e8d5e169c58du64 >> 11) as f64 * 2f64.powi(-53));
}

#[test]
fn fill_uniform_independent_of_threads_and_chunks() {
    let n = 100_003;
    let fill = |threads: usize, chunk: usize| {
        let v = zeros(DType::F64, &[n]);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| fill_uniform_chunked(&v, 9, chunk));
        v.to_f64_vec()
    };
    let reference: Vec<f64> = (0..n as u64).map(|k| uniform_f64(9, k)).collect();
    assert_eq!(fill(1, 1 << 14), reference);
    assert_eq!(fill(8, 1 << 14), reference);
    assert_eq!(fill(8, 1), reference[..].to_vec());
    assert_eq!(fill(3, 777), reference);
    let v = zeros(DType::F64, &[n]);
    fill_uniform(&v, 9);
    assert_eq!(v.to_f64_vec(), reference);
}

#[test]
fn fill_uniform_strided_views_use_row_major_positions() {
    // A reversed, transposed 2-d view of a 3x4 base: element k of the view gets uniform(seed, k).
    let base = zeros(DType::F64, &[3, 4]);
    let view = View { offset: 11, shape: vec![4, 3], strides: vec![-1, -4], ..base.clone() };
    fill_uniform_chunked(&view, 5, 5);
    let got = view.to_f64_vec();
    let want: Vec<f64> = (0..12).map(|k| uniform_f64(5, k)).collect();
    assert_eq!(got, want);
    // 0-d.
    let z = zeros(DType::F64, &[]);
    fill_uniform(&z, 3);
    assert_eq!(z.to_f64_vec(), vec![uniform_f64(3, 0)]);
}

#[test]
fn uniform_statistics() {
    let n = 1_000_000;
    let v = zeros(DType::F64, &[1000, 1000]);
    fill_uniform(&v, 0);
    let xs = v.to_f64_vec();
    assert_eq!(xs.len(), n);
    assert!(xs.iter().all(|&x| (0.0..1.0).contains(&x)));
    let mean = xs.iter().sum::<f64>() / n as f64;
    assert!((mean - 0.5).abs() < 0.002, "mean {mean}");
    // Different seeds give different streams.
    assert_ne!(uniform_f64(0, 0), uniform_f64(1, 0));
}

// ---------------------------------------------------------------- npy

fn sample_views() -> Vec<(&'static str, View)> {
    let f: Vec<f64> = (0..24).map(|i| i as f64 * 0.25 - 3.0).collect();
    let base = f64s(&[5], &[1.0, 2.0, 3.0, 4.0, 5.0]);
    let reversed = View { offset: 4, strides: vec![-2], shape: vec![3], ..base };
    vec![
        ("f64_0d", f64s(&[], &[2.5])),
        ("f64_1d", f64s(&[4], &[0.1, -0.0, f64::NAN, f64::INFINITY])),
        ("f64_3d", f64s(&[2, 3, 4], &f)),
        ("f64_rev", reversed),
        ("f64_empty", f64s(&[2, 0], &[])),
        ("f32_1d", f32s(&[3], &[0.1, -1.5, f32::MAX])),
        ("f32_0d", f32s(&[], &[7.0])),
        ("i64_2d", i64s(&[2, 3], &[1, -2, 3, i64::MAX, i64::MIN, 0])),
        ("i64_0d", i64s(&[], &[-9])),
        ("bool_3d", bools(&[2, 1, 2], &[true, false, false, true])),
        ("bool_0d", bools(&[], &[true])),
    ]
}

#[test]
fn npy_round_trip() {
    let dir = tmp_dir("roundtrip");
    for (name, v) in sample_views() {
        let p = dir.join(format!("{name}.npy"));
        write_npy(&p, &v).unwrap();
        let r = read_npy(&p).unwrap();
        assert_eq!(r.dtype, v.dtype, "{name}");
        assert_eq!(r.shape, v.shape, "{name}");
        assert_eq!(r.strides, arrayc_core::shape::row_major_strides(&v.shape), "{name}");
        assert!(same(&elements(&r), &elements(&v)), "{name}");
    }
    // A broadcast (zero-stride) view.
    let one = f64s(&[3], &[1.0, 2.0, 3.0]);
    let bc = View { shape: vec![2, 3], strides: vec![0, 1], ..one };
    let p = dir.join("bc.npy");
    write_npy(&p, &bc).unwrap();
    assert_eq!(read_npy(&p).unwrap().to_f64_vec(), vec![1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
    // Scalars.
    for s in [Scalar::F64(-0.5), Scalar::F32(3.25), Scalar::I64(42), Scalar::Bool(false)] {
        let p = dir.join("scalar.npy");
        write_scalar_npy(&p, s).unwrap();
        let r = read_npy(&p).unwrap();
        assert_eq!(r.shape, Vec::<i64>::new());
        assert_eq!(r.read_at(0), s);
    }
    // No temporary files left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn npy_errors() {
    let dir = tmp_dir("errors");
    let missing = dir.join("missing.npy");
    let e = read_err(&missing);
    assert!(matches!(e, NpyError::NotFound { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains("missing.npy") && msg.contains("no such file"), "{msg}");

    let garbage = dir.join("garbage.npy");
    std::fs::write(&garbage, b"this is not an npy file at all, just some text\n").unwrap();
    let e = read_err(&garbage);
    assert!(matches!(e, NpyError::NotNpy { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(
        msg.contains("garbage.npy") && msg.contains("not a valid .npy file") && msg.contains("numpy.save"),
        "{msg}"
    );

    let empty = dir.join("empty.npy");
    std::fs::write(&empty, b"").unwrap();
    assert!(matches!(read_err(&empty), NpyError::NotNpy { .. }));

    // Truncated data.
    let good = dir.join("good.npy");
    write_npy(&good, &f64s(&[100], &[1.5; 100])).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    let trunc = dir.join("trunc.npy");
    std::fs::write(&trunc, &bytes[..bytes.len() - 12]).unwrap();
    let e = read_err(&trunc);
    assert!(matches!(e, NpyError::NotNpy { .. }), "{e:?}");

    // Unsupported dtype: patch '<f8' into '<f2' (float16; same header length) with matching data size.
    let small = dir.join("small.npy");
    write_npy(&small, &f64s(&[2], &[1.0, 2.0])).unwrap();
    let b = std::fs::read(&small).unwrap();
    let at = b.windows(3).position(|w| w == b"<f8").unwrap();
    let mut patched = b[..b.len() - 16].to_vec();
    patched[at + 1..at + 3].copy_from_slice(b"f2");
    patched.extend_from_slice(&[1, 0, 2, 0]);
    let f2 = dir.join("f2.npy");
    std::fs::write(&f2, &patched).unwrap();
    let e = read_err(&f2);
    assert!(matches!(e, NpyError::UnsupportedDType { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains("f2.npy") && msg.contains("<f2") && msg.contains("astype"), "{msg}");

    // Writing into a missing directory fails cleanly and leaves nothing behind.
    let bad = dir.join("no/such/dir/out.npy");
    let e = write_npy(&bad, &f64s(&[1], &[1.0])).unwrap_err();
    assert!(e.to_string().contains("out.npy"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn npy_interop_with_numpy() {
    require_numpy("npy_interop_with_numpy");
    let dir = tmp_dir("numpy");
    // numpy writes, we read.
    let script = r#"
import numpy as np, sys, os
d = sys.argv[1]
np.save(os.path.join(d, 'a.npy'), np.arange(24, dtype=np.float64).reshape(2, 3, 4) / 8)
np.save(os.path.join(d, 'b.npy'), np.array([1.5, -2.25], dtype=np.float32))
np.save(os.path.join(d, 'c.npy'), np.array([[1, -2], [3, 4]], dtype=np.int64))
np.save(os.path.join(d, 'd.npy'), np.array([True, False, True]))
np.save(os.path.join(d, 'e.npy'), np.asfortranarray(np.arange(6, dtype=np.float64).reshape(2, 3)))
np.save(os.path.join(d, 'f.npy'), np.array(3.5))
np.save(os.path.join(d, 'g.npy'), np.arange(4, dtype='>f8'))
np.save(os.path.join(d, 'h.npy'), np.arange(4, dtype=np.float16))
"#;
    run_python(script, &[&dir]);
    let a = read_npy(&dir.join("a.npy")).unwrap();
    assert_eq!(a.shape, vec![2, 3, 4]);
    assert_eq!(a.to_f64_vec(), (0..24).map(|i| i as f64 / 8.0).collect::<Vec<_>>());
    let b = read_npy(&dir.join("b.npy")).unwrap();
    assert_eq!((b.dtype, elements(&b)), (DType::F32, vec![Scalar::F32(1.5), Scalar::F32(-2.25)]));
    let c = read_npy(&dir.join("c.npy")).unwrap();
    assert_eq!((c.dtype, c.shape.clone()), (DType::I64, vec![2, 2]));
    assert_eq!(elements(&c), vec![Scalar::I64(1), Scalar::I64(-2), Scalar::I64(3), Scalar::I64(4)]);
    let d = read_npy(&dir.join("d.npy")).unwrap();
    assert_eq!(elements(&d), vec![Scalar::Bool(true), Scalar::Bool(false), Scalar::Bool(true)]);
    let e = read_npy(&dir.join("e.npy")).unwrap();
    assert_eq!(e.shape, vec![2, 3]);
    assert_eq!(e.to_f64_vec(), vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    let f = read_npy(&dir.join("f.npy")).unwrap();
    assert_eq!((f.shape.len(), f.to_f64_vec()), (0, vec![3.5]));
    let g = read_npy(&dir.join("g.npy")).unwrap();
    assert_eq!(g.to_f64_vec(), vec![0.0, 1.0, 2.0, 3.0]);
    assert!(matches!(read_npy(&dir.join("h.npy")), Err(NpyError::UnsupportedDType { .. })));

    // We write, numpy reads.
    let mut paths = Vec::new();
    for (name, v) in sample_views() {
        let p = dir.join(format!("w_{name}.npy"));
        write_npy(&p, &v).unwrap();
        paths.push(p);
    }
    let script = r#"
import numpy as np, sys
for p in sys.argv[1:]:
    a = np.load(p)
    print(a.dtype.str, a.shape, a.flags['C_CONTIGUOUS'], repr(a.ravel().tolist()))
"#;
    let refs: Vec<&Path> = paths.iter().map(|p| p.as_path()).collect();
    let out = run_python(script, &refs);
    let lines: Vec<&str> = out.lines().collect();
    let expect = [
        "<f8 () True [2.5]",
        "<f8 (4,) True [0.1, -0.0, nan, inf]",
        "<f8 (2, 3, 4) True [-3.0, -2.75, -2.5, -2.25, -2.0, -1.75, -1.5, -1.25, -1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75]",
        "<f8 (3,) True [5.0, 3.0, 1.0]",
        "<f8 (2, 0) True []",
        "<f4 (3,) True [0.10000000149011612, -1.5, 3.4028234663852886e+38]",
        "<f4 () True [7.0]",
        "<i8 (2, 3) True [1, -2, 3, 9223372036854775807, -9223372036854775808, 0]",
        "<i8 () True [-9]",
        "|b1 (2, 1, 2) True [True, False, False, True]",
        "|b1 () True [True]",
    ];
    assert_eq!(lines, expect);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The dtypes of `.npy` files, NumPy's names, and the value at row-major index `k` of the arrays
/// that `npy_every_dtype_and_layout_against_numpy` has NumPy write (the same formulas as its script).
const LAYOUT_DTYPES: [(DType, &str); 11] = [
    (DType::F64, "f8"),
    (DType::F32, "f4"),
    (DType::I64, "i8"),
    (DType::I32, "i4"),
    (DType::U64, "u8"),
    (DType::U8, "u1"),
    (DType::Bool, "b1"),
    (DType::I16, "i2"),
    (DType::I8, "i1"),
    (DType::U32, "u4"),
    (DType::U16, "u2"),
];

/// The arrays of [`layout_value`] as NumPy makes them (`vals`, by type string), the first lines of
/// the scripts that write and check `.npy` files.
const LAYOUT_VALUES_PY: &str = r#"
import numpy as np, sys, os
k = np.arange(3 * 5 * 7).reshape(3, 5, 7)
vals = {'f8': k * 0.5 - 20.0, 'f4': (k * 0.25 - 7.0).astype(np.float32),
        'i8': (k - 50) * 10**15, 'i4': ((k - 50) * 40_000_000).astype(np.int32),
        'u8': ((k - 50) * 10**15).astype(np.uint64), 'u1': (k * 7 % 256).astype(np.uint8), 'b1': k % 3 == 0,
        'i2': ((k - 50) * 700).astype(np.int16), 'i1': ((k - 50) * 3).astype(np.int8),
        'u4': ((k - 50) * 40_000_000).astype(np.uint32), 'u2': (k * 997 % 65536).astype(np.uint16)}
"#;

fn layout_value(dtype: DType, k: i64) -> Scalar {
    match dtype {
        DType::F64 => Scalar::F64(k as f64 * 0.5 - 20.0),
        DType::F32 => Scalar::F32((k as f64 * 0.25 - 7.0) as f32),
        DType::I64 => Scalar::I64((k - 50) * 1_000_000_000_000_000),
        // Past i32's range from k = 104 on: wrapped, as NumPy's `astype(np.int32)`.
        DType::I32 => Scalar::I32(((k - 50) * 40_000_000) as i32),
        // Negative below k = 50: wrapped, as NumPy's `astype(np.uint64)`.
        DType::U64 => Scalar::U64(((k - 50) * 1_000_000_000_000_000) as u64),
        DType::U8 => Scalar::U8((k * 7 % 256) as u8),
        DType::Bool => Scalar::Bool(k % 3 == 0),
        // Wrapped past their ranges, as NumPy's `astype`.
        DType::I16 => Scalar::I16(((k - 50) * 700) as i16),
        DType::I8 => Scalar::I8(((k - 50) * 3) as i8),
        DType::U32 => Scalar::U32(((k - 50) * 40_000_000) as u32),
        DType::U16 => Scalar::U16((k * 997 % 65536) as u16),
    }
}

/// Every dtype through the fast path (C order, the machine's byte order: one read, one write) and
/// through the converting path (big-endian, Fortran order, both), against arrays NumPy wrote, and
/// back: NumPy reads what we write, contiguous and transposed (gathered in blocks). Truncated files
/// and an invalid bool byte are errors on either path.
#[test]
fn npy_every_dtype_and_layout_against_numpy() {
    require_numpy("npy_every_dtype_and_layout_against_numpy");
    let dir = tmp_dir("layouts");
    let script = LAYOUT_VALUES_PY.to_string()
        + r#"
d = sys.argv[1]
for dt, v in vals.items():
    np.save(os.path.join(d, f'c_{dt}.npy'), v)
    np.save(os.path.join(d, f'f_{dt}.npy'), np.asfortranarray(v))
    # Fortran order with one dimension longer than 1 stores the elements as C order does.
    np.save(os.path.join(d, f'f1_{dt}.npy'), np.asfortranarray(v[1:2, :, 3:4]))
    if dt != 'b1':
        be = v.astype(v.dtype.newbyteorder('>'))
        np.save(os.path.join(d, f'be_{dt}.npy'), be)
        np.save(os.path.join(d, f'bef_{dt}.npy'), np.asfortranarray(be))
np.save(os.path.join(d, 'big.npy'), np.arange(400 * 400, dtype=np.float64).reshape(400, 400) * 0.5)
np.save(os.path.join(d, 'chunks.npy'), np.arange(2_500_000, dtype=np.float64))
"#;
    run_python(&script, &[&dir]);
    // 20 MB: read in several chunks in parallel; cut short, its last chunk ends early.
    let chunks = read_npy(&dir.join("chunks.npy")).unwrap();
    assert_eq!(chunks.to_f64_vec(), (0..2_500_000).map(|k| k as f64).collect::<Vec<_>>());
    let bytes = std::fs::read(dir.join("chunks.npy")).unwrap();
    std::fs::write(dir.join("cut_chunks.npy"), &bytes[..bytes.len() - 1]).unwrap();
    let e = read_err(&dir.join("cut_chunks.npy"));
    assert!(matches!(e, NpyError::NotNpy { .. }) && e.to_string().contains("ends early"), "{e}");
    let expected = |dtype: DType, shape: &[i64], index: &dyn Fn(i64) -> i64| -> Vec<Scalar> {
        (0..shape.iter().product::<i64>()).map(|i| layout_value(dtype, index(i))).collect()
    };
    let mut written = Vec::new();
    for (dtype, name) in LAYOUT_DTYPES {
        let mut files = vec![("c", vec![3, 5, 7]), ("f", vec![3, 5, 7]), ("f1", vec![1, 5, 1])];
        if dtype != DType::Bool {
            files.extend([("be", vec![3, 5, 7]), ("bef", vec![3, 5, 7])]);
        }
        for (layout, shape) in files {
            let file = format!("{layout}_{name}");
            let r = read_npy(&dir.join(format!("{file}.npy"))).unwrap();
            assert_eq!((r.dtype, &r.shape), (dtype, &shape), "{file}");
            assert!(r.is_contiguous(), "{file}");
            // f1 holds v[1:2, :, 3:4]: element j of it is v[1, j, 3].
            let want = if layout == "f1" {
                expected(dtype, &shape, &|j| 35 + 7 * j + 3)
            } else {
                expected(dtype, &shape, &|i| i)
            };
            assert!(same(&elements(&r), &want), "{file}: {:?}", elements(&r));
            // Truncated by one byte: an error, whichever path reads the file.
            let bytes = std::fs::read(dir.join(format!("{file}.npy"))).unwrap();
            let cut = dir.join(format!("cut_{file}.npy"));
            std::fs::write(&cut, &bytes[..bytes.len() - 1]).unwrap();
            let e = read_err(&cut);
            assert!(matches!(e, NpyError::NotNpy { .. }) && e.to_string().contains("ends early"), "{file}: {e}");
        }
        let r = read_npy(&dir.join(format!("c_{name}.npy"))).unwrap();
        let transposed = View { shape: vec![7, 5, 3], strides: vec![1, 7, 35], ..r.clone() };
        for (tag, v) in [("c", r), ("t", transposed)] {
            let p = dir.join(format!("w{tag}_{name}.npy"));
            write_npy(&p, &v).unwrap();
            written.push(p);
        }
    }
    let big = read_npy(&dir.join("big.npy")).unwrap();
    let big_t = View { strides: vec![1, 400], ..big.clone() };
    for (tag, v) in [("c", big), ("t", big_t)] {
        let p = dir.join(format!("w{tag}_big.npy"));
        write_npy(&p, &v).unwrap();
        written.push(p);
    }
    let check = LAYOUT_VALUES_PY.to_string()
        + r#"
vals['big'] = np.arange(400 * 400, dtype=np.float64).reshape(400, 400) * 0.5
for p in sys.argv[1:]:
    tag, dt = os.path.basename(p)[:-4].split('_')
    want = vals[dt] if tag == 'wc' else vals[dt].T
    got = np.load(p)
    assert got.dtype == want.dtype and got.dtype.byteorder in '<|=', (p, got.dtype)
    assert got.flags['C_CONTIGUOUS'] and np.array_equal(got, want), p
    print('ok', os.path.basename(p))
"#;
    let refs: Vec<&Path> = written.iter().map(|p| p.as_path()).collect();
    let out = run_python(&check, &refs);
    assert_eq!(out.lines().count(), written.len(), "{out}");

    // A bool byte other than 0 or 1 is invalid data (as npyz finds on the converting path).
    let mut bytes = std::fs::read(dir.join("c_b1.npy")).unwrap();
    *bytes.last_mut().unwrap() = 2;
    let bad = dir.join("bad_b1.npy");
    std::fs::write(&bad, &bytes).unwrap();
    let e = read_err(&bad);
    assert!(matches!(e, NpyError::NotNpy { .. }) && e.to_string().contains("not a bool"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------- print

#[test]
fn print_scalars() {
    let cases: &[(Scalar, &str)] = &[
        (Scalar::F64(0.1), "0.1"),
        (Scalar::F64(1.0), "1.0"),
        (Scalar::F64(-2.5), "-2.5"),
        (Scalar::F64(1e-10), "1e-10"),
        (Scalar::F64(1.5e-5), "1.5e-05"),
        (Scalar::F64(0.0001), "0.0001"),
        (Scalar::F64(1e16), "1e+16"),
        (Scalar::F64(1e15), "1000000000000000.0"),
        (Scalar::F64(123456.789), "123456.789"),
        (Scalar::F64(1.0 / 3.0), "0.3333333333333333"),
        (Scalar::F64(0.0), "0.0"),
        (Scalar::F64(-0.0), "-0.0"),
        (Scalar::F64(f64::NAN), "nan"),
        (Scalar::F64(f64::NEG_INFINITY), "-inf"),
        (Scalar::F64(1.7976931348623157e308), "1.7976931348623157e+308"),
        (Scalar::F32(0.1), "0.1"),
        (Scalar::F32(1.0 / 3.0), "0.33333334"),
        (Scalar::I64(-42), "-42"),
        (Scalar::Bool(true), "True"),
        (Scalar::Bool(false), "False"),
    ];
    for (s, want) in cases {
        assert_eq!(format_scalar(*s), *want, "{s:?}");
    }
}

#[test]
fn print_arrays_basic() {
    assert_eq!(format_view(&f64s(&[3], &[1.0, 2.0, 3.0])), "[1. 2. 3.]");
    assert_eq!(format_view(&f64s(&[3], &[0.0, 0.5, 1.0])), "[0.  0.5 1. ]");
    assert_eq!(format_view(&f64s(&[2], &[1e-5, 1.0])), "[1.e-05 1.e+00]");
    assert_eq!(format_view(&f64s(&[3], &[1.5e-5, 1.0, f64::NAN])), "[1.5e-05 1.0e+00     nan]");
    assert_eq!(format_view(&f64s(&[3], &[1.0 / 3.0, 2.0, -1.0])), "[ 0.33333333  2.         -1.        ]");
    assert_eq!(format_view(&i64s(&[3], &[1, -20, 300])), "[  1 -20 300]");
    assert_eq!(format_view(&bools(&[2], &[true, false])), "[ True False]");
    assert_eq!(format_view(&i64s(&[2, 2], &[1, 2, 3, 4])), "[[1 2]\n [3 4]]");
    assert_eq!(format_view(&i64s(&[2, 1, 2], &[1, 2, 3, 4])), "[[[1 2]]\n\n [[3 4]]]");
    assert_eq!(format_view(&f64s(&[0], &[])), "[]");
    assert_eq!(format_view(&f64s(&[], &[2.0])), "2.0");
    assert_eq!(format_view(&bools(&[], &[true])), "True");
    let long: Vec<i64> = (0..2000).collect();
    assert_eq!(format_view(&i64s(&[2000], &long)), "[   0    1    2 ... 1997 1998 1999]");
}

/// Arrays whose numpy `str()` the print test compares against.
fn print_cases() -> Vec<View> {
    let mut v = Vec::new();
    let lin =
        |n: usize, a: f64, b: f64| -> Vec<f64> { (0..n).map(|i| a + (b - a) * i as f64 / (n - 1) as f64).collect() };
    let uni = |n: usize, seed: u64| -> Vec<f64> { (0..n as u64).map(|k| uniform_f64(seed, k)).collect() };
    v.push(f64s(&[3], &[1.0, 2.0, 3.0]));
    v.push(f64s(&[3], &[0.0, 0.5, 1.0]));
    v.push(f64s(&[3], &[0.1, 0.2, 0.3]));
    v.push(f64s(&[4], &[0.1 + 0.2, 1.0 / 3.0, 2.0 / 3.0, 10.0]));
    v.push(f64s(&[2], &[1e-5, 1.0]));
    v.push(f64s(&[3], &[1.5e-5, 1.0, 2.0]));
    v.push(f64s(&[2], &[1e8, 1.0]));
    v.push(f64s(&[2], &[99999999.0, 1.0]));
    v.push(f64s(&[2], &[-1.5, 2.25]));
    v.push(f64s(&[4], &[f64::NAN, 1.0, f64::INFINITY, -f64::INFINITY]));
    v.push(f64s(&[2], &[f64::NAN, f64::INFINITY]));
    v.push(f64s(&[3], &[-f64::INFINITY, 1e-7, 2.0]));
    v.push(f64s(&[1], &[0.0]));
    v.push(f64s(&[2], &[-0.0, 1.0]));
    v.push(f64s(&[2], &[1e20, 1e-20]));
    v.push(f64s(&[3], &[1e100, -1e-100, 1.0]));
    v.push(f64s(&[2], &[123456.789, 1.0]));
    v.push(f64s(&[2], &[0.001953125, 0.5]));
    v.push(f64s(&[3], &[0.123456785, 0.5, 100.0]));
    v.push(f64s(&[2], &[999.9999999999, 1.0]));
    v.push(f64s(&[2], &[9.9999999999e-5, 1.0]));
    v.push(f64s(&[3, 4], &(0..12).map(|i| i as f64 / 7.0).collect::<Vec<_>>()));
    v.push(f64s(&[2, 3, 4], &(0..24).map(|i| i as f64 - 12.0).collect::<Vec<_>>()));
    v.push(f64s(&[100], &lin(100, 0.0, 9.9)));
    v.push(f64s(&[30], &uni(30, 1)));
    v.push(f64s(&[5, 7], &uni(35, 2)));
    v.push(f64s(&[2000], &lin(2000, 0.0, 1.0)));
    v.push(f64s(&[50, 50], &(0..2500).map(|i| i as f64).collect::<Vec<_>>()));
    v.push(f64s(&[20, 20, 20], &uni(8000, 3)));
    v.push(f64s(&[2, 1000], &uni(2000, 4)));
    v.push(f64s(&[1001, 1], &uni(1001, 5)));
    v.push(f64s(&[4], &[1e-3, 2e-3, 1.0, 0.5]));
    v.push(f64s(&[3], &[1e7, 1.5, 2e6]));
    v.push(f64s(&[3], &[5e-5, 1e-3, 0.1]));
    v.push(f64s(&[3, 20], &uni(60, 7).iter().map(|x| x * 2000.0 - 1000.0).collect::<Vec<_>>()));
    v.push(f64s(&[4, 30], &uni(120, 8).iter().map(|x| (x - 0.5) * 1e-6).collect::<Vec<_>>()));
    v.push(f64s(&[3], &[-1e-300, 1e300, f64::NAN]));
    v.push(f64s(&[3], &[2.5e-4, 0.05, 0.2]));
    v.push(f64s(&[3], &[1.0, 1.0 + 1e-12, 3.0]));
    v.push(f64s(&[2, 2, 2, 2], &(0..16).map(|i| i as f64 * 1.5).collect::<Vec<_>>()));
    v.push(f32s(&[3], &[3.4e38, 1.0, -2.0]));
    v.push(f32s(&[3], &[0.1, 0.2, 1.0 / 3.0]));
    v.push(f32s(&[4], &uni(4, 6).iter().map(|&x| x as f32).collect::<Vec<_>>()));
    v.push(f32s(&[2], &[1e-5, 3.0]));
    v.push(i64s(&[3], &[1, 2, 3]));
    v.push(i64s(&[3], &[-100, 5, 12345]));
    v.push(i64s(&[3, 3], &[1, -2, 3, 40, 5, 6, 7, 8, 900]));
    v.push(i64s(&[100], &(0..100).collect::<Vec<_>>()));
    v.push(i64s(&[2000], &(0..2000).map(|i| i * 7 - 500).collect::<Vec<_>>()));
    v.push(i64s(&[10, 10, 11], &(0..1100).collect::<Vec<_>>()));
    v.push(i64s(&[2], &[i64::MIN, i64::MAX]));
    v.push(bools(&[2], &[true, false]));
    v.push(bools(&[2], &[true, true]));
    v.push(bools(&[2, 3], &[true, false, true, false, false, true]));
    v.push(bools(&[40], &(0..40).map(|i| i % 3 == 0).collect::<Vec<_>>()));
    v.push(f64s(&[], &[1.0]));
    v.push(f64s(&[], &[0.1]));
    v.push(f64s(&[], &[1e-10]));
    v.push(f64s(&[], &[1e16]));
    v.push(f32s(&[], &[0.1]));
    v.push(i64s(&[], &[5]));
    v.push(bools(&[], &[false]));
    v.push(f64s(&[0], &[]));
    v.push(f64s(&[2, 0], &[]));
    // A reversed view.
    let base = f64s(&[6], &[0.5, 1.0, 1.5, 2.0, 2.5, 3.0]);
    v.push(View { offset: 5, strides: vec![-2], shape: vec![3], ..base });
    v
}

#[test]
fn print_matches_numpy() {
    require_numpy("print_matches_numpy");
    let dir = tmp_dir("print");
    let cases = print_cases();
    let mut paths = Vec::new();
    for (i, v) in cases.iter().enumerate() {
        let p = dir.join(format!("p{i:03}.npy"));
        write_npy(&p, v).unwrap();
        paths.push(p);
    }
    let script = r#"
import numpy as np, sys
for p in sys.argv[1:]:
    sys.stdout.write(str(np.load(p)) + "\x00")
"#;
    let refs: Vec<&Path> = paths.iter().map(|p| p.as_path()).collect();
    let out = run_python(script, &refs);
    let want: Vec<&str> = out.split('\0').collect();
    let mut failures = Vec::new();
    for (i, v) in cases.iter().enumerate() {
        let got = format_view(v);
        if got != want[i] {
            failures.push(format!("case {i} (shape {:?}):\n--- numpy\n{}\n--- ours\n{}", v.shape, want[i], got));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures.join("\n"));
}

// ---------------------------------------------------------------- traffic

/// A view of `base` with the given offset, shape and strides (elements).
fn sub(base: &View, offset: i64, shape: &[i64], strides: &[i64]) -> View {
    View { base: base.base.clone(), dtype: base.dtype, offset, shape: shape.to_vec(), strides: strides.to_vec() }
}

#[test]
fn traffic_counts_overlapping_views_of_a_base_once() {
    // A 10x10 f64 grid: the interior and its north neighbour span rows 0..9, columns 1..9.
    let g = zeros(DType::F64, &[10, 10]);
    let center = sub(&g, 11, &[8, 8], &[10, 1]);
    let north = sub(&g, 1, &[8, 8], &[10, 1]);
    // Span of the union: elements 1 ..= 88 (north starts at 1, center ends at 11 + 7*10 + 7 = 88).
    assert_eq!(launch_traffic([&center, &north]), 88 * 8);
    // A separate base adds its own bytes.
    let other = zeros(DType::F32, &[5]);
    assert_eq!(launch_traffic([&center, &north, &other]), 88 * 8 + 5 * 4);
}

#[test]
fn traffic_of_sparse_and_broadcast_views_counts_elements() {
    let g = zeros(DType::F64, &[100, 100]);
    // The diagonal: 100 elements spread over a span of 9901.
    let diag = sub(&g, 0, &[100], &[101]);
    assert_eq!(launch_traffic([&diag]), 100 * 8);
    // A row broadcast to 50 rows (stride 0) reads one row.
    let row = sub(&g, 0, &[50, 100], &[0, 1]);
    assert_eq!(launch_traffic([&row]), 100 * 8);
    // Empty views move nothing.
    assert_eq!(launch_traffic([&sub(&g, 0, &[0, 100], &[100, 1])]), 0);
}

// ---------------------------------------------------------------- checked sizes (issue 10)

#[test]
fn sizes_that_overflow_are_allocation_errors() {
    use arrayc_core::shape::checked_len;
    use arrayc_runtime::array::AllocError;
    assert_eq!(checked_len(&[1 << 62, 4]), None);
    assert_eq!(checked_len(&[3, -1]), None);
    assert_eq!(checked_len(&[0, i64::MAX, i64::MAX]), Some(0), "a zero size makes the count 0, as in NumPy");
    assert_eq!(checked_len(&[]), Some(1));
    // Fits in i64 as elements but not as bytes.
    assert!(matches!(View::zeros(DType::F64, &[1 << 61]), Err(AllocError::SizeOverflow { .. })));
    assert!(matches!(View::uninitialised(DType::I64, &[1 << 32, 1 << 32]), Err(AllocError::SizeOverflow { .. })));
    let v = zeros(DType::Bool, &[0, i64::MAX]);
    assert_eq!(v.len(), 0);
}
