//! OpenBLAS's `cblas_dgemm`/`cblas_sgemm`, loaded at run time, for `arr.matmul` (issue 32: the
//! matrix product within 1.1x of NumPy's `@`, which calls OpenBLAS).
//!
//! The system's OpenBLAS (Debian's `libopenblas0-pthread`, installed by `scripts/setup.sh`) is
//! opened with `dlopen` the first time a product runs, so neither the compiler nor an `arrayc
//! build` executable links against it: where it is missing, or where `ARRAYC_BLAS=faer` is set,
//! [`crate::matmul`] computes every product with `faer` as before. OpenBLAS takes only views it can
//! describe (one unit stride per matrix, the other at least the row length, sizes that fit its
//! 32-bit integers); the others go to `faer` too. Only `libopenblas.so.0` is tried, never the
//! generic `libblas.so.3`, which may be the slow reference BLAS.

use std::sync::OnceLock;

/// The library names tried, in order.
const LIBRARIES: &[&str] = &["libopenblas.so.0", "libopenblas.so"];

/// Products of fewer multiply-adds (`n * k * m`) stay with faer: opening OpenBLAS (a 30 MB library
/// that starts its threads when loaded) costs a few milliseconds once per process, more than
/// OpenBLAS saves on a product of `400 x 400 x 400` (measured: `benchmarks/matmul.py`, REPORT-e2e).
pub const MIN_MULTIPLY_ADDS: i64 = 1 << 27;

/// `CblasRowMajor`, `CblasNoTrans`, `CblasTrans` of `cblas.h`.
const ROW_MAJOR: i32 = 101;
const NO_TRANS: i32 = 111;
const TRANS: i32 = 112;

/// `cblas_?gemm(order, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)`.
type Gemm<T> = unsafe extern "C" fn(i32, i32, i32, i32, i32, i32, T, *const T, i32, *const T, i32, T, *mut T, i32);

/// The loaded library and its entry points (the library stays open for the process's life).
pub(crate) struct OpenBlas {
    dgemm: Gemm<f64>,
    sgemm: Gemm<f32>,
    set_num_threads: unsafe extern "C" fn(i32),
    _lib: libloading::Library,
}

static OPENBLAS: OnceLock<Option<OpenBlas>> = OnceLock::new();

/// OpenBLAS, opened on first use; `None` where it is not installed or `ARRAYC_BLAS=faer`.
fn openblas() -> Option<&'static OpenBlas> {
    OPENBLAS
        .get_or_init(|| {
            if std::env::var("ARRAYC_BLAS").is_ok_and(|v| v == "faer") {
                return None;
            }
            LIBRARIES.iter().find_map(|name| {
                // SAFETY: loading OpenBLAS runs its initialisers, which only set up its own state
                // (thread pool, CPU detection); it exports plain C functions.
                let lib = unsafe { libloading::Library::new(name) }.ok()?;
                // SAFETY: the symbols are OpenBLAS's CBLAS functions, whose C signatures `Gemm`
                // and `fn(i32)` match (LP64 interface: 32-bit `int` sizes).
                unsafe {
                    let dgemm = *lib.get::<Gemm<f64>>(b"cblas_dgemm\0").ok()?;
                    let sgemm = *lib.get::<Gemm<f32>>(b"cblas_sgemm\0").ok()?;
                    let set_num_threads = *lib.get::<unsafe extern "C" fn(i32)>(b"openblas_set_num_threads\0").ok()?;
                    Some(OpenBlas { dgemm, sgemm, set_num_threads, _lib: lib })
                }
            })
        })
        .as_ref()
}

/// Whether `arr.matmul` uses OpenBLAS in this process (for `--time` and the benchmarks).
pub fn available() -> bool {
    openblas().is_some()
}

/// A matrix of `rows x cols` elements at `ptr` with strides `(s0, s1)` in elements as CBLAS takes
/// it in row-major order: `(transposed, leading dimension)`, or `None` when it cannot (no unit
/// stride, a leading dimension below the row length, or sizes beyond `i32`).
fn layout(rows: i64, cols: i64, s0: i64, s1: i64) -> Option<(bool, i32)> {
    let fits = |x: i64| i32::try_from(x).ok();
    if (s1 == 1 || cols == 1) && s0 >= cols.max(1) {
        Some((false, fits(s0)?))
    } else if (s0 == 1 || rows == 1) && s1 >= rows.max(1) {
        Some((true, fits(s1)?))
    } else {
        None
    }
}

/// A float type OpenBLAS multiplies.
pub(crate) trait Gemmable: Copy {
    /// Its `cblas_?gemm`.
    fn gemm(blas: &OpenBlas) -> Gemm<Self>;
    /// One and zero.
    const ONE: Self;
    const ZERO: Self;
}

impl Gemmable for f64 {
    fn gemm(blas: &OpenBlas) -> Gemm<f64> {
        blas.dgemm
    }
    const ONE: f64 = 1.0;
    const ZERO: f64 = 0.0;
}

impl Gemmable for f32 {
    fn gemm(blas: &OpenBlas) -> Gemm<f32> {
        blas.sgemm
    }
    const ONE: f32 = 1.0;
    const ZERO: f32 = 0.0;
}

/// A matrix operand: its first element, shape `(rows, cols)` and strides in elements.
pub(crate) struct Operand<T> {
    pub(crate) ptr: *const T,
    pub(crate) rows: i64,
    pub(crate) cols: i64,
    pub(crate) strides: (i64, i64),
}

/// `c = a @ b` by OpenBLAS (`a` is `n x k`, `b` `k x m`, `c` `n x m`, `k >= 1`, `n, m >= 1`), on as
/// many threads as rayon's current pool has. Returns `false`, having done nothing, for a product of
/// fewer than [`MIN_MULTIPLY_ADDS`], where OpenBLAS is not installed (or `ARRAYC_BLAS=faer`), or
/// where it cannot describe one of the views ([`layout`]: `c` must be row-major).
///
/// # Safety
/// Every element of the three views lies in memory valid for the call, `c`'s elements are
/// distinct and overlap neither input, and nothing else accesses them during the call.
pub(crate) unsafe fn gemm<T: Gemmable>(c: (*mut T, (i64, i64)), a: &Operand<T>, b: &Operand<T>) -> bool {
    let (n, k, m) = (a.rows, a.cols, b.cols);
    if n.saturating_mul(k).saturating_mul(m) < MIN_MULTIPLY_ADDS {
        return false;
    }
    let Some(blas) = openblas() else { return false };
    let (Some((ta, lda)), Some((tb, ldb)), Some((false, ldc))) = (
        layout(a.rows, a.cols, a.strides.0, a.strides.1),
        layout(b.rows, b.cols, b.strides.0, b.strides.1),
        layout(n, m, c.1 .0, c.1 .1),
    ) else {
        return false;
    };
    let (Ok(n32), Ok(k32), Ok(m32)) = (i32::try_from(n), i32::try_from(k), i32::try_from(m)) else {
        return false;
    };
    let threads = i32::try_from(rayon::current_num_threads()).unwrap_or(1);
    // SAFETY: `openblas_set_num_threads` only sets OpenBLAS's own thread count; the product's
    // operands are described exactly by `layout` (row-major, leading dimensions at least the row
    // length), and the caller guarantees the memory.
    unsafe {
        (blas.set_num_threads)(threads);
        T::gemm(blas)(
            ROW_MAJOR,
            if ta { TRANS } else { NO_TRANS },
            if tb { TRANS } else { NO_TRANS },
            n32,
            m32,
            k32,
            T::ONE,
            a.ptr,
            lda,
            b.ptr,
            ldb,
            T::ZERO,
            c.0,
            ldc,
        );
    }
    true
}
