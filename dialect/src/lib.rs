//! The `arr` dialect without MLIR: its IRDL definition ([`ARR_IRDL`], `arr.irdl.mlir`), arrayc's
//! typed mirror of `arr` modules ([`ir`]), the op table ([`ops`]), the MLIR text printer ([`print`])
//! the verifier of what MLIR's verifier cannot check ([`verify`]) and a guard against MLIR text that
//! MLIR's parser would crash on ([`guard`]). Loading the dialect into an
//! MLIR context and importing MLIR text are `arrayc-codegen`'s (`mlir`, `import`).
//!
//! **Invariant:** this crate links no MLIR or LLVM (checked by `scripts/check-layers.sh`).

pub mod guard;
/// arrayc's typed mirror of an `arr` module; it lives in `arrayc-core` (no MLIR), so that the host
/// executor can run it without linking MLIR.
pub use arrayc_core::ir;
pub mod ops;
pub mod print;
pub mod verify;

/// The IRDL definition of the `arr` dialect (`dialect/arr.irdl.mlir`), which
/// `arrayc_codegen::mlir::new_context` loads into every MLIR context.
pub const ARR_IRDL: &str = include_str!("../arr.irdl.mlir");
