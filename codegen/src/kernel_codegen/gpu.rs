//! The GPU target: each kernel becomes a `gpu.func` of one `gpu.module` (MLIR's `gpu` dialect),
//! whose loops map the block's iteration space onto a grid of thread blocks. The body of one
//! iteration is the target-neutral one (`loops`: array contraction, NumPy semantics, faults), so the
//! CPU and the GPU compute each element the same way; only the loops around it differ.
//!
//! # Mapping (our own, not `gpu-map-parallel-loops`)
//!
//! The launch is a 2-d grid of 1-d thread blocks (`arrayc_runtime::gpu::grid` chooses its size).
//! The iteration space's last dimension runs along x: thread `blockIdx.x * blockDim.x +
//! threadIdx.x`, striding by `gridDim.x * blockDim.x`, so neighbouring threads touch neighbouring
//! elements of a row-major view (coalesced accesses); the other dimensions, flattened row-major into
//! rows, run along y: row `blockIdx.y`, striding by `gridDim.y`. Both loops are grid-stride loops,
//! so any grid covers any space (sizes beyond the grid's limits included). MLIR's
//! `gpu-map-parallel-loops` would map each dimension of the `scf.parallel` to a grid dimension of its
//! own (at most 3, with no thread-block tiling of dynamic sizes), which neither covers rank 4 nor
//! gives blocks of many threads.
//!
//! # Reductions
//!
//! * **Over everything** (`sum(x)`): each thread accumulates its grid-stride elements in order,
//!   then each thread block combines its threads' values with `gpu.all_reduce` (a tree of warp
//!   shuffles and shared memory, lowered by `convert-gpu-to-nvvm`), and thread 0 writes the block's
//!   partial result to `partials[blockIdx.y * gridDim.x + blockIdx.x]`, a device buffer the launcher
//!   provides (one element per block, in the accumulator dtype). A second kernel,
//!   `<name>_combine` ([`COMBINE_SUFFIX`]), launched as one thread block, combines the partials
//!   into the 0-d output (each thread a strided share in order, then the block's `gpu.all_reduce`):
//!   a second pass, with no atomics, so a result depends only on the grid size, not on the order in
//!   which blocks run. (The CPU combines its chunks' partials in chunk
//!   order the same way; the two targets group the additions differently, so a float sum may differ
//!   in its last bits between them.)
//! * **Along an axis**: one thread per output element (the output's dimensions mapped as above),
//!   looping over the axis: along the last axis with the CPU's own loop (`loops::accumulate`: a
//!   float sum or product in `SUM_ACCUMULATORS` interleaved chains combined in a fixed order, so
//!   each thread has that many independent loads in flight), along another axis in order with one
//!   accumulator per reduction (a warp's loads are coalesced across its threads). A float result
//!   may differ from the CPU's in its last bits where the CPU groups the additions otherwise (it
//!   may split the axis among its threads). This parallelises over the outputs only: a long axis
//!   with few outputs (`sum(x, axis=0)` of a tall matrix with few columns) leaves most of the
//!   device idle.
//!
//! # Scans
//!
//! One thread per line along the scan axis, walking it in order with one accumulator per scan (the
//! CPU's loop nest, on the grid): bit-identical to the CPU and to NumPy, parallel over the other
//! axes only. A [`KernelLayout::chunked_scan`] (a 1-d space of integer scans: a filter's positions)
//! instead gives each thread of the grid one contiguous range of the space and runs in two launches
//! of the same kernel, as the CPU's chunks do (`loops::chunked_scan`): the totals pass, after which
//! the launcher computes each thread's carries (`arrayc_runtime::launch::scan_carries`), and the
//! final pass.
//!
//! # Calling convention
//!
//! A `gpu.func` takes the arguments of its [`KernelAbi`](arrayc_core::abi::KernelAbi) for
//! [`Target::Gpu`]: the target-neutral ones (views as strided memrefs, scalars, the fault cell when
//! the kernel can fault, a chunked scan's carries and pass), then, for a reduction over everything,
//! `partials: memref<?xA>` (`A` the accumulator dtype). `convert-gpu-to-nvvm` expands
//! each memref into its descriptor (allocated pointer, aligned pointer, offset, sizes, strides: in
//! elements), which is what the launcher passes.

use super::abi::{arg_type, function_type, kernel_abi};
use super::builder::{ForChunk, Gen, TargetMode, TypedValue};
use super::loops::reductions;
use super::{kernel_legality, CodegenError};
use arrayc_core::abi::{GridCoord, KernelArg, Target, GRID_COORDS};
use arrayc_core::DType;
use arrayc_dialect::ir;
use arrayc_passes::kernel_layout::{acc_dtype, KernelLayout};
use melior::{
    dialect::{arith, memref},
    ir::{
        attribute::{Attribute, IntegerAttribute, StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, OperationMutLike},
        r#type::IntegerType,
        Block, BlockRef, Identifier, Location, Module, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};

/// The symbol of the `gpu.module` that holds every kernel of a program.
pub const GPU_MODULE: &str = "kernels";

pub use arrayc_core::abi::COMBINE_SUFFIX;

/// A grid dimension, `x` or `y`, as `gpu.block_id` and its siblings name it.
#[derive(Clone, Copy)]
enum Dim {
    X,
    Y,
}

/// The grid coordinates of an emulated GPU kernel ([`build_emulated_kernel`]), its arguments
/// [`KernelArg::Grid`], in the order of [`GRID_COORDS`].
#[derive(Clone, Copy)]
pub struct GridArgs<'c>([Value<'c, 'c>; GRID_COORDS.len()]);

/// A module with `gpu.container_module` and one empty `gpu.module` [`GPU_MODULE`]; returns the module
/// and the `gpu.module`'s body.
pub fn gpu_container(context: &Context) -> Module<'_> {
    let location = Location::unknown(context);
    let mut module = Module::new(location);
    module.as_operation_mut().set_attribute("gpu.container_module", Attribute::unit(context));
    let region = Region::new();
    region.append_block(Block::new(&[]));
    let gpu_module = OperationBuilder::new("gpu.module", location)
        .add_attributes(&[(Identifier::new(context, "sym_name"), StringAttribute::new(context, GPU_MODULE).into())])
        .add_regions([region])
        .build()
        .expect("a valid gpu.module");
    module.body().append_operation(gpu_module);
    module
}

/// The body of the `gpu.module` of a module made by [`gpu_container`].
pub fn gpu_body<'c, 'a>(module: &'a Module<'c>) -> BlockRef<'c, 'a> {
    let op = module.body().first_operation().expect("the gpu.module");
    let region = op.region(0).expect("the gpu.module's region");
    // SAFETY: the block belongs to `module`, which outlives the returned reference.
    unsafe { BlockRef::from_raw(region.first_block().expect("the gpu.module's block").to_raw()) }
}

/// Appends kernel `f` to the `gpu.module` of `module` (made by [`gpu_container`]) as `gpu.func`
/// `@<name>`, plus `@<name>_combine` for a reduction over everything (see the module docs).
///
/// Errors: `f` is not a kernel or its block is not legal ([`kernel_legality`]).
pub fn build_gpu_kernel<'c>(context: &'c Context, module: &Module<'c>, f: &ir::Func) -> Result<(), CodegenError> {
    build(context, &gpu_body(module), f, false)
}

/// The CPU emulation of [`build_gpu_kernel`], to check the GPU mapping without a GPU: appends
/// `func.func @<name>` (and `@<name>_combine`) to `module` (a plain module, lowered like the CPU
/// kernels), with the same body except that the grid coordinates are arguments ([`GridArgs`], after
/// the GPU kernel's) and that, instead of `gpu.all_reduce`, every thread writes its value to
/// `partials[block * block_dim.x + thread]` (`partials` then holds one element per thread), which
/// `_combine` combines in order. A caller runs every thread of the grid, one call each
/// (`crate::gpu_emulation`).
///
/// Errors: as [`build_gpu_kernel`].
pub fn build_emulated_kernel<'c>(context: &'c Context, module: &Module<'c>, f: &ir::Func) -> Result<(), CodegenError> {
    build(context, &module.body(), f, true)
}

/// [`build_gpu_kernel`] (`emulate` false) or [`build_emulated_kernel`] into `body`.
fn build<'c>(context: &'c Context, body: &BlockRef<'c, '_>, f: &ir::Func, emulate: bool) -> Result<(), CodegenError> {
    let layout = kernel_legality(f).map_err(|e| CodegenError { kernel: f.name.clone(), msg: e.0 })?;
    let location = Location::unknown(context);
    let abi = kernel_abi(f, &layout, if emulate { Target::GpuEmulated } else { Target::Gpu });
    let fty = function_type(context, abi.args());
    let has_partials = abi.position(KernelArg::Partials(0)).is_some();
    let build = |name: String, combine: bool| {
        let types: Vec<(Type, Location)> = abi.args().iter().map(|a| (arg_type(context, a.ty), location)).collect();
        let entry = Block::new(&types);
        let arg = |i: usize| -> Value<'c, 'c> { entry.argument(i).expect("an argument of the signature").into() };
        let at = |a: KernelArg| abi.position(a).map(arg);
        let partials: Vec<Value<'c, 'c>> =
            (0..layout.partials_reductions().len()).filter_map(|k| at(KernelArg::Partials(k))).collect();
        let grid = emulate.then(|| {
            GridArgs(GRID_COORDS.map(|c| at(KernelArg::Grid(c)).expect("an emulated kernel's grid coordinate")))
        });
        let mut g = Gen::new(context, f, entry, &abi);
        g.target = TargetMode { grid, atomic_adds: true, native_math: !emulate };
        if combine {
            g.gpu_combine(&layout, &partials);
        } else {
            g.gpu_block(&layout, &partials);
        }
        let entry = g.finish();
        let ret = if emulate { "func.return" } else { "gpu.return" };
        entry.append_operation(OperationBuilder::new(ret, location).build().expect("a valid return"));
        let region = Region::new();
        region.append_block(entry);
        let mut attrs = vec![
            (Identifier::new(context, "sym_name"), StringAttribute::new(context, &name).into()),
            (Identifier::new(context, "function_type"), TypeAttribute::new(fty.into()).into()),
        ];
        if !emulate {
            let i64_ty: Type = IntegerType::new(context, 64).into();
            attrs.push((Identifier::new(context, "gpu.kernel"), Attribute::unit(context)));
            attrs.push((Identifier::new(context, "workgroup_attributions"), IntegerAttribute::new(i64_ty, 0).into()));
        }
        let op = if emulate { "func.func" } else { "gpu.func" };
        let func = OperationBuilder::new(op, location)
            .add_attributes(&attrs)
            .add_regions([region])
            .build()
            .expect("a valid kernel function");
        body.append_operation(func);
    };
    build(f.name.clone(), false);
    if has_partials {
        build(format!("{}{COMBINE_SUFFIX}", f.name), true);
    }
    Ok(())
}

impl<'c> Gen<'c, '_> {
    /// `gpu.<what> <dim>`: `block_id`, `block_dim`, `thread_id` or `grid_dim` along `dim` (in an
    /// emulated kernel, its argument).
    fn gpu_id(&self, what: &str, dim: Dim) -> Value<'c, 'c> {
        if let Some(GridArgs(a)) = self.target.grid {
            let coord = match (what, dim) {
                ("block_id", Dim::X) => GridCoord::BlockX,
                ("block_id", Dim::Y) => GridCoord::BlockY,
                ("thread_id", _) => GridCoord::Thread,
                ("grid_dim", Dim::X) => GridCoord::GridX,
                ("grid_dim", Dim::Y) => GridCoord::GridY,
                _ => GridCoord::BlockDim,
            };
            return a[coord as usize];
        }
        let attr = Attribute::parse(self.ctx, if matches!(dim, Dim::X) { "#gpu<dim x>" } else { "#gpu<dim y>" })
            .expect("a valid gpu dimension attribute");
        self.val(
            OperationBuilder::new(&format!("gpu.{what}"), self.loc)
                .add_attributes(&[(Identifier::new(self.ctx, "dimension"), attr)])
                .add_results(&[Type::index(self.ctx)])
                .build()
                .expect("a valid gpu id operation"),
        )
    }

    /// Whether this is thread 0 of its block (i1).
    fn first_thread(&self) -> TypedValue<'c> {
        let c0 = self.idx_const(0);
        let tid = self.gpu_id("thread_id", Dim::X);
        self.typed(arith::cmpi(self.ctx, arith::CmpiPredicate::Eq, tid, c0, self.loc), DType::Bool)
    }

    fn muli(&self, a: Value<'c, 'c>, b: Value<'c, 'c>) -> Value<'c, 'c> {
        self.val(arith::muli(a, b, self.loc))
    }

    /// Opens the grid-stride loops over dimensions `ds` of the iteration space (see the module docs:
    /// the last along x, the others flattened along y), carrying `inits`; returns the indices
    /// (`idx[d]` set for each `d` in `ds`) and the carried values. Closed by
    /// [`close_grid`](Self::close_grid).
    fn open_grid(
        &mut self,
        ds: &[usize],
        idx: &mut [Option<Value<'c, 'c>>],
        inits: &[TypedValue<'c>],
    ) -> Vec<TypedValue<'c>> {
        let one = self.idx_const(1);
        let (outer, inner) = match ds.split_last() {
            Some((&last, outer)) => (outer, Some(last)),
            None => (ds, None),
        };
        let rows = outer.iter().fold(one, |n, &d| self.muli(n, self.dims[d]));
        let (by, gy) = (self.gpu_id("block_id", Dim::Y), self.gpu_id("grid_dim", Dim::Y));
        let (row, accs) = self.open_for_step(by, rows, gy, inits, ForChunk::Whole);
        // Row-major delinearisation of `row` over the outer dimensions.
        let mut rest = row;
        for (k, &d) in outer.iter().enumerate().rev() {
            if k == 0 {
                idx[d] = Some(rest);
            } else {
                idx[d] = Some(self.val(arith::remui(rest, self.dims[d], self.loc)));
                rest = self.val(arith::divui(rest, self.dims[d], self.loc));
            }
        }
        let bdim = self.gpu_id("block_dim", Dim::X);
        let first = self.muli(self.gpu_id("block_id", Dim::X), bdim);
        let first = self.val(arith::addi(first, self.gpu_id("thread_id", Dim::X), self.loc));
        let stride = self.muli(self.gpu_id("grid_dim", Dim::X), bdim);
        let extent = inner.map_or(one, |d| self.dims[d]);
        let (j, accs) = self.open_for_step(first, extent, stride, &accs, ForChunk::Whole);
        if let Some(d) = inner {
            idx[d] = Some(j);
        }
        accs
    }

    /// Closes the loops of [`open_grid`](Self::open_grid), yielding `yields`; returns the values
    /// each thread carried out of them.
    fn close_grid(&mut self, yields: &[TypedValue<'c>]) -> Vec<TypedValue<'c>> {
        let inner = self.close_for(yields);
        self.close_for(&inner)
    }

    /// The body of the `gpu.func` of a block (see the module docs); `partials` are the partials
    /// buffers of reductions over everything, one per reduction (none otherwise).
    fn gpu_block(&mut self, l: &KernelLayout, partials: &[Value<'c, 'c>]) {
        let Some(sp) = l.space else {
            // No view parameter: nothing to iterate over (the launcher launches nothing).
            return;
        };
        let r = l.rank;
        self.dims = (0..r).map(|d| self.dim(sp, d)).collect();
        let all: Vec<usize> = (0..r).collect();
        let mut idx = vec![None; r];
        let full = |idx: &[Option<Value<'c, 'c>>]| -> Vec<Value<'c, 'c>> {
            idx.iter().map(|i| i.expect("an open loop's index")).collect()
        };
        match (l.reduce, partials.is_empty()) {
            (None, _) if l.chunked_scan => {
                // A chunked scan: thread `t` of the grid's `T` (x fastest, then y) takes the `t`-th
                // of `T` contiguous ranges of the space, and its carries at `t * scans`.
                let bdim = self.gpu_id("block_dim", Dim::X);
                let gx = self.gpu_id("grid_dim", Dim::X);
                let block = self.muli(self.gpu_id("block_id", Dim::Y), gx);
                let block = self.val(arith::addi(block, self.gpu_id("block_id", Dim::X), self.loc));
                let t = self.val(arith::addi(self.muli(block, bdim), self.gpu_id("thread_id", Dim::X), self.loc));
                let threads = self.muli(self.muli(gx, self.gpu_id("grid_dim", Dim::Y)), bdim);
                let n = self.dims[0];
                let per = self.val(arith::ceildivui(n, threads, self.loc));
                let lo = self.val(arith::minui(self.muli(t, per), n, self.loc));
                let hi = self.val(arith::minui(self.val(arith::addi(lo, per, self.loc)), n, self.loc));
                let scans = self.idx_const(l.scan_kinds().len() as i64);
                let slot = self.muli(t, scans);
                self.chunked_scan(l, lo, hi, slot, ForChunk::Whole);
            }
            (None, _) if l.scan_axis().is_some() => {
                // Scans: one thread per line along the scan axis (the other axes mapped as usual),
                // walking it in order with one accumulator per scan, as the CPU does.
                let a = l.scan_axis().expect("a scan axis");
                let others: Vec<usize> = (0..r).filter(|&d| d != a).collect();
                self.open_grid(&others, &mut idx, &[]);
                let inits = self.scan_inits(l);
                let c0 = self.idx_const(0);
                let (j, accs) = self.open_for(c0, self.dims[a], &inits, ForChunk::Whole);
                idx[a] = Some(j);
                self.iter.scan = accs;
                self.iteration(l, &full(&idx));
                let ys = std::mem::take(&mut self.iter.scan);
                self.close_for(&ys);
                self.close_grid(&[]);
            }
            (None, _) => {
                self.open_grid(&all, &mut idx, &[]);
                self.iteration(l, &full(&idx));
                self.close_grid(&[]);
            }
            (Some(_), false) => {
                // One accumulator per reduction over everything, each with its partials buffer.
                let reds: Vec<_> = reductions(l).copied().collect();
                let inits: Vec<TypedValue<'c>> = reds
                    .iter()
                    .map(|red| self.identity(red.kind, acc_dtype(red.kind, self.ir_ty(red.out).dtype())))
                    .collect();
                let accs = self.open_grid(&all, &mut idx, &inits);
                let xs = self.iteration(l, &full(&idx));
                let ys: Vec<TypedValue<'c>> =
                    reds.iter().zip(accs).zip(xs).map(|((red, acc), x)| self.combine(red.kind, acc, x)).collect();
                let mine = self.close_grid(&ys);
                let slot = self.muli(self.gpu_id("block_id", Dim::Y), self.gpu_id("grid_dim", Dim::X));
                let slot = self.val(arith::addi(slot, self.gpu_id("block_id", Dim::X), self.loc));
                if self.target.grid.is_some() {
                    // Emulated: no threads to reduce with; one partial per thread.
                    let slot = self.muli(slot, self.gpu_id("block_dim", Dim::X));
                    let slot = self.val(arith::addi(slot, self.gpu_id("thread_id", Dim::X), self.loc));
                    for (m, &p) in mine.iter().zip(partials) {
                        self.push(memref::store(m.v, p, &[slot], self.loc));
                    }
                } else {
                    let totals: Vec<TypedValue<'c>> =
                        reds.iter().zip(mine).map(|(red, m)| self.all_reduce(red.kind, m)).collect();
                    let first_thread = self.first_thread();
                    self.open_if(first_thread);
                    for (t, &p) in totals.iter().zip(partials) {
                        self.push(memref::store(t.v, p, &[slot], self.loc));
                    }
                    self.close_if();
                }
            }
            (Some(red), true) => {
                let a = red.axis.expect("a reduction that does not reduce everything has an axis");
                let reds: Vec<_> = reductions(l).copied().collect();
                let odims: Vec<usize> = (0..r).filter(|&d| d != a).collect();
                self.open_grid(&odims, &mut idx, &[]);
                let inits: Vec<TypedValue<'c>> = reds
                    .iter()
                    .map(|red| self.identity(red.kind, acc_dtype(red.kind, self.ir_ty(red.out).dtype())))
                    .collect();
                // The axis in order, as the CPU's loop (`accumulate`: a float sum's
                // SUM_ACCUMULATORS chains, so each thread has that many loads in flight).
                // Along the last axis each thread reads consecutive elements: the CPU's loop
                // (`accumulate`: a float sum in SUM_ACCUMULATORS chains) keeps that many loads in
                // flight per thread. Along another axis a warp's loads are coalesced across its
                // threads, and one chain in order was faster on an H100 (nbody, sum over axis 0 of
                // 3000 x 3000: 8.8 ms against 13.7 ms; spmv_ell, axis 1 of 4M x 8: 15.7 against
                // 11.6 ms with the chains; docs/gpu.md).
                let res = if a + 1 == r {
                    self.accumulate(l, &mut idx, a, self.dims[a], ForChunk::Whole, inits)
                } else {
                    let c0 = self.idx_const(0);
                    let (i, accs) = self.open_for(c0, self.dims[a], &inits, ForChunk::Whole);
                    idx[a] = Some(i);
                    let xs = self.iteration(l, &full(&idx));
                    let ys: Vec<TypedValue<'c>> =
                        reds.iter().zip(accs).zip(xs).map(|((red, acc), x)| self.combine(red.kind, acc, x)).collect();
                    self.close_for(&ys)
                };
                let oidx: Vec<Value<'c, 'c>> = odims.iter().map(|&d| idx[d].expect("an output index")).collect();
                for (red, y) in reds.iter().zip(res) {
                    self.store(red.out, &oidx, y);
                }
                self.close_grid(&[]);
            }
        }
    }

    /// `gpu.all_reduce` of `x` over the thread block with the reduction's own combination (NumPy's
    /// NaN rule for min/max); a bool is reduced as an i64 0 or 1 and an 8- or 16-bit integer as
    /// an `i64` or `u64` (shuffles move 32 or 64 bits).
    fn all_reduce(&mut self, kind: ir::ReduceKind, x: TypedValue<'c>) -> TypedValue<'c> {
        let wide = match x.d {
            DType::Bool => self.convert(x, DType::I64),
            d if d.bits() < 32 => self.convert(x, if d.is_unsigned() { DType::U64 } else { DType::I64 }),
            _ => x,
        };
        let t = wide.v.r#type();
        let region = self.combine_region(wide.d, t, "gpu.yield", |g, acc, y| g.combine(kind, acc, y));
        let op = OperationBuilder::new("gpu.all_reduce", self.loc)
            .add_operands(&[wide.v])
            .add_attributes(&[(Identifier::new(self.ctx, "uniform"), Attribute::unit(self.ctx))])
            .add_results(&[t])
            .add_regions([region])
            .build()
            .expect("a valid gpu.all_reduce");
        let r = self.typed(op, wide.d);
        self.convert(r, x.d)
    }

    /// The body of `<name>_combine`, launched as one thread block: thread `t` of its `T` combines
    /// partials `t, t + T, t + 2T, ...` in order, the block combines its threads' values
    /// (`gpu.all_reduce`), and thread 0 stores the total in the 0-d output. Emulated (one thread),
    /// the partials are combined in order. Either way the grouping depends only on the grid sizes.
    fn gpu_combine(&mut self, l: &KernelLayout, partials: &[Value<'c, 'c>]) {
        let c0 = self.idx_const(0);
        let emulated = self.target.grid.is_some();
        let (first, stride) = (self.gpu_id("thread_id", Dim::X), self.gpu_id("block_dim", Dim::X));
        let mut totals = vec![];
        for (red, &buf) in reductions(l).zip(partials) {
            let ad = acc_dtype(red.kind, self.ir_ty(red.out).dtype());
            let n = self.val(memref::dim(buf, c0, self.loc));
            let init = self.identity(red.kind, ad);
            let (k, accs) = self.open_for_step(first, n, stride, &[init], ForChunk::Whole);
            let p = self.typed(memref::load(buf, &[k], self.loc), ad);
            let y = self.combine(red.kind, accs[0], p);
            let mine = self.close_for(&[y])[0];
            totals.push(if emulated { mine } else { self.all_reduce(red.kind, mine) });
        }
        let first_thread = self.first_thread();
        self.open_if(first_thread);
        for (red, total) in reductions(l).zip(totals) {
            self.store(red.out, &[], total);
        }
        self.close_if();
    }
}
