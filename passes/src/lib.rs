//! Every arrayc transformation, one module per pass:
//! `lower-ast` ([`lower_ast`]) -> `insert-del-sync` ([`insert_del_sync`]) -> `wsp-fusion` ([`wsp_fusion`])
//! -> `outline-kernels` ([`outline`]) -> kernel code generation ([`kernel_codegen`]) -> JIT ([`jit`]).
pub mod dce;
pub mod disk_cache;
pub mod gpu_emulation;
pub mod insert_del_sync;
pub mod jit;
pub mod kernel_codegen;
pub mod kernel_layout;
pub mod lower_ast;
pub mod outline;
pub mod ptx;
pub mod roots;
pub mod wsp;
pub mod wsp_fusion;
