//! The `arr` MLIR dialect: its IRDL definition (`arr.irdl.mlir`), arrayc's typed mirror of `arr`
//! modules ([`ir`]), the MLIR text printer ([`print`]) and the MLIR context set-up ([`mlir`]).
pub mod import;
pub mod ir;
pub mod mlir;
pub mod print;
pub mod verify;
