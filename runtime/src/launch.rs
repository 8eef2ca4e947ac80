//! Chunked parallel launch of a JIT-compiled kernel.
//!
//! A kernel (an outlined `arr.kernel` function, one per block of fused array operations
//! as in Bohrium, Kristensen et al. 2016, Sec. IV) is compiled to a function that runs over rows
//! `[lo, hi)` of dimension 0 of its iteration space (see `arrayc_codegen::kernel_codegen`), and, when
//! it ends in reductions along an axis, over `[axis_lo, axis_hi)` of that axis.
//! [`CpuKernels::launch_rows`] checks the arguments, splits one dimension into chunks and runs the
//! chunks on rayon's pool.
//!
//! The number of chunks depends only on the sizes involved (about [`CHUNK_ELEMS`] elements each),
//! never on the number of threads, and a reduction whose chunks share outputs (a reduction over
//! everything, or a long axis split among chunks) gives every chunk partial outputs of its own and
//! combines them on the host in chunk order: a launch gives bit-identical results for any thread
//! count.
//!
//! A kernel that can fault (see [`KernelFault`]) takes the fault cell after its parameters
//! ([`KernelArg::FaultCell`]); the launch then fails with the fault of the smallest index,
//! whichever chunks ran first: the error, too, does not depend on the thread count. The kernels'
//! arguments and their words in the packed call are those of [`KernelAbi`] for [`Target::Cpu`].

use crate::array::{Scalar, Traffic, View};
use crate::value::{KernelLauncher, RtValue};
use arrayc_core::abi::{
    descriptor_len, fault_cell_descriptor, scalar_word, vector_descriptor, view_descriptor, write_view_descriptor,
    ArgType, KernelAbi, KernelArg, Target, DESC_OFFSET,
};
pub use arrayc_core::abi::{KernelFault, KernelLayout, LaunchPlan, Reduction, NO_FAULT};
use arrayc_core::ops::{arg_better, ARG_PARTIAL_WORDS};
use arrayc_core::semantics::{reduce_combine, reduce_identity};
use arrayc_core::shape::{element_range, shape_str};
use arrayc_core::{ComputeFn, DType, ReduceKind, Type, ValueId};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};

/// The packed entry of a compiled kernel, as MLIR's `ExecutionEngine` creates it
/// (`_mlir_<name>(void **args)`): `args[i]` points to the `i`-th word of the kernel's arguments,
/// as [`KernelAbi`] lays them out ([`packed_words`]).
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

/// A reduction along a non-last axis that is chunked along its outputs takes chunks as wide as
/// leave this many per thread of the pool, and at least [`MIN_CHUNK_OUT`] output elements each.
/// Each output element is reduced within one chunk, so the width changes no result, only how much
/// of each input row a chunk reads at a time: a 4000x4000 `sum(x, axis=0)` in chunks of 64 columns
/// reads 512 bytes of every 32 KiB row, which the hardware prefetcher hardly follows; on 2 threads
/// its chunks are 500 columns (4000 bytes, one page, of each row) instead.
pub const OUT_CHUNKS_PER_THREAD: i64 = 4;

/// The fewest indices of the reduced axis per chunk when a min or max along a non-last axis with
/// more than [`SPLIT_MAX_OUT`] outputs is split along its axis ([`splits_min_max`]): each chunk then
/// streams whole rows of the input (at least this many), contiguous in memory, into partial
/// outputs of its own, at most 1/512 of the input's size, which the host combines. NumPy reduces
/// axis 0 the same way in one thread (`np.minimum` of each row into the output row); chunked along
/// the outputs instead, a chunk of a 4000x4000 `min(x, axis=0)` on 2 threads reads 4000 bytes of
/// each row and jumps a page on, where the hardware prefetcher starts anew (1.04-1.11x of NumPy's
/// time even with a software prefetch of the next row; `benchmarks/REPORT.md`, "Reductions (issue
/// 32)"). Fewer rows per chunk cost more than they balance on 2 cores: each chunk's partial
/// outputs are fresh pages (page faults) and one more row for the host to combine (in the same
/// loaded run, 4000x4000 in chunks of 256 rows took 5.7-6.5 ms, of 512 rows 5.7, of 128 rows
/// 6.5-6.9). Min and max give the same value in any grouping, so the split changes no value.
pub const MIN_MAX_SPLIT_ROWS: i64 = 512;

/// Whether a launch of `layout` over `space` splits its reduced axis `a` although the outputs
/// (`out_elems` elements) are larger than [`SPLIT_MAX_OUT`]: every reduction is a min or max
/// (their partials combine to the same values in any grouping; not sums, which keep NumPy's order
/// along the axis, nor arg-reductions, which `KernelLayout::axis_split` excludes), the axis is not
/// the last (along the last, each output's chunk already reads its input contiguously), and the
/// axis holds at least two chunks of [`MIN_MAX_SPLIT_ROWS`].
fn splits_min_max(layout: &KernelLayout, a: usize, space: &[i64], out_elems: i64) -> bool {
    layout.axis_split
        && a + 1 < space.len()
        && out_elems > SPLIT_MAX_OUT
        && space[a] >= 2 * MIN_MAX_SPLIT_ROWS
        && layout.reduce.iter().chain(&layout.extra).all(|r| matches!(r.kind, ReduceKind::Min | ReduceKind::Max))
}

/// Checks that every element of `v` lies inside its base buffer.
pub(crate) fn check_in_bounds(v: &View, what: impl std::fmt::Display) -> Result<(), LaunchError> {
    if v.shape.len() != v.strides.len() {
        return Err(format!("{what}: view has {} sizes but {} strides", v.shape.len(), v.strides.len()).into());
    }
    if v.shape.iter().any(|&d| d < 0) {
        return Err(format!("{what}: negative size in shape {}", shape_str(&v.shape)).into());
    }
    let Some((lo, hi)) = element_range(v.offset, &v.shape, &v.strides) else {
        return Ok(()); // no element
    };
    let n = (v.base.len_bytes() / v.dtype.size_bytes()) as i128;
    if lo < 0 || hi >= n {
        return Err(format!("{what}: view out of bounds (elements {lo}..={hi} of a base array of {n} elements)").into());
    }
    Ok(())
}

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

/// Compiled CPU kernels by name, each with its launch plan: the [`KernelLauncher`] of the JIT
/// (`arrayc_codegen::jit::JitKernels`) and of an ahead-of-time executable (`arrayc build`). Counts the
/// traffic of its launches ([`Traffic`]).
#[derive(Debug, Default)]
pub struct CpuKernels {
    /// Per kernel name: its entry, its plan and the plan's CPU arguments (computed once, not per
    /// launch).
    kernels: HashMap<String, (PackedKernel, LaunchPlan, KernelAbi)>,
    traffic: Traffic,
}

impl CpuKernels {
    /// Adds kernel `plan.name`, compiled to `entry`.
    pub fn insert(&mut self, entry: PackedKernel, plan: LaunchPlan) {
        let abi = plan.abi(Target::Cpu);
        self.kernels.insert(plan.name.clone(), (entry, plan, abi));
    }
    /// The packed entry of kernel `name` and its launch plan, if there is such a kernel.
    pub fn get(&self, name: &str) -> Option<(PackedKernel, &LaunchPlan)> {
        self.kernels.get(name).map(|(k, p, _)| (*k, p))
    }
    /// Names of the kernels.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.kernels.keys().map(String::as_str)
    }
}

impl CpuKernels {
    /// Runs kernel `kernel` on `args` (checks, chunks and faults as `launch_with` documents),
    /// restricted to rows `rows = [lo, hi)` of dimension 0 of the iteration space when given: the
    /// kernel runs only the iterations of those rows, with their global coordinates (so an
    /// `arange`, a random draw or a gather sees the indices it sees in a whole launch), and a
    /// reduction over everything writes the combination over those rows only (the identity for
    /// none). This is the owner-computes launch of a distributed run (`arrayc_dist`): every rank
    /// runs the rows of the outputs it owns. Only for a kernel [`row_restrictable`]: a reduction
    /// along axis 0 then writes the combination over those rows (partial results, the identity for
    /// none), one along another axis the rows' outputs. When it succeeds, counts its array
    /// arguments' traffic (whole views, even for some rows).
    ///
    /// Errors: no such kernel, and those of `launch_with`; a range outside `[0, n)` (`n` the rows
    /// of the iteration space) is [`LaunchError::Invalid`].
    pub fn launch_rows(&self, kernel: &str, args: &[RtValue], rows: Option<(i64, i64)>) -> Result<(), LaunchError> {
        let (entry, plan, abi) = self.kernels.get(kernel).ok_or_else(|| format!("no compiled kernel @{kernel}"))?;
        launch_with(*entry, plan, abi, args, rows)?;
        // Counted after the launch's checks: only in-bounds views of a launch that ran.
        self.traffic.count(args);
        Ok(())
    }
}

impl KernelLauncher for CpuKernels {
    /// Runs kernel `kernel` on `args` with `launch_with` (argument and shape checks, chunked parallel
    /// execution on rayon's current pool); when it succeeds, counts its array arguments' traffic.
    fn launch(&self, kernel: &str, args: &[RtValue]) -> Result<(), LaunchError> {
        self.launch_rows(kernel, args, None)
    }

    fn traffic(&self) -> Option<(u64, u64)> {
        Some(self.traffic.total())
    }
}

/// Launches the kernel `plan` describes (compiled to `entry`, its CPU arguments `abi` =
/// `plan.abi(Target::Cpu)`) on `args` (its parameters in order: views and scalars), all rows or
/// only `rows` ([`CpuKernels::launch_rows`]).
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
/// a non-last axis of a [`KernelLayout::axis_split`] kernel, and chunks as wide as leave
/// [`OUT_CHUNKS_PER_THREAD`] per thread), or the reduced axis itself when the
/// kernel can split it, the outputs have at most [`SPLIT_MAX_OUT`] elements and the axis spans more
/// than one chunk (or, for mins and maxes along a non-last axis, in chunks of at least
/// [`MIN_MAX_SPLIT_ROWS`] whatever the outputs' size: [`splits_min_max`]).
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
fn launch_with(
    entry: PackedKernel,
    plan: &LaunchPlan,
    abi: &KernelAbi,
    args: &[RtValue],
    rows: Option<(i64, i64)>,
) -> Result<(), LaunchError> {
    let fault_cell = AtomicI64::new(NO_FAULT);
    run(entry, plan, abi, args, &fault_cell, rows)?;
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

/// A view whose last-dimension stride (elements) is not the one the kernel's code assumes
/// ([`check_inner_stride`]): a compiler bug.
#[derive(Debug, thiserror::Error)]
#[error("has last-dimension stride {got}, but the kernel was compiled for stride {want} (an internal error of arrayc: please report it)")]
struct StrideMismatch {
    got: i64,
    want: i64,
}

/// Checks that view `v` has the last-dimension stride `expected` (elements) that the kernel's code
/// assumes, where that dimension has more than one element and the view is not empty (otherwise no
/// address depends on it; the strides of an empty array differ anyway: the fusion symbols multiply
/// the sizes, `row_major_strides` counts a size 0 as 1). A mismatch is a compiler bug (the stride
/// is a fact of the fusion symbols), reported instead of computed wrongly.
fn check_inner_stride(v: &View, expected: Option<i64>) -> Result<(), StrideMismatch> {
    if v.shape.contains(&0) {
        return Ok(());
    }
    match (expected, v.shape.last(), v.strides.last()) {
        (Some(want), Some(&n), Some(&got)) if n > 1 && got != want => Err(StrideMismatch { got, want }),
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
pub fn validate(plan: &LaunchPlan, args: &[RtValue]) -> Result<Validated, LaunchError> {
    let name = &plan.name;
    if args.len() != plan.params.len() {
        return Err(format!("kernel @{name} takes {} arguments, got {}", plan.params.len(), args.len()).into());
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
                    )
                    .into());
                }
                if v.rank() != r {
                    return Err(format!(
                        "kernel @{name}: operand {i} has rank {} but the kernel expects rank {r}",
                        v.rank()
                    )
                    .into());
                }
                // `format_args!`: the name is formatted only for an error (this runs per launch).
                check_in_bounds(v, format_args!("kernel @{name}: operand {i}"))?;
                check_inner_stride(v, plan.inner_strides.get(i).copied().flatten())
                    .map_err(|e| LaunchError::Invalid(format!("kernel @{name}: operand {i} {e}")))?;
            }
            (Type::Scalar(_), RtValue::View(_)) => {
                return Err(format!("kernel @{name}: operand {i} is an array but the kernel expects a scalar").into())
            }
            (Type::Array(..), RtValue::Scalar(_)) => {
                return Err(format!("kernel @{name}: operand {i} is a scalar but the kernel expects an array").into())
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
            return Err(format!("kernel @{name}: arange output must be 1-d").into());
        }
        for &v in func.space_operands(out, ins) {
            let Some(p) = pos(v) else { continue };
            if let RtValue::View(vw) = &args[p] {
                if vw.rank() == space.len() && vw.shape != space {
                    return Err(mismatch(p, &vw.shape, &space).into());
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
        Some(r) if layout.reduces_all => {
            for e in std::iter::once(&r).chain(&layout.extra) {
                if view(ppos(e.out)?)?.rank() != 0 {
                    return Err(format!("kernel @{name}: reduction over everything needs a 0-d output").into());
                }
            }
        }
        Some(r) => {
            let a = r.axis.unwrap_or(0);
            if a >= space.len() {
                return Err(format!("kernel @{name}: reduction axis {a} out of range for rank {}", space.len()).into());
            }
            let mut expect = space.clone();
            expect.remove(a);
            for e in std::iter::once(&r).chain(&layout.extra) {
                let ep = ppos(e.out)?;
                if view(ep)?.shape != expect {
                    return Err(mismatch(ep, &view(ep)?.shape, &expect).into());
                }
                if let Some(ip) = pos(e.input) {
                    if view(ip)?.shape != space {
                        return Err(mismatch(ip, &view(ip)?.shape, &space).into());
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

/// The packed call of a kernel whose arguments are `abi` (any target: the CPU's packed entry and a
/// GPU kernel's parameters take the same words), with the parameters `args` in their words
/// ([`KernelArg::Param`]) and every other word 0, for the launcher to fill in: a scalar as the
/// [`scalar_word`] of its parameter's dtype, a view as its [`view_descriptor`] with the address
/// `base_ptr(view)` (its base array's in the memory the kernel runs on). `args` must be
/// [`validate`]d (an argument that does not fit its parameter leaves that parameter's words 0).
pub fn packed_words(abi: &KernelAbi, args: &[RtValue], mut base_ptr: impl FnMut(&View) -> u64) -> Vec<u64> {
    let mut words = vec![0; abi.word_count()];
    for a in abi.args() {
        let KernelArg::Param(i) = a.arg else { continue };
        let slot = &mut words[a.first_word..a.first_word + a.ty.words()];
        match (args.get(i), a.ty) {
            (Some(RtValue::Scalar(s)), ArgType::Scalar(d)) => slot[0] = scalar_word(*s, d),
            (Some(RtValue::View(v)), ArgType::View(..)) if slot.len() == descriptor_len(v.rank()) => {
                write_view_descriptor(slot, base_ptr(v), v.offset, &v.shape, &v.strides)
            }
            _ => {}
        }
    }
    words
}

/// How a CPU launch splits a kernel's iteration space into chunks (see `launch_with`): `rows` rows of
/// `per_row` iteration-space elements each, `rows_per_chunk` rows per chunk, `count` chunks. The
/// rows are those of dimension 0 of the iteration space ([`KernelLayout::chunk_dim`] of a block
/// without reductions), of dimension 0 of the outputs (a reduction along an axis), or of the
/// reduced axis (`split`).
struct Chunks {
    /// The first row (0 unless [`CpuKernels::launch_rows`] restricts the rows).
    first: i64,
    rows: i64,
    per_row: i64,
    rows_per_chunk: i64,
    count: i64,
    /// Whether every chunk writes partial outputs of the reductions of its own.
    partial: bool,
    /// Whether the chunks split the reduced axis (the kernel's [`KernelArg::AxisLo`],
    /// [`KernelArg::AxisHi`]) rather than rows ([`KernelArg::ChunkLo`], [`KernelArg::ChunkHi`]).
    split: bool,
    /// The bounds passed whole: `out_rows` rows of dimension 0 of the outputs, `axis_len` indices of
    /// the reduced axis (0 without a reduction along an axis).
    out_rows: i64,
    axis_len: i64,
}

impl Chunks {
    /// The chunks of a kernel of layout `layout` over the iteration space `space` (elements per
    /// dimension).
    /// `restricted`: for [`CpuKernels::launch_rows`], which chunks dimension 0 of the space: a reduction along
    /// axis 0 is then always split along it, one along another axis never.
    fn of(layout: &KernelLayout, space: &[i64], restricted: bool) -> Chunks {
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
                let mut expect = space.to_vec();
                expect.remove(a);
                axis_len = space[a];
                out_rows = expect[0];
                let out_elems: i64 = expect.iter().product();
                let min_max = !restricted && splits_min_max(layout, a, space, out_elems);
                split = if restricted {
                    a == 0
                } else {
                    min_max
                        || layout.axis_split
                            && (1..=SPLIT_MAX_OUT).contains(&out_elems)
                            && axis_len > CHUNK_ELEMS / out_elems
                };
                if split {
                    if min_max {
                        min_rows = MIN_MAX_SPLIT_ROWS;
                    }
                    (axis_len, out_elems, true)
                } else {
                    let inner: i64 = expect[1..].iter().product();
                    if layout.axis_split && a + 1 < space.len() {
                        let wide = expect[0] / (OUT_CHUNKS_PER_THREAD * rayon::current_num_threads() as i64);
                        min_rows = ((MIN_CHUNK_OUT + inner - 1) / inner.max(1)).max(wide);
                    }
                    (expect[0], inner * axis_len.max(1), false)
                }
            }
        };
        let rows_per_chunk = (CHUNK_ELEMS / per_row.max(1)).max(min_rows);
        let count = (rows + rows_per_chunk - 1) / rows_per_chunk;
        Chunks { first: 0, rows, per_row, rows_per_chunk, count, partial, split, out_rows, axis_len }
    }

    /// Keeps rows `[lo, hi)` only ([`CpuKernels::launch_rows`]).
    fn restrict(&mut self, lo: i64, hi: i64) {
        self.first = lo;
        self.rows = hi - lo;
        self.count = (self.rows + self.rows_per_chunk - 1) / self.rows_per_chunk;
    }

    /// The rows `[lo, hi)` of chunk `c`.
    fn bounds(&self, c: i64) -> (i64, i64) {
        let lo = c * self.rows_per_chunk;
        (self.first + lo, self.first + (lo + self.rows_per_chunk).min(self.rows))
    }
}

/// Per reduction of a launch whose chunks write partial outputs: `(kind, output parameter, buffer)`,
/// the buffer a contiguous array of one output per chunk (`count` of them, dimension 0). Points the
/// output's descriptor in `words` at the buffer (its offset, chunk 0's slot, is set per chunk).
fn partial_outputs(
    plan: &LaunchPlan,
    abi: &KernelAbi,
    args: &[RtValue],
    words: &mut [u64],
    count: i64,
) -> Result<Vec<(ReduceKind, usize, View)>, LaunchError> {
    let mut partials = vec![];
    for r in plan.layout.reduce.iter().chain(&plan.layout.extra) {
        let op = out_param(plan, r);
        let o =
            args[op].view().ok_or_else(|| format!("kernel @{}: a reduction's output must be an array", plan.name))?;
        // An arg-reduction (over everything: `KernelLayout::axis_split` never splits one) stores
        // its position and the key of its value (`ARG_PARTIAL_WORDS`).
        let per_chunk = if r.kind.is_arg() { ARG_PARTIAL_WORDS as i64 } else { 1 };
        let shape: Vec<i64> = std::iter::once(count * per_chunk).chain(o.shape.iter().copied()).collect();
        let buf = View::uninitialised(o.dtype, &shape)
            .map_err(|e| LaunchError::Invalid(format!("kernel @{}: partial results of a reduction: {e}", plan.name)))?;
        abi.put(
            words,
            KernelArg::Param(op),
            &view_descriptor(buf.base.as_ptr() as u64, 0, &o.shape, &buf.strides[1..]),
        );
        partials.push((r.kind, op, buf));
    }
    Ok(partials)
}

/// The fewest output elements per task of rayon's pool when [`combine_partials`] combines the
/// chunks' partial outputs of a reduction along an axis.
const COMBINE_BLOCK: usize = 1024;

/// Combines the partial outputs `partials` of `count` chunks ([`partial_outputs`]) into the outputs
/// among `args`: each output element over the chunks in chunk order; an arg-reduction's 0-d
/// output from each chunk's position and key, a later chunk's position only where its key is
/// strictly better ([`arg_better`]: the first position wins).
fn combine_partials(partials: &[(ReduceKind, usize, View)], count: i64, args: &[RtValue]) {
    for (kind, op, buf) in partials {
        if kind.is_arg() {
            let words = ARG_PARTIAL_WORDS as i64;
            let at = |c: i64, w: i64| buf.read_at(c * words + w).as_i64();
            let (mut pos, mut key) = (at(0, 0), at(0, 1));
            for c in 1..count {
                if arg_better(*kind, at(c, 1), key) {
                    (pos, key) = (at(c, 0), at(c, 1));
                }
            }
            if let Some(o) = args[*op].view() {
                o.for_each_offset(|off| o.write_at(off, Scalar::I64(pos)));
            }
            continue;
        }
        let slot = buf.strides.first().copied().unwrap_or(1);
        // Each output element over the chunks in chunk order; blocks of elements in parallel (a
        // min or max split along its axis has large outputs: `splits_min_max`).
        let acc: Vec<Scalar> = (0..slot as usize)
            .into_par_iter()
            .with_min_len(COMBINE_BLOCK)
            .map(|j| {
                let j = j as i64;
                (1..count).fold(buf.read_at(j), |a, c| reduce_combine(*kind, a, buf.read_at(c * slot + j)))
            })
            .collect();
        let Some(o) = args[*op].view() else { continue };
        let mut acc = acc.into_iter();
        o.for_each_offset(|off| o.write_at(off, acc.next().expect("one partial per output element")));
    }
}

/// Whether a CPU launch of a kernel of layout `layout` can run some rows of dimension 0 of its
/// iteration space alone ([`CpuKernels::launch_rows`]): a block without reductions whose
/// [`KernelLayout::chunk_dim`] is 0 (no scan along axis 0), a reduction over everything,
/// reductions along an axis other than 0 (whose outputs' dimension 0 is the space's), or along
/// axis 0 when the kernel can split its axis ([`KernelLayout::axis_split`]: the outputs then hold
/// the combination over those rows, partial results to combine).
pub fn row_restrictable(layout: &KernelLayout) -> bool {
    match layout.reduce {
        None => layout.chunk_dim() == Some(0) && !layout.chunked_scan,
        Some(_) if layout.reduces_all => true,
        Some(r) => r.axis.is_some_and(|a| a > 0) || layout.axis_split,
    }
}

/// [`CpuKernels::launch_rows`] with the fault cell `fault_cell` (passed to the kernel when it can fault).
fn run(
    entry: PackedKernel,
    plan: &LaunchPlan,
    abi: &KernelAbi,
    args: &[RtValue],
    fault_cell: &AtomicI64,
    rows: Option<(i64, i64)>,
) -> Result<(), LaunchError> {
    let Validated { space, mut written } = validate(plan, args)?;
    let Some(space) = space else {
        // No view parameter: nothing to iterate over.
        return Ok(());
    };
    let layout = &plan.layout;
    let mut chunks = Chunks::of(layout, &space, rows.is_some());
    if let Some((lo, hi)) = rows {
        let n = space.first().copied().unwrap_or(1);
        if !row_restrictable(layout) || lo < 0 || lo > hi || hi > n || chunks.rows != n {
            return Err(format!("kernel @{}: cannot run rows {lo}..{hi} of {n} alone", plan.name).into());
        }
        chunks.restrict(lo, hi);
    }
    if !chunks.partial {
        written.extend(layout.reduce.iter().chain(&layout.extra).map(|r| out_param(plan, r)));
    }
    if chunks.rows * chunks.per_row == 0 {
        // Nothing reduced: the identity (a split axis: no rows of it, every output element).
        if layout.reduces_all || chunks.split {
            for r in layout.reduce.iter().chain(&layout.extra) {
                if let Some(o) = args[out_param(plan, r)].view() {
                    o.for_each_offset(|off| o.write_at(off, reduce_identity(r.kind, o.dtype)));
                }
            }
        }
        return Ok(());
    }
    let mut words = packed_words(abi, args, |v| v.base.as_ptr() as u64);
    abi.put(&mut words, KernelArg::FaultCell, &fault_cell_descriptor(fault_cell.as_ptr() as u64));
    // A chunked scan's carries: one per scan and chunk, at the chunk's offset (`scan_carries`).
    let scan_kinds = if layout.chunked_scan { layout.scan_kinds() } else { vec![] };
    let mut carries = vec![0i64; chunks.count as usize * scan_kinds.len()];
    abi.put(&mut words, KernelArg::ScanCarries, &vector_descriptor(carries.as_mut_ptr() as u64, carries.len()));
    // The bounds passed whole: all of dimension 0 of the outputs when the launch is split, all of
    // the reduced axis unless it is (the chunked ones are set per chunk).
    abi.put(&mut words, KernelArg::ChunkHi, &[chunks.out_rows as u64]);
    abi.put(&mut words, KernelArg::AxisHi, &[chunks.axis_len as u64]);
    let (lo_arg, hi_arg) =
        if chunks.split { (KernelArg::AxisLo, KernelArg::AxisHi) } else { (KernelArg::ChunkLo, KernelArg::ChunkHi) };
    let partials = if chunks.partial { partial_outputs(plan, abi, args, &mut words, chunks.count)? } else { vec![] };
    // Each partial buffer's chunk slot: its stride along the chunks (an arg-reduction's holds
    // `ARG_PARTIAL_WORDS` per chunk).
    let slot = |b: &View, kind: ReduceKind| {
        let words = if kind.is_arg() { ARG_PARTIAL_WORDS as i64 } else { 1 };
        b.strides.first().copied().unwrap_or(1) * words
    };
    // Outputs that write one element many times (zero strides), and blocks that must run in order
    // (scatters), run sequentially in chunk order.
    let aliased_out = written
        .iter()
        .any(|&p| args[p].view().is_some_and(|v| v.shape.iter().zip(&v.strides).any(|(&d, &s)| d > 1 && s == 0)));

    // `totals`: the pass of a chunked scan (the totals pass, else the final pass).
    let run_chunk = |c: i64, totals: bool| {
        let mut w = words.clone();
        let (lo, hi) = chunks.bounds(c);
        abi.put(&mut w, lo_arg, &[lo as u64]);
        abi.put(&mut w, hi_arg, &[hi as u64]);
        for (kind, op, buf) in &partials {
            if let Some(s) = abi.slot(KernelArg::Param(*op)) {
                w[s.start + DESC_OFFSET] = (c * slot(buf, *kind)) as u64;
            }
        }
        abi.set_scan_pass(&mut w, c as u64 * scan_kinds.len() as u64, totals);
        let mut ptrs: Vec<*mut ()> = w.iter_mut().map(|x| x as *mut u64 as *mut ()).collect();
        // SAFETY: the words are the kernel's arguments as its ABI lays them out (`KernelAbi` for
        // `Target::Cpu`; the parameters checked above: count, kinds, dtypes, ranks), every view lies
        // inside its live base buffer, chunks write disjoint parts of the outputs (or run
        // sequentially when an output aliases itself), and the fault cell, partial outputs and
        // carries are (per-chunk slots of) buffers alive for the whole launch.
        unsafe { (entry.0)(ptrs.as_mut_ptr()) }
    };
    let run_all = |totals: bool| {
        if chunks.count == 1 || aliased_out || layout.in_order() {
            (0..chunks.count).for_each(|c| run_chunk(c, totals));
        } else {
            (0..chunks.count).into_par_iter().for_each(|c| run_chunk(c, totals));
        }
    };
    if layout.chunked_scan {
        if chunks.count > 1 {
            run_all(true);
        }
        // One chunk: its carries become the identities.
        scan_carries(&scan_kinds, &mut carries);
    }
    run_all(false);
    combine_partials(&partials, chunks.count, args);
    Ok(())
}
