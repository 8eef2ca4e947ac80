//! The pass pipeline, by name: `lower-ast`, then `insert-del-sync`, `fusion` + `outline-kernels`,
//! then kernel code generation and the JIT. Each stage can be stopped after for `arrayc emit`.

use crate::{check_source, render_diagnostics, UserError};
use arrayc_dialect::{ir::Module, mlir, print, verify};
use arrayc_passes::fusion::{FusionOptions, RegionReport};
use arrayc_passes::{dce, insert_del_sync, lower_ast, outline};

/// The passes `arrayc-opt --pass` accepts, with a one-line description each.
pub const PASSES: &[(&str, &str)] = &[
    ("insert-del-sync", "add arr.sync before host reads and arr.del after each base array's last use"),
    ("outline-kernels", "partition each region with the WSP fusion pass (optimal, bohrium) and outline each block into an arr.kernel function"),
    ("dce", "remove unused views and sizes, and the allocations of arrays contracted into kernels"),
];

/// Front end and `lower-ast`: source text to an `arr` module.
pub fn lower_source(src: &str, file: &str) -> Result<Module, UserError> {
    let checked = check_source(src, file)?;
    let m = lower_ast::lower_program(&checked, src, file).map_err(|diags| {
        UserError(format!("{}error: could not compile `{file}`", render_diagnostics(&diags, file, src)))
    })?;
    verify::verify_module(&m).map_err(|e| UserError(format!("internal error: after `lower-ast`: {e}")))?;
    Ok(m)
}

/// Runs one named pass with the default fusion options. `entry` is the function whose results the
/// host reads.
pub fn run_pass(m: &mut Module, name: &str, entry: &str) -> Result<(), UserError> {
    run_pass_with(m, name, entry, &FusionOptions::default()).map(|_| ())
}

/// Runs one named pass; `outline-kernels` partitions with `opts` and returns its region reports.
/// The typed IR is verified after the pass (`verify::verify_module`): a violation is a compiler
/// bug, reported as an internal error naming the pass.
pub fn run_pass_with(
    m: &mut Module,
    name: &str,
    entry: &str,
    opts: &FusionOptions,
) -> Result<Vec<RegionReport>, UserError> {
    let reports = match name {
        "insert-del-sync" => {
            insert_del_sync::run(m, entry);
            vec![]
        }
        "outline-kernels" => outline::run(m, opts),
        "dce" => {
            dce::run(m);
            vec![]
        }
        _ => {
            let names: Vec<&str> = PASSES.iter().map(|(n, _)| *n).collect();
            return Err(UserError(format!("error: unknown pass `{name}`; passes: {}", names.join(", "))));
        }
    };
    verify::verify_module(m).map_err(|e| UserError(format!("internal error: after pass `{name}`: {e}")))?;
    Ok(reports)
}

/// The passes from an `arr` module to kernels: `insert-del-sync`, `outline-kernels` (with the
/// fusion pass) and `dce`. Returns the fusion reports.
pub fn to_kernels(m: &mut Module, entry: &str, opts: &FusionOptions) -> Result<Vec<RegionReport>, UserError> {
    run_pass_with(m, "insert-del-sync", entry, opts)?;
    let reports = run_pass_with(m, "outline-kernels", entry, opts)?;
    run_pass_with(m, "dce", entry, opts)?;
    Ok(reports)
}

/// The `arr` module as MLIR text, after MLIR has parsed and verified it against the IRDL dialect.
/// A failure here is a compiler bug; the error carries MLIR's diagnostics.
pub fn verified_text(m: &Module) -> Result<String, UserError> {
    let text = print::print_module(m);
    let ctx = mlir::new_context().map_err(|e| UserError(format!("internal error: {e}")))?;
    mlir::parse_and_verify(&ctx, &text)
        .map_err(|e| UserError(format!("internal error: the arr module does not verify: {e}\n{text}")))?;
    Ok(text)
}
