//! The kernel builder's state and its primitives: the insertion point (a stack of open blocks:
//! the function's entry block, then one per open `scf.for` or `scf.if` region), constants of each
//! dtype, and NumPy's dtype conversions (`astype`). Every value is a scalar SSA value with its dtype
//! ([`TypedValue`]); views are only indexed (`memref.load`/`memref.store`, see `loops`).
//!
//! A region's block is built while it is open and moved into its region when closed (melior's
//! owned [`Block`]s do not tie the values they define to a borrow of the block), so every value is
//! a `Value<'c, 'c>`: valid as long as the context, used only while the module being built lives.

use super::abi::{elem_type, view_type};
use arrayc_core::abi::{KernelAbi, KernelArg};
use arrayc_core::DType;
use arrayc_dialect::ir::{self, Type as IrType, ValueId};
use melior::{
    dialect::{
        arith::{self, CmpfPredicate, CmpiPredicate},
        memref, scf,
    },
    ir::{
        attribute::{
            Attribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute, FloatAttribute, IntegerAttribute,
            StringAttribute,
        },
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, OperationMutLike, OperationRef, OperationResult},
        r#type::IntegerType,
        Block, Identifier, Location, Operation, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use std::collections::HashMap;

/// The discardable attribute (an index) that marks an `scf.parallel` whose induction variable at
/// that position the CPU target splits into the launch's chunks (see `cpu`).
pub(super) const CHUNK_ATTR: &str = "arrayc.chunk";

/// The discardable attribute (an index) that marks the placeholder of a bound of the launch's chunk:
/// an `arith.addi` of the full range's bound and 0 whose first operand the CPU target replaces by
/// the chunk's bound (see `cpu`), [`ChunkBound`] as its value. The loops over a chunked range take
/// their bounds from such placeholders, so that code between the bounds and the loop (the split of
/// a sum among several accumulators, `loops`) sees the chunk's range too.
pub(super) const CHUNK_BOUND_ATTR: &str = "arrayc.chunk_bound";

/// Which bound of the launch's chunk a [`CHUNK_BOUND_ATTR`] placeholder stands for, as its
/// attribute's value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ChunkBound {
    /// The first index of the chunk of dimension 0 of the iteration space.
    Lo = 0,
    /// One past its last index.
    Hi = 1,
    /// The first index of the chunk of a reduction's axis split along it.
    AxisLo = 2,
    /// One past its last index.
    AxisHi = 3,
}

/// The name of an `scf.for`'s attribute that `convert-scf-to-cf` carries to LLVM's loop metadata.
pub(super) const LOOP_ANNOTATION: &str = "loop_annotation";

/// The loop metadata of an `scf.for` that carries accumulators (a reduction or scan) through a
/// body of at least [`HEAVY_BODY_OPS`] operations: vectorised, and interleaved exactly twice. LLVM
/// interleaves reduction loops up to four times on x86, which multiplies a long body into one huge
/// basic block whose instruction selection dominates the compile. Measured on montecarlo_pi (two
/// Philox generators in one reduction, `benchmarks/REPORT-compile.md`): LLVM's time 74 -> 56 ms
/// with the run phase unchanged; interleaving once gave 40 ms but a run phase 20 % slower (the
/// generators' multiplication chains need the second copy's parallelism).
pub const HEAVY_LOOP_ANNOTATION: &str = "#llvm.loop_annotation<interleave = <count = 2 : i32>>";

/// [`HEAVY_LOOP_ANNOTATION`] with the vector width fixed, by the number of 64-bit lanes of the
/// host's vector registers (`super::cpu::lower_to_chunks` picks one). With its width given, LLVM
/// builds no vectorised epilogue loop, which on an AVX-512 host it otherwise adds to every loop of
/// 64-bit elements interleaved twice (vector length times interleave count 16, LLVM's threshold),
/// so that the long body is compiled three times (main loop, vectorised epilogue, scalar
/// remainder). On montecarlo_pi (this machine, AVX-512) the kernel JIT took 51-54 ms without and
/// 41-42 ms with the width fixed to the 8 lanes LLVM chose itself, with the same run phase
/// (`benchmarks/REPORT-compile.md`). Only these loops: without its vectorised epilogue, a loop
/// over short rows (kmeans's `d = 4`) runs its remainder as scalar code, 1.6 times slower. A given
/// width also makes LLVM vectorise a legal loop that its cost model would have left scalar; the
/// suite's three programs with such loops (montecarlo_pi, histogram, filter_points) run as fast as
/// before, and histogram's and filter_points' object code has as many 512-bit instructions as
/// before (293 and 425 against 295 and 425).
pub const HEAVY_LOOP_ANNOTATIONS: [(u32, &str); 3] = [
    (2, "#llvm.loop_annotation<interleave = <count = 2 : i32>, vectorize = <width = 2 : i32>>"),
    (4, "#llvm.loop_annotation<interleave = <count = 2 : i32>, vectorize = <width = 4 : i32>>"),
    (8, "#llvm.loop_annotation<interleave = <count = 2 : i32>, vectorize = <width = 8 : i32>>"),
];

/// The number of operations (directly in the body) from which an accumulating loop is
/// [`HEAVY_LOOP_ANNOTATION`]'s.
pub const HEAVY_BODY_OPS: usize = 64;

/// The operations that make an `scf.for` [`HEAVY_LOOP_ANNOTATION`]'s whatever its length, directly
/// in its body: min and max reductions (carried, or accumulated in their outputs along axis 0). LLVM's cost model leaves them scalar on x86 without AVX-512 (the
/// NaN-propagating `llvm.minimum` becomes a compare, blends and a NaN test; `i64` has no vector
/// min before AVX-512), although vectorised they run several times faster; with the vector width
/// fixed by `super::cpu::lower_to_chunks` it vectorises them, with the same semantics (each lane
/// is the same `llvm.minimum`, and the lanes are combined by it). Measured in
/// `benchmarks/REPORT.md`, "Reductions (issue 32)".
pub const MIN_MAX_OPS: [&str; 6] =
    ["arith.minimumf", "arith.maximumf", "arith.minsi", "arith.maxsi", "arith.minui", "arith.maxui"];

/// The loop metadata of an `scf.for` whose accumulator is a float sum or product (`arith.addf` or
/// `arith.mulf` yielded; reductions and scans keep NumPy's order, so LLVM cannot reassociate them):
/// neither interleaved nor unrolled. Such a loop cannot be vectorised, and its copies would only
/// repeat a chain of dependent additions that the processor overlaps across iterations anyway;
/// LLVM unrolls it eight times otherwise, which multiplies the code that instruction selection and
/// register allocation work on (leibnitz_pi's one kernel: LLVM's instructions 50.6 M -> 23.6 M,
/// measured with `opt`/`llc`; `benchmarks/REPORT-compile.md` has the run phases).
pub const STRICT_LOOP_ANNOTATION: &str =
    "#llvm.loop_annotation<interleave = <count = 1 : i32>, unroll = <disable = true>>";

/// A built scalar SSA value and its dtype.
#[derive(Clone, Copy)]
pub(super) struct TypedValue<'c> {
    /// The SSA value.
    pub v: Value<'c, 'c>,
    /// Its dtype (bool is `i1`).
    pub d: DType,
}

/// The state of the one iteration of the loop nest that [`Gen`] is building.
#[derive(Default)]
pub(super) struct Iteration<'c> {
    /// The current scalar of every parameter view loaded or written so far and of every contracted
    /// temporary written so far (array contraction, Kristensen et al. 2016, Sec. IV-A).
    pub cur: HashMap<ValueId, TypedValue<'c>>,
    /// Parameter views written so far, in order of first write (stored once, with their final
    /// value, at the end of the iteration).
    pub dirty: Vec<ValueId>,
    /// In a block with scans ([`KernelLayout::scan_axis`]): the accumulator of each scan, in op
    /// order; its value before the iteration when the iteration starts, after it once built.
    ///
    /// [`KernelLayout::scan_axis`]: arrayc_passes::kernel_layout::KernelLayout::scan_axis
    pub scan: Vec<TypedValue<'c>>,
    /// The position in [`scan`](Self::scan) of the next scan of the iteration being built.
    pub scan_next: usize,
}

/// What the target changes in the code [`Gen`] builds; the default is the CPU's.
#[derive(Clone, Copy, Default)]
pub(super) struct TargetMode<'c> {
    /// In the CPU emulation of a GPU kernel (`gpu::build_emulated_kernel`): the grid coordinates
    /// the kernel takes as arguments instead of reading them from the hardware.
    pub grid: Option<super::gpu::GridArgs<'c>>,
    /// Whether scatter-adds that can be atomic ([`atomic_scatter_add`]) are built as
    /// `memref.atomic_rmw` (the GPU target, emulated or not: its threads run a block's iterations in
    /// parallel unless [`KernelLayout::in_order_on_gpu`]); otherwise as a load, an add and a store
    /// (the CPU, which runs a block with scatters in order).
    ///
    /// [`atomic_scatter_add`]: arrayc_passes::kernel_layout::atomic_scatter_add
    /// [`KernelLayout::in_order_on_gpu`]: arrayc_passes::kernel_layout::KernelLayout::in_order_on_gpu
    pub atomic_adds: bool,
    /// Whether the `math` operations that NVPTX has an instruction for ([`native_intrinsic`]) are
    /// built as calls of LLVM's own intrinsics (`llvm.call_intrinsic`; the GPU target, not its
    /// emulation). `convert-gpu-to-nvvm` would turn the `math` operations into calls of libdevice
    /// (`__nv_sqrt`, ...), and it refuses the `llvm.intr.*` operations of most of them; the
    /// intrinsics reach LLVM's NVPTX back end, which emits one instruction each.
    pub native_math: bool,
}

/// The LLVM intrinsic (without its type suffix) that computes `math` operation `name` exactly as
/// the `math` operation does (IEEE 754, correctly rounded: `sqrt.rn`, `fma.rn`; `rint` rounds half
/// to even, `cvt.rni`) and that NVPTX compiles to one instruction, or `None`. The CPU lowers these
/// `math` operations to the same intrinsics (`convert-math-to-llvm`).
pub(super) fn native_intrinsic(name: &str) -> Option<&'static str> {
    Some(match name {
        "math.absf" => "llvm.fabs",
        "math.sqrt" => "llvm.sqrt",
        "math.fma" => "llvm.fma",
        "math.roundeven" => "llvm.roundeven",
        "math.floor" => "llvm.floor",
        "math.ceil" => "llvm.ceil",
        "math.trunc" => "llvm.trunc",
        "math.copysign" => "llvm.copysign",
        _ => return None,
    })
}

/// A binary `arith` op builder (`arith::addf`, ...), its result of its operands' type.
pub(super) type Arith2<'c> = fn(Value<'c, 'c>, Value<'c, 'c>, Location<'c>) -> Operation<'c>;

/// Whether, and how, the CPU target splits the range of an `scf.for` into the launch's chunks
/// (`super::cpu::lower_to_chunks`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ForChunk {
    /// The loop runs over its whole range in every chunk.
    Whole,
    /// The loop is the axis loop of a reduction split along its axis: its bounds are the
    /// placeholders [`ChunkBound::AxisLo`] and [`ChunkBound::AxisHi`].
    Axis,
    /// The loop is dimension 0 of the iteration space: its bounds are the placeholders
    /// [`ChunkBound::Lo`] and [`ChunkBound::Hi`].
    Space,
}

/// What closing the innermost open block builds around it.
enum Frame<'c> {
    /// The function's entry block (never closed by the builder).
    Entry,
    /// The body of an `scf.for` from `lo` to `hi` by `step`, carrying `inits` (iteration arguments).
    For { lo: Value<'c, 'c>, hi: Value<'c, 'c>, step: Value<'c, 'c>, inits: Vec<TypedValue<'c>> },
    /// The body of an `scf.parallel` over `[lbs[k], ubs[k])` by `step`, with the dimension the CPU
    /// target chunks at position `chunk`.
    Parallel { lbs: Vec<Value<'c, 'c>>, ubs: Vec<Value<'c, 'c>>, step: Value<'c, 'c>, chunk: Option<usize> },
    /// The region of one reduction of an `scf.reduce`.
    Reduce,
    /// The then-region of an `scf.if` on `cond` (the else-region is empty).
    Then { cond: Value<'c, 'c> },
}

/// The state of building one kernel function.
pub(super) struct Gen<'c, 'f> {
    /// The context the kernel is built in.
    pub ctx: &'c Context,
    /// The location of every built operation (unknown: kernels carry no source positions).
    pub loc: Location<'c>,
    /// The kernel being built.
    pub f: &'f ir::Func,
    /// Open blocks, innermost last, with what closing each builds.
    blocks: Vec<(Block<'c>, Frame<'c>)>,
    /// The function's arguments: every kernel parameter (on the CPU, a view with an
    /// [`ir::Func::inner_strides`] entry is replaced by [`Gen::cast_last_stride`] of it:
    /// `Gen::gen_block`).
    pub params: HashMap<ValueId, Value<'c, 'c>>,
    /// Sizes of the iteration space (elements per dimension, see `loops::gen_block`).
    pub dims: Vec<Value<'c, 'c>>,
    /// The state of the iteration being built ([`Iteration`]).
    pub iter: Iteration<'c>,
    /// The fault cell argument, when the kernel can fault (see [`Gen::fault_if`]).
    fault_cell: Option<Value<'c, 'c>>,
    /// What the target changes in the code built ([`TargetMode`]); the CPU's by default.
    pub target: TargetMode<'c>,
    /// In a [`KernelLayout::chunked_scan`]: the carries and the pass arguments
    /// ([`KernelArg::ScanCarries`], [`KernelArg::ScanPass`]).
    ///
    /// [`KernelLayout::chunked_scan`]: arrayc_passes::kernel_layout::KernelLayout::chunked_scan
    pub carries: Option<(Value<'c, 'c>, Value<'c, 'c>)>,
    /// Whether the iterations being built store nothing (the totals pass of a chunked scan): no
    /// written parameter, no scatter.
    pub no_stores: bool,
    /// Whether the loops being closed carry an arg-reduction's values and positions: they get
    /// [`STRICT_LOOP_ANNOTATION`] (LLVM's loop vectoriser does not take their select recurrences,
    /// and a fixed vector width would only make it report so on stderr; the SLP vectoriser packs
    /// the unrolled lanes of `loops::SUM_ACCUMULATORS`).
    pub arg_loops: bool,
}

/// `memref.atomic_rmw`'s `kind`s: cases of `arith::AtomicRMWKind`, an `I64EnumAttr` of MLIR 22's
/// `ArithBase.td` (cases in alphabetical order). The tests `fault_cell_is_lowered_atomically` and
/// `gpu_scatter_adds_are_atomic` check that MLIR prints them as `mins`, `addf` and `addi`.
pub(super) const ATOMIC_RMW_ADDF: i64 = 0;
pub(super) const ATOMIC_RMW_ADDI: i64 = 1;
const ATOMIC_RMW_MINS: i64 = 10;

impl<'c, 'f> Gen<'c, 'f> {
    /// A builder of kernel `f` whose function body is `entry`, with the arguments `abi` gives (at
    /// least the target-neutral ones, [`super::abi::signature`]).
    pub fn new(ctx: &'c Context, f: &'f ir::Func, entry: Block<'c>, abi: &KernelAbi) -> Self {
        let arg = |i: usize| -> Value<'c, 'c> { entry.argument(i).expect("an argument of the signature").into() };
        let at = |a: KernelArg| abi.position(a).map(arg);
        let fault_cell = at(KernelArg::FaultCell);
        let carries = at(KernelArg::ScanCarries).zip(at(KernelArg::ScanPass));
        let params = f.params.iter().enumerate().filter_map(|(i, &p)| Some((p, at(KernelArg::Param(i))?))).collect();
        Gen {
            ctx,
            loc: Location::unknown(ctx),
            f,
            blocks: vec![(entry, Frame::Entry)],
            params,
            dims: vec![],
            iter: Iteration::default(),
            fault_cell,
            target: TargetMode::default(),
            carries,
            no_stores: false,
            arg_loops: false,
        }
    }

    /// Raises fault `k` (an index into the layout's faults) where `cond` holds: lowers the fault cell
    /// to `k` with `memref.atomic_rmw mins`, so the launch reports the fault of the smallest index
    /// whatever the order of the iterations (`arrayc_runtime::launch`).
    pub fn fault_if(&mut self, cond: TypedValue<'c>, k: usize) {
        let cell = self.fault_cell.expect("a kernel with faults takes the fault cell");
        self.open_if(cond);
        let code = self.consti(DType::I64, k as i64);
        self.atomic_rmw(ATOMIC_RMW_MINS, code, cell, &[]);
        self.close_if();
    }

    /// `memref.atomic_rmw` of kind `kind` (an `ATOMIC_RMW_*` case) of `val` into `memref` at
    /// `idx`: one indivisible read-modify-write of that element.
    pub(super) fn atomic_rmw(&self, kind: i64, val: TypedValue<'c>, memref: Value<'c, 'c>, idx: &[Value<'c, 'c>]) {
        let i64_ty: Type = IntegerType::new(self.ctx, 64).into();
        let kind = IntegerAttribute::new(i64_ty, kind);
        let op = OperationBuilder::new("memref.atomic_rmw", self.loc)
            .add_operands(&[&[val.v, memref], idx].concat())
            .add_attributes(&[(Identifier::new(self.ctx, "kind"), kind.into())])
            .add_results(&[val.v.r#type()])
            .build()
            .expect("a valid memref.atomic_rmw");
        self.push(op);
    }

    /// The entry block, once every other block is closed.
    pub fn finish(mut self) -> Block<'c> {
        let (b, frame) = self.blocks.pop().expect("the entry block");
        assert!(matches!(frame, Frame::Entry) && self.blocks.is_empty(), "unclosed region");
        b
    }

    /// Appends `op` at the insertion point.
    pub fn push(&self, op: Operation<'c>) -> OperationRef<'c, 'c> {
        self.blocks.last().expect("an open block").0.append_operation(op)
    }
    /// Appends `op` and returns its (only or first) result.
    pub fn val(&self, op: Operation<'c>) -> Value<'c, 'c> {
        self.push(op).result(0).expect("an operation with a result").into()
    }
    /// Appends `op` (result of dtype `d`).
    pub fn typed(&self, op: Operation<'c>, d: DType) -> TypedValue<'c> {
        TypedValue { v: self.val(op), d }
    }
    /// `name(operands)` with one result of `operands[0]`'s type (the `math` functions); with
    /// [`TargetMode::native_math`], a [`native_intrinsic`] instead when `name` has one.
    pub fn same_type(&self, name: &str, operands: &[TypedValue<'c>]) -> TypedValue<'c> {
        let vals: Vec<Value> = operands.iter().map(|x| x.v).collect();
        let d = operands[0].d;
        let intrinsic = native_intrinsic(name).filter(|_| self.target.native_math);
        let op = match (intrinsic, d) {
            (Some(intrinsic), DType::F64 | DType::F32) => {
                let suffix = if d == DType::F64 { "f64" } else { "f32" };
                let segments = DenseI32ArrayAttribute::new(self.ctx, &[vals.len() as i32, 0]);
                OperationBuilder::new("llvm.call_intrinsic", self.loc)
                    .add_operands(&vals)
                    .add_attributes(&[
                        (
                            Identifier::new(self.ctx, "intrin"),
                            StringAttribute::new(self.ctx, &format!("{intrinsic}.{suffix}")).into(),
                        ),
                        (
                            Identifier::new(self.ctx, "op_bundle_sizes"),
                            DenseI32ArrayAttribute::new(self.ctx, &[]).into(),
                        ),
                        (Identifier::new(self.ctx, "operandSegmentSizes"), segments.into()),
                    ])
                    .add_results(&[vals[0].r#type()])
                    .build()
            }
            _ => OperationBuilder::new(name, self.loc).add_operands(&vals).add_results(&[vals[0].r#type()]).build(),
        };
        TypedValue { v: self.val(op.expect("a valid operation")), d }
    }

    /// The MLIR type of dtype `d`.
    pub fn ty(&self, d: DType) -> Type<'c> {
        elem_type(self.ctx, d)
    }
    /// The kernel-IR type of value `v`.
    pub fn ir_ty(&self, v: ValueId) -> IrType {
        self.f.ty(v)
    }

    /// An `index` constant.
    pub fn idx_const(&self, c: i64) -> Value<'c, 'c> {
        let attr = IntegerAttribute::new(Type::index(self.ctx), c);
        self.val(arith::constant(self.ctx, attr.into(), self.loc))
    }
    /// A constant of dtype `d` from an f64 (floats) or the integer it truncates to (ints, bool: `!= 0`).
    pub fn constf(&self, d: DType, x: f64) -> TypedValue<'c> {
        match d {
            DType::F64 | DType::F32 => {
                // An f32 constant is the f32 nearest to `x`, exactly representable in the attribute.
                let x = if d == DType::F32 { x as f32 as f64 } else { x };
                let attr = FloatAttribute::new(self.ctx, self.ty(d), x);
                self.typed(arith::constant(self.ctx, attr.into(), self.loc), d)
            }
            _ => self.consti(d, x as i64),
        }
    }
    /// A constant of dtype `d` from an i64 (bool: `!= 0`; floats: converted).
    pub fn consti(&self, d: DType, x: i64) -> TypedValue<'c> {
        let x = match d {
            DType::Bool => (x != 0) as i64,
            DType::F64 | DType::F32 => return self.constf(d, x as f64),
            // Wraps, as NumPy's casts of integers do: the attribute holds the low bits, sign-
            // extended; a signless `i8`..`i64` reads them as the unsigned ops do too.
            _ => {
                let shift = 64 - d.bits();
                (x << shift) >> shift
            }
        };
        let attr = IntegerAttribute::new(self.ty(d), x);
        self.typed(arith::constant(self.ctx, attr.into(), self.loc), d)
    }

    /// `arith.cmpf pred` (result i1).
    pub fn cmpf(&self, pred: CmpfPredicate, a: TypedValue<'c>, b: TypedValue<'c>) -> TypedValue<'c> {
        self.typed(arith::cmpf(self.ctx, pred, a.v, b.v, self.loc), DType::Bool)
    }
    /// `arith.cmpi pred` (result i1).
    pub fn cmpi(&self, pred: CmpiPredicate, a: TypedValue<'c>, b: TypedValue<'c>) -> TypedValue<'c> {
        self.typed(arith::cmpi(self.ctx, pred, a.v, b.v, self.loc), DType::Bool)
    }
    /// `c ? a : b`.
    pub fn select(&self, c: TypedValue<'c>, a: TypedValue<'c>, b: TypedValue<'c>) -> TypedValue<'c> {
        self.typed(arith::select(c.v, a.v, b.v, self.loc), a.d)
    }
    /// A binary `arith` op whose result has `a`'s type.
    pub fn arith2(&self, op: Arith2<'c>, a: TypedValue<'c>, b: TypedValue<'c>) -> TypedValue<'c> {
        self.typed(op(a.v, b.v, self.loc), a.d)
    }

    /// Converts `v` to dtype `to` (NumPy `astype`: float to int truncates, anything to bool is `!= 0`).
    pub fn convert(&self, v: TypedValue<'c>, to: DType) -> TypedValue<'c> {
        use DType::*;
        if v.d == to {
            return v;
        }
        let t = self.ty(to);
        let op = match (v.d, to) {
            (f, Bool) if f.is_int() => return self.cmpi(CmpiPredicate::Ne, v, self.consti(v.d, 0)),
            (F64 | F32, Bool) => return self.cmpf(CmpfPredicate::Une, v, self.constf(v.d, 0.0)),
            (Bool, t) if t.is_int() => arith::extui(v.v, self.ty(t), self.loc),
            (Bool, _) => arith::uitofp(v.v, t, self.loc),
            // Integer to integer: zero- (unsigned) or sign-extend a narrower one, wrap (keep the
            // low bits) a wider one; `u64` and `i64` are the same bits.
            (f, t) if f.is_int() && t.is_int() => match f.bits().cmp(&t.bits()) {
                std::cmp::Ordering::Less if f.is_unsigned() => arith::extui(v.v, self.ty(t), self.loc),
                std::cmp::Ordering::Less => arith::extsi(v.v, self.ty(t), self.loc),
                std::cmp::Ordering::Greater => arith::trunci(v.v, self.ty(t), self.loc),
                std::cmp::Ordering::Equal => return TypedValue { v: v.v, d: to },
            },
            (f, _) if f.is_unsigned() => arith::uitofp(v.v, t, self.loc),
            (f, _) if f.is_int() => arith::sitofp(v.v, t, self.loc),
            // Float to the narrower integers and to unsigned ones as NumPy's cast on x86-64
            // (`Scalar::as_narrow`, `as_u32`, `as_u64`).
            (_, I16 | I8 | U16 | U8) => return self.convert(self.convert(v, I32), to),
            (_, U64 | U32) => return self.float_to_unsigned(v, to),
            (_, I64 | I32) => arith::fptosi(v.v, t, self.loc),
            (F32, F64) => arith::extf(v.v, t, self.loc),
            (F64, F32) => arith::truncf(v.v, t, self.loc),
            _ => unreachable!("conversions between equal dtypes return early"),
        };
        self.typed(op, to)
    }

    /// NumPy's `astype(uint64)` or `astype(uint32)` of a float (`Scalar::as_u64`,
    /// `Scalar::as_u32`): below 2^63 (2^31) converted as to `i64` (`i32`), at or above it as
    /// `x - 2^63` (`x - 2^31`) with the top bit set.
    fn float_to_unsigned(&self, v: TypedValue<'c>, to: DType) -> TypedValue<'c> {
        let signed = if to == DType::U64 { DType::I64 } else { DType::I32 };
        let x = self.convert(v, DType::F64);
        let top = self.constf(DType::F64, 2f64.powi(to.bits() as i32 - 1));
        let big = self.cmpf(CmpfPredicate::Oge, x, top);
        let low = self.convert(x, signed);
        let high = self.convert(self.typed(arith::subf(x.v, top.v, self.loc), DType::F64), signed);
        let high = self.arith2(arith::xori, high, self.consti(signed, 1 << (to.bits() - 1)));
        let r = self.select(big, high, low);
        TypedValue { v: r.v, d: to }
    }

    /// `i64` value of an index.
    pub fn index_to_i64(&self, i: Value<'c, 'c>) -> TypedValue<'c> {
        self.typed(arith::index_cast(i, self.ty(DType::I64), self.loc), DType::I64)
    }

    /// Size of dimension `axis` of view parameter `v`.
    pub fn dim(&self, v: ValueId, axis: usize) -> Value<'c, 'c> {
        let c = self.idx_const(axis as i64);
        self.val(memref::dim(self.params[&v], c, self.loc))
    }
    /// `memref.extract_strided_metadata` of the view `src`: its results are the base, the offset,
    /// the `r` sizes and the `r` strides (elements).
    fn strided_metadata(&self, src: Value<'c, 'c>) -> OperationRef<'c, 'c> {
        self.push(
            OperationBuilder::new("memref.extract_strided_metadata", self.loc)
                .add_operands(&[src])
                .enable_result_type_inference()
                .build()
                .expect("a valid memref.extract_strided_metadata"),
        )
    }

    /// View parameter `v` (rank >= 1) as a view with the static last-dimension stride `stride`: a
    /// `memref.reinterpret_cast` to its own offset, sizes and other strides, whose descriptor
    /// carries the constant, so LLVM sees unit-stride (or broadcast) accesses. (A `memref.cast`
    /// changes only the type: MLIR 22 still reads the stride from the descriptor, and LLVM then
    /// gives up vectorising a loop over many views, "too many SCEV assumptions".)
    pub fn cast_last_stride(&self, v: ValueId, stride: i64) -> Value<'c, 'c> {
        let IrType::Array(d, r) = self.ir_ty(v) else { unreachable!("only views are cast") };
        let src = self.params[&v];
        // Results: base, offset, `r` sizes, `r` strides.
        let meta = self.strided_metadata(src);
        let part = |i: usize| -> Value<'c, 'c> { meta.result(i).expect("a strided metadata result").into() };
        let mut operands = vec![src, part(1)];
        operands.extend((0..r).map(|k| part(2 + k)));
        operands.extend((0..r - 1).map(|k| part(2 + r + k)));
        let dynamic = super::abi::dynamic();
        let mut strides = vec![dynamic; r - 1];
        strides.push(stride);
        let attr = |name: &str, a: Attribute<'c>| (Identifier::new(self.ctx, name), a);
        let op = OperationBuilder::new("memref.reinterpret_cast", self.loc)
            .add_operands(&operands)
            .add_attributes(&[
                attr(
                    "operandSegmentSizes",
                    DenseI32ArrayAttribute::new(self.ctx, &[1, 1, r as i32, r as i32 - 1]).into(),
                ),
                attr("static_offsets", DenseI64ArrayAttribute::new(self.ctx, &[dynamic]).into()),
                attr("static_sizes", DenseI64ArrayAttribute::new(self.ctx, &vec![dynamic; r]).into()),
                attr("static_strides", DenseI64ArrayAttribute::new(self.ctx, &strides).into()),
            ])
            .add_results(&[view_type(self.ctx, d, r, Some(stride)).into()])
            .build()
            .expect("a valid memref.reinterpret_cast");
        self.val(op)
    }

    /// The element after the one 0-d view parameter `v` points at, as a 0-d view of it: a
    /// `memref.reinterpret_cast` of `v`'s base to its offset plus one. Where an arg-reduction over
    /// everything stores its key after its position (`arrayc_core::ops::ARG_PARTIAL_WORDS`: the
    /// launcher gives it room).
    pub fn next_element(&self, v: ValueId) -> Value<'c, 'c> {
        let IrType::Array(d, 0) = self.ir_ty(v) else { unreachable!("the next element of a 0-d view") };
        let src = self.params[&v];
        let meta = self.strided_metadata(src);
        let offset: Value<'c, 'c> = meta.result(1).expect("the offset").into();
        let next = self.val(arith::addi(offset, self.idx_const(1), self.loc));
        let dynamic = super::abi::dynamic();
        let attr = |name: &str, a: Attribute<'c>| (Identifier::new(self.ctx, name), a);
        let op = OperationBuilder::new("memref.reinterpret_cast", self.loc)
            .add_operands(&[src, next])
            .add_attributes(&[
                attr("operandSegmentSizes", DenseI32ArrayAttribute::new(self.ctx, &[1, 1, 0, 0]).into()),
                attr("static_offsets", DenseI64ArrayAttribute::new(self.ctx, &[dynamic]).into()),
                attr("static_sizes", DenseI64ArrayAttribute::new(self.ctx, &[]).into()),
                attr("static_strides", DenseI64ArrayAttribute::new(self.ctx, &[]).into()),
            ])
            .add_results(&[view_type(self.ctx, d, 0, None).into()])
            .build()
            .expect("a valid memref.reinterpret_cast");
        self.val(op)
    }

    /// Opens an `scf.for` from `lo` to `hi` by 1 carrying `inits`; returns its induction variable and
    /// iteration arguments. `chunk`: whether, and how, the CPU target splits its range into the
    /// launch's chunks. Closed by [`close_for`](Self::close_for).
    pub fn open_for(
        &mut self,
        lo: Value<'c, 'c>,
        hi: Value<'c, 'c>,
        inits: &[TypedValue<'c>],
        chunk: ForChunk,
    ) -> (Value<'c, 'c>, Vec<TypedValue<'c>>) {
        let step = self.idx_const(1);
        self.open_for_step(lo, hi, step, inits, chunk)
    }

    /// [`open_for`](Self::open_for) by `step` (an index, positive).
    pub fn open_for_step(
        &mut self,
        lo: Value<'c, 'c>,
        hi: Value<'c, 'c>,
        step: Value<'c, 'c>,
        inits: &[TypedValue<'c>],
        chunk: ForChunk,
    ) -> (Value<'c, 'c>, Vec<TypedValue<'c>>) {
        let (lo, hi) = self.chunk_bounds(lo, hi, chunk);
        let mut args = vec![(Type::index(self.ctx), self.loc)];
        args.extend(inits.iter().map(|x| (x.v.r#type(), self.loc)));
        let body = Block::new(&args);
        let i = body.argument(0).expect("the induction variable").into();
        let accs = inits
            .iter()
            .enumerate()
            .map(|(k, x)| TypedValue { v: body.argument(k + 1).expect("an iteration argument").into(), d: x.d })
            .collect();
        self.blocks.push((body, Frame::For { lo, hi, step, inits: inits.to_vec() }));
        (i, accs)
    }

    /// The bounds of a loop over `[lo, hi)` that the CPU target splits as `chunk` says: `lo` and
    /// `hi` themselves for [`ForChunk::Whole`], else [`CHUNK_BOUND_ATTR`] placeholders of them.
    pub fn chunk_bounds(
        &self,
        lo: Value<'c, 'c>,
        hi: Value<'c, 'c>,
        chunk: ForChunk,
    ) -> (Value<'c, 'c>, Value<'c, 'c>) {
        let (l, h) = match chunk {
            ForChunk::Whole => return (lo, hi),
            ForChunk::Space => (ChunkBound::Lo, ChunkBound::Hi),
            ForChunk::Axis => (ChunkBound::AxisLo, ChunkBound::AxisHi),
        };
        let placeholder = |v: Value<'c, 'c>, b: ChunkBound| {
            let mut op = arith::addi(v, self.idx_const(0), self.loc);
            op.set_attribute(CHUNK_BOUND_ATTR, IntegerAttribute::new(Type::index(self.ctx), b as i64).into());
            self.val(op)
        };
        (placeholder(lo, l), placeholder(hi, h))
    }

    /// Closes the innermost `scf.for`, yielding `yields` (one per iteration argument); returns its
    /// results.
    pub fn close_for(&mut self, yields: &[TypedValue<'c>]) -> Vec<TypedValue<'c>> {
        let (body, frame) = self.blocks.pop().expect("an open loop");
        let Frame::For { lo, hi, step, inits } = frame else { panic!("closing a loop that is not open") };
        let strict = self.arg_loops
            || yields.iter().any(|y| {
                OperationResult::try_from(y.v)
                    .is_ok_and(|r| matches!(r.owner().name().as_string_ref().as_str(), Ok("arith.addf" | "arith.mulf")))
            });
        let ops = || std::iter::successors(body.first_operation(), |op| op.next_in_block());
        // A scan (`maximum.accumulate`) stores the value it carries at every step: LLVM cannot
        // vectorise that, and the fixed width would only make it report so on stderr.
        let stored: Vec<Value> = ops()
            .filter(|op| op.name().as_string_ref().as_str() == Ok("memref.store"))
            .filter_map(|op| op.operand(0).ok())
            .collect();
        let scan = yields.iter().any(|y| stored.contains(&y.v));
        let min_max =
            !scan && ops().any(|op| op.name().as_string_ref().as_str().is_ok_and(|n| MIN_MAX_OPS.contains(&n)));
        let heavy = min_max || !inits.is_empty() && ops().count() >= HEAVY_BODY_OPS;
        let annotation = if strict { Some(STRICT_LOOP_ANNOTATION) } else { heavy.then_some(HEAVY_LOOP_ANNOTATION) };
        let ys: Vec<Value> = yields.iter().map(|y| y.v).collect();
        body.append_operation(scf::r#yield(&ys, self.loc));
        let region = Region::new();
        region.append_block(body);
        let init_vals: Vec<Value> = inits.iter().map(|x| x.v).collect();
        let types: Vec<Type> = init_vals.iter().map(|x| x.r#type()).collect();
        let attributes: Vec<_> = annotation.map(|a| self.loop_annotation(a)).into_iter().collect();
        let op = OperationBuilder::new("scf.for", self.loc)
            .add_operands(&[lo, hi, step])
            .add_operands(&init_vals)
            .add_attributes(&attributes)
            .add_results(&types)
            .add_regions([region])
            .build()
            .expect("a valid scf.for");
        let op = self.push(op);
        inits
            .iter()
            .enumerate()
            .map(|(k, x)| TypedValue { v: op.result(k).expect("a loop result").into(), d: x.d })
            .collect()
    }

    /// `loop_annotation` = `annotation` ([`HEAVY_LOOP_ANNOTATION`] or [`STRICT_LOOP_ANNOTATION`]).
    fn loop_annotation(&self, annotation: &str) -> (Identifier<'c>, Attribute<'c>) {
        let a = Attribute::parse(self.ctx, annotation).expect("a valid loop annotation");
        (Identifier::new(self.ctx, LOOP_ANNOTATION), a)
    }

    /// Opens an `scf.parallel` over `[lbs[k], ubs[k])` by 1; returns its induction variables.
    /// `chunk`: the position of the dimension that the CPU target splits into the launch's chunks
    /// (marked with [`CHUNK_ATTR`]). Closed by [`close_parallel`](Self::close_parallel). (Reductions
    /// are `scf.for` nests carrying their accumulators: `loops::Gen::loops`.)
    pub fn open_parallel(
        &mut self,
        lbs: &[Value<'c, 'c>],
        ubs: &[Value<'c, 'c>],
        chunk: Option<usize>,
    ) -> Vec<Value<'c, 'c>> {
        let step = self.idx_const(1);
        let body = Block::new(&vec![(Type::index(self.ctx), self.loc); lbs.len()]);
        let ivs = (0..lbs.len()).map(|k| body.argument(k).expect("an induction variable").into()).collect();
        self.blocks.push((body, Frame::Parallel { lbs: lbs.to_vec(), ubs: ubs.to_vec(), step, chunk }));
        ivs
    }

    /// Closes the innermost `scf.parallel`.
    pub fn close_parallel(&mut self) {
        self.push(OperationBuilder::new("scf.reduce", self.loc).build().expect("a valid scf.reduce"));
        let (body, frame) = self.blocks.pop().expect("an open parallel loop");
        let Frame::Parallel { lbs, ubs, step, chunk } = frame else {
            panic!("closing a parallel loop that is not open")
        };
        let region = Region::new();
        region.append_block(body);
        let n = lbs.len();
        let sizes = [n as i32, n as i32, n as i32, 0];
        let mut attrs = vec![(
            Identifier::new(self.ctx, "operandSegmentSizes"),
            DenseI32ArrayAttribute::new(self.ctx, &sizes).into(),
        )];
        if let Some(k) = chunk {
            let attr = IntegerAttribute::new(Type::index(self.ctx), k as i64);
            attrs.push((Identifier::new(self.ctx, CHUNK_ATTR), attr.into()));
        }
        let op = OperationBuilder::new("scf.parallel", self.loc)
            .add_operands(&lbs)
            .add_operands(&ubs)
            .add_operands(&vec![step; n])
            .add_attributes(&attrs)
            .add_regions([region])
            .build()
            .expect("a valid scf.parallel");
        self.push(op);
    }

    /// A region of one block `^bb(%acc: t, %x: t)` (values of dtype `d`) that returns
    /// `combine(self, acc, x)` with the terminator `terminator` (`gpu.yield`): the body of a
    /// reduction op.
    pub fn combine_region(
        &mut self,
        d: DType,
        t: Type<'c>,
        terminator: &str,
        combine: impl Fn(&Self, TypedValue<'c>, TypedValue<'c>) -> TypedValue<'c>,
    ) -> Region<'c> {
        let b = Block::new(&[(t, self.loc), (t, self.loc)]);
        let arg = |i: usize| TypedValue { v: b.argument(i).expect("a reduction operand").into(), d };
        let (acc, x) = (arg(0), arg(1));
        self.blocks.push((b, Frame::Reduce));
        let r = combine(self, acc, x);
        let (b, _) = self.blocks.pop().expect("the reduction region");
        b.append_operation(
            OperationBuilder::new(terminator, self.loc).add_operands(&[r.v]).build().expect("a valid terminator"),
        );
        let region = Region::new();
        region.append_block(b);
        region
    }

    /// Opens the then-region of an `scf.if` on `cond` (i1) without results.
    pub fn open_if(&mut self, cond: TypedValue<'c>) {
        self.blocks.push((Block::new(&[]), Frame::Then { cond: cond.v }));
    }
    /// Closes the innermost `scf.if` (its else-region is empty).
    pub fn close_if(&mut self) {
        let (then, frame) = self.blocks.pop().expect("an open if");
        let Frame::Then { cond } = frame else { panic!("closing an if that is not open") };
        then.append_operation(scf::r#yield(&[], self.loc));
        let then_region = Region::new();
        then_region.append_block(then);
        self.push(scf::r#if(cond, &[], then_region, Region::new(), self.loc));
    }
}
