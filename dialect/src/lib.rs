//! The `arr` MLIR dialect: its IRDL definition (`arr.irdl.mlir`), arrayc's typed mirror of `arr`
//! modules ([`ir`]), the op table ([`ops`]), the MLIR text printer ([`print`]) and the MLIR context set-up ([`mlir`]).
pub mod import;
pub mod ir;
pub mod mlir;
pub mod ops;
pub mod print;
pub mod verify;
