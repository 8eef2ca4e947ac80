//! Kernel code generation: an outlined kernel function ([`ir::Func`] with `kernel == true`) becomes
//! one MLIR `func.func` of `scf`/`memref`/`arith`/`math` operations: a parallel loop over the
//! kernel's iteration space, which a target then lowers (the CPU: to one chunk of it per call).
//! Every operation is built with melior's operation builders (`melior::dialect::{arith, func,
//! memref, scf}` helpers, `OperationBuilder` with types and attributes from melior's type and
//! attribute APIs) into a melior [`Module`]; no MLIR text is assembled. [`kernels_module_mlir`] prints the built module (for the tests and `emit`).
//!
//! One kernel per block of fused array operations, launched once over its whole iteration space, is
//! Bohrium's execution model (Kristensen et al. 2016, Sec. IV): the fusion pass decides which array
//! operations share a loop nest, and this module writes that loop nest.
//!
//! Files:
//! * [`legality`]: what a kernel may contain (the one description that outlining and codegen use);
//! * [`abi`]: the calling convention: MLIR types of the parameters and the function signature;
//! * `builder`: the insertion point (a stack of blocks), constants and dtype conversions;
//! * `scalar`: per-op scalar code with NumPy semantics;
//! * `mathlib`: vectorisable `exp` and `log` for f64;
//! * `philox`: the Philox4x32-10 random generator;
//! * `loops`: array contraction within one iteration and the parallel loops of each block form;
//! * [`cpu`]: the CPU target's lowering to the chunk calling convention.
//!
//! # Calling convention and loop form
//!
//! The built kernel is target-neutral: `func.func @<name>(%p0: <ty0>, ...)`, one argument per kernel
//! parameter in order. A view of dtype `T` and rank `r` is
//! `memref<?x..x?xT, strided<[?, .., ?], offset: ?>>` (rank 0: `memref<T, strided<[], offset: ?>>`),
//! with `T` one of `f64`, `f32`, `i64`, `i1` (a bool is stored in one byte per element, as in NumPy);
//! a scalar is passed as its element type. Offsets, sizes and strides are in elements. The body is an
//! `scf.parallel` over the whole iteration space (sizes from `memref.dim` of the view that gives the
//! space; a rank-0 space is a one-iteration loop); a reduction over everything is an `scf.for` nest
//! over the space carrying its accumulator. Dimension 0 of a parallel loop carries the `arrayc.chunk`
//! marker; the bounds of an `scf.for` over dimension 0 of the nest, and of the `scf.for` over the
//! axis of a reduction along an axis
//! ([`KernelLayout::axis_split`](arrayc_passes::kernel_layout::KernelLayout::axis_split)), are
//! placeholders marked `arrayc.chunk_bound` (`builder::ChunkBound`).
//!
//! The CPU target ([`cpu::lower_to_chunks`]) appends `%lo, %hi: index` and runs the marked dimension
//! (dimension 0 of the chunked space) over `[%lo, %hi)`, the chunk the runtime assigned (see
//! `arrayc_runtime::launch`), and, with an axis marker, `%axis_lo, %axis_hi: index`, the range of the
//! axis loop: the runtime chunks one of the two ranges and passes the other whole. The MLIR pipeline
//! then lowers each parallel loop to sequential loops whose innermost one LLVM vectorises. A
//! reduction over everything, or one whose axis the runtime chunks, yields the chunk's partial
//! outputs.
//!
//! Why `scf.parallel` rather than `linalg.generic`: kernel operands are views with arbitrary (also
//! zero and negative) strides and offsets, which `scf.parallel` indexes through the strided memrefs
//! as they are, where `linalg.generic` wants indexing maps over tensors or buffers whose layout its
//! transformations understand; array contraction keeps temporaries as SSA scalars inside one loop
//! body in op order (with forwarding and one load and store per parameter), where `linalg.generic`
//! would express each op as a generic of its own, fused back and scalarised by later passes we would
//! have to trust to do the same; reductions over everything must combine per-chunk partials in
//! chunk order on the host (bit-identical results for any thread count), which a per-chunk
//! accumulating loop nest gives directly, and reductions along an axis that is not the last accumulate in the
//! output with a sequential `scf.for` over the axis between parallel loops (cache-friendly and
//! vectorisable), a loop order `linalg.generic` leaves to its own tiling. A GPU target can map the
//! same parallel loops to a grid (`gpu.launch` via MLIR's `scf.parallel` mapping).
//!
//! # Fused blocks and array contraction (Kristensen et al. 2016, Sec. IV-A, Fig. 1)
//!
//! A kernel body is one fused block of the WSP partition: `Compute` ops in execution order, analysed
//! by [`kernel_layout`](arrayc_passes::kernel_layout::kernel_layout) (shared with the launcher, so both agree
//! on the iteration space) and checked by [`legality::kernel_legality`]. Supported forms (anything
//! else is a [`CodegenError`]; [`fusible_block`] tells the outline pass beforehand):
//!
//! * **Elementwise block**: any number of non-reduction ops over one iteration space, the shape of
//!   the first view parameter of the iteration-space rank among the ops' operands (all such views and
//!   all contracted temporaries have that shape; 0-d views may be read-only broadcast inputs). A
//!   block with no view parameter at all does nothing (its function body is empty and the launcher
//!   returns `Ok`).
//! * **Fused reduction**: an elementwise block (possibly empty) followed by one or more
//!   `Reduce(kind, axis)` ops at the END (several only along one common axis, over inputs of one
//!   rank), each output a parameter used by no other op of the block, each input `x` a parameter or
//!   a contracted temporary. The iteration space is `x`'s shape (taken from `x`, or from the first
//!   elementwise view parameter of its rank when `x` is contracted). `axis = None` (or a 0-d
//!   output): one loop nest over `x`'s shape, dimension 0 chunked, carrying the accumulator; the
//!   chunk's result goes to the 0-d `out` (the runtime gives each chunk its own partial slot and
//!   combines the partials in chunk order). `axis = Some(a)`: loops over `out`'s dimensions (the
//!   first one chunked) and the input's axis `a` (also marked), the elementwise ops at the full input
//!   index; the runtime chunks either `out`'s first dimension or, for a small `out` and a long axis,
//!   the axis, giving each chunk partial outputs that it combines in chunk order.
//! * **Scan block**: an elementwise block whose ops include `Scan(kind, axis)` ops, all along one
//!   axis and with no reduction ([`KernelLayout::scan_axis`](arrayc_passes::kernel_layout::KernelLayout::scan_axis)):
//!   the other axes in parallel (the first chunked: axis 1 for a scan along axis 0, none for a 1-d
//!   space), the scan axis innermost as an `scf.for` in order, carrying one accumulator per scan; a
//!   scan's output is written at each iteration, so later ops of the block read it elementwise and
//!   it can be contracted. A 1-d space of integer scans is a *chunked scan*
//!   ([`KernelLayout::chunked_scan`](arrayc_passes::kernel_layout::KernelLayout::chunked_scan)): the kernel
//!   takes its carries and pass after the fault cell, and each of two `scf.if`s on the pass holds a
//!   chunked `scf.for` over dimension 0 (`loops::chunked_scan`): the totals pass, without stores,
//!   and the final pass, from the carries.
//!
//! Within one iteration, following Sec. IV-A2 (every array "loaded and stored once per element"):
//!
//! * a **contracted temporary** (an array-typed value that is not a parameter: created and deleted
//!   inside the block) is one SSA scalar, updated in op order (e.g. `fill t 0; add t t a; mul o t b`
//!   of Fig. 1) — never allocated, loaded or stored;
//! * a **view parameter** is loaded at most once (the first time an op reads it; 0-d views at `[]`),
//!   a parameter written by an op and read by a later op gets the written scalar forwarded (converted
//!   to its dtype, as a store and re-load would), and every written parameter is stored once, with its
//!   final value, at the end of the iteration.
//!
//! Consequently two *different* parameters must not alias the same elements (the fusion pass only
//! fuses ops whose views are identical or disjoint; the same host array is the same parameter).
//!
//! # Semantics (NumPy)
//!
//! Inputs are converted to the op's compute dtype: the out dtype for arithmetic, min/max, `where`
//! branches, unary functions, copy and fill (bool arithmetic is computed in i64, float-only functions
//! on a non-float out in f64); the promoted dtype of both inputs for comparisons; `i1` for and/or/not.
//! `%` follows NumPy (sign of the divisor, a zero result takes the divisor's sign, integer `x % 0 ==
//! 0`, no trap). `minimum`/`maximum` of floats follow NumPy: NaN if either input is NaN, else
//! `a < b ? a : b` (resp. `>`), so equal inputs (`-0.0`, `0.0`) give the second one; reductions
//! combine `acc` and the next element with the same rule. Integer `**` with a negative exponent
//! raises NumPy's error as a kernel fault: the kernel lowers the fault cell it then takes after its
//! parameters, and the launch fails with the op's source position (`arrayc_runtime::launch`). Random is Philox4x32-10 in MLIR, bit-identical to
//! `arrayc_runtime::rng::uniform_f64`.

pub mod abi;
mod builder;
pub mod cpu;
pub mod gpu;

mod loops;
mod mathlib;
mod philox;
mod scalar;

use arrayc_core::abi::{KernelAbi, Target};
use arrayc_dialect::ir;
use melior::{
    dialect::{func, DialectRegistry},
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        block::BlockLike,
        Block, Location, Module, Region, RegionLike,
    },
    utility::register_all_dialects,
    Context,
};

pub use arrayc_passes::legality::{fusible_block, kernel_legality};
pub use loops::SUM_ACCUMULATORS;

/// A kernel that this back end cannot compile (malformed kernel IR: a compiler bug upstream).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("kernel codegen for @{kernel}: {msg}")]
pub struct CodegenError {
    /// The kernel's name.
    pub kernel: String,
    /// Why it cannot be compiled.
    pub msg: String,
}

/// The dialects that kernel code generation builds operations of for the CPU, loaded up front.
/// The lowering passes load the further dialects they produce themselves (as dependent dialects).
pub const KERNEL_DIALECTS: [&str; 9] = ["builtin", "func", "arith", "math", "memref", "scf", "cf", "index", "llvm"];

/// The further dialect of GPU kernels (`gpu`), loaded only for them: 0.5 M instructions of
/// every CPU compilation otherwise (callgrind, leibnitz_pi).
pub const GPU_DIALECT: &str = "gpu";

/// A context in which kernels can be built: every MLIR dialect registered, [`KERNEL_DIALECTS`]
/// loaded, and [`GPU_DIALECT`] when `gpu` (loading all ~70 registered dialects took about 5 ms of
/// every compilation).
pub fn context(gpu: bool) -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    let context = Context::new_with_registry(&registry, false);
    for name in KERNEL_DIALECTS.into_iter().chain(gpu.then_some(GPU_DIALECT)) {
        context.get_or_load_dialect(name);
    }
    context
}

/// Appends kernel `f` to `module` as one `func.func` with the target-neutral signature (see the
/// module docs for the calling convention, the supported block forms and the semantics); returns
/// its arguments on the CPU ([`KernelAbi`] for [`Target::Cpu`], whose neutral prefix it takes).
///
/// Errors: `f` is not a kernel or its block is not legal ([`kernel_legality`]).
pub fn build_kernel<'c>(context: &'c Context, module: &Module<'c>, f: &ir::Func) -> Result<KernelAbi, CodegenError> {
    let layout = kernel_legality(f).map_err(|e| CodegenError { kernel: f.name.clone(), msg: e.0 })?;
    let location = Location::unknown(context);
    let cpu_abi = abi::kernel_abi(f, &layout, Target::Cpu);
    let signature = abi::signature(context, &cpu_abi);
    let arg_types: Vec<_> = (0..signature.input_count())
        .map(|i| (signature.input(i).expect("an input of the signature"), location))
        .collect();
    let entry = Block::new(&arg_types);
    let mut g = builder::Gen::new(context, f, entry, &cpu_abi);
    g.gen_block(&layout);
    let entry = g.finish();
    entry.append_operation(func::r#return(&[], location));
    let region = Region::new();
    region.append_block(entry);
    module.body().append_operation(func::func(
        context,
        StringAttribute::new(context, &f.name),
        TypeAttribute::new(signature.into()),
        region,
        &[],
        location,
    ));
    Ok(cpu_abi)
}

/// The kernels of `m` (functions with `kernel == true`), in module order.
pub fn kernels_of(m: &ir::Module) -> Vec<&ir::Func> {
    m.funcs.iter().filter(|f| f.kernel).collect()
}

/// One module with the MLIR function of every kernel of `kernels`, in order, built in `context`
/// (which must have the dialects of [`context`] loaded).
pub fn kernels_module<'c>(context: &'c Context, kernels: &[&ir::Func]) -> Result<Module<'c>, CodegenError> {
    Ok(kernels_module_and_abis(context, kernels)?.0)
}

/// [`kernels_module`] and the CPU arguments of each of its kernels, in order ([`build_kernel`]).
fn kernels_module_and_abis<'c>(
    context: &'c Context,
    kernels: &[&ir::Func],
) -> Result<(Module<'c>, Vec<KernelAbi>), CodegenError> {
    let module = Module::new(Location::unknown(context));
    let abis = kernels.iter().map(|f| build_kernel(context, &module, f)).collect::<Result<_, _>>()?;
    Ok((module, abis))
}

/// The printed `func.func` of kernel `f` (no enclosing module), as [`build_kernel`] builds it
/// (target-neutral).
pub fn kernel_to_mlir(f: &ir::Func) -> Result<String, CodegenError> {
    let context = context(false);
    let module = Module::new(Location::unknown(&context));
    build_kernel(&context, &module, f)?;
    Ok(module.body().first_operation().expect("the kernel's function").to_string())
}

/// [`kernels_module`] lowered to the CPU target's chunk calling convention ([`cpu::lower_to_chunks`]),
/// for a host whose vector registers hold `lanes` 64-bit lanes.
pub fn cpu_kernels_module<'c>(
    context: &'c Context,
    kernels: &[&ir::Func],
    lanes: u32,
) -> Result<Module<'c>, CodegenError> {
    let (module, abis) = kernels_module_and_abis(context, kernels)?;
    cpu::lower_to_chunks(context, &module, &abis, lanes);
    Ok(module)
}

/// The printed module of [`kernels_module`] of every kernel of `m` (target-neutral).
pub fn kernels_module_mlir(m: &ir::Module) -> Result<String, CodegenError> {
    let context = context(false);
    let module = kernels_module(&context, &kernels_of(m))?;
    Ok(module.as_operation().to_string())
}
