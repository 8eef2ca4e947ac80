//! `arrayc-exec`: what runs a compiled program's host code, without MLIR: the host executor
//! ([`exec`]), the entry function's arguments from `--arg` ([`given_arguments`],
//! [`entry_arguments`]) and the results' output ([`output`]). The `arrayc` driver uses it after
//! compiling; an ahead-of-time executable (`arrayc build`) runs on it alone, with the kernels
//! linked in, so it starts without MLIR or LLVM.

use arrayc_core::ir::{Module, Scalar, Type};
use arrayc_core::DType;
use arrayc_runtime::{npy, value::RtValue};
use std::path::Path;

pub mod aot;
pub mod exec;
pub mod output;

/// The options of a run that `arrayc run` and a built executable share: the entry's arguments and
/// where the results go.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct RunArgs {
    /// An argument of the entry function: NAME=VALUE for scalars (or NAME=@file.npy of a 0-d array:
    /// `numpy.save(path, numpy.int32(5))`), NAME=@file.npy for arrays.
    /// Parameters not given take their defaults.
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// Write each result to DIR/result_<i>.npy (scalars as 0-d arrays); DIR is created if needed.
    /// All or nothing: a failed or interrupted run leaves no result files in DIR, and result files
    /// of an earlier run are removed.
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
}

/// A user-facing error: already rendered text (diagnostics or a message naming the fix). The
/// drivers print it and exit with status 1; a compiler bug arrives here as an
/// [`InternalError`](arrayc_core::error::InternalError), rendered with its request for a report.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UserError(pub String);

impl From<arrayc_core::error::InternalError> for UserError {
    fn from(e: arrayc_core::error::InternalError) -> Self {
        UserError(e.to_string())
    }
}

/// Whether `f` is a function of the program as written: not a kernel, and not an instance of a
/// rank-generic function (`lap.r2`: named with a dot, which no name a program writes has;
/// `arrayc_grammar::Checked::instance_of`), which only the program's functions call.
pub fn is_source_function(f: &arrayc_core::ir::Func) -> bool {
    // `$`: a nested function lifted out of the function around it (`arrayc_grammar::nested`).
    !f.kernel && !f.name.contains('.') && !f.name.contains('$')
}

/// The entry function: `requested`, else `main`, else the only function, else the function named
/// like the file (`synthetic` in `synthetic.arr`).
/// Instances of rank-generic functions (`lap.r2`, named with a dot, which no source name has) are
/// never entries: the entry's ranks come from its declared types.
pub fn choose_entry(m: &Module, requested: Option<&str>) -> Result<String, UserError> {
    let names: Vec<&str> = m.funcs.iter().filter(|f| is_source_function(f)).map(|f| f.name.as_str()).collect();
    let stem = Path::new(&m.source_name).file_stem().and_then(|s| s.to_str()).unwrap_or("");
    match requested {
        Some(r) if names.contains(&r) => Ok(r.to_string()),
        Some(r) if m.funcs.iter().any(|f| f.name.strip_prefix(r).is_some_and(|rest| rest.starts_with(".r"))) => {
            Err(UserError(format!(
                "error: `{r}` is rank-generic (a parameter of type `[...]`): it is compiled once per tuple of \
                 ranks at its calls, so it is an entry function only where arrays given for its `[...]` \
                 parameters give the ranks (`arrayc run`, `emit` and `fuse-report` with --arg x=@file.npy); else call it \
                 from an entry function whose parameters have ranks, e.g. \
                 `fn main(x: f64[N, M]) -> f64[N, M] {{ return {r}(x); }}`"
            )))
        }
        Some(r) => Err(UserError(format!("error: no function `{r}` in this file; functions: {}", names.join(", ")))),
        None if names.contains(&"main") => Ok("main".into()),
        None if names.len() == 1 => Ok(names[0].to_string()),
        None if names.contains(&stem) => Ok(stem.to_string()),
        None if names.is_empty() => Err(UserError(format!("error: `{}` defines no function; write `fn main() {{ ... }}`", m.source_name))),
        None => Err(UserError(format!(
            "error: this file has several functions ({}) and none is called `main` or `{stem}`; choose one with --entry NAME",
            names.join(", ")
        ))),
    }
}

/// The entry function's arguments given with `--arg NAME=VALUE` / `--arg NAME=@file.npy`, else the
/// parameters' defaults; `None` for a parameter with neither. Errors name the parameter and the fix.
pub fn given_arguments(m: &Module, entry: &str, args: &[String]) -> Result<Vec<Option<RtValue>>, UserError> {
    let f = m.func(entry).expect("entry exists");
    let mut given: Vec<Option<RtValue>> = f.param_defaults.iter().map(|d| d.map(RtValue::Scalar)).collect();
    let mut seen: Vec<&str> = vec![];
    for a in args {
        let Some((name, value)) = a.split_once('=') else {
            return Err(UserError(format!("error: --arg `{a}` must look like NAME=VALUE or NAME=@file.npy")));
        };
        let Some(i) = f.param_names.iter().position(|p| p == name) else {
            return Err(UserError(format!(
                "error: `{entry}` has no parameter `{name}`; its parameters are: {}",
                if f.param_names.is_empty() { "(none)".to_string() } else { f.param_names.join(", ") }
            )));
        };
        if seen.contains(&name) {
            return Err(UserError(format!("error: --arg {name} is given twice; pass each parameter once")));
        }
        seen.push(name);
        given[i] = Some(parse_arg(name, value, f.ty(f.params[i]))?);
    }
    Ok(given)
}

/// Every argument of the entry function ([`given_arguments`]); a parameter with no `--arg` and no
/// default is an error that says how to pass it.
pub fn entry_arguments(m: &Module, entry: &str, args: &[String]) -> Result<Vec<RtValue>, UserError> {
    let f = m.func(entry).expect("entry exists");
    given_arguments(m, entry, args)?
        .into_iter()
        .enumerate()
        .map(|(i, g)| {
            g.ok_or_else(|| {
                UserError(format!(
                    "error: parameter `{}` of `{entry}` has no default; pass it with --arg {}=VALUE{}",
                    f.param_names[i],
                    f.param_names[i],
                    if f.ty(f.params[i]).is_array() { " (an array: --arg NAME=@file.npy)" } else { "" }
                ))
            })
        })
        .collect()
}

fn parse_arg(name: &str, value: &str, ty: Type) -> Result<RtValue, UserError> {
    match ty {
        Type::Array(d, rank) => {
            let Some(path) = value.strip_prefix('@') else {
                return Err(UserError(format!(
                    "error: parameter `{name}` is an array; pass a file: --arg {name}=@file.npy"
                )));
            };
            let v = npy::read_npy(Path::new(path)).map_err(|e| UserError(format!("error: --arg {name}: {e}")))?;
            if v.dtype != d || v.rank() != rank {
                return Err(UserError(format!(
                    "error: --arg {name}: `{path}` holds a {}-d {} array but `{name}` is a {rank}-d {} array; convert it with numpy (`x.astype(numpy.{})`, reshape)",
                    v.rank(),
                    v.dtype.name(),
                    d.name(),
                    numpy_name(d)
                )));
            }
            Ok(RtValue::View(v))
        }
        Type::Scalar(d) if value.starts_with('@') => {
            // `numpy.save(path, numpy.int32(5))`: a 0-d `.npy` of the parameter's dtype.
            let path = &value[1..];
            let v = npy::read_npy(Path::new(path)).map_err(|e| UserError(format!("error: --arg {name}: {e}")))?;
            if v.dtype != d || v.rank() != 0 {
                return Err(UserError(format!(
                    "error: --arg {name}: `{path}` holds a {}-d {} array but `{name}` is a {} scalar; pass the value \
                     (--arg {name}=VALUE) or save a 0-d array (numpy.save(path, numpy.{}(value)))",
                    v.rank(),
                    v.dtype.name(),
                    d.name(),
                    numpy_name(d)
                )));
            }
            Ok(RtValue::Scalar(v.read_at(v.offset)))
        }
        Type::Scalar(d) => {
            let bad = || UserError(format!("error: --arg {name}={value}: `{value}` is not a valid {} value", d.name()));
            let s = match d {
                d if d.is_int() => {
                    let v: i128 = value.trim().parse().map_err(|_| bad())?;
                    let (lo, hi) = d.int_range().expect("an integer dtype");
                    if !(lo..=hi).contains(&v) {
                        return Err(bad());
                    }
                    // Within the dtype's range: the cast from the i64 bits is exact.
                    Scalar::I64(v as i64).cast(d)
                }
                DType::F32 => Scalar::F32(value.trim().parse().map_err(|_| bad())?),
                DType::Bool => Scalar::Bool(match value.trim() {
                    "true" | "True" | "1" => true,
                    "false" | "False" | "0" => false,
                    _ => return Err(bad()),
                }),
                _ => Scalar::F64(value.trim().parse().map_err(|_| bad())?),
            };
            Ok(RtValue::Scalar(s))
        }
    }
}

/// NumPy's name of dtype `d` (`numpy.{name}`), from the one table [`aot::DTYPE_CODES`].
fn numpy_name(d: DType) -> &'static str {
    aot::DTYPE_CODES.iter().find(|c| c.0 == d).map_or("float64", |c| c.3)
}

/// Stack size, in bytes, of the thread the drivers compile and run on. The front end bounds the
/// syntax tree's depth (`nesting::MAX_NESTING`), but the phases after it (the checker, the
/// lowering, MLIR's verifier and printer, dropping the tree) recurse at several frames per level:
/// this leaves a wide margin at the limit. Only the touched part of the stack is ever committed.
pub const DRIVER_STACK_BYTES: usize = 512 << 20;

/// Runs `f` on a thread with a [`DRIVER_STACK_BYTES`] stack and returns its result; a panic in `f`
/// is resumed on the calling thread. Errors: the thread could not be created (memory or thread
/// limits).
pub fn on_driver_stack<T: Send>(f: impl FnOnce() -> T + Send) -> std::io::Result<T> {
    std::thread::scope(|s| {
        let handle =
            std::thread::Builder::new().name("arrayc".into()).stack_size(DRIVER_STACK_BYTES).spawn_scoped(s, f)?;
        Ok(handle.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    })
}

/// Removes the result files `DIR/result_<k>.npy` with `k >= keep` that an earlier run left, so
/// that `DIR` holds exactly this run's results (`keep` of them; 0 after a failed run). Other files
/// are not touched. Errors: a result file that cannot be removed.
pub fn remove_stale_results(dir: &Path, keep: usize) -> Result<(), UserError> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(()) };
    for e in entries.flatten() {
        let name = e.file_name();
        let index = name
            .to_str()
            .and_then(|n| n.strip_prefix("result_"))
            .and_then(|n| n.strip_suffix(".npy"))
            .and_then(|k| k.parse::<usize>().ok());
        if index.is_some_and(|k| k >= keep) {
            std::fs::remove_file(e.path()).map_err(|err| {
                UserError(format!("error: cannot remove the stale result `{}`: {err}", e.path().display()))
            })?;
        }
    }
    Ok(())
}
