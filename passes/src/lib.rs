//! The passes of arrayc that need no MLIR, one module per pass: `lower-ast` ([`lower_ast`]) ->
//! `expand-matmul` ([`expand_matmul`]) and `expand-sort` ([`expand_sort`]), on the GPU targets, -> `expand-arg-reductions` ([`expand_arg_reductions`]) -> `fold-filters` ([`fold_filters`]) -> `sink-loads` ([`sink_loads`]) -> `distribute` ([`distribute`], distributed runs only) -> `insert-del-sync` ([`insert_del_sync`]) -> `wsp-fusion` ([`wsp_fusion`]) -> `outline-kernels`
//! ([`outline`]) -> `dce` ([`dce`]), with the WSP problem itself ([`wsp`]), the structure of a
//! kernel's block ([`kernel_layout`]), what a kernel may contain ([`legality`]) and the persistent
//! compile cache ([`disk_cache`]). Kernel code generation, the JIT and PTX are in `arrayc-codegen`.
//!
//! **Invariant:** this crate links no MLIR or LLVM (`cargo tree -p arrayc-passes` shows no melior,
//! mlir-sys or llvm-sys; `scripts/check-layers.sh`, run by `make lint`, checks it).
pub mod dce;
pub mod disk_cache;
pub mod distribute;
mod expand;
pub mod expand_arg_reductions;
pub mod expand_matmul;
pub mod expand_sort;
pub mod fold_filters;
pub mod insert_del_sync;
pub mod kernel_layout;
pub mod legality;
pub mod lower_ast;
pub mod outline;
pub mod roots;
pub mod sink_loads;
pub mod wsp;
pub mod wsp_fusion;
