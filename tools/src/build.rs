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
//!   `arrayc_call`/`arrayc_release` (a library); for `--distributed`, `libarrayc_aot_dist.a` (crate
//!   `arrayc-aot-dist`: the same run on every rank of an MPI job, `arrayc_aot_dist_main`) and the
//!   system's MPI library.
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

use crate::{choose_entry, given_arguments, is_source_function, read_source, specialization, FuseArgs, UserError};
use crate::{lib_names, pipeline};
use arrayc_codegen::jit;
use arrayc_core::error::InternalError;
use arrayc_core::{DType, Scalar, Type};
use arrayc_exec::aot::{Fixed, Program, DTYPE_CODES};
use arrayc_runtime::value::RtValue;
use std::collections::HashMap;
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
    distributed: bool,
    args: &[String],
    fuse: &FuseArgs,
) -> Result<(), UserError> {
    if lib && distributed {
        return Err(UserError(
            "error: --distributed builds an executable that `mpirun -n P` starts on every rank; a library (--lib) \
             cannot be distributed; drop one of the two"
                .into(),
        ));
    }
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
    let entry = match (lib, m.funcs.iter().find(|f| is_source_function(f))) {
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
    let fixed: Vec<Option<Fixed>> = spec.args.iter().map(|k| k.as_ref().map(crate::fixed)).collect();
    let options =
        FuseArgs { generic: args.is_empty(), ..fuse.clone() }.options(&entry, &explicit).distributed(distributed);
    // A generic executable may carry versions of its entry partitioned under assumptions about
    // its arguments (`n % 2 == 0`), checked when it starts; a library exports every function as is.
    let versions = if args.is_empty() && !lib && !distributed {
        pipeline::to_kernels_versioned(&mut m, &entry, &options)?.1
    } else {
        pipeline::to_kernels(&mut m, &entry, &options)?;
        vec![]
    };
    let versions = crate::versions(versions);
    let (object, plans) = jit::object_code(&m).map_err(InternalError::new)?;
    let names: Vec<String> = plans.iter().map(|p| p.name.clone()).collect();
    if let Some(bad) = names.iter().find(|n| !is_c_identifier(n)) {
        return Err(InternalError::new(format!("kernel name `{bad}` is not a C identifier")).into());
    }
    let program = Program { module: m, entry, plans, fixed, versions };
    let payload = program.encode();
    let archive = aot_library(distributed)?;
    let mpi_flags = if distributed { mpi_link_flags()? } else { vec![] };
    let dir = tempfile::tempdir().map_err(|e| UserError(format!("error: cannot create a temporary directory: {e}")))?;
    let (kernels_o, glue_c) = (dir.path().join("kernels.o"), dir.path().join("program.c"));
    std::fs::write(&kernels_o, object)
        .map_err(|e| UserError(format!("error: cannot write `{}`: {e}", kernels_o.display())))?;
    let main = match (lib, distributed) {
        (true, _) => None,
        (false, false) => Some("arrayc_aot_main"),
        (false, true) => Some("arrayc_aot_dist_main"),
    };
    std::fs::write(&glue_c, glue(&names, &payload, main))
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
    let mut link = Command::new(&cc);
    link.arg("-O1")
        .args(lib_flags)
        .arg("-o")
        .arg(&tmp)
        .arg(&glue_c)
        .arg(&kernels_o)
        .arg(&archive)
        .args(&mpi_flags)
        .args(NATIVE_LIBS)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    // Started where an interrupt cannot miss it: the Ctrl-C handler stops the linker before it
    // removes the staged files, so the linker cannot write one after.
    let output = arrayc_runtime::npy::spawn_recorded(|| link.spawn())
        .and_then(|child| child.wait_with_output())
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
/// place together by [`Staged::commit`]; the temporary files are removed if the build stops first,
/// on an error or on Ctrl-C (they are recorded with `arrayc_runtime::npy`'s writes in progress,
/// which the driver's interrupt handler removes).
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
        // Created and recorded under one lock: an interrupt (Ctrl-C) removes it too.
        let mut tmp = tempfile::Builder::new()
            .prefix(".arrayc-build-")
            .make_in(dir, arrayc_runtime::npy::create_recorded_temporary)
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
                .and_then(|()| arrayc_runtime::npy::rename_recorded(&tmp, &path));
            if let Err(e) = moved {
                for p in done {
                    let _ = std::fs::remove_file(p);
                }
                drop(rest);
                arrayc_runtime::npy::finish_recorded();
                return Err(UserError(format!("error: cannot write `{}`: {e}", path.display())));
            }
            // Renamed: nothing is left for the temporary path to remove.
            let _ = tmp.keep();
            done.push(path);
        }
        arrayc_runtime::npy::finish_recorded();
        Ok(())
    }
}

/// Refuses a library whose names the generated header cannot hold (see `lib_names`): a wrapper
/// `<name>_<function>` that C or the header already defines.
fn check_names(name: &str, m: &arrayc_core::ir::Module) -> Result<(), UserError> {
    for f in m.funcs.iter().filter(|f| is_source_function(f)) {
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

/// The exported host functions of `program` (every one but the kernels and the instances of
/// rank-generic functions, `lap.r2`, which the exported functions may call), in module order.
fn exported(program: &Program) -> impl Iterator<Item = &arrayc_core::ir::Func> {
    program.module.funcs.iter().filter(|f| is_source_function(f))
}

/// Per function of `module`, per parameter: whether the function may write into the array passed
/// for it, through any view of it, in any function it calls (a kernel or a host function), or
/// through a call's result that aliases it. A may-analysis: flow-insensitive within a function
/// (every value's set of parameters it may alias), and a fixed point over the call graph (recursion
/// included); a call of a function not in `module` writes every argument.
fn written_params(module: &arrayc_core::ir::Module) -> HashMap<String, Vec<bool>> {
    let mut writes: HashMap<String, Vec<bool>> =
        module.funcs.iter().map(|f| (f.name.clone(), vec![false; f.params.len()])).collect();
    // Per function, per result: the parameters the result may alias.
    let mut returns: HashMap<String, Vec<Vec<bool>>> =
        module.funcs.iter().map(|f| (f.name.clone(), vec![vec![false; f.params.len()]; f.results.len()])).collect();
    // A worklist: a function is summarised again only when a function it calls changed, so a long
    // chain of calls costs each function a few summaries, not one per link of the chain.
    fn callees<'a>(body: &'a arrayc_core::ir::Body, out: &mut Vec<&'a str>) {
        for op in body {
            if let arrayc_core::ir::OpKind::Call { callee, .. } = &op.kind {
                out.push(callee);
            }
            for b in op.kind.bodies() {
                callees(b, out);
            }
        }
    }
    let index: HashMap<&str, usize> = module.funcs.iter().enumerate().map(|(k, f)| (f.name.as_str(), k)).collect();
    let mut callers: Vec<Vec<usize>> = vec![vec![]; module.funcs.len()];
    for (k, f) in module.funcs.iter().enumerate() {
        let mut called = vec![];
        callees(&f.body, &mut called);
        for c in called {
            if let Some(&j) = index.get(c) {
                if !callers[j].contains(&k) {
                    callers[j].push(k);
                }
            }
        }
    }
    let mut queued = vec![true; module.funcs.len()];
    let mut work: std::collections::VecDeque<usize> = (0..module.funcs.len()).collect();
    while let Some(k) = work.pop_front() {
        queued[k] = false;
        let f = &module.funcs[k];
        let (w, r) = summarize(f, &writes, &returns);
        if writes[&f.name] != w || returns[&f.name] != r {
            writes.insert(f.name.clone(), w);
            returns.insert(f.name.clone(), r);
            for &c in &callers[k] {
                if !queued[c] {
                    queued[c] = true;
                    work.push_back(c);
                }
            }
        }
    }
    writes
}

/// One function's summary for [`written_params`]: the parameters it may write, and per result the
/// parameters it may alias, given the callees' summaries `writes` and `returns`.
fn summarize(
    f: &arrayc_core::ir::Func,
    writes: &HashMap<String, Vec<bool>>,
    returns: &HashMap<String, Vec<Vec<bool>>>,
) -> (Vec<bool>, Vec<Vec<bool>>) {
    use arrayc_core::ir::{Body, OpKind};
    /// The walk's state: per value the parameters it may alias; the parameters written; per
    /// result the parameters returned; whether anything grew in this walk.
    struct State {
        alias: Vec<Vec<bool>>,
        written: Vec<bool>,
        returned: Vec<Vec<bool>>,
        grew: bool,
    }
    fn join(into: &mut [bool], from: &[bool], grew: &mut bool) {
        for (a, &b) in into.iter_mut().zip(from) {
            if b && !*a {
                *a = true;
                *grew = true;
            }
        }
    }
    impl State {
        /// `alias[to] |= alias[from]`.
        fn flow(&mut self, to: u32, from: u32) {
            if to != from {
                let from = self.alias[from as usize].clone();
                join(&mut self.alias[to as usize], &from, &mut self.grew);
            }
        }
        fn write(&mut self, v: u32) {
            let a = self.alias[v as usize].clone();
            join(&mut self.written, &a, &mut self.grew);
        }
    }
    fn walk(
        body: &Body,
        st: &mut State,
        writes: &HashMap<String, Vec<bool>>,
        returns: &HashMap<String, Vec<Vec<bool>>>,
    ) {
        for op in body {
            if let Some((res, src)) = op.kind.view_of() {
                st.flow(res, src);
            }
            match &op.kind {
                OpKind::Select { res, lhs, rhs, .. } => {
                    st.flow(*res, *lhs);
                    st.flow(*res, *rhs);
                }
                OpKind::For { inits, carried, yields, results, body, .. } => {
                    for k in 0..inits.len() {
                        for (to, from) in [
                            (carried[k], inits[k]),
                            (carried[k], yields[k]),
                            (results[k], inits[k]),
                            (results[k], yields[k]),
                        ] {
                            st.flow(to, from);
                        }
                    }
                    walk(body, st, writes, returns);
                }
                OpKind::While { inits, before_args, before, after_args, after, yields, results, .. } => {
                    for k in 0..inits.len() {
                        for (to, from) in
                            [(before_args[k], inits[k]), (before_args[k], yields[k]), (results[k], before_args[k])]
                        {
                            st.flow(to, from);
                        }
                        if let Some(&a) = after_args.get(k) {
                            st.flow(a, before_args[k]);
                        }
                    }
                    walk(before, st, writes, returns);
                    walk(after, st, writes, returns);
                }
                OpKind::If { then_body, then_yields, else_body, else_yields, results, .. } => {
                    for (k, &r) in results.iter().enumerate() {
                        st.flow(r, then_yields[k]);
                        st.flow(r, else_yields[k]);
                    }
                    walk(then_body, st, writes, returns);
                    walk(else_body, st, writes, returns);
                }
                OpKind::Call { callee, args, results } => match (writes.get(callee), returns.get(callee)) {
                    (Some(w), Some(r)) => {
                        for (k, &a) in args.iter().enumerate() {
                            if w.get(k).copied().unwrap_or(true) {
                                st.write(a);
                            }
                        }
                        for (res, from) in results.iter().zip(r) {
                            for (k, &a) in args.iter().enumerate() {
                                if from.get(k).copied().unwrap_or(true) {
                                    st.flow(*res, a);
                                }
                            }
                        }
                    }
                    _ => {
                        for &a in args {
                            st.write(a);
                            for &res in results {
                                st.flow(res, a);
                            }
                        }
                    }
                },
                OpKind::Compute { out, .. } => st.write(*out),
                OpKind::Return { values } => {
                    for (k, &v) in values.iter().enumerate() {
                        if let Some(r) = st.returned.get_mut(k) {
                            let a = st.alias[v as usize].clone();
                            join(r, &a, &mut st.grew);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    let n = f.params.len();
    let mut st = State {
        alias: vec![vec![false; n]; f.value_types.len()],
        written: vec![false; n],
        returned: vec![vec![false; n]; f.results.len()],
        grew: true,
    };
    for (k, &p) in f.params.iter().enumerate() {
        st.alias[p as usize][k] = true;
    }
    while st.grew {
        st.grew = false;
        walk(&f.body, &mut st, writes, returns);
    }
    (st.written, st.returned)
}

/// `(C element type, NumPy dtype, code)` of dtype `d`.
fn codes(d: DType) -> (&'static str, &'static str, i32) {
    let c = DTYPE_CODES.iter().find(|c| c.0 == d).expect("every dtype has a code");
    (c.2, c.3, c.1)
}

/// A function's signature as the docs show it, under the names `name` and `params` that the
/// generated code gives the function and its parameters: `heat(n: i64 = 100, x: f64[2-d]) -> (f64)`.
fn signature(f: &arrayc_core::ir::Func, name: &str, params: &[String]) -> String {
    let params: Vec<String> = f
        .params
        .iter()
        .zip(params)
        .zip(&f.param_defaults)
        .map(|((&p, n), d)| {
            let t = match f.ty(p) {
                Type::Scalar(d) => d.name().to_string(),
                Type::Array(d, r) => format!("{}[{r}-d]", d.name()),
            };
            match d {
                Some(v) => format!("{n}: {t} = {}", arrayc_runtime::print::format_scalar(*v)),
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
    format!("{name}({}) -> ({})", params.join(", "), results.join(", "))
}

/// A scalar as a Python literal that names nothing (`1e999` for infinity, not `float('inf')`), so
/// that a function of the library named `float` cannot change a default.
fn python_literal(s: Scalar) -> String {
    let float = |x: f64| {
        if x.is_nan() {
            "(1e999 - 1e999)".to_string()
        } else if x.is_infinite() {
            format!("{}1e999", if x < 0.0 { "-" } else { "" })
        } else {
            format!("{x:?}")
        }
    };
    match s {
        Scalar::F64(x) => float(x),
        Scalar::F32(x) => float(x as f64),
        Scalar::U64(x) => x.to_string(),
        Scalar::Bool(x) => if x { "True" } else { "False" }.to_string(),
        s => s.as_i64().to_string(),
    }
}

/// The C header of library `name`: the value type, `arrayc_call`/`arrayc_release`, and per exported
/// function a typed wrapper `<name>_<function>` over plain buffers. Parameter names follow
/// `lib_names::c_param_names`; an array parameter the function never writes is a `const` pointer.
fn header(name: &str, program: &Program, source: &str) -> String {
    let guard = lib_names::header_guard(name);
    let written = written_params(&program.module);
    let mut h = HEADER_PRELUDE.replace("@SOURCE@", source).replace("@NAME@", name).replace("@GUARD@", &guard);
    let enums: Vec<String> =
        DTYPE_CODES.iter().map(|c| format!(" ARRAYC_{} = {}", c.0.name().to_uppercase(), c.1)).collect();
    h.push_str(&enums.join(","));
    h.push_str(
        " };\n\nint arrayc_call(const char *function, const arrayc_value *args, size_t nargs, arrayc_value *results,\n                \
         size_t nresults, char *error, size_t error_len);\nvoid arrayc_release(arrayc_value *value);\n",
    );
    for f in exported(program) {
        let kinds: Vec<(String, bool)> = f
            .params
            .iter()
            .zip(&f.param_names)
            .map(|(&p, n)| (n.clone(), matches!(f.ty(p), Type::Array(..))))
            .collect();
        let cnames = lib_names::c_param_names(&kinds, &guard);
        let writes = &written[&f.name];
        let mut params = vec![];
        let mut packs = vec![];
        for (k, (&p, n)) in f.params.iter().zip(&cnames).enumerate() {
            match f.ty(p) {
                Type::Scalar(d) => {
                    let (c, _, code) = codes(d);
                    params.push(format!("{c} {n}"));
                    let slot = if d.is_float() { "f" } else { "i" };
                    packs.push(format!("    args[{k}].kind = 0; args[{k}].dtype = {code}; args[{k}].{slot} = {n};"));
                }
                Type::Array(d, r) => {
                    let (c, _, code) = codes(d);
                    let constness = if writes[k] { "" } else { "const " };
                    params.push(format!("{constness}{c} *{n}, const int64_t *{n}_shape, const int64_t *{n}_strides"));
                    packs.push(format!(
                        "    args[{k}].kind = 1; args[{k}].dtype = {code}; args[{k}].data = (void *){n}; args[{k}].ndim = {r};\n    \
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
            signature(f, &f.name, &cnames),
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

/// The start of every generated header (`@SOURCE@`, `@NAME@`, `@GUARD@` replaced), up to the dtype
/// enumeration's constants.
const HEADER_PRELUDE: &str = "/* Generated by `arrayc build --lib` from @SOURCE@: the C interface of lib@NAME@.so.
 * Arrays are passed as a pointer to the element at index [0, .., 0], a shape and strides
 * (both in elements), without copying; array results belong to the library until
 * arrayc_release. Functions return 0, or 1 with a message in `error`.
 * An array parameter declared `const` is only read; one declared without `const` may be written
 * by the function. What C cannot check, the caller must: that the memory passed for a written
 * parameter is writable (read-only memory, e.g. a PROT_READ mapping, crashes the program, as
 * writing through it in C would), and that a pointer, shape and strides describe memory it owns.
 * Integer parameters are int64_t: C converts wider values by its own rules, without an error;
 * a uint64 scalar travels in `i` as its bits (`(uint64_t)v.i`), a narrower integer as its value.
 * A parameter name that C reserves gets a trailing underscore (`double` is `double_`). */
#ifndef @GUARD@
#define @GUARD@
#include <stddef.h>
#include <stdint.h>

typedef struct arrayc_value {
    int kind;            /* 0: scalar (f or i), 1: array */
    int dtype;           /* ARRAYC_F64, ... */
    double f;
    int64_t i;
    void *data;
    int64_t ndim;
    const int64_t *shape;
    const int64_t *strides;
    void *owner;         /* array results: freed by arrayc_release */
} arrayc_value;

enum {";

/// The Python module of library `name`: its machinery (`PY_HELPERS`), then one function per
/// exported function, under the names of `lib_names::python_names`, calling it through `ctypes`
/// on NumPy arrays (see the module docs).
fn python_module(name: &str, program: &Program, source: &str) -> String {
    let codes_py: Vec<String> = DTYPE_CODES.iter().map(|c| format!("{}: numpy.{}", c.1, c.3)).collect();
    let written = written_params(&program.module);
    let mut py =
        PY_HELPERS.replace("@SOURCE@", source).replace("@NAME@", name).replace("@DTYPES@", &codes_py.join(", "));
    let functions: Vec<String> = exported(program).map(|f| f.name.clone()).collect();
    let pynames = lib_names::python_names(&functions);
    for (f, fname) in exported(program).zip(&pynames) {
        let pnames = lib_names::python_names(&f.param_names);
        let writes = &written[&f.name];
        let mut params = vec![];
        let mut packs = vec![];
        let mut seen_default = false;
        let mut keyword_only = false;
        for (k, ((&p, n), d)) in f.params.iter().zip(&pnames).zip(&f.param_defaults).enumerate() {
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
            let (code, rank, writes) = match f.ty(p) {
                Type::Scalar(d) => (codes(d).2, "None".to_string(), false),
                Type::Array(d, r) => (codes(d).2, r.to_string(), writes[k]),
            };
            let writes = if writes { "True" } else { "False" };
            packs.push(format!("({n}, \"{n}\", {code}, {rank}, {writes})"));
        }
        let _ = write!(
            py,
            "\n\ndef {fname}({}):\n    \"\"\"{}\"\"\"\n    return __arrayc_call(\"{}\", \"{fname}\", ({}{}), {})\n",
            params.join(", "),
            signature(f, fname, &pnames),
            f.name,
            packs.join(", "),
            if packs.len() == 1 { "," } else { "" },
            f.results.len()
        );
    }
    py
}

/// The start of every generated Python module (`@SOURCE@`, `@NAME@`, `@DTYPES@` replaced): its one
/// global name `__arrayc_call`, a closure over ctypes, NumPy and the builtins it uses, so that no
/// function of the library, whatever its name, shadows them.
const PY_HELPERS: &str = r#""""Generated by `arrayc build --lib` from @SOURCE@: its functions, compiled ahead of time, on
NumPy arrays. Arrays are passed to lib@NAME@.so without copying (a function may write into them, as
a NumPy function would; a read-only array where the function writes raises ValueError); array
results are copied once into new NumPy arrays. Integers out of int64's range raise OverflowError.
A name that Python reserves gets a trailing underscore (a function `class` is `class_`)."""


def __arrayc_helpers():
    import ctypes
    import os

    import numpy
    from builtins import (OverflowError, RuntimeError, TypeError, ValueError, any, float, int, isinstance, len,
                          max, min, range, sum, tuple, type, zip)

    lib = ctypes.CDLL(os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib@NAME@.so"))

    class Value(ctypes.Structure):
        _fields_ = [("kind", ctypes.c_int), ("dtype", ctypes.c_int), ("f", ctypes.c_double), ("i", ctypes.c_int64),
                    ("data", ctypes.c_void_p), ("ndim", ctypes.c_int64), ("shape", ctypes.POINTER(ctypes.c_int64)),
                    ("strides", ctypes.POINTER(ctypes.c_int64)), ("owner", ctypes.c_void_p)]

    lib.arrayc_call.argtypes = [ctypes.c_char_p, ctypes.POINTER(Value), ctypes.c_size_t, ctypes.POINTER(Value),
                                ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
    lib.arrayc_call.restype = ctypes.c_int
    lib.arrayc_release.argtypes = [ctypes.POINTER(Value)]
    lib.arrayc_release.restype = None
    dtypes = {@DTYPES@}
    floats, bools = (0, 1), (3,)
    lo, hi = -(1 << 63), (1 << 63) - 1

    def call(function, pyname, args, nresults):
        values = (Value * max(len(args), 1))()
        keep = []
        for k, (x, name, code, rank, written) in enumerate(args):
            v = values[k]
            v.kind, v.dtype = (0 if rank is None else 1), code
            if rank is None:
                if code in floats:
                    v.f = float(x)
                elif code in bools:
                    v.i = 1 if x else 0
                else:
                    i, u64 = int(x), dtypes[code] is numpy.uint64
                    if not (0 <= i <= 2 * hi + 1 if u64 else lo <= i <= hi):
                        raise OverflowError(f"{pyname}(): `{name}` = {i} is out of {'uint64' if u64 else 'int64'}'s "
                                            f"range (Python int too large to convert to C long)")
                    v.i = i - (1 << 64) if i > hi else i  # a uint64 travels as its bits
                continue
            if written and not isinstance(x, numpy.ndarray):
                raise TypeError(f"{pyname}(): `{name}` is written by the function, so it must be a NumPy array, "
                                f"not {type(x).__name__} (the writes would go to a copy)")
            a = numpy.asarray(x)
            want = numpy.dtype(dtypes[code])
            if a.dtype != want:
                raise TypeError(f"{pyname}(): `{name}` has dtype {a.dtype}, but the parameter is {want}; "
                                f"convert it with .astype(numpy.{want})")
            if a.ndim != rank:
                raise ValueError(f"{pyname}(): `{name}` has {a.ndim} dimensions, but the parameter has {rank}")
            if written and not a.flags.writeable:
                raise ValueError(f"assignment destination is read-only: {pyname}() writes into `{name}`; "
                                 f"pass a writable array (a copy: numpy.array({name}))")
            if not a.flags.aligned:
                raise ValueError(f"{pyname}(): `{name}` is not aligned to its {a.itemsize}-byte elements; "
                                 f"pass a copy (numpy.array({name}))")
            if any(s % a.itemsize for s in a.strides):
                raise ValueError(f"{pyname}(): `{name}` has strides that are not whole elements; pass a copy")
            shape = (ctypes.c_int64 * max(rank, 1))(*a.shape)
            strides = (ctypes.c_int64 * max(rank, 1))(*(s // a.itemsize for s in a.strides))
            v.data, v.ndim, v.shape, v.strides = a.ctypes.data, rank, shape, strides
            keep += [a, shape, strides]
        results = (Value * max(nresults, 1))()
        error = ctypes.create_string_buffer(4096)
        if lib.arrayc_call(function.encode(), values, len(args), results, nresults, error, len(error)) != 0:
            raise RuntimeError(error.value.decode("utf-8", "replace"))
        out = tuple(result(results[k]) for k in range(nresults))
        return None if nresults == 0 else out[0] if nresults == 1 else out

    def result(v):
        dtype = numpy.dtype(dtypes[v.dtype])
        if v.kind == 0:
            return dtype.type(v.f if v.dtype in floats else v.i % (1 << 64) if dtype.kind == "u" else v.i)
        try:
            shape = tuple(v.shape[k] for k in range(v.ndim))
            strides = tuple(v.strides[k] for k in range(v.ndim))
            if 0 in shape:
                return numpy.empty(shape, dtype)
            low = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
            high = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides))
            span = (ctypes.c_char * ((high - low + 1) * dtype.itemsize)).from_address(v.data + low * dtype.itemsize)
            view = numpy.ndarray(shape, dtype, buffer=span, offset=-low * dtype.itemsize,
                                 strides=tuple(s * dtype.itemsize for s in strides))
            return view.copy()
        finally:
            lib.arrayc_release(ctypes.byref(v))

    return call


__arrayc_call = __arrayc_helpers()
del __arrayc_helpers
"#;

/// The run-time archive: `libarrayc_aot.a` (`$ARRAYC_AOT_LIB`, else beside the running `arrayc`),
/// or for a `distributed` executable `libarrayc_aot_dist.a` in the same directory. Errors: the
/// archive does not exist (the message names the cargo command that builds it).
fn aot_library(distributed: bool) -> Result<PathBuf, UserError> {
    let plain = match std::env::var_os(AOT_LIB_VAR) {
        Some(p) => PathBuf::from(p),
        None => std::env::current_exe()
            .map_err(|e| UserError(format!("error: cannot locate the arrayc executable: {e}")))?
            .with_file_name("libarrayc_aot.a"),
    };
    let (path, krate) = if distributed {
        (plain.with_file_name("libarrayc_aot_dist.a"), "arrayc-aot-dist")
    } else {
        (plain, "arrayc-aot")
    };
    if path.is_file() {
        Ok(path)
    } else {
        Err(UserError(format!(
            "error: the run-time library of executables, `{}`, does not exist; build it with `cargo build --release -p {krate}` (`make build` does) or point {AOT_LIB_VAR} at `libarrayc_aot.a` in the directory that holds it",
            path.display()
        )))
    }
}

/// The linker flags of the system's MPI library (`pkg-config --libs mpi`), which a distributed
/// executable links. Errors: pkg-config or MPI's `.pc` file is missing (the message names the
/// packages to install).
fn mpi_link_flags() -> Result<Vec<String>, UserError> {
    let fix = "install OpenMPI and pkg-config (apt-get install libopenmpi-dev pkgconf, as scripts/setup.sh does)";
    let output = Command::new("pkg-config").args(["--libs", "mpi"]).output().map_err(|e| {
        UserError(format!("error: a distributed executable links MPI, but `pkg-config` cannot run ({e}); {fix}"))
    })?;
    if !output.status.success() {
        return Err(UserError(format!(
            "error: a distributed executable links MPI, but `pkg-config --libs mpi` failed: {}; {fix}",
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&output.stdout).split_whitespace().map(String::from).collect())
}

fn is_c_identifier(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f == '_' || f.is_ascii_alphabetic()) && c.all(|x| x == '_' || x.is_ascii_alphanumeric())
}

/// The C file that gives `libarrayc_aot.a` its program (`arrayc_payload`, `arrayc_payload_len`) and
/// the kernels' packed entries (`arrayc_kernels`, `arrayc_kernel_count`, in the order of `names`),
/// and, for an executable, a `main` that calls the archive's entry `main` (`arrayc_aot_main`, or
/// `arrayc_aot_dist_main` of a distributed one).
fn glue(names: &[String], payload: &[u8], main: Option<&str>) -> String {
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
    if let Some(f) = main {
        let _ = writeln!(
            c,
            "int {f}(int argc, char **argv);\nint main(int argc, char **argv) {{ return {f}(argc, argv); }}"
        );
    }
    c
}
