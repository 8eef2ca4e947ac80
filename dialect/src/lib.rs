//! The `arr` MLIR dialect: its IRDL definition (`arr.irdl.mlir`), arrayc's typed mirror of `arr`
//! modules ([`ir`]), the op table ([`ops`]), the MLIR text printer ([`print`]) and the MLIR context set-up ([`mlir`]).
pub mod guard;
pub mod import;
/// arrayc's typed mirror of an `arr` module; it lives in `arrayc-core` (no MLIR), so that the host
/// executor can run it without linking MLIR.
pub use arrayc_core::ir;
pub mod mlir;
pub mod ops;
pub mod print;
pub mod verify;
