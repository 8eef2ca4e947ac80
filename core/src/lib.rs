//! `arrayc-core`: the facts the compiler and the runtime share, in one small crate that links no
//! MLIR, so that the runtime does not depend on the front end or the dialect:
//!
//! * [`abi`]: the kernels' calling convention and the structure of a kernel's block
//!   ([`abi::KernelLayout`], [`abi::LaunchPlan`]), shared by code generation and every launcher;
//! * [`DType`]: element types;
//! * [`ops`]: value types, host scalars, and the operation enums of the `arr` dialect (their MLIR
//!   form lives in `arrayc-dialect`, their semantics in `dialect/README.md`);
//! * [`semantics`]: NumPy's scalar semantics (the host executor, constant folding in fusion, the
//!   combination of reduction partials);
//! * [`shape`]: element counts, strides, element ranges and NumPy slicing;
//! * [`format_spec`]: Python's format-spec mini-language for f-string fields (checked by the
//!   front end, applied by `print` at run time);
//! * [`error`]: compiler bugs ([`error::InternalError`]) and scalar arithmetic's errors;
//! * [`ir`]: arrayc's typed mirror of an `arr` module (host and kernel functions), which the passes
//!   transform and the host executor runs (its MLIR form lives in `arrayc-dialect`).

pub mod abi;
pub mod dtype;
pub mod error;
pub mod format_spec;
pub mod ir;
pub mod ops;
pub mod semantics;
pub mod shape;

pub use dtype::DType;
pub use ops::{BinFn, ComputeFn, IndexEntry, ReduceKind, Scalar, ScatterKind, ScatterMode, Type, UnFn, ValueId};
