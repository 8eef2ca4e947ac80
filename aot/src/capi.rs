//! The C interface of a library from `arrayc build --lib` (declared in its generated header, used
//! by its generated Python module), in the spirit of Futhark's C library back end: every host
//! function runs on plain buffers (pointer, shape, strides) through one call, `arrayc_call`.
//! Arrays are passed without copying: the function reads (and may write) the caller's memory.
//! Array results are owned by the library until `arrayc_release`.

use crate::program;
use arrayc_core::{DType, Scalar, Type};
use arrayc_exec::aot::{dtype_code, dtype_of_code};
use arrayc_exec::exec::Executor;
use arrayc_runtime::array::View;
use arrayc_runtime::value::RtValue;
use std::ffi::{c_char, c_int, c_void, CStr};

/// One argument or result (`arrayc_value` in the header).
#[repr(C)]
pub struct ArraycValue {
    /// 0: a scalar (`f` for floats, `i` for i64 and bool); 1: an array (`data`, `ndim`, `shape`,
    /// `strides`).
    pub kind: c_int,
    /// The dtype code (`arrayc_exec::aot::DTYPE_CODES`).
    pub dtype: c_int,
    pub f: f64,
    pub i: i64,
    /// The address of the element at index `[0, .., 0]`.
    pub data: *mut c_void,
    pub ndim: i64,
    /// `ndim` sizes and `ndim` strides, in elements (strides may be negative or zero).
    pub shape: *const i64,
    pub strides: *const i64,
    /// For an array result: the library's handle, freed by `arrayc_release`; else null.
    pub owner: *mut c_void,
}

/// Copies `message` into the caller's `error` buffer of `len` bytes (truncated, NUL-terminated).
///
/// # Safety
/// `error` is null, or points to `len` writable bytes.
unsafe fn set_error(error: *mut c_char, len: usize, message: &str) {
    if error.is_null() || len == 0 {
        return;
    }
    let n = message.len().min(len - 1);
    std::ptr::copy_nonoverlapping(message.as_ptr() as *const c_char, error, n);
    *error.add(n) = 0;
}

/// The run-time value of argument `a` for a parameter of type `t`.
///
/// # Safety
/// For an array, `a.shape` and `a.strides` point to `a.ndim` elements each, and every element the
/// view addresses from `a.data` is valid memory of its dtype for as long as the returned value
/// lives (`View::borrowed`'s contract), as the C API's documentation asks of its caller.
unsafe fn argument(name: &str, a: &ArraycValue, t: Type) -> Result<RtValue, String> {
    let d = dtype_of_code(a.dtype).ok_or_else(|| format!("argument `{name}`: unknown dtype code {}", a.dtype))?;
    match (a.kind, t) {
        (0, Type::Scalar(want)) => {
            let s = match d {
                DType::F64 => Scalar::F64(a.f),
                DType::F32 => Scalar::F32(a.f as f32),
                DType::Bool => Scalar::Bool(a.i != 0),
                // A uint64 travels as its bits in the int64_t `i` (`(uint64_t)v.i`).
                DType::U64 => Scalar::U64(a.i as u64),
                d => {
                    let (lo, hi) = d.int_range().expect("an integer dtype");
                    if !(lo..=hi).contains(&a.i.into()) {
                        return Err(format!("argument `{name}`: {} is out of {}'s range", a.i, d.numpy_name()));
                    }
                    Scalar::I64(a.i).cast(d)
                }
            };
            Ok(RtValue::Scalar(s.cast(want)))
        }
        (1, Type::Array(want, rank)) => {
            if d != want || a.ndim != rank as i64 {
                return Err(format!(
                    "argument `{name}`: a {}-d {} array, but the parameter is a {rank}-d {} array",
                    a.ndim,
                    d.name(),
                    want.name()
                ));
            }
            let (shape, strides) = if rank == 0 {
                (vec![], vec![])
            } else {
                (
                    std::slice::from_raw_parts(a.shape, rank).to_vec(),
                    std::slice::from_raw_parts(a.strides, rank).to_vec(),
                )
            };
            Ok(RtValue::View(View::borrowed(d, a.data as *mut u8, &shape, &strides)?))
        }
        (_, Type::Scalar(_)) => Err(format!("argument `{name}` must be a scalar")),
        (_, Type::Array(..)) => Err(format!("argument `{name}` must be an array")),
    }
}

/// Writes result `r` into `out` (an array result keeps its view alive in `out.owner`).
fn result(r: RtValue, out: &mut ArraycValue) {
    *out = ArraycValue {
        kind: 0,
        dtype: 0,
        f: 0.0,
        i: 0,
        data: std::ptr::null_mut(),
        ndim: 0,
        shape: std::ptr::null(),
        strides: std::ptr::null(),
        owner: std::ptr::null_mut(),
    };
    match r {
        RtValue::Scalar(s) => {
            out.dtype = dtype_code(s.dtype());
            match s {
                Scalar::F64(_) | Scalar::F32(_) => out.f = s.as_f64(),
                // Integers and bools in `i` (a uint64 as its bits).
                s => out.i = s.as_i64(),
            }
        }
        RtValue::View(v) => {
            let v = Box::new(v);
            out.kind = 1;
            out.dtype = dtype_code(v.dtype);
            out.data =
                v.base.as_ptr().wrapping_offset(v.offset as isize * v.dtype.size_bytes() as isize) as *mut c_void;
            out.ndim = v.rank() as i64;
            out.shape = v.shape.as_ptr();
            out.strides = v.strides.as_ptr();
            out.owner = Box::into_raw(v) as *mut c_void;
        }
    }
}

/// Calls host function `entry` with `nargs` arguments and stores its `nresults` results; 0 on
/// success, else 1 with the message (the program's run-time error, or a wrong argument) in
/// `error` (`error_len` bytes). Never unwinds into the caller.
///
/// # Safety
/// `entry` is a NUL-terminated string; `args` points to `nargs` values whose arrays are valid for
/// their shape and strides during the call; `results` points to `nresults` writable values;
/// `error` to `error_len` writable bytes (or is null).
#[no_mangle]
pub unsafe extern "C" fn arrayc_call(
    entry: *const c_char,
    args: *const ArraycValue,
    nargs: usize,
    results: *mut ArraycValue,
    nresults: usize,
    error: *mut c_char,
    error_len: usize,
) -> c_int {
    let run = || -> Result<(), String> {
        let (program, kernels) = program().map_err(|e| e.0)?;
        let entry = CStr::from_ptr(entry).to_str().map_err(|_| "the function name is not UTF-8".to_string())?;
        let f = program
            .module
            .funcs
            .iter()
            .find(|f| !f.kernel && f.name == entry)
            .ok_or_else(|| format!("no function `{entry}` in this library"))?;
        if nargs != f.params.len() || nresults != f.results.len() {
            return Err(format!(
                "`{entry}` takes {} arguments and gives {} results, not {nargs} and {nresults}",
                f.params.len(),
                f.results.len()
            ));
        }
        let args = if nargs == 0 { &[][..] } else { std::slice::from_raw_parts(args, nargs) };
        let argv = args
            .iter()
            .zip(&f.params)
            .zip(&f.param_names)
            .map(|((a, &p), name)| argument(name, a, f.ty(p)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut stdout = std::io::stdout();
        let rs = Executor::new(&program.module, kernels, &mut stdout).call(entry, argv).map_err(|e| e.to_string())?;
        let outs = if nresults == 0 { &mut [][..] } else { std::slice::from_raw_parts_mut(results, nresults) };
        for (r, out) in rs.into_iter().zip(outs) {
            result(r, out);
        }
        Ok(())
    };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(Ok(())) => 0,
        Ok(Err(message)) => {
            set_error(error, error_len, &message);
            1
        }
        Err(_) => {
            set_error(error, error_len, "internal error: arrayc panicked (please report it)");
            1
        }
    }
}

/// Frees an array result of [`arrayc_call`] (nothing for a scalar, or a value already released).
///
/// # Safety
/// `value` is a result filled by `arrayc_call`, or null.
#[no_mangle]
pub unsafe extern "C" fn arrayc_release(value: *mut ArraycValue) {
    if let Some(v) = value.as_mut() {
        if !v.owner.is_null() {
            drop(Box::from_raw(v.owner as *mut View));
            v.owner = std::ptr::null_mut();
        }
    }
}
