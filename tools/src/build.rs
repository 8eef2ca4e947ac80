//! `arrayc build FILE [--entry NAME] -o OUT`: an ahead-of-time executable; `arrayc build --lib FILE
//! -o libNAME.so`: a shared library with a C header `NAME.h` and a Python module `NAME.py` beside it.
//!
//! The program is compiled as for `arrayc run` (front end, passes, kernels to object code through
//! the same MLIR pipeline at O3), and linked with the system's C compiler driver (`$CC`, else `cc`)
//! into one executable from three parts:
//! * the kernels' object code (`jit::object_code`), whose packed entries `_mlir_<name>` are global
//!   symbols;
//! * a generated C file holding the program (`arrayc_exec::aot::Program`: host functions, entry,
//!   launch plans, serialised) as a byte array, and the table of the kernels' packed entries;
//! * `libarrayc_aot.a` (crate `arrayc-aot`): the host executor, the CPU launcher, and either
//!   `arrayc_aot_main` (an executable: the C file's `main` calls it) or the C interface
//!   `arrayc_call`/`arrayc_release` (a library).
//!
//! A library exports every host function of the program. Its header declares, per function, a
//! typed wrapper over plain buffers (a scalar by value; an array as its data pointer, shape and
//! strides in elements), in the spirit of Futhark's C library back end; its Python module calls
//! them with `ctypes` on NumPy arrays, passing the arrays' memory without copying (array results
//! are copied once into NumPy arrays).
//!
//! Host code runs on the executor, as in `arrayc run` (the design's choice, `ARCHITECTURE.md`):
//! the executable needs neither MLIR nor LLVM and starts in a few milliseconds. The partition is
//! chosen without argument values (`--generic`), so the executable takes any arguments; with
//! `--arg NAME=VALUE` it is specialised to those values, as `arrayc run` specialises it (exact sizes
//! and overlaps, usually more fusion), and the executable refuses other values of those parameters.

use crate::{choose_entry, given_arguments, read_source, specialization, FuseArgs, UserError};
use crate::{lib_names, pipeline};
use arrayc_core::{DType, Scalar, Type};
use arrayc_exec::aot::{Fixed, Program, DTYPE_CODES};
use arrayc_passes::jit;
use arrayc_passes::wsp_fusion::KnownArg;
use arrayc_runtime::value::RtValue;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variable naming the run-time archive `libarrayc_aot.a` (default: beside the
/// `arrayc` executable, where `cargo build --release` puts both).
pub const AOT_LIB_VAR: &str = "ARRAYC_AOT_LIB";

/// The libraries the run-time archive needs (rustc's `--print native-static-libs` for it).
const NATIVE_LIBS: [&str; 7] = ["-ldl", "-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-lc"];

/// Builds the executable `out` from `file`'s function `entry` (see the module docs). `out` appears
/// complete or not at all.
///
/// Errors: the program does not compile; the run-time archive or the C compiler is missing; linking
/// fails. Each message names the fix.
pub fn build(
    file: &Path,
    entry: Option<&str>,
    out: &Path,
    lib: bool,
    args: &[String],
    fuse: &FuseArgs,
) -> Result<(), UserError> {
    let lib_name = if lib { Some(library_name(out)?) } else { None };
    if lib && !args.is_empty() {
        return Err(UserError(
            "error: --arg specialises one entry function, but a library (--lib) exports every function; drop --arg"
                .into(),
        ));
    }
    // Every output is checked before anything is compiled: a regular file (or nothing yet), never
    // the program's own source.
    let outputs: Vec<PathBuf> = match &lib_name {
        Some(name) => {
            vec![out.to_path_buf(), out.with_file_name(format!("{name}.h")), out.with_file_name(format!("{name}.py"))]
        }
        None => vec![out.to_path_buf()],
    };
    for o in &outputs {
        check_output(o, file)?;
    }
    let src = read_source(file)?;
    let mut m = pipeline::lower_source(&src, &file.display().to_string())?;
    if let Some(name) = &lib_name {
        check_names(name, &m)?;
    }
    let entry = match (lib, m.funcs.iter().find(|f| !f.kernel)) {
        // A library exports every function; the entry only decides where `arr.sync` goes.
        (true, Some(first)) => first.name.clone(),
        _ => choose_entry(&m, entry)?,
    };
    // Specialised to the values given with --arg only (not to the parameters' defaults): the
    // executable checks them at run time; every other parameter stays free.
    let given = given_arguments(&m, &entry, args)?;
    let f = m.func(&entry).expect("the entry exists");
    let explicit: Vec<Option<RtValue>> = f
        .param_names
        .iter()
        .zip(given)
        .map(|(n, g)| g.filter(|_| args.iter().any(|a| a.split_once('=').is_some_and(|(k, _)| k == n))))
        .collect();
    let spec = specialization(&entry, &explicit);
    let fixed: Vec<Option<Fixed>> = spec
        .args
        .iter()
        .map(|k| {
            k.as_ref().map(|k| match k {
                KnownArg::Scalar(s) => Fixed::Scalar(*s),
                KnownArg::Shape(sh) => Fixed::Shape(sh.clone()),
            })
        })
        .collect();
    let options = FuseArgs { generic: args.is_empty(), ..fuse.clone() }.options(&entry, &explicit);
    pipeline::to_kernels(&mut m, &entry, &options)?;
    let (object, plans) = jit::object_code(&m).map_err(|e| UserError(format!("internal error: {e}")))?;
    let names: Vec<String> = plans.iter().map(|p| p.name.clone()).collect();
    if let Some(bad) = names.iter().find(|n| !is_c_identifier(n)) {
        return Err(UserError(format!("internal error: kernel name `{bad}` is not a C identifier")));
    }
    let program = Program { module: m, entry, plans, fixed };
    let payload = program.encode();
    let archive = aot_library()?;
    let dir = tempfile::tempdir().map_err(|e| UserError(format!("error: cannot create a temporary directory: {e}")))?;
    let (kernels_o, glue_c) = (dir.path().join("kernels.o"), dir.path().join("program.c"));
    std::fs::write(&kernels_o, object)
        .map_err(|e| UserError(format!("error: cannot write `{}`: {e}", kernels_o.display())))?;
    std::fs::write(&glue_c, glue(&names, &payload, !lib))
        .map_err(|e| UserError(format!("error: cannot write `{}`: {e}", glue_c.display())))?;
    // Every output is written beside its target under a temporary name, and all are renamed at
    // the end: they appear together or not at all.
    let mut staged = Staged::default();
    let tmp = staged.add(out, None, 0o755)?;
    if let Some(name) = &lib_name {
        let source = file.display().to_string();
        staged.add(&outputs[1], Some(&header(name, &program, &source)), 0o644)?;
        staged.add(&outputs[2], Some(&python_module(name, &program, &source)), 0o644)?;
    }
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    // A library: position-independent, and the C interface pulled out of the archive.
    let lib_flags: &[&str] =
        if lib { &["-shared", "-fPIC", "-Wl,-u,arrayc_call", "-Wl,-u,arrayc_release"] } else { &[] };
    let output = Command::new(&cc)
        .arg("-O1")
        .args(lib_flags)
        .arg("-o")
        .arg(&tmp)
        .arg(&glue_c)
        .arg(&kernels_o)
        .arg(&archive)
        .args(NATIVE_LIBS)
        .output()
        .map_err(|e| {
            UserError(format!("error: cannot run the C compiler `{cc}` to link: {e}; install one (apt-get install build-essential) or set CC"))
        })?;
    if !output.status.success() {
        return Err(UserError(format!(
            "error: linking with `{cc}` failed:\n{}",
            String::from_utf8_lossy(&output.stderr).trim_end()
        )));
    }
    staged.commit()
}

/// Refuses an output path `out` that `arrayc build` must not write: one ending in `/` or naming a
/// directory, anything but a regular file (a device, a pipe, a socket), or the program's own
/// source `source` (the same file, by device and inode, through any path or link). A path that
/// does not exist yet is fine if its directory does.
fn check_output(out: &Path, source: &Path) -> Result<(), UserError> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::MetadataExt;
    let shown = out.display();
    let bytes = out.as_os_str().as_bytes();
    if bytes.is_empty() || out.file_name().is_none() || bytes.ends_with(b"/.") {
        return Err(UserError(format!(
            "error: `-o {shown}` names a directory, but arrayc build writes a file; name the file, e.g. `-o {}`",
            out.join("prog").display()
        )));
    }
    if bytes.ends_with(b"/") {
        let trimmed = String::from_utf8_lossy(bytes).trim_end_matches('/').to_string();
        return Err(UserError(format!(
            "error: `-o {shown}` ends with `/`, so it names a directory, but arrayc build writes a file; drop the `/` (`-o {trimmed}`)"
        )));
    }
    match std::fs::metadata(out) {
        Ok(meta) if meta.is_dir() => Err(UserError(format!(
            "error: `{shown}` is a directory, but arrayc build writes a file; name a file inside it, e.g. `-o {}`",
            out.join("prog").display()
        ))),
        Ok(meta) if !meta.is_file() => Err(UserError(format!(
            "error: `{shown}` exists and is not a regular file (a device, a pipe or a socket); arrayc build replaces only regular files: name another output"
        ))),
        Ok(meta) => match std::fs::metadata(source) {
            Ok(src) if src.dev() == meta.dev() && src.ino() == meta.ino() => Err(UserError(format!(
                "error: `{shown}` is the program's source `{}`; building there would replace it: name another output",
                source.display()
            ))),
            _ => Ok(()),
        },
        Err(_) => {
            let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            if parent.is_dir() {
                Ok(())
            } else {
                Err(UserError(format!(
                    "error: cannot write `{shown}`: the directory `{}` does not exist; create it first",
                    parent.display()
                )))
            }
        }
    }
}

/// The outputs of one build, each written to a temporary file beside its target, renamed into
/// place together by [`Staged::commit`]; the temporary files are removed if the build stops first.
#[derive(Default)]
struct Staged {
    /// `(temporary file, target, permissions)`.
    files: Vec<(tempfile::TempPath, PathBuf, u32)>,
}

impl Staged {
    /// Adds the output `path`, a temporary file in its directory holding `text` (or empty, for the
    /// linker to write), with permissions `mode` once in place; returns the temporary path.
    fn add(&mut self, path: &Path, text: Option<&str>, mode: u32) -> Result<PathBuf, UserError> {
        use std::os::unix::fs::PermissionsExt;
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let err = |e: &dyn std::fmt::Display| UserError(format!("error: cannot write `{}`: {e}", path.display()));
        let mut tmp = tempfile::Builder::new()
            .prefix(".arrayc-build-")
            .tempfile_in(dir)
            .map_err(|e| UserError(format!("error: cannot write in `{}`: {e}", dir.display())))?;
        if let Some(text) = text {
            std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(|e| err(&e))?;
        }
        // The temporary file was created private (0600).
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(mode)).map_err(|e| err(&e))?;
        let tmp = tmp.into_temp_path();
        let at = tmp.to_path_buf();
        self.files.push((tmp, path.to_path_buf(), mode));
        Ok(at)
    }

    /// Renames every temporary file into place (the linker's output gets its mode again, as the
    /// linker may have written a new file); if one rename fails, the outputs already renamed are
    /// removed too, so a build leaves all its outputs or none.
    fn commit(self) -> Result<(), UserError> {
        use std::os::unix::fs::PermissionsExt;
        let mut done: Vec<PathBuf> = vec![];
        let mut rest = self.files.into_iter();
        while let Some((tmp, path, mode)) = rest.next() {
            let moved = std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(mode))
                .and_then(|()| tmp.persist(&path).map_err(|e| e.error));
            if let Err(e) = moved {
                for p in done {
                    let _ = std::fs::remove_file(p);
                }
                drop(rest);
                return Err(UserError(format!("error: cannot write `{}`: {e}", path.display())));
            }
            done.push(path);
        }
        Ok(())
    }
}

/// Refuses a library whose names the generated header cannot hold (see `lib_names`): a wrapper
/// `<name>_<function>` that C or the header already defines.
fn check_names(name: &str, m: &arrayc_core::ir::Module) -> Result<(), UserError> {
    for f in m.funcs.iter().filter(|f| !f.kernel) {
        lib_names::check_wrapper_name(name, &f.name).map_err(|why| {
            UserError(format!("error: --lib: {why}; rename the function or the library (`-o lib<NAME>.so`)"))
        })?;
    }
    Ok(())
}

/// `NAME` of a library path `.../libNAME.so`: the name of its Python module, which must be
/// importable (`lib_names::check_library_name`).
fn library_name(out: &Path) -> Result<String, UserError> {
    let file = out.file_name().and_then(|f| f.to_str()).unwrap_or("");
    let Some(name) = file.strip_prefix("lib").and_then(|f| f.strip_suffix(".so")) else {
        return Err(UserError(format!(
            "error: --lib: name the library `lib<NAME>.so`, where NAME is a Python identifier (the module `NAME.py` goes beside it), not `{file}`"
        )));
    };
    lib_names::check_library_name(name).map_err(|why| {
        UserError(format!("error: --lib: `-o {}` would make a Python module `{name}`, but {why}; name the library otherwise, e.g. `-o {}`", out.display(), out.with_file_name(suggestion(name)).display()))
    })?;
    Ok(name.to_string())
}

/// A library file name to suggest instead of `lib<name>.so`.
fn suggestion(name: &str) -> String {
    if !name.is_empty() && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric()) {
        format!("libmy_{name}.so")
    } else {
        "libmylib.so".into()
    }
}

/// The exported host functions of `program` (every one but the kernels), in module order.
fn exported(program: &Program) -> impl Iterator<Item = &arrayc_core::ir::Func> {
    program.module.funcs.iter().filter(|f| !f.kernel)
}

/// `(C element type, NumPy dtype, code)` of dtype `d`.
fn codes(d: DType) -> (&'static str, &'static str, i32) {
    let c = DTYPE_CODES.iter().find(|c| c.0 == d).expect("every dtype has a code");
    (c.2, c.3, c.1)
}

/// A function's signature as the docs show it: `heat(n: i64 = 100, x: f64[2-d]) -> 3 results`.
fn signature(f: &arrayc_core::ir::Func) -> String {
    let params: Vec<String> = f
        .params
        .iter()
        .zip(&f.param_names)
        .zip(&f.param_defaults)
        .map(|((&p, n), d)| {
            let t = match f.ty(p) {
                Type::Scalar(d) => d.name().to_string(),
                Type::Array(d, r) => format!("{}[{r}-d]", d.name()),
            };
            match d {
                Some(v) => format!("{n}: {t} = {}", python_literal(*v)),
                None => format!("{n}: {t}"),
            }
        })
        .collect();
    let results: Vec<String> = f
        .results
        .iter()
        .map(|t| match t {
            Type::Scalar(d) => d.name().to_string(),
            Type::Array(d, r) => format!("{}[{r}-d]", d.name()),
        })
        .collect();
    format!("{}({}) -> ({})", f.name, params.join(", "), results.join(", "))
}

/// A scalar as a Python literal.
fn python_literal(s: Scalar) -> String {
    let float = |x: f64| {
        if x.is_nan() {
            "float('nan')".to_string()
        } else if x.is_infinite() {
            format!("float('{}inf')", if x < 0.0 { "-" } else { "" })
        } else {
            format!("{x:?}")
        }
    };
    match s {
        Scalar::F64(x) => float(x),
        Scalar::F32(x) => float(x as f64),
        Scalar::I64(x) => x.to_string(),
        Scalar::Bool(x) => if x { "True" } else { "False" }.to_string(),
    }
}

/// The C header of library `name`: the value type, `arrayc_call`/`arrayc_release`, and per exported
/// function a typed wrapper `<name>_<function>` over plain buffers.
fn header(name: &str, program: &Program, source: &str) -> String {
    let guard = format!("ARRAYC_{}_H", name.to_uppercase());
    let mut h = format!(
        "/* Generated by `arrayc build --lib` from {source}: the C interface of lib{name}.so.\n\
         * Arrays are passed as a pointer to the element at index [0, .., 0], a shape and strides\n\
         * (both in elements), without copying; array results belong to the library until\n\
         * arrayc_release. Functions return 0, or 1 with a message in `error`. */\n\
         #ifndef {guard}\n#define {guard}\n#include <stddef.h>\n#include <stdint.h>\n\n\
         typedef struct arrayc_value {{\n    int kind;            /* 0: scalar (f or i), 1: array */\n    \
         int dtype;           /* ARRAYC_F64, ... */\n    double f;\n    int64_t i;\n    void *data;\n    \
         int64_t ndim;\n    const int64_t *shape;\n    const int64_t *strides;\n    void *owner;         \
         /* array results: freed by arrayc_release */\n}} arrayc_value;\n\nenum {{"
    );
    let enums: Vec<String> =
        DTYPE_CODES.iter().map(|c| format!(" ARRAYC_{} = {}", c.0.name().to_uppercase(), c.1)).collect();
    h.push_str(&enums.join(","));
    h.push_str(
        " };\n\nint arrayc_call(const char *function, const arrayc_value *args, size_t nargs, arrayc_value *results,\n                \
         size_t nresults, char *error, size_t error_len);\nvoid arrayc_release(arrayc_value *value);\n",
    );
    for f in exported(program) {
        let mut params = vec![];
        let mut packs = vec![];
        for ((k, &p), n) in f.params.iter().enumerate().zip(&f.param_names) {
            match f.ty(p) {
                Type::Scalar(d) => {
                    let (c, _, code) = codes(d);
                    params.push(format!("{c} {n}"));
                    let slot = if d.is_float() { "f" } else { "i" };
                    packs.push(format!("    args[{k}].kind = 0; args[{k}].dtype = {code}; args[{k}].{slot} = {n};"));
                }
                Type::Array(d, r) => {
                    let (c, _, code) = codes(d);
                    params.push(format!("{c} *{n}, const int64_t *{n}_shape, const int64_t *{n}_strides"));
                    packs.push(format!(
                        "    args[{k}].kind = 1; args[{k}].dtype = {code}; args[{k}].data = {n}; args[{k}].ndim = {r};\n    \
                         args[{k}].shape = {n}_shape; args[{k}].strides = {n}_strides;"
                    ));
                }
            }
        }
        let (np, nr) = (f.params.len(), f.results.len());
        params.push(format!("arrayc_value results[{}]", nr.max(1)));
        params.push("char *error".into());
        params.push("size_t error_len".into());
        let _ = write!(
            h,
            "\n/* {} */\nstatic inline int {name}_{}({}) {{\n    arrayc_value args[{}] = {{{{0}}}};\n{}\n    \
             return arrayc_call(\"{}\", args, {np}, results, {nr}, error, error_len);\n}}\n",
            signature(f),
            f.name,
            params.join(", "),
            np.max(1),
            packs.join("\n"),
            f.name
        );
    }
    h.push_str(&format!("\n#endif /* {guard} */\n"));
    h
}

/// The Python module of library `name`: one function per exported function, calling it through
/// `ctypes` on NumPy arrays (see the module docs).
fn python_module(name: &str, program: &Program, source: &str) -> String {
    let codes_py: Vec<String> = DTYPE_CODES.iter().map(|c| format!("{}: numpy.{}", c.1, c.3)).collect();
    let mut py = format!(
        r#""""Generated by `arrayc build --lib` from {source}: its functions, compiled ahead of time, on
NumPy arrays. Arrays are passed to lib{name}.so without copying (a function may write into them, as
a NumPy function would); array results are copied once into new NumPy arrays."""
import ctypes
import os

import numpy

_lib = ctypes.CDLL(os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib{name}.so"))


class _Value(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("dtype", ctypes.c_int), ("f", ctypes.c_double), ("i", ctypes.c_int64),
                ("data", ctypes.c_void_p), ("ndim", ctypes.c_int64), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("owner", ctypes.c_void_p)]


_lib.arrayc_call.argtypes = [ctypes.c_char_p, ctypes.POINTER(_Value), ctypes.c_size_t, ctypes.POINTER(_Value),
                             ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
_lib.arrayc_call.restype = ctypes.c_int
_lib.arrayc_release.argtypes = [ctypes.POINTER(_Value)]
_lib.arrayc_release.restype = None
_DTYPES = {{{codes}}}
_FLOATS = (0, 1)


def _call(function, args, nresults):
    values = (_Value * max(len(args), 1))()
    keep = []
    for k, (x, name, code, rank) in enumerate(args):
        v = values[k]
        v.kind, v.dtype = (0 if rank is None else 1), code
        if rank is None:
            if code in _FLOATS:
                v.f = float(x)
            else:
                v.i = int(x)
            continue
        a = numpy.asarray(x)
        want = numpy.dtype(_DTYPES[code])
        if a.dtype != want:
            raise TypeError(f"{{function}}(): `{{name}}` has dtype {{a.dtype}}, but the parameter is {{want}}; "
                            f"convert it with .astype(numpy.{{want}})")
        if a.ndim != rank:
            raise ValueError(f"{{function}}(): `{{name}}` has {{a.ndim}} dimensions, but the parameter has {{rank}}")
        if any(s % a.itemsize for s in a.strides):
            raise ValueError(f"{{function}}(): `{{name}}` has strides that are not whole elements; pass a copy")
        shape = (ctypes.c_int64 * max(rank, 1))(*a.shape)
        strides = (ctypes.c_int64 * max(rank, 1))(*(s // a.itemsize for s in a.strides))
        v.data, v.ndim, v.shape, v.strides = a.ctypes.data, rank, shape, strides
        keep += [a, shape, strides]
    results = (_Value * max(nresults, 1))()
    error = ctypes.create_string_buffer(4096)
    if _lib.arrayc_call(function.encode(), values, len(args), results, nresults, error, len(error)) != 0:
        raise RuntimeError(error.value.decode("utf-8", "replace"))
    out = tuple(_result(results[k]) for k in range(nresults))
    return None if nresults == 0 else out[0] if nresults == 1 else out


def _result(v):
    dtype = numpy.dtype(_DTYPES[v.dtype])
    if v.kind == 0:
        return dtype.type(v.f if v.dtype in _FLOATS else v.i)
    try:
        shape = tuple(v.shape[k] for k in range(v.ndim))
        strides = tuple(v.strides[k] for k in range(v.ndim))
        if 0 in shape:
            return numpy.empty(shape, dtype)
        lo = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
        hi = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides))
        span = (ctypes.c_char * ((hi - lo + 1) * dtype.itemsize)).from_address(v.data + lo * dtype.itemsize)
        view = numpy.ndarray(shape, dtype, buffer=span, offset=-lo * dtype.itemsize,
                             strides=tuple(s * dtype.itemsize for s in strides))
        return view.copy()
    finally:
        _lib.arrayc_release(ctypes.byref(v))
"#,
        codes = codes_py.join(", ")
    );
    for f in exported(program) {
        let mut params = vec![];
        let mut packs = vec![];
        let mut seen_default = false;
        let mut keyword_only = false;
        for ((&p, n), d) in f.params.iter().zip(&f.param_names).zip(&f.param_defaults) {
            match d {
                Some(v) => {
                    seen_default = true;
                    params.push(format!("{n}={}", python_literal(*v)));
                }
                None => {
                    if seen_default && !keyword_only {
                        params.push("*".into());
                        keyword_only = true;
                    }
                    params.push(n.clone());
                }
            }
            let (code, rank) = match f.ty(p) {
                Type::Scalar(d) => (codes(d).2, "None".to_string()),
                Type::Array(d, r) => (codes(d).2, r.to_string()),
            };
            packs.push(format!("({n}, \"{n}\", {code}, {rank})"));
        }
        let _ = write!(
            py,
            "\n\ndef {}({}):\n    \"\"\"{}\"\"\"\n    return _call(\"{}\", ({}{}), {})\n",
            f.name,
            params.join(", "),
            signature(f),
            f.name,
            packs.join(", "),
            if packs.len() == 1 { "," } else { "" },
            f.results.len()
        );
    }
    py
}

/// `libarrayc_aot.a`: `$ARRAYC_AOT_LIB`, else beside the running `arrayc`.
fn aot_library() -> Result<PathBuf, UserError> {
    let path = match std::env::var_os(AOT_LIB_VAR) {
        Some(p) => PathBuf::from(p),
        None => std::env::current_exe()
            .map_err(|e| UserError(format!("error: cannot locate the arrayc executable: {e}")))?
            .with_file_name("libarrayc_aot.a"),
    };
    if path.is_file() {
        Ok(path)
    } else {
        Err(UserError(format!(
            "error: the run-time library of executables, `{}`, does not exist; build it with `cargo build --release -p arrayc-aot` (`make build` does) or point {AOT_LIB_VAR} at it",
            path.display()
        )))
    }
}

fn is_c_identifier(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f == '_' || f.is_ascii_alphabetic()) && c.all(|x| x == '_' || x.is_ascii_alphanumeric())
}

/// The C file that gives `libarrayc_aot.a` its program (`arrayc_payload`, `arrayc_payload_len`) and
/// the kernels' packed entries (`arrayc_kernels`, `arrayc_kernel_count`, in the order of `names`),
/// and, for an `executable`, `main`.
fn glue(names: &[String], payload: &[u8], executable: bool) -> String {
    let mut c =
        String::from("/* Generated by `arrayc build`: the program and its kernel table. */\n#include <stddef.h>\n");
    for n in names {
        let _ = writeln!(c, "extern void _mlir_{n}(void **);");
    }
    let table = if names.is_empty() {
        "0".to_string()
    } else {
        names.iter().map(|n| format!("_mlir_{n}")).collect::<Vec<_>>().join(", ")
    };
    let _ = writeln!(c, "void (*const arrayc_kernels[])(void **) = {{ {table} }};");
    let _ = writeln!(c, "const size_t arrayc_kernel_count = {};", names.len());
    c.push_str("const unsigned char arrayc_payload[] = {");
    for (i, b) in payload.iter().enumerate() {
        if i % 24 == 0 {
            c.push('\n');
        }
        let _ = write!(c, "{b},");
    }
    c.push_str("\n};\nconst size_t arrayc_payload_len = sizeof arrayc_payload;\n");
    if executable {
        c.push_str("int arrayc_aot_main(int argc, char **argv);\nint main(int argc, char **argv) { return arrayc_aot_main(argc, argv); }\n");
    }
    c
}
