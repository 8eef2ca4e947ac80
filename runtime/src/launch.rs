//! Chunked parallel launch of a JIT-compiled kernel.
//!
//! A kernel (an outlined `arr.kernel` function, one per block of fused array operations
//! as in Bohrium, Kristensen et al. 2016, Sec. IV) is compiled to a function that runs over rows
//! `[lo, hi)` of dimension 0 of its iteration space (see `arrayc_codegen::kernel_codegen`), and, when
//! it ends in reductions along an axis, over `[axis_lo, axis_hi)` of that axis. [`launch`] checks the arguments, splits one dimension into chunks and runs the chunks
//! on rayon's pool.
//!
//! The number of chunks depends only on the sizes involved (about [`CHUNK_ELEMS`] elements each),
//! never on the number of threads, and a reduction whose chunks share outputs (a reduction over
//! everything, or a long axis split among chunks) gives every chunk partial outputs of its own and
//! combines them on the host in chunk order: a launch gives bit-identical results for any thread
//! count.
//!
//! A kernel that can fault (see [`KernelFault`]) takes one more argument after its parameters, the
//! *fault cell*: a 0-d `i64` memref holding [`NO_FAULT`] until an iteration that faults lowers it
//! atomically to its fault's index (`memref.atomic_rmw mins`). The launch then fails with the fault
//! of the smallest index, whichever chunks ran first: the error, too, does not depend on the thread
//! count.

use crate::array::{Scalar, Traffic, View};
use crate::value::{KernelLauncher, RtValue};
use arrayc_core::semantics::{reduce_combine, reduce_identity};
use arrayc_core::shape::{element_range, shape_str};
use arrayc_core::{ComputeFn, DType, ReduceKind, ScatterKind, Type, ValueId};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};

/// The packed entry of a compiled kernel, as MLIR's `ExecutionEngine` creates it
/// (`_mlir_<name>(void **args)`): `args[i]` points to the `i`-th LLVM-level argument, where a memref
/// of rank `r` expands to `allocated ptr, aligned ptr, offset, r sizes, r strides` and the kernel's
/// trailing `lo, hi: index` (and `axis_lo, axis_hi: index` when [`KernelLayout::axis_split`]) are
/// i64.
pub type PackedFn = unsafe extern "C" fn(*mut *mut ());

/// A compiled kernel's packed entry point: a plain code pointer, `Copy`, `Send` and `Sync`, callable
/// from any rayon worker. It stays valid as long as the JIT engine that produced it lives.
#[derive(Clone, Copy, Debug)]
pub struct PackedKernel(pub PackedFn);

/// Target number of iteration-space elements per chunk.
pub const CHUNK_ELEMS: i64 = 1 << 16;

/// The largest output (in elements) for which a reduction along an axis ([`KernelLayout::axis_split`])
/// is split along its axis when the axis spans more than one chunk. Chunked along the outputs
/// instead, a small output gives few chunks, each walking the whole axis (a 500000x32
/// `sum(x, axis=0)`: 32 chunks of one strided column each; `sum(x.T, axis=1)` the same); split, every
/// chunk reads a slab of at least `CHUNK_ELEMS / SPLIT_MAX_OUT` = 64 indices of the axis and writes
/// partial outputs, which take at most 1/64 of the input's size and which the host combines.
pub const SPLIT_MAX_OUT: i64 = CHUNK_ELEMS / 64;

/// The fewest output elements per chunk of a reduction along a non-last axis that is chunked along
/// its outputs: the loop nest's innermost loop runs over at most the chunk's output elements (a 2-d
/// `sum(x, axis=0)`: exactly those), and a shorter loop does not vectorise.
pub const MIN_CHUNK_OUT: i64 = 64;

/// Checks that every element of `v` lies inside its base buffer.
fn check_in_bounds(v: &View, what: &str) -> Result<(), String> {
    if v.shape.len() != v.strides.len() {
        return Err(format!("{what}: view has {} sizes but {} strides", v.shape.len(), v.strides.len()));
    }
    if v.shape.iter().any(|&d| d < 0) {
        return Err(format!("{what}: negative size in shape {}", shape_str(&v.shape)));
    }
    let Some((lo, hi)) = element_range(v.offset, &v.shape, &v.strides) else {
        return Ok(()); // no element
    };
    let n = (v.base.len_bytes() / v.dtype.size_bytes()) as i128;
    if lo < 0 || hi >= n {
        return Err(format!("{what}: view out of bounds (elements {lo}..={hi} of a base array of {n} elements)"));
    }
    Ok(())
}

/// A run-time error an elementwise op of a kernel can detect where NumPy raises instead of computing
/// a value (today: an integer `**` with a negative exponent,
/// [`NEGATIVE_INT_POWER`](arrayc_core::semantics::NEGATIVE_INT_POWER)). The launch fails with it
/// ([`LaunchError::Fault`]), naming the source position of the op.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KernelFault {
    /// The faulting op: an index into [`KernelLayout::ops`].
    pub op: usize,
    /// The error message for the user.
    pub message: String,
    /// The op's source line and column (1-based; 0 when unknown).
    pub line: u32,
    pub col: u32,
}

/// The fault cell's value while no iteration has faulted (see the module docs).
pub const NO_FAULT: i64 = i64::MAX;

/// Why a launch failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LaunchError {
    /// The arguments do not fit the kernel (a shape mismatch between its views, for example): the
    /// executor names the source position of the launching operation.
    #[error("{0}")]
    Invalid(String),
    /// An iteration faulted; the fault names its own source position.
    #[error("{}", .0.message)]
    Fault(KernelFault),
}

impl From<String> for LaunchError {
    fn from(message: String) -> Self {
        LaunchError::Invalid(message)
    }
}

/// A reduction that ends a kernel's block: `out = reduce(kind, axis)(input)`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reduction {
    pub kind: ReduceKind,
    pub axis: Option<usize>,
    /// Always a parameter (a 0-d view for a reduction over everything).
    pub out: ValueId,
    /// A parameter, or a contracted temporary computed by the block's elementwise ops.
    pub input: ValueId,
}

/// The dtype a reduction accumulates in: the out dtype, except that a bool sum/product accumulates
/// in i64 (NumPy: `sum` of bools counts them).
pub fn acc_dtype(kind: ReduceKind, out: DType) -> DType {
    match (kind, out) {
        (ReduceKind::Sum | ReduceKind::Prod, DType::Bool) => DType::I64,
        _ => out,
    }
}

/// The structure of a kernel's block, shared by the code generator (`arrayc_codegen::kernel_codegen`)
/// and [`launch`] so that both agree on the iteration space.
///
/// A kernel body is a fused block (Kristensen et al. 2016, Sec. IV-A, Fig. 1): `Compute` ops in
/// execution order, every operand either a parameter (a view or a scalar) or a *contracted
/// temporary* — a non-parameter array value that an earlier op of the block writes (possibly several
/// times, in place) and later ops read. Array contraction (Sec. IV-A) turns each contracted temporary
/// into one scalar per iteration: it is never allocated, loaded or stored.
///
/// Supported forms:
/// * any number of elementwise ops (no `Reduce`; `Scan`s count as elementwise ops here, all
///   along one axis, see [`scan_axis`](Self::scan_axis)), optionally followed by
/// * one or more `Reduce` ops as the block's last ops (several only along one common axis, over
///   inputs of one rank), each output a parameter that no other op of the block uses, each input a
///   parameter or a contracted temporary.
///
/// Iteration space: the reduction input's shape when there is a reduction, else the shape of the
/// elementwise views; when no operand gives it (every array of the block is contracted), the shape of
/// a *shape parameter*, a view parameter of the iteration-space rank that no op uses. Its rank is the reduction input's rank, or the largest rank of an elementwise
/// operand (parameter or contracted). Every contracted temporary has that rank (and, by construction
/// upstream, that shape); every elementwise view parameter has that rank, except 0-d views that are
/// only read (broadcast). The shape comes from [`KernelLayout::space`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct KernelLayout {
    /// The elementwise ops `(func, out, ins)`, in execution order.
    pub ops: Vec<(ComputeFn, ValueId, Vec<ValueId>)>,
    /// The block's final reduction, if any.
    pub reduce: Option<Reduction>,
    /// Further reductions after it, along the same axis of inputs of the same shape (a block may end
    /// in several reductions along an axis that is not its input's only one; the generated loop nest
    /// computes them together).
    pub extra: Vec<Reduction>,
    /// Rank of the iteration space.
    pub rank: usize,
    /// The parameter whose shape is the iteration space: the reduction's input if it is a parameter,
    /// else the first view parameter (in parameter order) of rank [`rank`](Self::rank) that is an
    /// elementwise operand, else a shape parameter of that rank. `None` only for an elementwise block without view parameters, which does
    /// nothing (there is no shape to iterate over).
    pub space: Option<ValueId>,
    /// Contracted temporaries, in order of first write.
    pub contracted: Vec<ValueId>,
    /// The ops that can fault, in op order; when there are any, the kernel takes the fault cell
    /// after its parameters (see the module docs).
    pub faults: Vec<KernelFault>,
    /// Whether the reduction (if any) combines everything into a 0-d output (`axis = None`, or an
    /// axis of a 1-d input into a 0-d output).
    pub reduces_all: bool,
    /// Whether the block ends in reductions along an axis whose outputs have the reductions'
    /// accumulator dtypes, so that partial outputs combine like the inputs: the kernel then takes
    /// a second chunk range `axis_lo, axis_hi` over the axis, and [`launch`] chunks either the
    /// outputs or the axis (see [`SPLIT_MAX_OUT`]). Along a non-last axis the loop nest then
    /// accumulates in the outputs, row by row (`arrayc_codegen::kernel_codegen`).
    pub axis_split: bool,
    /// Whether every scatter of the block is an [`atomic_scatter_add`], so that its iterations may
    /// run in any order where scatter-adds are atomic (the GPU: [`in_order_on_gpu`](Self::in_order_on_gpu)).
    /// `false` for a block without scatters.
    #[serde(default)]
    pub atomic_scatters: bool,
    /// Whether the block's scans run as a *chunked scan* (the reduce-then-scan of Blelloch,
    /// "Prefix Sums and Their Applications", 1990, Sec. 1.4): a 1-d iteration space, every scan
    /// along it accumulating in `i64` (so that any grouping of the combinations gives the sequential
    /// result exactly), no scan's input computed from a scan's output, and no op that
    /// [`runs_in_order`](ComputeFn::runs_in_order). The space is then split into chunks that run in
    /// parallel, twice: a *totals* pass gives each chunk's combination of each scan's inputs (and
    /// writes nothing else), the launcher turns them into each chunk's carry-in ([`scan_carries`]),
    /// and the final pass runs every scan of a chunk from its carry-in. The kernel takes the carries
    /// and the pass after its parameters and fault cell ([`scan_carry_words`]).
    #[serde(default)]
    pub chunked_scan: bool,
}

/// The words a [`KernelLayout::chunked_scan`] kernel takes after its parameters and fault cell
/// (one `u64` each, as [`descriptor_words`]), for the totals pass: its carries, a 1-d `i64` view of
/// `len` elements at `ptr` (allocated pointer, aligned pointer, offset, size, stride: one element
/// per scan of the block, in op order, from the offset of the chunk or GPU thread), then the pass,
/// an `i64`: 1 for the totals pass (each scan's combination of its chunk's inputs is stored in its
/// carry; no other output is written), 0 for the final pass (each scan starts from its carry;
/// [`set_scan_pass`]).
pub fn scan_carry_words(ptr: u64, len: usize) -> [u64; 6] {
    [ptr, ptr, 0, len as u64, 1, 1]
}

/// Sets, in the [`scan_carry_words`] that start at `words[at]`, the offset (elements) of the
/// carries and the pass (`totals`: the totals pass, else the final pass).
pub fn set_scan_pass(words: &mut [u64], at: usize, offset: u64, totals: bool) {
    words[at + 2] = offset;
    words[at + 5] = u64::from(totals);
}

/// Turns the totals pass's results of a [`KernelLayout::chunked_scan`] kernel into the carries of
/// its final pass, in place: `carries` holds, chunk after chunk, one `i64` per scan (`kinds`, the
/// scans' kinds in op order), each the combination of that scan's inputs over the chunk; each
/// becomes the combination over every earlier chunk, in chunk order (the identity for the first
/// chunk): an exclusive prefix of the chunks' totals. Integer sums and products wrap, as NumPy's.
pub fn scan_carries(kinds: &[ReduceKind], carries: &mut [i64]) {
    for (k, &kind) in kinds.iter().enumerate() {
        let mut acc = reduce_identity(kind, DType::I64);
        for chunk in carries.chunks_exact_mut(kinds.len()) {
            let total = Scalar::I64(chunk[k]);
            chunk[k] = acc.as_i64();
            acc = reduce_combine(kind, acc, total);
        }
    }
}

/// Whether op `func`, whose output has dtype `out`, is a scatter-add that a GPU kernel performs
/// with an atomic add (`memref.atomic_rmw addf`/`addi`, PTX `atom.add` of 32- and 64-bit floats
/// and 64-bit integers): a [`ScatterKind::Add`] into `f64`, `f32` or `i64`. Each add is the one
/// NumPy's `add.at` does (the same rounding); only their order is unspecified, so with repeated
/// indices a float sum may differ in its last bits from NumPy's sequential one, as a float
/// reduction may. Integer sums are exact in any order.
pub fn atomic_scatter_add(func: ComputeFn, out: DType) -> bool {
    matches!(func, ComputeFn::Scatter(ScatterKind::Add, _)) && out != DType::Bool
}

impl KernelLayout {
    /// The axis of the block's scans (`ComputeFn::Scan`), if it has any: the loop nest then runs
    /// that axis of the iteration space in order, innermost, carrying one accumulator per scan, and
    /// the other axes in parallel (see [`chunk_dim`](Self::chunk_dim)). A block with a scan has no
    /// reduction.
    pub fn scan_axis(&self) -> Option<usize> {
        self.ops.iter().find_map(|(func, ..)| match func {
            ComputeFn::Scan(_, a) => Some(*a),
            _ => None,
        })
    }

    /// The kinds of the block's scans, in op order.
    pub fn scan_kinds(&self) -> Vec<ReduceKind> {
        self.ops
            .iter()
            .filter_map(|(func, ..)| match func {
                ComputeFn::Scan(kind, _) => Some(*kind),
                _ => None,
            })
            .collect()
    }

    /// Whether the launch must run the iteration space in row-major order, chunk after chunk: the
    /// block has an op that [`ComputeFn::runs_in_order`] (a scatter).
    pub fn in_order(&self) -> bool {
        self.ops.iter().any(|(func, ..)| func.runs_in_order())
    }

    /// Whether a GPU launch must run the iteration space in row-major order, on one thread: the
    /// block [`in_order`](Self::in_order) and not every scatter of it is an [`atomic_scatter_add`]
    /// (a scatter that sets: the last of repeated indices wins, as in NumPy). A block whose
    /// scatters all add runs on the whole grid (`arrayc_runtime::gpu::launch_geometry`).
    pub fn in_order_on_gpu(&self) -> bool {
        self.in_order() && !self.atomic_scatters
    }

    /// For a block without reductions: the dimension of the iteration space that [`launch`] splits
    /// into chunks (the kernel's `lo, hi`), `None` when it runs as one chunk. Dimension 0, except
    /// for scans along axis 0, which must run whole: then dimension 1, or `None` for a 1-d space
    /// (the kernel's chunked loop is then one iteration, `[0, 1)`), unless it is a
    /// [`chunked_scan`](Self::chunked_scan).
    pub fn chunk_dim(&self) -> Option<usize> {
        match self.scan_axis() {
            Some(0) if !self.chunked_scan => (self.rank >= 2).then_some(1),
            _ => Some(0),
        }
    }
}

/// Everything the launcher needs to know about one compiled kernel, computed once when it is
/// compiled (`arrayc_passes::kernel_layout::launch_plan`): its name, its parameters and their types,
/// and the structure of its block. The runtime never sees the kernel's IR.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LaunchPlan {
    /// The kernel's name, for messages.
    pub name: String,
    /// The kernel's parameters (value ids of its function), in order.
    pub params: Vec<ValueId>,
    /// The type of each parameter: scalars are passed by value, arrays as strided views.
    pub param_types: Vec<Type>,
    /// The block's structure.
    pub layout: KernelLayout,
    /// Per parameter, the stride (elements) of the last dimension that the compiled CPU code assumes
    /// for its view (`0` or `1`; `arr.inner_strides`, known to the fusion symbols), else `None`;
    /// empty when it assumes none. [`validate`] rejects a launch whose view differs where that
    /// dimension has more than one element and the view is not empty.
    #[serde(default)]
    pub inner_strides: Vec<Option<i64>>,
}

/// Compiled CPU kernels by name, each with its launch plan: the [`KernelLauncher`] of the JIT
/// (`arrayc_codegen::jit::JitKernels`) and of an ahead-of-time executable (`arrayc build`). Counts the
/// traffic of its launches ([`Traffic`]).
#[derive(Debug, Default)]
pub struct CpuKernels {
    kernels: HashMap<String, (PackedKernel, LaunchPlan)>,
    traffic: Traffic,
}

impl CpuKernels {
    /// Adds kernel `plan.name`, compiled to `entry`.
    pub fn insert(&mut self, entry: PackedKernel, plan: LaunchPlan) {
        self.kernels.insert(plan.name.clone(), (entry, plan));
    }
    /// The packed entry of kernel `name` and its launch plan, if there is such a kernel.
    pub fn get(&self, name: &str) -> Option<(PackedKernel, &LaunchPlan)> {
        self.kernels.get(name).map(|(k, p)| (*k, p))
    }
    /// Names of the kernels.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.kernels.keys().map(String::as_str)
    }
}

impl KernelLauncher for CpuKernels {
    /// Runs kernel `kernel` on `args` with [`launch`] (argument and shape checks, chunked parallel
    /// execution on rayon's current pool); when it succeeds, counts its array arguments' traffic.
    fn launch(&self, kernel: &str, args: &[RtValue]) -> Result<(), LaunchError> {
        let (entry, plan) = self.get(kernel).ok_or_else(|| format!("no compiled kernel @{kernel}"))?;
        launch(entry, plan, args)?;
        // Counted after the launch's checks: only in-bounds views of a launch that ran.
        self.traffic.count(args);
        Ok(())
    }

    fn traffic(&self) -> Option<(u64, u64)> {
        Some(self.traffic.total())
    }
}

/// Launches the kernel `plan` describes (compiled to `entry`) on `args` (its parameters in order:
/// views and scalars).
///
/// The plan's [`KernelLayout`] (elementwise ops with contracted temporaries, optionally ending in
/// reductions; Kristensen et al. 2016, Sec. IV-A) was computed when the kernel was compiled. The iteration space is the
/// shape of [`KernelLayout::space`]: the reduction input when it is a parameter, else the first view
/// parameter of the iteration-space rank among the elementwise operands (which has the shape of every
/// contracted temporary, the reduction's input included). A block without view parameters does
/// nothing (`Ok`).
///
/// Checks, each an `Err` with a message for the user (never a memory error): argument count, kinds,
/// dtypes and ranks against the kernel's parameter types (scalars are cast to the parameter dtype);
/// every view lies inside its base buffer; every elementwise view parameter has the iteration-space
/// shape (0-d inputs broadcast), e.g. `shape mismatch: operand 2 has shape (3, 4) but the kernel
/// iterates over (3, 5)` (operands numbered from 0 in parameter order); a reduction's output has the
/// input's shape without the reduced axis (0-d for a reduction over everything).
///
/// One dimension is split into chunks of about [`CHUNK_ELEMS`] elements of the iteration space (the
/// count depends only on the sizes): dimension 0 of the iteration space, or, for a reduction along
/// an axis, dimension 0 of the outputs (at least [`MIN_CHUNK_OUT`] output elements per chunk along
/// a non-last axis of a [`KernelLayout::axis_split`] kernel), or the reduced axis itself when the
/// kernel can split it, the outputs have at most [`SPLIT_MAX_OUT`] elements and the axis spans more
/// than one chunk.
/// The chunks run in parallel on rayon's current pool, or inline when there is one chunk (or
/// sequentially in chunk order when an output has a zero stride, i.e. writes one element many times).
/// A reduction over everything, and a reduction split along its axis, gives every chunk its own
/// partial outputs (a slot of a contiguous array, in place of the output) and combines them on the
/// host, each output element over the chunks in chunk order, so its result does not depend on the
/// thread count; an empty input gives the identity (0, 1, +inf/-inf, i64 max/min). A
/// [`KernelLayout::chunked_scan`] runs every chunk twice, in parallel: the totals pass, then, after
/// [`scan_carries`], the final pass.
///
/// Errors: [`LaunchError::Invalid`] for the checks above; [`LaunchError::Fault`] when an iteration
/// faulted (the fault of the smallest index; outputs are then partly written).
pub fn launch(entry: PackedKernel, plan: &LaunchPlan, args: &[RtValue]) -> Result<(), LaunchError> {
    let fault_cell = AtomicI64::new(NO_FAULT);
    run(entry, plan, args, &fault_cell)?;
    match fault_cell.load(Ordering::Acquire) {
        NO_FAULT => Ok(()),
        k => Err(LaunchError::Fault(plan.layout.faults[k as usize].clone())),
    }
}

/// What [`validate`] established about a launch's arguments.
pub struct Validated {
    /// The iteration space (elements per dimension): the shape of [`KernelLayout::space`]'s view;
    /// `None` for a block without view parameters, which does nothing.
    pub space: Option<Vec<i64>>,
    /// The parameters (positions) the block's elementwise ops write, in order of first write.
    pub written: Vec<usize>,
}

/// Checks that view `v` has the last-dimension stride `expected` (elements) that the kernel's code
/// assumes, where that dimension has more than one element and the view is not empty (otherwise no
/// address depends on it; the strides of an empty array differ anyway: the fusion symbols multiply
/// the sizes, `row_major_strides` counts a size 0 as 1). A mismatch is a compiler bug (the stride
/// is a fact of the fusion symbols), reported instead of computed wrongly.
fn check_inner_stride(v: &View, expected: Option<i64>) -> Result<(), String> {
    if v.shape.contains(&0) {
        return Ok(());
    }
    match (expected, v.shape.last(), v.strides.last()) {
        (Some(want), Some(&n), Some(&got)) if n > 1 && got != want => Err(format!(
            "has last-dimension stride {got}, but the kernel was compiled for stride {want} \
             (an internal error of arrayc: please report it)"
        )),
        _ => Ok(()),
    }
}

/// Checks `args` against the kernel `plan` describes, for every target: argument count, kinds,
/// dtypes and ranks against the parameter types; every view inside its base buffer, with the
/// last-dimension stride the kernel assumes ([`LaunchPlan::inner_strides`]); every
/// elementwise view parameter of the iteration-space rank with the iteration-space shape; a
/// reduction over everything into a 0-d output; each reduction along an axis with an output of the
/// input's shape less the axis, and an input of the iteration-space shape.
///
/// Errors: a message for the user (e.g. `shape mismatch: operand 2 has shape (3, 4) but the kernel
/// iterates over (3, 5)`).
pub fn validate(plan: &LaunchPlan, args: &[RtValue]) -> Result<Validated, String> {
    let name = &plan.name;
    if args.len() != plan.params.len() {
        return Err(format!("kernel @{name} takes {} arguments, got {}", plan.params.len(), args.len()));
    }
    let pos = |v: ValueId| plan.params.iter().position(|&p| p == v);
    for (i, (&t, a)) in plan.param_types.iter().zip(args).enumerate() {
        match (t, a) {
            (Type::Scalar(_), RtValue::Scalar(_)) => {}
            (Type::Array(d, r), RtValue::View(v)) => {
                if v.dtype != d {
                    return Err(format!(
                        "kernel @{name}: operand {i} has dtype {} but the kernel expects {}",
                        v.dtype.name(),
                        d.name()
                    ));
                }
                if v.rank() != r {
                    return Err(format!(
                        "kernel @{name}: operand {i} has rank {} but the kernel expects rank {r}",
                        v.rank()
                    ));
                }
                check_in_bounds(v, &format!("kernel @{name}: operand {i}"))?;
                check_inner_stride(v, plan.inner_strides.get(i).copied().flatten())
                    .map_err(|e| format!("kernel @{name}: operand {i} {e}"))?;
            }
            (Type::Scalar(_), RtValue::View(_)) => {
                return Err(format!("kernel @{name}: operand {i} is an array but the kernel expects a scalar"))
            }
            (Type::Array(..), RtValue::Scalar(_)) => {
                return Err(format!("kernel @{name}: operand {i} is a scalar but the kernel expects an array"))
            }
        }
    }
    let layout = &plan.layout;
    let Some(space_param) = layout.space else {
        return Ok(Validated { space: None, written: vec![] });
    };
    let ppos = |v: ValueId| pos(v).ok_or_else(|| format!("kernel @{name}: %v{v} is not a parameter"));
    let view = |p: usize| args[p].view().ok_or_else(|| format!("kernel @{name}: operand {p} must be an array"));
    let mismatch = |p: usize, s: &[i64], space: &[i64]| {
        format!(
            "shape mismatch: operand {p} has shape {} but the kernel iterates over {}",
            shape_str(s),
            shape_str(space)
        )
    };
    let space = view(ppos(space_param)?)?.shape.clone();
    // Elementwise view parameters: the iteration-space shape (0-d read-only views broadcast), except
    // the arrays gathers read and scatters write.
    let mut written: Vec<usize> = vec![];
    for (func, out, ins) in &layout.ops {
        if *func == ComputeFn::Arange && space.len() != 1 {
            return Err(format!("kernel @{name}: arange output must be 1-d"));
        }
        for &v in func.space_operands(out, ins) {
            let Some(p) = pos(v) else { continue };
            if let RtValue::View(vw) = &args[p] {
                if vw.rank() == space.len() && vw.shape != space {
                    return Err(mismatch(p, &vw.shape, &space));
                }
            }
        }
        if let Some(p) = pos(*out) {
            if !written.contains(&p) {
                written.push(p);
            }
        }
    }
    match layout.reduce {
        None => {}
        Some(r) if layout.reduces_all && view(ppos(r.out)?)?.rank() != 0 => {
            return Err(format!("kernel @{name}: reduction over everything needs a 0-d output"));
        }
        Some(_) if layout.reduces_all => {}
        Some(r) => {
            let a = r.axis.unwrap_or(0);
            if a >= space.len() {
                return Err(format!("kernel @{name}: reduction axis {a} out of range for rank {}", space.len()));
            }
            let mut expect = space.clone();
            expect.remove(a);
            for e in std::iter::once(&r).chain(&layout.extra) {
                let ep = ppos(e.out)?;
                if view(ep)?.shape != expect {
                    return Err(mismatch(ep, &view(ep)?.shape, &expect));
                }
                if let Some(ip) = pos(e.input) {
                    if view(ip)?.shape != space {
                        return Err(mismatch(ip, &view(ip)?.shape, &space));
                    }
                }
            }
        }
    }
    Ok(Validated { space: Some(space), written })
}

/// The position of reduction `r`'s output among the parameters of `plan`.
pub fn out_param(plan: &LaunchPlan, r: &Reduction) -> usize {
    plan.params.iter().position(|&p| p == r.out).expect("validated: a reduction's output is a parameter")
}

/// The kernel's arguments as the words of its LLVM-level signature, one `u64` per argument (the
/// same for the CPU's packed entry and a GPU kernel's parameters): a scalar cast to its parameter's
/// dtype (its bits in the low bytes: an f32 in 4, a bool in 1), a view as its memref descriptor
/// `base, base, offset, sizes, strides` (in elements) with `base = base_ptr(view)`, the address of
/// its base array in the memory the kernel runs on. Also returns the index of each parameter's
/// first word. `args` must be [`validate`]d.
pub fn descriptor_words(
    plan: &LaunchPlan,
    args: &[RtValue],
    mut base_ptr: impl FnMut(&View) -> u64,
) -> (Vec<u64>, Vec<usize>) {
    let mut words: Vec<u64> = vec![];
    let mut word_start: Vec<usize> = vec![];
    for (&t, a) in plan.param_types.iter().zip(args) {
        word_start.push(words.len());
        match a {
            RtValue::Scalar(s) => words.push(match s.cast(t.dtype()) {
                Scalar::F64(x) => x.to_bits(),
                Scalar::F32(x) => x.to_bits() as u64,
                Scalar::I64(x) => x as u64,
                Scalar::Bool(x) => x as u64,
            }),
            RtValue::View(v) => {
                let ptr = base_ptr(v);
                words.extend([ptr, ptr, v.offset as u64]);
                words.extend(v.shape.iter().map(|&x| x as u64));
                words.extend(v.strides.iter().map(|&x| x as u64));
            }
        }
    }
    (words, word_start)
}

/// [`launch`] with the fault cell `fault_cell` (passed to the kernel when it can fault).
fn run(entry: PackedKernel, plan: &LaunchPlan, args: &[RtValue], fault_cell: &AtomicI64) -> Result<(), String> {
    let Validated { space, mut written } = validate(plan, args)?;
    let Some(space) = space else {
        // No view parameter: nothing to iterate over.
        return Ok(());
    };
    let (mut words, word_start) = descriptor_words(plan, args, |v| v.base.as_ptr() as u64);
    if !plan.layout.faults.is_empty() {
        // 0-d memref: allocated, aligned, offset.
        let cell = fault_cell.as_ptr() as u64;
        words.extend([cell, cell, 0]);
    }
    let layout = &plan.layout;
    let view = |p: usize| args[p].view().expect("validated: an array parameter");
    // The chunked dimension has `rows` rows of `per_row` iteration-space elements each: dimension 0
    // of the iteration space, dimension 0 of the outputs (a reduction along an axis), or the reduced
    // axis (`split`). `partial`: every chunk writes its own partial outputs of the reductions.
    let mut split = false;
    let mut min_rows = 1;
    let mut axis_len = 0;
    let mut out_rows = 0;
    let (rows, per_row, partial) = match layout.reduce {
        None => match layout.chunk_dim().filter(|&d| d < space.len()) {
            Some(d) => {
                let others = space.iter().enumerate().filter(|&(k, _)| k != d).map(|(_, &n)| n);
                (space[d], others.product::<i64>(), false)
            }
            None => (1, space.iter().product::<i64>(), false),
        },
        Some(_) if layout.reduces_all => {
            (space.first().copied().unwrap_or(1), space.iter().skip(1).product::<i64>(), true)
        }
        Some(r) => {
            let a = r.axis.unwrap_or(0);
            let mut expect = space.clone();
            expect.remove(a);
            axis_len = space[a];
            out_rows = expect[0];
            let out_elems: i64 = expect.iter().product();
            split = layout.axis_split && (1..=SPLIT_MAX_OUT).contains(&out_elems) && axis_len > CHUNK_ELEMS / out_elems;
            if split {
                (axis_len, out_elems, true)
            } else {
                let inner: i64 = expect[1..].iter().product();
                if layout.axis_split && a + 1 < space.len() {
                    min_rows = (MIN_CHUNK_OUT + inner - 1) / inner.max(1);
                }
                (expect[0], inner * axis_len.max(1), false)
            }
        }
    };
    if !partial {
        for r in layout.reduce.iter().chain(&layout.extra) {
            written.push(out_param(plan, r));
        }
    }
    if rows * per_row == 0 {
        if let (Some(r), true) = (layout.reduce, layout.reduces_all) {
            let o = view(out_param(plan, &r));
            o.write_at(o.offset, reduce_identity(r.kind, o.dtype));
        }
        return Ok(());
    }
    let rows_per_chunk = (CHUNK_ELEMS / per_row.max(1)).max(min_rows);
    let nchunks = (rows + rows_per_chunk - 1) / rows_per_chunk;

    // A chunked scan's carries: one per scan and chunk, at the chunk's offset (`scan_carries`).
    let scan_kinds = if layout.chunked_scan { layout.scan_kinds() } else { vec![] };
    let mut carries = vec![0i64; nchunks as usize * scan_kinds.len()];
    let carry_word = words.len();
    if layout.chunked_scan {
        words.extend(scan_carry_words(carries.as_mut_ptr() as u64, carries.len()));
    }

    // The chunk bounds: `lo, hi` (dimension 0 of the chunked space; all of dimension 0 of the
    // outputs when the launch is split), then, for a kernel that can split its reduced axis, the
    // bounds along that axis (all of it unless the launch is split).
    let lo_word = words.len();
    let bounds_at = if split { lo_word + 2 } else { lo_word };
    words.extend([0, out_rows as u64]);
    if layout.axis_split {
        words.extend([0, axis_len as u64]);
    }

    // Partial outputs: per reduction, a contiguous array of one output per chunk; chunk `c` gets
    // slot `c` in place of the output (its descriptor's offset set per chunk).
    let mut partials: Vec<(ReduceKind, usize, View)> = vec![];
    if partial {
        for r in layout.reduce.iter().chain(&layout.extra) {
            let op = out_param(plan, r);
            let o = view(op);
            let shape: Vec<i64> = std::iter::once(nchunks).chain(o.shape.iter().copied()).collect();
            let buf = View::uninitialised(o.dtype, &shape)
                .map_err(|e| format!("kernel @{}: partial results of a reduction: {e}", plan.name))?;
            let ws = word_start[op];
            let ptr = buf.base.as_ptr() as u64;
            words[ws] = ptr;
            words[ws + 1] = ptr;
            for (k, &s) in buf.strides[1..].iter().enumerate() {
                words[ws + 3 + o.rank() + k] = s as u64;
            }
            partials.push((r.kind, op, buf));
        }
    }
    let slot = partials.first().map_or(0, |(_, _, b)| b.strides.first().copied().unwrap_or(1));

    // Outputs that write one element many times (zero strides), and blocks that must run in order
    // (scatters), run sequentially in chunk order.
    let aliased_out = written
        .iter()
        .any(|&p| args[p].view().is_some_and(|v| v.shape.iter().zip(&v.strides).any(|(&d, &s)| d > 1 && s == 0)));

    // `totals`: the pass of a chunked scan (the totals pass, else the final pass).
    let run_chunk = |c: i64, totals: bool| {
        let mut w = words.clone();
        let lo = c * rows_per_chunk;
        let hi = (lo + rows_per_chunk).min(rows);
        w[bounds_at] = lo as u64;
        w[bounds_at + 1] = hi as u64;
        for &(_, op, _) in &partials {
            w[word_start[op] + 2] = (c * slot) as u64;
        }
        if layout.chunked_scan {
            set_scan_pass(&mut w, carry_word, c as u64 * scan_kinds.len() as u64, totals);
        }
        let mut ptrs: Vec<*mut ()> = w.iter_mut().map(|x| x as *mut u64 as *mut ()).collect();
        // SAFETY: the descriptors match the kernel's signature (checked above: count, kinds, dtypes,
        // ranks), every view lies inside its live base buffer, chunks write disjoint parts of the
        // outputs (or run sequentially when an output aliases itself), and partial outputs and
        // carries are per-chunk slots of buffers alive for the whole launch.
        unsafe { (entry.0)(ptrs.as_mut_ptr()) }
    };
    let run_all = |totals: bool| {
        if nchunks == 1 || aliased_out || layout.in_order() {
            (0..nchunks).for_each(|c| run_chunk(c, totals));
        } else {
            (0..nchunks).into_par_iter().for_each(|c| run_chunk(c, totals));
        }
    };
    if layout.chunked_scan {
        if nchunks > 1 {
            run_all(true);
        }
        // One chunk: its carries become the identities.
        scan_carries(&scan_kinds, &mut carries);
    }
    run_all(false);

    // Each output element combines its partials in chunk order.
    for (kind, op, buf) in &partials {
        let mut acc: Vec<Scalar> = (0..slot).map(|j| buf.read_at(j)).collect();
        for c in 1..nchunks {
            for (j, a) in acc.iter_mut().enumerate() {
                *a = reduce_combine(*kind, *a, buf.read_at(c * slot + j as i64));
            }
        }
        let o = view(*op);
        let mut acc = acc.into_iter();
        o.for_each_offset(|off| o.write_at(off, acc.next().expect("one partial per output element")));
    }
    Ok(())
}
