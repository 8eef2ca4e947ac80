//! The compilation pipeline shared by the `arrayc` driver and `arrayc-opt`: front end, lowering,
//! the named passes, and the fusion options; the entry's arguments, the executor and the output come
//! from `arrayc-exec` (re-exported here).

use arrayc_core::shape::row_major_strides;
use arrayc_grammar::{Checked, Diagnostic};
use arrayc_passes::wsp_fusion::{KnownArg, Specialization};
use arrayc_runtime::value::RtValue;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use arrayc_passes::wsp::{Algorithm, Budget, MODEL_NAMES};
use arrayc_passes::wsp_fusion::FusionOptions;
use clap::builder::PossibleValuesParser;
use pipeline::PassOptions;

pub use arrayc_exec::{
    choose_entry, entry_arguments, exec, given_arguments, is_source_function, on_driver_stack, output,
    remove_stale_results, UserError, DRIVER_STACK_BYTES,
};

pub mod build;
pub mod editor;
pub mod lib_names;
pub mod pipeline;
pub mod report;

/// How many errors the drivers print by default before they only count the rest (as clang's
/// `-ferror-limit`): one mistake repeated through a generated file should not bury the first.
pub const DEFAULT_ERROR_LIMIT: usize = 100;

/// The error limit of this process ([`set_error_limit`]); 0 means none.
static ERROR_LIMIT: AtomicUsize = AtomicUsize::new(DEFAULT_ERROR_LIMIT);

/// Sets how many errors [`render_diagnostics`] prints in full (`--error-limit N`; 0: all of them).
pub fn set_error_limit(n: usize) {
    ERROR_LIMIT.store(n, Ordering::Relaxed);
}

/// Renders diagnostics for the terminal (colour only when stderr is a terminal), up to the error
/// limit ([`set_error_limit`]; default [`DEFAULT_ERROR_LIMIT`]).
pub fn render_diagnostics(diags: &[Diagnostic], file: &str, src: &str) -> String {
    let color = std::io::stderr().is_terminal();
    render_limited(diags, ERROR_LIMIT.load(Ordering::Relaxed), |d| d.render(file, src, color))
}

/// `diags` rendered by `render` in order until `limit` errors have been (0: no limit); what comes
/// after the last of those (errors and warnings) is only counted, in a last line that says how to
/// see it.
fn render_limited(diags: &[Diagnostic], limit: usize, render: impl Fn(&Diagnostic) -> String) -> String {
    let shown = match diags.iter().enumerate().filter(|(_, d)| d.is_error()).nth(limit.wrapping_sub(1)) {
        Some((last, _)) if limit > 0 => last + 1,
        _ => diags.len(),
    };
    let mut out: String = diags[..shown].iter().map(render).collect();
    let rest = &diags[shown..];
    if !rest.is_empty() {
        let errors = rest.iter().filter(|d| d.is_error()).count();
        let warnings = rest.len() - errors;
        let plural = |n: usize, what: &str| format!("{n} more {what}{}", if n == 1 { "" } else { "s" });
        let hidden = match (errors, warnings) {
            (e, 0) => plural(e, "error"),
            (0, w) => plural(w, "warning"),
            (e, w) => format!("{} and {}", plural(e, "error"), plural(w, "warning")),
        };
        out += &format!(
            "note: {hidden} not shown: the error limit is {limit} (`--error-limit N` changes it, 0 shows all)\n"
        );
    }
    out
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
    checked_or_error(checked, diags, src, file)
}

/// [`check_source`], also making the instance of the rank-generic function `entry` for the ranks
/// `ranks` of its `[...]` parameters ([`arrayc_grammar::check_for_entry`]).
pub fn check_source_for_entry(src: &str, file: &str, entry: &str, ranks: &[usize]) -> Result<Checked, UserError> {
    let (program, mut diags) = arrayc_grammar::parse(src);
    let checked = match program {
        Some(p) if !diags.iter().any(|d| d.is_error()) => {
            let (c, more) = arrayc_grammar::check_for_entry(p, entry, ranks);
            diags.extend(more);
            c
        }
        _ => None,
    };
    checked_or_error(checked, diags, src, file)
}

/// The checked program, with its warnings printed, or the error that renders its diagnostics.
fn checked_or_error(
    checked: Option<Checked>,
    diags: Vec<Diagnostic>,
    src: &str,
    file: &str,
) -> Result<Checked, UserError> {
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

/// What a run checks of an argument that a partition assumes ([`arrayc_exec::aot::Fixed`]).
pub fn fixed(k: &KnownArg) -> arrayc_exec::aot::Fixed {
    use arrayc_exec::aot::Fixed;
    match k {
        KnownArg::Scalar(s) => Fixed::Scalar(*s),
        KnownArg::Shape(sh) => Fixed::Shape(sh.clone()),
        KnownArg::Residue { modulus, residue } => Fixed::Residue { modulus: *modulus, residue: *residue },
    }
}

/// The versions of a `--generic` entry ([`pipeline::to_kernels_versioned`]) as a run chooses among
/// them ([`arrayc_exec::aot::Version::choose`]).
pub fn versions(specs: Vec<Specialization>) -> Vec<arrayc_exec::aot::Version> {
    specs
        .into_iter()
        .map(|s| arrayc_exec::aot::Version {
            func: s.func,
            when: s.args.iter().map(|a| a.as_ref().map(fixed)).collect(),
        })
        .collect()
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
    /// found is used and the report says optimality was not proven. Not with --distributed: every
    /// rank must choose the same partition, so there only the node budget bounds the search.
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
    /// Whether the kernels run on a device (the GPU targets), whose arrays stay there: `arr.matmul`
    /// becomes the fused kernel (pass `expand-matmul`) and `arr.sort` a sorting network of kernels
    /// (`expand-sort`). Set by [`FuseArgs::for_target`].
    #[arg(skip)]
    pub device: bool,
}

impl FuseArgs {
    /// These options for kernels that run on `target`: its default cost model unless `--cost` gave
    /// one, and on the GPU targets the fused form of every matrix product (cuBLAS is not wired in)
    /// and a sorting network for every sort.
    pub fn for_target(&self, target: Target) -> FuseArgs {
        let default = match target {
            Target::Cpu => "bohrium",
            Target::Gpu | Target::GpuEmulated => "gpu",
        };
        FuseArgs {
            cost: Some(self.cost.clone().unwrap_or_else(|| default.into())),
            device: target != Target::Cpu,
            ..self.clone()
        }
    }

    /// The options for partitioning `entry`, given its arguments as far as they are known.
    pub fn options(&self, entry: &str, given: &[Option<RtValue>]) -> PassOptions {
        let fusion = FusionOptions {
            algorithm: Algorithm::by_name(&self.fuse).expect("clap checked the name"),
            cost_model: self.cost.clone().unwrap_or_else(|| "bohrium".into()),
            budget: Budget { max_nodes: Some(self.fuse_budget_nodes), max_ms: Some(self.fuse_budget_ms) },
            specialize: (!self.generic).then(|| specialization(entry, given)).into_iter().collect(),
            decisions: None,
        };
        PassOptions {
            fusion,
            verify_each: self.verify_each || cfg!(debug_assertions),
            device: self.device,
            distribute: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Errors `E<i>` and warnings `W<i>` in the order `kinds` gives (`e`/`w`), rendered as their code.
    fn limited(kinds: &str, limit: usize) -> String {
        let diags: Vec<Diagnostic> = kinds
            .chars()
            .enumerate()
            .map(|(i, k)| {
                let code: &'static str = Box::leak(format!("{}{i}", k.to_ascii_uppercase()).into_boxed_str());
                match k {
                    'e' => Diagnostic::error(code, "m", 0..1, "l"),
                    _ => Diagnostic::warning(code, "m", 0..1, "l"),
                }
            })
            .collect();
        render_limited(&diags, limit, |d| format!("{} ", d.code))
    }

    /// The first `limit` errors and every diagnostic before the last of them are rendered; the rest
    /// is counted (errors and warnings apart); 0, or no more errors than the limit, renders all.
    #[test]
    fn the_error_limit_renders_the_first_errors_and_counts_the_rest() {
        assert_eq!(
            limited("eeee", 2),
            "E0 E1 note: 2 more errors not shown: the error limit is 2 (`--error-limit N` changes it, 0 shows all)\n"
        );
        assert_eq!(limited("ewewe", 2), "E0 W1 E2 note: 1 more error and 1 more warning not shown: the error limit is 2 (`--error-limit N` changes it, 0 shows all)\n");
        assert_eq!(
            limited("eew", 2),
            "E0 E1 note: 1 more warning not shown: the error limit is 2 (`--error-limit N` changes it, 0 shows all)\n"
        );
        assert_eq!(limited("wwee", 2), "W0 W1 E2 E3 ");
        assert_eq!(limited("wwwe", 1), "W0 W1 W2 E3 ");
        assert_eq!(limited("eeee", 0), "E0 E1 E2 E3 ");
        assert_eq!(limited("", 3), "");
    }
}
