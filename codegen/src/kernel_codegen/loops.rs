//! The loop nest of a fused block and what runs in one iteration of it (Kristensen et al. 2016,
//! Sec. IV: one loop nest per block; Sec. IV-A2: array contraction, every array loaded and stored
//! once per element). See the parent module's docs for the block forms; the iteration space has
//! rank `l.rank`, sizes from the view parameter `l.space` (in elements), dimension 0 chunked to
//! `[lo, hi)` except where a reduction axis moves it inward; a reduction along an axis
//! ([`KernelLayout::axis_split`]) also marks its axis loop, which the launcher may chunk instead.

use super::builder::{ForChunk, Gen, TypedValue, ATOMIC_RMW_ADDF, ATOMIC_RMW_ADDI};
use arrayc_core::DType;
use arrayc_dialect::ir::{BinFn, ComputeFn, ReduceKind, ScatterKind, ScatterMode, Type, UnFn, ValueId};
use arrayc_passes::kernel_layout::{acc_dtype, atomic_scatter_add, KernelLayout, Reduction};
use melior::{
    dialect::{
        arith::{self, CmpfPredicate, CmpiPredicate},
        memref,
    },
    ir::{
        attribute::{BoolAttribute, IntegerAttribute},
        operation::OperationBuilder,
        r#type::IntegerType,
        Attribute, Identifier, Value,
    },
};

/// The block's reductions in order: the first, then the further ones along the same axis.
pub(super) fn reductions(l: &KernelLayout) -> impl Iterator<Item = &Reduction> {
    l.reduce.iter().chain(&l.extra)
}

/// How many accumulators a reduction loop carries per reduction when one of its reductions is a
/// float sum or product: element `i` of each chunk goes to accumulator `i % SUM_ACCUMULATORS`
/// (counting from the chunk's first element), the partials are combined pairwise in a fixed order
/// (`((a0 ∘ a1) ∘ (a2 ∘ a3)) ∘ ((a4 ∘ a5) ∘ (a6 ∘ a7))`) and the last `< SUM_ACCUMULATORS`
/// elements added in order. A strict in-order sum is one chain of dependent additions (one per
/// 3-4 cycles); eight independent chains keep the adder busy and LLVM's SLP vectoriser packs them
/// into vector additions, without reassociating anything: the order is fixed by the chunks, which
/// depend on the sizes only (`arrayc_runtime::launch`), so the result is the same for every
/// thread count and run. The rounding error also grows more slowly than in one chain (each chain
/// sums an eighth of the elements), closer to NumPy's pairwise summation, which sums blocks of
/// 128 elements in eight such accumulators too. Measured in `benchmarks/REPORT.md`,
/// "Reductions (issue 32)". Every float sum and product is split, whatever else its block
/// computes: splitting only small blocks made a reduction's rounding depend on the partition
/// (`test_fusion.py`'s fused == singleton). The price is compile work: leibnitz_pi's seven-operation
/// sum, split, took 155 M instructions for a whole `arrayc run --no-cache` instead of 56 M.
pub const SUM_ACCUMULATORS: usize = 8;

/// The most elementwise operations a block may have for [`Gen::accumulate`] to build its
/// [`SUM_ACCUMULATORS`] chains unrolled (see [`Gen::unrolled_split`]).
pub const UNROLLED_SPLIT_MAX_OPS: usize = 16;

/// Whether elementwise operation `func` (result dtype `out`, first operand's dtype `arg`) gains
/// from unrolled copies: it has an x86 vector instruction (AVX2) that LLVM's SLP vectoriser uses
/// (arithmetic, comparisons, selects and bit operations, a float division, a conversion between
/// floats), or it is a gather, whose eight copies keep eight independent loads in flight (rotating,
/// spmv_ell's row sums of gathered values ran 1.3x slower, `benchmarks/compare.py`, 7 rounds); not
/// integer division, powers, the transcendental functions (scalar calls of libm), conversions
/// between integers and floats (`i64` to `f64` needs AVX-512) or random numbers.
fn gains_from_unrolling(func: ComputeFn, out: DType, arg: Option<DType>) -> bool {
    use BinFn::*;
    match func {
        ComputeFn::Fill | ComputeFn::Where | ComputeFn::Gather(_) => true,
        ComputeFn::Copy => arg == Some(out) || out.is_float() && arg.is_some_and(|a| a.is_float()),
        ComputeFn::Binary(Div) => out.is_float(),
        ComputeFn::Binary(b) => {
            matches!(b, Add | Sub | Mul | Minimum | Maximum | Eq | Ne | Lt | Le | Gt | Ge | And | Or | Xor | Copysign)
        }
        ComputeFn::Unary(u) => {
            matches!(
                u,
                UnFn::Neg | UnFn::Not | UnFn::Abs | UnFn::Sqrt | UnFn::Ceil | UnFn::Floor | UnFn::Trunc | UnFn::Rint
            )
        }
        _ => false,
    }
}

/// Loop indices, one per dimension of the iteration space, set as the loops are opened.
type Idx<'c> = Vec<Option<Value<'c, 'c>>>;

/// The indices of `idx` at dimensions `ds` (all open).
fn at<'c>(idx: &Idx<'c>, ds: impl IntoIterator<Item = usize>) -> Vec<Value<'c, 'c>> {
    ds.into_iter().map(|d| idx[d].expect("an open loop's index")).collect()
}

impl<'c> Gen<'c, '_> {
    /// The memref through which the loop nest accesses view parameter `v` (on the CPU, the view
    /// reinterpreted with its static last stride when it has one: [`Gen::gen_block`]).
    fn view_ref(&self, v: ValueId) -> Value<'c, 'c> {
        self.params[&v]
    }

    /// The indices of a view of rank `r` at iteration index `idx` (0-d views at `[]`; legality
    /// guarantees every other view has the iteration space's rank).
    fn index_of<'a>(r: usize, idx: &'a [Value<'c, 'c>]) -> &'a [Value<'c, 'c>] {
        if r == 0 {
            &[]
        } else {
            idx
        }
    }

    /// `memref.load` of view parameter `v` at `idx`.
    pub(super) fn load(&self, v: ValueId, idx: &[Value<'c, 'c>]) -> TypedValue<'c> {
        let Type::Array(d, r) = self.ir_ty(v) else { unreachable!("loads are from views") };
        self.typed(memref::load(self.view_ref(v), Self::index_of(r, idx), self.loc), d)
    }

    /// Value of operand `v` in the current iteration: a scalar parameter directly; a view parameter
    /// loaded at `idx` the first time the iteration needs it, its cached or last written scalar
    /// afterwards; a contracted temporary's current scalar (never loaded).
    fn read(&mut self, v: ValueId, idx: &[Value<'c, 'c>]) -> TypedValue<'c> {
        match self.ir_ty(v) {
            Type::Scalar(d) => TypedValue { v: self.params[&v], d },
            Type::Array(..) => {
                if let Some(x) = self.iter.cur.get(&v) {
                    return *x;
                }
                let x = self.load(v, idx);
                self.iter.cur.insert(v, x);
                x
            }
        }
    }

    /// Sets `out` (converted to its dtype) for the rest of the iteration; a parameter is stored by
    /// [`flush`](Self::flush), a contracted temporary never.
    fn write(&mut self, out: ValueId, val: TypedValue<'c>) {
        let val = self.convert(val, self.ir_ty(out).dtype());
        self.iter.cur.insert(out, val);
        if self.params.contains_key(&out) && !self.iter.dirty.contains(&out) {
            self.iter.dirty.push(out);
        }
    }

    /// Stores `val` (converted to the dtype of view `out`) at `idx`.
    pub(super) fn store(&self, out: ValueId, idx: &[Value<'c, 'c>], val: TypedValue<'c>) {
        if self.no_stores {
            return;
        }
        let Type::Array(d, r) = self.ir_ty(out) else { unreachable!("stores are to views") };
        let val = self.convert(val, d);
        self.push(memref::store(val.v, self.view_ref(out), Self::index_of(r, idx), self.loc));
    }

    /// End of an iteration: stores every written parameter once, with its final value.
    fn flush(&mut self, idx: &[Value<'c, 'c>]) {
        for p in std::mem::take(&mut self.iter.dirty) {
            self.store(p, idx, self.iter.cur[&p]);
        }
        self.iter.cur.clear();
    }

    /// One elementwise op at full iteration index `idx`.
    /// `fault`: the index of the op's [`KernelFault`](arrayc_passes::kernel_layout::KernelFault) when it can
    /// fault (`kernel_layout::fault_of`).
    fn elementwise(
        &mut self,
        func: ComputeFn,
        out: ValueId,
        ins: &[ValueId],
        idx: &[Value<'c, 'c>],
        fault: Option<usize>,
    ) {
        let od = self.ir_ty(out).dtype();
        // Compute dtype for arithmetic: out dtype, bool computed in i64.
        let arith_dt = if od == DType::Bool { DType::I64 } else { od };
        let float_dt = if od.is_float() { od } else { DType::F64 };
        let val = match func {
            ComputeFn::Fill | ComputeFn::Copy => self.read(ins[0], idx),
            ComputeFn::Arange => {
                let start = self.read(ins[0], idx);
                let step = self.read(ins[1], idx);
                let (start, step) = (self.convert(start, arith_dt), self.convert(step, arith_dt));
                let i = self.convert(self.index_to_i64(idx[0]), arith_dt);
                let m = self.binary(BinFn::Mul, i, step);
                self.binary(BinFn::Add, start, m)
            }
            ComputeFn::Random => {
                let seed = self.read(ins[0], idx);
                let seed = self.convert(seed, DType::I64);
                // Row-major linear position of the element in the iteration space.
                let mut k = idx.first().copied().unwrap_or_else(|| self.idx_const(0));
                for (j, &i) in idx.iter().enumerate().skip(1) {
                    let n = self.dims[j];
                    k = self.val(arith::addi(self.val(arith::muli(k, n, self.loc)), i, self.loc));
                }
                self.philox(self.index_to_i64(k), seed)
            }
            ComputeFn::Where => {
                let c = self.read(ins[0], idx);
                let c = self.convert(c, DType::Bool);
                let a = self.read(ins[1], idx);
                let a = self.convert(a, od);
                let b = self.read(ins[2], idx);
                let b = self.convert(b, od);
                self.select(c, a, b)
            }
            ComputeFn::Gather(axis) => {
                // `ins[0]` is read at `[p, k, s]`: `k` from the index array (wrapped when negative,
                // checked against the size: out of range is a kernel fault, the load then reads
                // index 0, which the host checked exists), `p` the iteration's first `axis` axes,
                // `s` its last `r - 1 - axis`.
                let (at, bad) = self.indexed_at(ins[0], axis, &ins[1..], idx);
                if let Some(f) = fault {
                    self.fault_if(bad, f);
                }
                self.load(ins[0], &at)
            }
            ComputeFn::Scatter(kind, mode) => {
                // `out` is written at `[k, s]` (`k` from the index array, wrapped and checked as a
                // gather's), not at the iteration's index: stored here, never through `write`. Out
                // of range, `Raise` faults (and stores at index 0, which the host checked exists),
                // `Drop` stores nothing.
                let (indices, value) = ins.split_at(ins.len() - 1);
                let (at, bad) = self.indexed_at(out, 0, indices, idx);
                let v = self.read(value[0], idx);
                if let Some(f) = fault {
                    self.fault_if(bad, f);
                }
                if self.no_stores {
                    return;
                }
                if mode == ScatterMode::Drop {
                    let ok = self.arith2(arith::xori, bad, self.consti(DType::Bool, 1));
                    self.open_if(ok);
                }
                match kind {
                    ScatterKind::Add if self.target.atomic_adds && atomic_scatter_add(func, od) => {
                        // `arith_dt` is `od` here: the add NumPy's `add.at` does, made atomic.
                        let kind = if od.is_float() { ATOMIC_RMW_ADDF } else { ATOMIC_RMW_ADDI };
                        self.atomic_rmw(kind, self.convert(v, od), self.view_ref(out), &at);
                    }
                    ScatterKind::Add => {
                        let old = self.load(out, &at);
                        let (old, v) = (self.convert(old, arith_dt), self.convert(v, arith_dt));
                        let sum = self.binary(BinFn::Add, old, v);
                        self.store(out, &at, sum);
                    }
                    ScatterKind::Set => self.store(out, &at, v),
                }
                if mode == ScatterMode::Drop {
                    self.close_if();
                }
                return;
            }
            ComputeFn::Binary(op) => {
                let a = self.read(ins[0], idx);
                let b = self.read(ins[1], idx);
                let ct = match op {
                    _ if op.is_comparison() => a.d.promote(b.d),
                    // Logical on bools, bitwise on integers.
                    BinFn::And | BinFn::Or | BinFn::Xor => od,
                    _ if op.in_float() => float_dt,
                    BinFn::Minimum | BinFn::Maximum => od,
                    _ => arith_dt,
                };
                let (a, b) = (self.convert(a, ct), self.convert(b, ct));
                if let Some(k) = fault {
                    // A binary op's only fault (`kernel_layout::fault_of`): an integer power, negative exponent.
                    assert_eq!(op, BinFn::Pow, "a fault of an op other than `**`");
                    let neg = self.cmpi(CmpiPredicate::Slt, b, self.consti(b.d, 0));
                    self.fault_if(neg, k);
                }
                self.binary(op, a, b)
            }
            ComputeFn::Unary(op) => {
                let a = self.read(ins[0], idx);
                let ct = match op {
                    UnFn::Not | UnFn::Abs => od,
                    _ if op.rounds() => od,
                    UnFn::Neg => arith_dt,
                    _ => float_dt,
                };
                let a = self.convert(a, ct);
                self.unary(op, a)
            }
            ComputeFn::Reduce(..) => unreachable!("reductions end the block (kernel_layout)"),
            ComputeFn::Scan(kind, _) => {
                // The next scan's accumulator, combined with this iteration's input in order.
                let k = self.iter.scan_next;
                let x = self.read(ins[0], idx);
                let x = self.convert(x, acc_dtype(kind, od));
                let y = self.combine(kind, self.iter.scan[k], x);
                self.iter.scan[k] = y;
                self.iter.scan_next += 1;
                y
            }
        };
        self.write(out, val)
    }

    /// The element of `src` (rank `r`, its own shape) that the index arrays `indices` select along
    /// axes `axis, axis + 1, ..` at iteration index `idx` (NumPy integer-array indexing):
    /// `[p, k_0, .., k_{c-1}, s]` with `k_t` index array `t`'s value wrapped when negative, `p` the
    /// iteration's first `axis` axes and `s` its last `r - c - axis`. Also returns whether any
    /// `k_t` is outside `[-n, n)` (`n` the size of `src` along its axis); such a `k_t` is then 0.
    fn indexed_at(
        &mut self,
        src: ValueId,
        axis: usize,
        indices: &[ValueId],
        idx: &[Value<'c, 'c>],
    ) -> (Vec<Value<'c, 'c>>, TypedValue<'c>) {
        let Type::Array(_, r) = self.ir_ty(src) else { unreachable!("an index array selects from a view") };
        let zero = self.consti(DType::I64, 0);
        let mut bad: Option<TypedValue<'c>> = None;
        let mut ks = vec![];
        for (t, &index) in indices.iter().enumerate() {
            let k = self.read(index, idx);
            let k = self.convert(k, DType::I64);
            let n = self.index_to_i64(self.dim(src, axis + t));
            let neg = self.cmpi(CmpiPredicate::Slt, k, zero);
            let wrapped = self.binary(BinFn::Add, k, n);
            let k = self.select(neg, wrapped, k);
            let low = self.cmpi(CmpiPredicate::Slt, k, zero);
            let high = self.cmpi(CmpiPredicate::Sge, k, n);
            let out = self.arith2(arith::ori, low, high);
            let k = self.select(out, zero, k);
            ks.push(self.val(arith::index_cast(k.v, melior::ir::Type::index(self.ctx), self.loc)));
            bad = Some(match bad {
                None => out,
                Some(b) => self.arith2(arith::ori, b, out),
            });
        }
        let trailing = &idx[idx.len() + indices.len() + axis - r..];
        let at = idx[..axis].iter().copied().chain(ks).chain(trailing.iter().copied()).collect();
        (at, bad.expect("at least one index array"))
    }

    /// The identity of reduction `kind` in dtype `d`.
    pub(super) fn identity(&self, kind: ReduceKind, d: DType) -> TypedValue<'c> {
        match (kind, d) {
            // An arg-reduction's position (its value starts from `value_kind`'s identity).
            (ReduceKind::ArgMin | ReduceKind::ArgMax, _) => self.consti(DType::I64, 0),
            (ReduceKind::Sum, _) => self.consti(d, 0),
            (ReduceKind::Prod, _) => self.consti(d, 1),
            (ReduceKind::Min, DType::Bool) => self.consti(d, 1),
            (ReduceKind::Max, DType::Bool) => self.consti(d, 0),
            (ReduceKind::Min, DType::F64 | DType::F32) => self.constf(d, f64::INFINITY),
            (ReduceKind::Max, DType::F64 | DType::F32) => self.constf(d, f64::NEG_INFINITY),
            // The dtype's largest (smallest) value; `consti` keeps its low bits (`u64`'s largest
            // is all ones).
            (ReduceKind::Min, _) => self.consti(d, d.int_range().expect("an integer").1 as i64),
            (ReduceKind::Max, _) => self.consti(d, d.int_range().expect("an integer").0 as i64),
        }
    }

    /// `acc (+ or * or min or max) x`: no reassociation (the loops fix the order, [`SUM_ACCUMULATORS`]),
    /// so a sum comes out the same whichever partition computed its input
    /// (`tests/examples/test_fusion.py` checks bit equality). Float min and max are IEEE 754's
    /// `minimum`/`maximum` (`arith.minimumf`, NaN propagates, -0.0 below 0.0), as
    /// `arrayc_core::semantics::reduce_combine`: LLVM vectorises that reduction (with the width fixed,
    /// `super::builder::MIN_MAX_OPS`), and not NumPy's elementwise `a < b ? a : b` with its NaN test.
    /// Order does not matter to it, so it is the same for any partition too.
    pub(super) fn combine(&self, kind: ReduceKind, acc: TypedValue<'c>, x: TypedValue<'c>) -> TypedValue<'c> {
        if acc.d.is_float() {
            match kind {
                ReduceKind::Min => return self.same_type("arith.minimumf", &[acc, x]),
                ReduceKind::Max => return self.same_type("arith.maximumf", &[acc, x]),
                _ => {}
            }
        }
        let op = match kind {
            ReduceKind::Sum => BinFn::Add,
            ReduceKind::Prod => BinFn::Mul,
            ReduceKind::Min => BinFn::Minimum,
            ReduceKind::Max => BinFn::Maximum,
            ReduceKind::ArgMin | ReduceKind::ArgMax => unreachable!("arg-reductions combine pairs: Gen::acc_step"),
        };
        self.binary(op, acc, x)
    }

    /// In the loop nest of reductions along a non-last axis `a` (accumulating in the outputs, at
    /// axis index `idx[a]`, before the last dimension's loop, chunked as `last`): on the CPU, for
    /// each float `min`/`max` whose input is a view parameter read whole, a loop that prefetches
    /// (`memref.prefetch`, one per 64-byte cache line) the part of the input that the next index
    /// of the axis will read (the last index clamped, so that no address lies past the view).
    ///
    /// A chunk of the outputs reads a short run of each input row (500 columns, 4000 bytes, of a
    /// 4000x4000 `min(x, axis=0)` on 2 threads; `arrayc_runtime::launch::OUT_CHUNKS_PER_THREAD`)
    /// before it moves to the next row, a page further on, where the hardware prefetcher starts
    /// anew; the loads in flight are then what the out-of-order window holds, and `llvm.minimum`'s
    /// compare, blends and NaN test per vector (8 operations per 4 elements against a sum's 3)
    /// leave fewer of them than a sum's loop does. Measured: `benchmarks/REPORT.md`, "Reductions
    /// (issue 32)". Only when the chunk's part of the last dimension is shorter than the whole:
    /// a min/max that the launcher splits along its axis (`arrayc_runtime::launch::MIN_MAX_SPLIT_ROWS`)
    /// streams whole rows, which the hardware prefetcher follows.
    fn prefetch_next_slab(&mut self, reds: &[Reduction], idx: &[Option<Value<'c, 'c>>], a: usize, last: ForChunk) {
        if self.target.atomic_adds {
            return; // A GPU kernel (emulated or not): no prefetch there.
        }
        let r = idx.len();
        let inputs: Vec<(ValueId, DType)> = reds
            .iter()
            .filter(|red| matches!(red.kind, ReduceKind::Min | ReduceKind::Max))
            .filter(|red| self.params.contains_key(&red.input))
            .filter_map(|red| match self.ir_ty(red.input) {
                Type::Array(d, k) if k == r && d.is_float() => Some((red.input, d)),
                _ => None,
            })
            .collect();
        if inputs.is_empty() {
            return;
        }
        let (Some(i), true) = (idx[a], idx[..r - 1].iter().all(Option::is_some)) else { return };
        let c1 = self.idx_const(1);
        let next = self.val(arith::addi(i, c1, self.loc));
        let end = self.val(arith::subi(self.dims[a], c1, self.loc));
        // A compare and select, not `arith.minsi`, which would give the axis loop min/max metadata.
        let past = self.val(arith::cmpi(self.ctx, CmpiPredicate::Sgt, next, end, self.loc));
        let next = self.val(arith::select(past, end, next, self.loc));
        let c0 = self.idx_const(0);
        let (lo, hi) = self.chunk_bounds(c0, self.dims[r - 1], last);
        let width = self.val(arith::subi(hi, lo, self.loc));
        let part = self.val(arith::cmpi(self.ctx, CmpiPredicate::Slt, width, self.dims[r - 1], self.loc));
        self.open_if(TypedValue { v: part, d: DType::Bool });
        for (v, d) in inputs {
            let lanes = if d == DType::F64 { 8 } else { 16 };
            let step = self.idx_const(lanes);
            let (j, _) = self.open_for_step(lo, hi, step, &[], ForChunk::Whole);
            let at: Vec<Value<'c, 'c>> = (0..r)
                .map(|k| {
                    if k == a {
                        next
                    } else if k == r - 1 {
                        j
                    } else {
                        idx[k].expect("an outer index")
                    }
                })
                .collect();
            let mut operands = vec![self.view_ref(v)];
            operands.extend(at);
            let attr = |name: &str, a: Attribute<'c>| (Identifier::new(self.ctx, name), a);
            let op = OperationBuilder::new("memref.prefetch", self.loc)
                .add_operands(&operands)
                .add_attributes(&[
                    attr("isWrite", BoolAttribute::new(self.ctx, false).into()),
                    attr("localityHint", IntegerAttribute::new(IntegerType::new(self.ctx, 32).into(), 3).into()),
                    attr("isDataCache", BoolAttribute::new(self.ctx, true).into()),
                ])
                .build()
                .expect("a valid memref.prefetch");
            self.push(op);
            self.close_for(&[]);
        }
        self.close_if();
    }

    /// The accumulators of reduction `red` before any element (`value_dt`: its input's dtype): its
    /// identity in its accumulator dtype; for an arg-reduction, the best value so far (the value
    /// reduction's identity) and its position (0: with the identity as best value, only an extent
    /// of identities keeps it, whose first position is the answer).
    pub(super) fn acc_inits(&self, red: &Reduction) -> Vec<TypedValue<'c>> {
        let od = self.ir_ty(red.out).dtype();
        if red.kind.is_arg() {
            let vd = self.ir_ty(red.input).dtype();
            vec![self.identity(red.kind.value_kind(), vd), self.identity(red.kind, od)]
        } else {
            vec![self.identity(red.kind, acc_dtype(red.kind, od))]
        }
    }

    /// `x` (an arg-reduction's value in its input dtype) is a better candidate than `best`: strictly
    /// below it for `ArgMin` (above for `ArgMax`; unsigned dtypes compare unsigned), or NaN where
    /// `best` is not. A tie keeps `best`, so the first position wins, and a NaN is kept once found:
    /// NumPy's rules. For floats, `x < best` unordered (true when either is NaN) and `best` not
    /// NaN: two compares and an `and` per element; LLVM's SLP vectoriser packs the
    /// [`SUM_ACCUMULATORS`] lanes of them.
    fn arg_better(&self, kind: ReduceKind, x: TypedValue<'c>, best: TypedValue<'c>) -> TypedValue<'c> {
        let max = kind == ReduceKind::ArgMax;
        if x.d.is_float() {
            let pred = if max { CmpfPredicate::Ugt } else { CmpfPredicate::Ult };
            let below = self.cmpf(pred, x, best);
            let best_num = self.cmpf(CmpfPredicate::Ord, best, best);
            return self.arith2(arith::andi, below, best_num);
        }
        let unsigned = x.d == DType::Bool || x.d.is_unsigned();
        let pred = match (max, unsigned) {
            (false, false) => CmpiPredicate::Slt,
            (false, true) => CmpiPredicate::Ult,
            (true, false) => CmpiPredicate::Sgt,
            (true, true) => CmpiPredicate::Ugt,
        };
        self.cmpi(pred, x, best)
    }

    /// Reduction `red`'s accumulators `acc` ([`acc_inits`](Self::acc_inits)) after element `x` (in
    /// its accumulator dtype; an arg-reduction's in its input dtype) at position `pos` (an `i64`,
    /// used by arg-reductions only), the elements coming in increasing positions.
    fn acc_step(
        &self,
        red: &Reduction,
        acc: &[TypedValue<'c>],
        x: TypedValue<'c>,
        pos: Option<TypedValue<'c>>,
    ) -> Vec<TypedValue<'c>> {
        if !red.kind.is_arg() {
            return vec![self.combine(red.kind, acc[0], x)];
        }
        let pos = pos.expect("an arg-reduction's element position");
        let better = self.arg_better(red.kind, x, acc[0]);
        vec![self.select(better, x, acc[0]), self.select(better, pos, acc[1])]
    }

    /// Two lanes' accumulators of reduction `red` combined: `a` holds the earlier elements for a
    /// value reduction; an arg-reduction's lanes interleave, so the better value wins and, of
    /// equal values (or two NaNs), the smaller position: the first position of the best value in
    /// any order of combination, so the result is the same for any grouping of the lanes.
    fn acc_merge(&self, red: &Reduction, a: &[TypedValue<'c>], b: &[TypedValue<'c>]) -> Vec<TypedValue<'c>> {
        if !red.kind.is_arg() {
            return vec![self.combine(red.kind, a[0], b[0])];
        }
        let better = self.arg_better(red.kind, b[0], a[0]);
        let earlier = self.cmpi(CmpiPredicate::Slt, b[1], a[1]);
        let same = if b[0].d.is_float() {
            // Equal numbers, or both NaN (one NaN alone is `better`, or worse).
            let eq = self.cmpf(CmpfPredicate::Oeq, b[0], a[0]);
            let a_nan = self.cmpf(CmpfPredicate::Uno, a[0], a[0]);
            let b_nan = self.cmpf(CmpfPredicate::Uno, b[0], b[0]);
            let nans = self.arith2(arith::andi, a_nan, b_nan);
            self.arith2(arith::ori, eq, nans)
        } else {
            self.cmpi(CmpiPredicate::Eq, b[0], a[0])
        };
        let tie = self.arith2(arith::andi, same, earlier);
        let take = self.arith2(arith::ori, better, tie);
        vec![self.select(take, b[0], a[0]), self.select(take, b[1], a[1])]
    }

    /// The key of an arg-reduction's best value `v` (`arrayc_core::ops::arg_key`, the same
    /// formula): its bits as an `i64` whose signed order is the values' (floats: `-0.0` made `0.0`
    /// by adding `0.0`, a negative's magnitude bits flipped; unsigned 64-bit: the sign bit
    /// flipped), NaN the lowest key for `ArgMin`, the highest for `ArgMax`.
    fn arg_key(&self, kind: ReduceKind, v: TypedValue<'c>) -> TypedValue<'c> {
        let i64t = self.ty(DType::I64);
        match v.d {
            DType::F64 | DType::F32 => {
                let zeroed = self.arith2(arith::addf, v, self.constf(v.d, 0.0));
                let int = if v.d == DType::F64 { DType::I64 } else { DType::I32 };
                let bits = self.typed(arith::bitcast(zeroed.v, self.ty(int), self.loc), int);
                let bits =
                    if int == DType::I32 { self.typed(arith::extsi(bits.v, i64t, self.loc), DType::I64) } else { bits };
                let neg = self.cmpi(CmpiPredicate::Slt, bits, self.consti(DType::I64, 0));
                let flipped = self.arith2(arith::xori, bits, self.consti(DType::I64, i64::MAX));
                let key = self.select(neg, flipped, bits);
                let nan = self.cmpf(CmpfPredicate::Uno, v, v);
                let nan_key = self.consti(DType::I64, if kind == ReduceKind::ArgMax { i64::MAX } else { i64::MIN });
                self.select(nan, nan_key, key)
            }
            DType::U64 => self.arith2(arith::xori, v, self.consti(DType::U64, i64::MIN)),
            DType::I64 => v,
            d if d == DType::Bool || d.is_unsigned() => self.typed(arith::extui(v.v, i64t, self.loc), DType::I64),
            _ => self.typed(arith::extsi(v.v, i64t, self.loc), DType::I64),
        }
    }

    /// Stores reduction `red`'s final accumulators `acc` at `oidx` of its output: the value, or an
    /// arg-reduction's position; over everything (`all`) also the position's key after it, for the
    /// launcher's combination of the chunks (`arrayc_core::ops::ARG_PARTIAL_WORDS`).
    fn store_result(&self, red: &Reduction, oidx: &[Value<'c, 'c>], acc: &[TypedValue<'c>], all: bool) {
        if !red.kind.is_arg() {
            self.store(red.out, oidx, acc[0]);
            return;
        }
        self.store(red.out, oidx, acc[1]);
        if all && !self.no_stores {
            let key = self.arg_key(red.kind, acc[0]);
            let key = TypedValue { v: key.v, d: DType::I64 };
            self.push(memref::store(key.v, self.next_element(red.out), &[], self.loc));
        }
    }

    /// The position an arg-reduction gives the element at `idx`: along the reduced dimension `d`,
    /// or (over everything: `all`) row-major over the whole space.
    fn arg_position(&self, idx: &Idx<'c>, d: usize, r: usize, all: bool) -> TypedValue<'c> {
        if r == 0 {
            return self.consti(DType::I64, 0);
        }
        if !all || r == 1 {
            return self.index_to_i64(idx[d].expect("the reduced dimension's index"));
        }
        let mut k = idx[0].expect("an open loop's index");
        for (j, i) in idx.iter().enumerate().take(r).skip(1) {
            let i = i.expect("an open loop's index");
            k = self.val(arith::addi(self.val(arith::muli(k, self.dims[j], self.loc)), i, self.loc));
        }
        self.index_to_i64(k)
    }

    /// Whether [`accumulate`](Self::accumulate) builds the [`SUM_ACCUMULATORS`] chains of block `l`
    /// unrolled: one copy of the block per chain in a loop by `SUM_ACCUMULATORS`, which LLVM's SLP
    /// vectoriser turns into vector operations (a plain `sum(x)` or rosenbrock's eight-operation sum
    /// then run at memory speed). That pays when every operation [`gains_from_unrolling`] and
    /// there are at most [`UNROLLED_SPLIT_MAX_OPS`]; otherwise the block is built once, in a loop
    /// by 1 whose chains rotate: the same elements go to the same chains in the same order, so the result is the same
    /// bit for bit, with one copy of the block for LLVM to compile instead of eight
    /// (leibnitz_pi's sum of integer powers and divisions: 177 M instructions for a whole
    /// `arrayc run --no-cache` unrolled, 110 M rotating, 81 M before sums were split; callgrind).
    pub(super) fn unrolled_split(&self, l: &KernelLayout) -> bool {
        l.ops.len() <= UNROLLED_SPLIT_MAX_OPS
            && l.ops.iter().all(|(func, out, ins)| {
                let arg = ins.first().map(|&v| self.ir_ty(v).dtype());
                gains_from_unrolling(*func, self.ir_ty(*out).dtype(), arg)
            })
    }

    /// The innermost loop of the block's reductions: over dimension `d` of the space (`idx[d]`; a rank-0
    /// space has none and runs once) from 0 to `ub`, split among the launch's chunks as `chunk`
    /// says, one iteration of the block per index, combining each reduction's input into its
    /// accumulator (`accs`, one per reduction, in order); returns the accumulators after it. When a
    /// reduction is a float sum or product, the loop carries [`SUM_ACCUMULATORS`] accumulators
    /// per reduction, as that
    /// constant's docs say (a loop by [`SUM_ACCUMULATORS`], then one over the
    /// rest); else one, in order.
    pub(super) fn accumulate(
        &mut self,
        l: &KernelLayout,
        idx: &mut Idx<'c>,
        d: usize,
        ub: Value<'c, 'c>,
        chunk: ForChunk,
        accs: Vec<TypedValue<'c>>,
    ) -> Vec<TypedValue<'c>> {
        let r = l.rank;
        let reds: Vec<Reduction> = reductions(l).copied().collect();
        // Each reduction's accumulators are `accs[offs[q]..offs[q + 1]]` (two for an arg-reduction).
        let mut offs = vec![0];
        for red in &reds {
            offs.push(offs.last().copied().unwrap_or(0) + if red.kind.is_arg() { 2 } else { 1 });
        }
        let w = *offs.last().unwrap_or(&0);
        let any_arg = reds.iter().any(|red| red.kind.is_arg());
        // One iteration's accumulators `carried` (a chain) after the element at `idx`.
        let step = |g: &mut Self, idx: &Idx<'c>, carried: &[TypedValue<'c>]| -> Vec<TypedValue<'c>> {
            let xs = g.iteration(l, &at(idx, 0..r));
            let pos = any_arg.then(|| g.arg_position(idx, d, r, l.reduces_all));
            let mut ys = vec![];
            for (q, (red, x)) in reds.iter().zip(xs).enumerate() {
                ys.extend(g.acc_step(red, &carried[offs[q]..offs[q + 1]], x, pos));
            }
            ys
        };
        let c0 = self.idx_const(0);
        let (lo, hi) = self.chunk_bounds(c0, ub, chunk);
        let strict = any_arg
            || accs
                .iter()
                .zip(&reds)
                .any(|(a, red)| a.d.is_float() && matches!(red.kind, ReduceKind::Sum | ReduceKind::Prod));
        let (mut start, mut accs) = (lo, accs);
        self.arg_loops = any_arg;
        if strict && r > 0 {
            let k = SUM_ACCUMULATORS;
            let stride = self.idx_const(k as i64);
            let n = self.val(arith::subi(hi, lo, self.loc));
            let whole = self.val(arith::divui(n, stride, self.loc));
            let whole = self.val(arith::muli(whole, stride, self.loc));
            let end = self.val(arith::addi(lo, whole, self.loc));
            let mut inits = accs.clone();
            for _ in 1..k {
                inits.extend(reds.iter().flat_map(|red| self.acc_inits(red)));
            }
            let partials = if self.unrolled_split(l) {
                // Unrolled: one copy of the block per chain, which LLVM's SLP vectoriser packs.
                let (i, carried) = self.open_for_step(lo, end, stride, &inits, ForChunk::Whole);
                let mut ys = vec![];
                for j in 0..k {
                    idx[d] = Some(self.val(arith::addi(i, self.idx_const(j as i64), self.loc)));
                    ys.extend(step(self, idx, &carried[j * w..(j + 1) * w]));
                }
                self.close_for(&ys)
            } else {
                // Rotating: one copy of the block; the element goes to the chain in first place,
                // which then moves to the last place and every other chain one place up, so that
                // after each `k` elements (the loop's length is a multiple of `k`) chain `j` is back
                // in place `j` and got the elements `j` modulo `k`, as unrolled.
                let (i, carried) = self.open_for(lo, end, &inits, ForChunk::Whole);
                idx[d] = Some(i);
                let mut ys = carried[w..].to_vec();
                ys.extend(step(self, idx, &carried[..w]));
                self.close_for(&ys)
            };
            accs = reds
                .iter()
                .enumerate()
                .flat_map(|(q, red)| {
                    let mut level: Vec<Vec<TypedValue<'c>>> =
                        (0..k).map(|j| partials[j * w + offs[q]..j * w + offs[q + 1]].to_vec()).collect();
                    while level.len() > 1 {
                        level = level.chunks(2).map(|p| self.acc_merge(red, &p[0], &p[1])).collect();
                    }
                    level.swap_remove(0)
                })
                .collect();
            start = end;
        }
        let (i, carried) = self.open_for(start, hi, &accs, ForChunk::Whole);
        if r > 0 {
            idx[d] = Some(i);
        }
        let ys = step(self, idx, &carried);
        let res = self.close_for(&ys);
        self.arg_loops = false;
        res
    }

    /// One iteration of the block at full iteration index `idx`: every elementwise op in order (on
    /// loaded/cached parameter scalars and contracted scalars), then the input value of each of the
    /// block's reductions (in its accumulator dtype), then one store per written parameter.
    pub(super) fn iteration(&mut self, l: &KernelLayout, idx: &[Value<'c, 'c>]) -> Vec<TypedValue<'c>> {
        self.iter.cur.clear();
        self.iter.dirty.clear();
        self.iter.scan_next = 0;
        for (i, (func, out, ins)) in l.ops.iter().enumerate() {
            let fault = l.faults.iter().position(|f| f.op == i);
            self.elementwise(*func, *out, ins, idx, fault);
        }
        let mut xs = vec![];
        for r in reductions(l) {
            let x = self.read(r.input, idx);
            // An arg-reduction compares values in its input's dtype.
            xs.push(if r.kind.is_arg() { x } else { self.convert(x, acc_dtype(r.kind, self.ir_ty(r.out).dtype())) });
        }
        self.flush(idx);
        xs
    }

    /// The initial accumulators of the block's scans, in op order: each scan's identity in its
    /// accumulator dtype, except that a float cumulative sum starts from `-0.0`, the additive
    /// identity that keeps every element's sign (`-0.0 + x == x` for every `x`, where `0.0 + -0.0`
    /// is `0.0`): NumPy's `cumsum` starts from the first element, so `cumsum([-0.0, -0.0])` is
    /// `[-0.0, -0.0]`. (NumPy's `sum` starts from `0.0`: `sum([-0.0])` is `0.0`, as the
    /// reductions' [`identity`](Self::identity) gives.) The CPU and GPU kernels both start their
    /// scans here; chunked scans, whose carries the launcher adds, are of integers only.
    pub(super) fn scan_inits(&self, l: &KernelLayout) -> Vec<TypedValue<'c>> {
        l.ops
            .iter()
            .filter_map(|(func, out, _)| match func {
                ComputeFn::Scan(kind, _) => {
                    let d = acc_dtype(*kind, self.ir_ty(*out).dtype());
                    Some(match kind {
                        ReduceKind::Sum if d.is_float() => self.constf(d, -0.0),
                        _ => self.identity(*kind, d),
                    })
                }
                _ => None,
            })
            .collect()
    }

    /// The loops of a [`KernelLayout::chunked_scan`] over `[lo, hi)` of its 1-d space (`chunk`: how
    /// the CPU target marks them), whose carries are `carries[slot + k]` for scan `k`: the totals
    /// pass (the kernel's pass argument nonzero) runs the iterations without stores, each scan from
    /// its identity, and stores each scan's final accumulator in its carry; the final pass runs them
    /// with their stores, each scan from its carry. Two `scf.if`s on the pass, one loop each.
    pub(super) fn chunked_scan(
        &mut self,
        l: &KernelLayout,
        lo: Value<'c, 'c>,
        hi: Value<'c, 'c>,
        slot: Value<'c, 'c>,
        chunk: ForChunk,
    ) {
        let (carries, pass) = self.carries.expect("a chunked scan takes its carries and pass");
        let pass = TypedValue { v: pass, d: DType::I64 };
        let zero = self.consti(DType::I64, 0);
        let nscans = l.scan_kinds().len();
        let at = |g: &Self, k: usize| g.val(arith::addi(slot, g.idx_const(k as i64), g.loc));
        for totals in [true, false] {
            let pred = if totals { CmpiPredicate::Ne } else { CmpiPredicate::Eq };
            let cond = self.cmpi(pred, pass, zero);
            self.open_if(cond);
            self.no_stores = totals;
            let inits = if totals {
                self.scan_inits(l)
            } else {
                (0..nscans).map(|k| self.typed(memref::load(carries, &[at(self, k)], self.loc), DType::I64)).collect()
            };
            let (i, accs) = self.open_for(lo, hi, &inits, chunk);
            self.iter.scan = accs;
            self.iteration(l, &[i]);
            let ys = std::mem::take(&mut self.iter.scan);
            let res = self.close_for(&ys);
            if totals {
                for (k, y) in res.into_iter().enumerate() {
                    self.push(memref::store(y.v, carries, &[at(self, k)], self.loc));
                }
            }
            self.no_stores = false;
            self.close_if();
        }
    }

    /// The block's loop nest (see the module docs), specialised to [`ir::Func::inner_strides`]:
    /// every hinted view is reinterpreted with its last-dimension stride as a constant
    /// ([`Gen::cast_last_stride`]), which LLVM vectorises (a dynamic stride makes every access a
    /// gather, or a run-time check per view). There is no generic copy for other strides: the
    /// hints are facts of the fusion symbols (row-major base arrays of the program's own and views
    /// of them), and the launcher rejects a launch whose views differ
    /// (`arrayc_runtime::launch::validate`), so LLVM compiles each nest once (on rosenbrock's random
    /// kernel, 30 % less LLVM work than with a generic copy beside it: `benchmarks/REPORT-compile.md`).
    ///
    /// [`ir::Func::inner_strides`]: arrayc_dialect::ir::Func::inner_strides
    pub fn gen_block(&mut self, l: &KernelLayout) {
        let Some(sp) = l.space else {
            // No view parameter: nothing to iterate over (the launcher returns at once, too).
            return;
        };
        let axis = if l.reduce.is_some() && !l.reduces_all { l.reduce.and_then(|x| x.axis) } else { None };
        self.dims = (0..l.rank).map(|d| self.dim(sp, d)).collect();
        let hinted: Vec<(ValueId, i64)> = self
            .f
            .params
            .iter()
            .zip(&self.f.inner_strides)
            .filter_map(|(&p, s)| s.map(|s| (p, s)))
            .filter(|&(p, _)| matches!(self.ir_ty(p), Type::Array(_, pr) if pr > 0))
            .collect();
        for (p, s) in hinted {
            let c = self.cast_last_stride(p, s);
            self.params.insert(p, c);
        }
        self.loops(l, axis);
    }

    /// Opens one `scf.parallel` over dimensions `ds` (each over `[0, dims[d])`), setting `idx[d]`;
    /// `chunked`: whether the CPU target chunks the first of them.
    fn open_space(&mut self, ds: &[usize], chunked: bool, idx: &mut Idx<'c>) {
        let c0 = self.idx_const(0);
        let ubs: Vec<Value<'c, 'c>> = ds.iter().map(|&d| self.dims[d]).collect();
        let ivs = self.open_parallel(&vec![c0; ds.len()], &ubs, chunked.then_some(0));
        for (&d, iv) in ds.iter().zip(ivs) {
            idx[d] = Some(iv);
        }
    }

    /// Closes the innermost `scf.parallel` (one without reductions).
    fn close_space(&mut self) {
        self.close_parallel();
    }

    /// The loop nest of a block (see the module docs): `scf.parallel` over the iteration space (or,
    /// for reductions along an axis, over the output's dimensions), dimension 0 of the chunked space
    /// marked for the CPU target; a rank-0 space is a one-iteration parallel loop.
    fn loops(&mut self, l: &KernelLayout, axis: Option<usize>) {
        let r = l.rank;
        let mut idx: Idx<'c> = vec![None; r];
        if l.chunked_scan {
            let (c0, n) = (self.idx_const(0), self.dims[0]);
            self.chunked_scan(l, c0, n, c0, ForChunk::Space);
            return;
        }
        if let Some(a) = l.scan_axis() {
            // Scans along axis `a`: the other axes in parallel (the first of them chunked:
            // `KernelLayout::chunk_dim`; a 1-d scan is one chunk of one iteration), axis `a`
            // innermost and in order, carrying one accumulator per scan.
            let others: Vec<usize> = (0..r).filter(|&d| d != a).collect();
            if others.is_empty() {
                let (c0, c1) = (self.idx_const(0), self.idx_const(1));
                self.open_parallel(&[c0], &[c1], Some(0));
            } else {
                self.open_space(&others, true, &mut idx);
            }
            let inits = self.scan_inits(l);
            let c0 = self.idx_const(0);
            let (j, accs) = self.open_for(c0, self.dims[a], &inits, ForChunk::Whole);
            idx[a] = Some(j);
            self.iter.scan = accs;
            self.iteration(l, &at(&idx, 0..r));
            let ys = std::mem::take(&mut self.iter.scan);
            self.close_for(&ys);
            self.close_space();
            return;
        }
        match (&l.reduce, axis) {
            (None, _) if r == 0 => {
                let (c0, c1) = (self.idx_const(0), self.idx_const(1));
                self.open_parallel(&[c0], &[c1], Some(0));
                self.iteration(l, &[]);
                self.close_space();
            }
            (None, _) => {
                let all: Vec<usize> = (0..r).collect();
                self.open_space(&all, true, &mut idx);
                self.iteration(l, &at(&idx, 0..r));
                self.close_space();
            }
            (Some(_), None) => {
                // Reductions over everything: a nest of `scf.for` over the space (dimension 0 the
                // launch's chunk), carrying one accumulator per reduction, combined in row-major
                // order (the CPU target's chunk gives its partials; the launcher combines them in
                // chunk order). A nest, not an `scf.parallel` with `scf.reduce`, which lowers to
                // the same loops.
                let reds: Vec<Reduction> = reductions(l).copied().collect();
                let mut accs: Vec<TypedValue<'c>> = reds.iter().flat_map(|red| self.acc_inits(red)).collect();
                // A rank-0 space is one iteration.
                let ubs = if r == 0 { vec![self.idx_const(1)] } else { self.dims.clone() };
                let chunk = |d: usize| if d == 0 { ForChunk::Space } else { ForChunk::Whole };
                let last = ubs.len() - 1;
                for (d, &ub) in ubs[..last].iter().enumerate() {
                    let c0 = self.idx_const(0);
                    let (i, a) = self.open_for(c0, ub, &accs, chunk(d));
                    idx[d] = Some(i);
                    accs = a;
                }
                let mut ys = self.accumulate(l, &mut idx, last, ubs[last], chunk(last), accs);
                for _ in &ubs[..last] {
                    ys = self.close_for(&ys);
                }
                let mut ys = ys.as_slice();
                for red in &reds {
                    let (acc, rest) = ys.split_at(if red.kind.is_arg() { 2 } else { 1 });
                    self.store_result(red, &[], acc, true);
                    ys = rest;
                }
            }
            (Some(_), Some(a)) if l.axis_split && a + 1 < r => {
                // Reductions along an axis that is not the last: accumulate in each `out` itself,
                // with the axis loop just outside the last dimension's loop, so the innermost loop
                // walks the input's rows contiguously (vectorisable, where an innermost axis loop
                // would stride through memory) and the out rows it updates stay in cache. Each out
                // element sums the axis in order 0, 1, ... (NumPy's order for C-contiguous input)
                // within the launch's chunk of the axis: the launcher chunks either dimension 0 of
                // the outputs (the loops marked `chunked`; the axis loop then runs over all of the
                // axis) or the axis loop (marked too; each chunk then accumulates into partial
                // outputs of its own, combined in chunk order).
                let reds: Vec<Reduction> = reductions(l).copied().collect();
                let odims: Vec<usize> = (0..r).filter(|&d| d != a).collect();
                self.open_space(&odims, true, &mut idx);
                let oidx = at(&idx, odims.iter().copied());
                for red in &reds {
                    let init = self.identity(red.kind, self.ir_ty(red.out).dtype());
                    self.store(red.out, &oidx, init);
                }
                self.close_space();
                // Outer output dimensions in parallel (the first chunked), the axis in order, the
                // last dimension in parallel (chunked when it is the only output dimension).
                let outer = &odims[..odims.len() - 1];
                if !outer.is_empty() {
                    self.open_space(outer, true, &mut idx);
                }
                let c0 = self.idx_const(0);
                idx[a] = Some(self.open_for(c0, self.dims[a], &[], ForChunk::Axis).0);
                // An `scf.for`, not an `scf.parallel`, so that min and max get their loop metadata
                // (`super::builder::MIN_MAX_OPS`); a chunk runs it in sequence either way.
                let last = if outer.is_empty() { ForChunk::Space } else { ForChunk::Whole };
                self.prefetch_next_slab(&reds, &idx, a, last);
                idx[r - 1] = Some(self.open_for(c0, self.dims[r - 1], &[], last).0);
                let xs = self.iteration(l, &at(&idx, 0..r));
                let oidx = at(&idx, odims.iter().copied());
                for (red, x) in reds.iter().zip(xs) {
                    let acc = self.load(red.out, &oidx);
                    let n = self.combine(red.kind, acc, x);
                    self.store(red.out, &oidx, n);
                }
                self.close_for(&[]);
                self.close_for(&[]);
                if !outer.is_empty() {
                    self.close_space();
                }
            }
            (Some(_), Some(a)) => {
                // Reductions along the last axis `a` (or accumulating in another dtype): out's
                // dimensions in parallel (the first one chunked), axis `a` inside in order carrying
                // one accumulator per reduction, the elementwise ops at the full input index. The
                // axis loop is marked when the launcher may chunk it instead (`axis_split`: each chunk
                // then stores partial outputs, combined in chunk order).
                let reds: Vec<Reduction> = reductions(l).copied().collect();
                let odims: Vec<usize> = (0..r).filter(|&d| d != a).collect();
                self.open_space(&odims, true, &mut idx);
                let inits: Vec<TypedValue<'c>> = reds.iter().flat_map(|red| self.acc_inits(red)).collect();
                let chunk = if l.axis_split { ForChunk::Axis } else { ForChunk::Whole };
                let res = self.accumulate(l, &mut idx, a, self.dims[a], chunk, inits);
                let oidx = at(&idx, odims.iter().copied());
                let mut ys = res.as_slice();
                for red in &reds {
                    let (acc, rest) = ys.split_at(if red.kind.is_arg() { 2 } else { 1 });
                    self.store_result(red, &oidx, acc, false);
                    ys = rest;
                }
                self.close_space();
            }
        }
    }
}
