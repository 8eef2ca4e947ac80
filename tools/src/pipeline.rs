//! The pass pipeline, by name: `lower-ast`, then `insert-del-sync`, `fusion` + `outline-kernels`,
//! then kernel code generation and the JIT. Each stage can be stopped after for `arrayc emit`.

use crate::{check_source, render_diagnostics, UserError};
use arrayc_dialect::{ir::Module, mlir, print};
use arrayc_passes::{insert_del_sync, lower_ast, outline};

/// The passes `arrayc-opt --pass` accepts, with a one-line description each.
pub const PASSES: &[(&str, &str)] = &[
    ("insert-del-sync", "add arr.sync before host reads and arr.del after each base array's last use"),
    ("outline-kernels", "partition computations (singleton partition) and outline each block into an arr.kernel function"),
];

/// Front end and `lower-ast`: source text to an `arr` module.
pub fn lower_source(src: &str, file: &str) -> Result<Module, UserError> {
    let checked = check_source(src, file)?;
    lower_ast::lower_program(&checked, src, file).map_err(|diags| {
        UserError(format!("{}error: could not compile `{file}`", render_diagnostics(&diags, file, src)))
    })
}

/// Runs one named pass. `entry` is the function whose results the host reads.
pub fn run_pass(m: &mut Module, name: &str, entry: &str) -> Result<(), UserError> {
    match name {
        "insert-del-sync" => insert_del_sync::run(m, entry),
        "outline-kernels" => outline::run(m),
        _ => {
            let names: Vec<&str> = PASSES.iter().map(|(n, _)| *n).collect();
            return Err(UserError(format!("error: unknown pass `{name}`; passes: {}", names.join(", "))));
        }
    }
    Ok(())
}

/// The `arr` module as MLIR text, after MLIR has parsed and verified it against the IRDL dialect.
/// A failure here is a compiler bug; the error carries MLIR's diagnostics.
pub fn verified_text(m: &Module) -> Result<String, UserError> {
    let text = print::print_module(m);
    let ctx = mlir::new_context().map_err(|e| UserError(format!("internal error: {e}")))?;
    mlir::parse_and_verify(&ctx, &text).map_err(|e| UserError(format!("internal error: the arr module does not verify: {e}\n{text}")))?;
    Ok(text)
}
