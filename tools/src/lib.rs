//! The compilation pipeline shared by the `arrayc` driver and `arrayc-opt`: front end, lowering,
//! the named passes, and entry-function argument handling.

use arrayc_core::shape::row_major_strides;
use arrayc_dialect::ir::{Module, Scalar, Type};
use arrayc_grammar::{ast::DType, Checked, Diagnostic};
use arrayc_passes::wsp_fusion::{KnownArg, Specialization};
use arrayc_runtime::{npy, value::RtValue};
use std::io::IsTerminal;
use std::path::Path;

use arrayc_passes::wsp::{Algorithm, Budget, MODEL_NAMES};
use arrayc_passes::wsp_fusion::FusionOptions;
use clap::builder::PossibleValuesParser;
use pipeline::PassOptions;

pub mod editor;
pub mod exec;
pub mod pipeline;
pub mod report;

/// A user-facing error: already rendered text (diagnostics or a message naming the fix).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UserError(pub String);

/// Renders diagnostics for the terminal (colour only when stderr is a terminal).
pub fn render_diagnostics(diags: &[Diagnostic], file: &str, src: &str) -> String {
    let color = std::io::stderr().is_terminal();
    diags.iter().map(|d| d.render(file, src, color)).collect::<Vec<_>>().join("")
}

/// Reads a source file, with an error that names it. A leading UTF-8 byte order mark is dropped
/// (editors on Windows write one). Text that is not UTF-8 is an error naming the line, column and
/// byte offset of the first invalid byte.
pub fn read_source(path: &Path) -> Result<String, UserError> {
    let bytes = std::fs::read(path).map_err(|e| UserError(format!("error: cannot read `{}`: {e}", path.display())))?;
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.to_string()),
        Err(e) => {
            let at = e.valid_up_to();
            let valid = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
            let (line, col) = arrayc_grammar::line_col(valid, at);
            Err(UserError(format!(
                "error: `{}`:{line}:{col}: the file is not UTF-8 text (invalid byte 0x{:02x} at byte offset {at}); save it as UTF-8",
                path.display(),
                bytes[at]
            )))
        }
    }
}

/// Parses and checks `src`; on errors returns them rendered.
pub fn check_source(src: &str, file: &str) -> Result<Checked, UserError> {
    let (checked, diags) = arrayc_grammar::frontend(src);
    match checked {
        Some(c) => {
            if !diags.is_empty() {
                eprint!("{}", render_diagnostics(&diags, file, src));
            }
            Ok(c)
        }
        None => {
            let n = diags.iter().filter(|d| d.is_error()).count();
            Err(UserError(format!(
                "{}error: could not compile `{file}` due to {n} previous error{}",
                render_diagnostics(&diags, file, src),
                if n == 1 { "" } else { "s" }
            )))
        }
    }
}

/// The entry function: `requested`, else `main`, else the only function, else the function named
/// like the file (`synthetic` in `synthetic.arr`).
pub fn choose_entry(m: &Module, requested: Option<&str>) -> Result<String, UserError> {
    let names: Vec<&str> = m.funcs.iter().filter(|f| !f.kernel).map(|f| f.name.as_str()).collect();
    let stem = Path::new(&m.source_name).file_stem().and_then(|s| s.to_str()).unwrap_or("");
    match requested {
        Some(r) if names.contains(&r) => Ok(r.to_string()),
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

/// What the fusion pass may assume about the entry's arguments ([`given_arguments`]): scalar
/// values and array shapes (arrays from `.npy` files are contiguous base arrays of their own).
pub fn specialization(entry: &str, given: &[Option<RtValue>]) -> Specialization {
    let args = given
        .iter()
        .map(|g| match g {
            Some(RtValue::Scalar(s)) => Some(KnownArg::Scalar(*s)),
            Some(RtValue::View(v))
                if v.offset == 0
                    && v.strides == row_major_strides(&v.shape)
                    && v.len() as usize * v.dtype.size_bytes() == v.base.len_bytes() =>
            {
                Some(KnownArg::Shape(v.shape.clone()))
            }
            _ => None,
        })
        .collect();
    Specialization { func: entry.to_string(), args }
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
        Type::Scalar(d) => {
            let bad = || UserError(format!("error: --arg {name}={value}: `{value}` is not a valid {} value", d.name()));
            let s = match d {
                DType::I64 => Scalar::I64(value.trim().parse().map_err(|_| bad())?),
                DType::F64 => Scalar::F64(value.trim().parse().map_err(|_| bad())?),
                DType::F32 => Scalar::F32(value.trim().parse().map_err(|_| bad())?),
                DType::Bool => Scalar::Bool(match value.trim() {
                    "true" | "True" | "1" => true,
                    "false" | "False" | "0" => false,
                    _ => return Err(bad()),
                }),
            };
            Ok(RtValue::Scalar(s))
        }
    }
}

fn numpy_name(d: DType) -> &'static str {
    match d {
        DType::F64 => "float64",
        DType::F32 => "float32",
        DType::I64 => "int64",
        DType::Bool => "bool_",
    }
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

/// Where kernels run: `arrayc run`, `emit` and `fuse-report` take `--target`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// Multithreaded CPU kernels, JIT-compiled by LLVM (the default).
    #[default]
    Cpu,
    /// NVIDIA GPU kernels: PTX for sm_90, launched through the CUDA driver; arrays stay in device
    /// memory between kernels (docs/gpu.md).
    Gpu,
    /// The GPU kernels' mapping emulated on the CPU, one thread of the grid at a time (slow): checks
    /// the GPU code generation without a GPU. `ARRAYC_GPU_EMULATION_GRID=X,Y,T` runs a grid of X by Y
    /// blocks of T threads instead of the GPU runtime's.
    GpuEmulated,
}

/// The fusion and verification options of `arrayc run`, `emit`, `fuse-report` and `arrayc-opt`.
#[derive(clap::Args, Clone, Debug)]
pub struct FuseArgs {
    /// Partition algorithm of the WSP fusion pass (Kristensen et al. 2016, Sec. V);
    /// `optimal-baseline` is the paper's plain mask search, for comparison.
    #[arg(long, default_value = "optimal", value_parser = PossibleValuesParser::new(Algorithm::ALL.map(|a| a.name())))]
    pub fuse: String,
    /// Cost model the partition minimises (bohrium: Def. 13, elements moved; max-contract,
    /// max-locality, robinson: Defs. 19-21; gpu: elements moved plus a price per kernel launch).
    /// Default: gpu with --target gpu, else bohrium.
    #[arg(long, value_parser = PossibleValuesParser::new(MODEL_NAMES))]
    pub cost: Option<String>,
    /// Time budget per region, in milliseconds, for the whole partitioning (graph, cost model,
    /// preconditioning, greedy, search) under every algorithm; past it the best legal partition
    /// found is used and the report says optimality was not proven.
    #[arg(long, default_value_t = Budget::DEFAULT_MS, value_name = "MS")]
    pub fuse_budget_ms: u64,
    /// Search budget of `optimal` per region, in branch-and-bound nodes.
    #[arg(long, default_value_t = Budget::DEFAULT_NODES, value_name = "NODES")]
    pub fuse_budget_nodes: u64,
    /// Partition without the entry's argument values: sizes stay symbolic and views that cannot be
    /// proven identical or disjoint are assumed to overlap. By default the partition is chosen for
    /// the argument values (`--arg`, else the defaults), as Bohrium fuses with concrete shapes.
    #[arg(long)]
    pub generic: bool,
    /// Verify the module with MLIR's verifier after every pass, naming the pass that broke it (the
    /// project's own IR invariants are checked after every pass regardless). On in debug builds and
    /// when the environment variable ARRAYC_VERIFY_EACH is set (the test suites set it).
    #[arg(long, env = "ARRAYC_VERIFY_EACH", value_parser = clap::builder::FalseyValueParser::new())]
    pub verify_each: bool,
}

impl FuseArgs {
    /// These options for kernels that run on `target`: its default cost model unless `--cost` gave
    /// one.
    pub fn for_target(&self, target: Target) -> FuseArgs {
        let default = match target {
            Target::Cpu => "bohrium",
            Target::Gpu | Target::GpuEmulated => "gpu",
        };
        FuseArgs { cost: Some(self.cost.clone().unwrap_or_else(|| default.into())), ..self.clone() }
    }

    /// The options for partitioning `entry`, given its arguments as far as they are known.
    pub fn options(&self, entry: &str, given: &[Option<RtValue>]) -> PassOptions {
        let fusion = FusionOptions {
            algorithm: Algorithm::by_name(&self.fuse).expect("clap checked the name"),
            cost_model: self.cost.clone().unwrap_or_else(|| "bohrium".into()),
            budget: Budget { max_nodes: Some(self.fuse_budget_nodes), max_ms: Some(self.fuse_budget_ms) },
            specialize: (!self.generic).then(|| specialization(entry, given)),
            decisions: None,
        };
        PassOptions { fusion, verify_each: self.verify_each || cfg!(debug_assertions) }
    }
}
