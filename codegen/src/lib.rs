//! Everything of arrayc that builds or reads MLIR: kernel code generation ([`kernel_codegen`]), the
//! CPU pipeline and JIT ([`jit`]), PTX for the GPU ([`ptx`], linking libdevice from
//! the toolkit [`cuda_toolkit`] finds), the GPU kernels emulated on the CPU
//! ([`gpu_emulation`]), MLIR contexts with the `arr` dialect loaded from its IRDL ([`mlir`]) and the
//! importer of `arr` MLIR text ([`import`], for `arrayc-opt`). The passes before code generation
//! are MLIR-free and live in `arrayc-passes`.
pub mod cuda_toolkit;
pub mod gpu_emulation;
pub mod import;
pub mod jit;
pub mod kernel_codegen;
pub mod mlir;
pub mod ptx;
