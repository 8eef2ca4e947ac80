//! MLIR context set-up: every upstream dialect registered and the `arr` dialect loaded from its IRDL
//! definition, plus parsing and verifying MLIR text with MLIR's diagnostics captured as text.

use melior::{
    dialect::DialectRegistry,
    ir::{operation::OperationLike, Module},
    utility::{load_irdl_dialects, register_all_dialects, register_all_llvm_translations, register_all_passes},
    Context,
};
use std::sync::{Arc, Mutex};

/// The IRDL definition of the `arr` dialect (`dialect/arr.irdl.mlir`).
pub const ARR_IRDL: &str = include_str!("../arr.irdl.mlir");

/// Errors from MLIR parsing and verification. The message holds MLIR's own diagnostics.
#[derive(Debug, thiserror::Error)]
pub enum MlirError {
    #[error("MLIR could not parse the module:\n{0}")]
    Parse(String),
    #[error("MLIR verification failed:\n{0}")]
    Verify(String),
    #[error("the arr dialect's IRDL definition did not load")]
    Irdl,
}

/// A context with all upstream dialects, passes and LLVM translations registered, and `arr` loaded.
pub fn new_context() -> Result<Context, MlirError> {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    register_all_passes();
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    register_all_llvm_translations(&context);
    let irdl = Module::parse(&context, ARR_IRDL).ok_or(MlirError::Irdl)?;
    if !load_irdl_dialects(&irdl) {
        return Err(MlirError::Irdl);
    }
    context.set_allow_unregistered_dialects(false);
    Ok(context)
}

/// Parses and verifies `text`, returning the module or MLIR's diagnostics. Errors:
/// [`MlirError::Parse`] (also for a NUL byte, which MLIR's C API cannot take, and for text that
/// MLIR's parser would crash on: [`crate::guard`]), [`MlirError::Verify`].
pub fn parse_and_verify<'c>(context: &'c Context, text: &str) -> Result<Module<'c>, MlirError> {
    if let Some(at) = text.find('\0') {
        let line = text[..at].matches('\n').count() + 1;
        return Err(MlirError::Parse(format!(
            "line {line}: a NUL byte (byte offset {at}); MLIR text cannot contain one"
        )));
    }
    crate::guard::check_text(text).map_err(MlirError::Parse)?;
    let messages = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = messages.clone();
    let id = context.attach_diagnostic_handler(move |d| {
        sink.lock().unwrap_or_else(|e| e.into_inner()).push(format!("{} {}", d.location(), d));
        true
    });
    let module = Module::parse(context, text);
    let verified = module.as_ref().map(|m| m.as_operation().verify());
    context.detach_diagnostic_handler(id);
    let mut msgs = messages.lock().unwrap_or_else(|e| e.into_inner()).join("\n");
    if msgs.is_empty() {
        msgs = "(MLIR gave no diagnostic)".into();
    }
    match (module, verified) {
        (Some(m), Some(true)) => Ok(m),
        (Some(_), _) => Err(MlirError::Verify(msgs)),
        (None, _) => Err(MlirError::Parse(msgs)),
    }
}
