//! MLIR context set-up: every upstream dialect registered and the `arr` dialect loaded from its IRDL
//! definition, plus parsing and verifying MLIR text with MLIR's diagnostics captured as text.

use melior::{
    dialect::DialectRegistry,
    ir::{operation::OperationLike, Module},
    utility::{load_irdl_dialects, register_all_dialects, register_all_llvm_translations, register_all_passes},
    Context,
};
use std::sync::{Arc, Mutex};

use arrayc_dialect::ARR_IRDL;

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
/// MLIR's parser would crash on: [`arrayc_dialect::guard`]), [`MlirError::Verify`].
pub fn parse_and_verify<'c>(context: &'c Context, text: &str) -> Result<Module<'c>, MlirError> {
    if let Some(at) = text.find('\0') {
        let line = text[..at].matches('\n').count() + 1;
        return Err(MlirError::Parse(format!(
            "line {line}: a NUL byte (byte offset {at}); MLIR text cannot contain one"
        )));
    }
    arrayc_dialect::guard::check_text(text).map_err(|e| MlirError::Parse(e.to_string()))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use arrayc_dialect::ops::{Spelling::*, BINARY};

    /// The predicate codes the importer reads must be the ones MLIR gives the keywords: parse each
    /// comparison the table spells with MLIR and read its `predicate` attribute back.
    #[test]
    fn predicate_codes_match_mlir() {
        use melior::ir::{attribute::IntegerAttribute, operation::OperationLike, BlockLike, RegionLike};
        let ctx = new_context().unwrap();
        for r in BINARY {
            for (s, ty) in [(r.float, "f64"), (r.int, "i64"), (r.bool, "i1")] {
                let (op, key, code) = match s {
                    CmpF(k, p) => ("arith.cmpf", k, p),
                    CmpI(k, p) => ("arith.cmpi", k, p),
                    _ => continue,
                };
                let text = format!(
                    "func.func @f(%a: {ty}, %b: {ty}) -> i1 {{\n  %c = {op} {key}, %a, %b : {ty}\n  return %c : i1\n}}"
                );
                let m = parse_and_verify(&ctx, &text).unwrap();
                let f = m.body().first_operation().unwrap();
                let cmp = f.region(0).unwrap().first_block().unwrap().first_operation().unwrap();
                let attr = IntegerAttribute::try_from(cmp.attribute("predicate").unwrap()).unwrap();
                assert_eq!(attr.value(), code, "{op} {key}");
            }
        }
    }
}
