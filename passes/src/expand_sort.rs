//! Pass `expand-sort`: turns every `arr.sort` into a sorting network of kernels, for the device
//! targets (the GPU ones), whose arrays stay on the device instead of being copied to the host and
//! sorted there. The network is Batcher's bitonic sort (K. E. Batcher, "Sorting networks and their
//! applications", AFIPS 1968): each line along the sorted axis is padded to `P`, the next power of
//! two, and `log2(P) (log2(P) + 1) / 2` stages each compare every position `i` with its partner
//! `i ^ j` and keep the smaller or the larger of the two, by the stage's direction. A stage is a
//! gather of the partners and a select, fused by `wsp-fusion` into one kernel over all lines;
//! the stages run in a host loop (`scf.while`), so the kernel count does not grow with the size.
//!
//! Sorting `(key, position)` pairs in NumPy's order of the keys (NaN last), then by position,
//! makes the order strict and total (the padding's key is the greatest, its positions the last),
//! so the network's result is the stable sort's exactly: `arr.sort`'s semantics (`dialect/README.md`: NumPy's `sort`, and
//! `argsort(kind='stable')` when `indices`), `-0.0` and `0.0` in their input order as NumPy's
//! stable sort keeps them. Runs before `insert-del-sync`, which adds the temporaries' `arr.del`.

/// The pass's name: its `arrayc-opt --pass` flag.
pub const NAME: &str = "expand-sort";

use crate::expand::expand_ops;
use arrayc_core::DType;
use arrayc_dialect::ir::{
    BinFn, Body, ComputeFn, Func, IndexEntry, Loc, Module, Op, OpKind, Scalar, Type, UnFn, ValueId,
};

/// Runs the pass on every host function.
pub fn run(m: &mut Module) {
    expand_ops(m, |f, op, loc| match *op {
        OpKind::Sort { out, src, axis, indices } => {
            let mut b = Builder { f, ops: vec![], loc };
            b.network(out, src, axis, indices);
            Some(b.ops)
        }
        _ => None,
    });
}

/// Appends the operations of the network to `ops`, each at the sort's location.
struct Builder<'f> {
    f: &'f mut Func,
    ops: Body,
    loc: Option<Loc>,
}

impl Builder<'_> {
    fn emit(&mut self, kind: OpKind) {
        self.ops.push(Op::new(kind, self.loc));
    }

    fn value(&mut self, ty: Type) -> ValueId {
        self.f.new_value(ty, None)
    }

    fn int(&mut self, v: i64) -> ValueId {
        let res = self.value(Type::Scalar(DType::I64));
        self.emit(OpKind::Const { res, value: Scalar::I64(v) });
        res
    }

    /// A scalar `lhs op rhs` of dtype `dt` (a comparison gives `bool`).
    fn scalar(&mut self, op: BinFn, lhs: ValueId, rhs: ValueId, dt: DType) -> ValueId {
        let res = self.value(Type::Scalar(if op.is_comparison() { DType::Bool } else { dt }));
        self.emit(OpKind::Binary { res, op, lhs, rhs });
        res
    }

    /// A new array of dtype `dt` and `sizes` computed by `func` from `ins`.
    fn compute(&mut self, func: ComputeFn, dt: DType, sizes: &[ValueId], ins: Vec<ValueId>) -> ValueId {
        let out = self.value(Type::Array(dt, sizes.len()));
        self.emit(OpKind::New { res: out, sizes: sizes.to_vec() });
        self.emit(OpKind::Compute { func, out, ins });
        out
    }

    /// Elementwise `lhs op rhs` of arrays (or a scalar) of `sizes`; comparisons give `bool`.
    fn binary(&mut self, op: BinFn, lhs: ValueId, rhs: ValueId, dt: DType, sizes: &[ValueId]) -> ValueId {
        let dt = if op.is_comparison() { DType::Bool } else { dt };
        self.compute(ComputeFn::Binary(op), dt, sizes, vec![lhs, rhs])
    }

    fn not(&mut self, x: ValueId, sizes: &[ValueId]) -> ValueId {
        self.compute(ComputeFn::Unary(UnFn::Not), DType::Bool, sizes, vec![x])
    }

    /// A view of `src` (rank `rank`) through `index` with its `operands`.
    fn view(
        &mut self,
        src: ValueId,
        dt: DType,
        rank: usize,
        index: Vec<IndexEntry>,
        operands: Vec<ValueId>,
    ) -> ValueId {
        let res = self.value(Type::Array(dt, rank));
        self.emit(OpKind::View { res, src, index, operands });
        res
    }

    /// The 1-d `line` (of `full`'s last size) broadcast along `full`'s other axes.
    fn along_lines(&mut self, line: ValueId, dt: DType, full: &[ValueId]) -> ValueId {
        let r = full.len();
        if r == 1 {
            return line;
        }
        let mut index = vec![IndexEntry::NewAxis; r - 1];
        index.push(IndexEntry::Full);
        let v = self.view(line, dt, r, index, vec![]);
        let res = self.value(Type::Array(dt, r));
        self.emit(OpKind::Broadcast { res, src: v, sizes: full.to_vec() });
        res
    }

    /// The first `len` (or, `from`, all but the first `len`) elements of every line of `a`.
    fn lines_part(&mut self, a: ValueId, dt: DType, r: usize, len: ValueId, from: bool) -> ValueId {
        let mut index = vec![IndexEntry::Full; r - 1];
        index.push(IndexEntry::Slice { start: from, stop: !from, step: false });
        self.view(a, dt, r, index, vec![len])
    }

    /// `src` (`axis` of rank `r`) with the sorted axis moved last, or `src` itself where it is.
    fn axis_last(&mut self, src: ValueId, dt: DType, r: usize, axis: usize) -> ValueId {
        if axis + 1 == r {
            return src;
        }
        let res = self.value(Type::Array(dt, r));
        let perm = (0..r).filter(|&a| a != axis).chain([axis]).collect();
        self.emit(OpKind::Transpose { res, src, perm });
        res
    }

    /// The smallest power of two at least `len` (at least 1), by doubling in a host loop.
    fn pow2_at_least(&mut self, len: ValueId) -> ValueId {
        let (one, two) = (self.int(1), self.int(2));
        let i64t = Type::Scalar(DType::I64);
        let (p, q, res) = (self.value(i64t), self.value(i64t), self.value(i64t));
        let outer = std::mem::take(&mut self.ops);
        let cond = self.scalar(BinFn::Lt, p, len, DType::I64);
        let before = std::mem::take(&mut self.ops);
        let next = self.scalar(BinFn::Mul, q, two, DType::I64);
        let after = std::mem::replace(&mut self.ops, outer);
        self.emit(OpKind::While {
            inits: vec![one],
            before_args: vec![p],
            before,
            cond,
            after_args: vec![q],
            after,
            yields: vec![next],
            results: vec![res],
        });
        res
    }

    /// `(k, i) < (kp, ip)` elementwise: the keys in NumPy's order (NaN last for floats), then the
    /// positions. Padding needs no test of its own: its key is the greatest of the order (NaN, or
    /// the dtype's largest value; [`padding`]) and its positions follow every real one.
    fn less(&mut self, [k, i, kp, ip]: [ValueId; 4], kd: DType, full: &[ValueId]) -> ValueId {
        let bin = |b: &mut Self, op, x, y| b.binary(op, x, y, DType::Bool, full);
        let mut key_lt = self.binary(BinFn::Lt, k, kp, kd, full);
        let mut key_eq = self.binary(BinFn::Eq, k, kp, kd, full);
        if kd.is_float() {
            let nan = self.binary(BinFn::Ne, k, k, kd, full);
            let nan_p = self.binary(BinFn::Ne, kp, kp, kd, full);
            let num = self.not(nan, full);
            let before_nan = bin(self, BinFn::And, num, nan_p);
            key_lt = bin(self, BinFn::Or, key_lt, before_nan);
            let both_nan = bin(self, BinFn::And, nan, nan_p);
            key_eq = bin(self, BinFn::Or, key_eq, both_nan);
        }
        let pos_lt = self.binary(BinFn::Lt, i, ip, DType::I64, full);
        let by_pos = bin(self, BinFn::And, key_eq, pos_lt);
        bin(self, BinFn::Or, key_lt, by_pos)
    }

    /// The operations of `res = sort(src, axis)` (`indices`: the stable argsort), see the module
    /// docs.
    fn network(&mut self, res: ValueId, src: ValueId, axis: usize, indices: bool) {
        let Type::Array(dt, r) = self.f.ty(src) else { unreachable!("arr.sort sorts an array") };
        let Type::Array(out_dt, _) = self.f.ty(res) else { unreachable!("arr.sort writes an array") };
        // Bools sort as the integers 0 and 1.
        let kd = if dt == DType::Bool { DType::U8 } else { dt };
        let len = self.value(Type::Scalar(DType::I64));
        self.emit(OpKind::Dim { res: len, src, axis });
        let lines = self.axis_last(src, dt, r, axis);
        let mut full: Vec<ValueId> = vec![];
        for a in (0..r).filter(|&a| a != axis) {
            let s = self.value(Type::Scalar(DType::I64));
            self.emit(OpKind::Dim { res: s, src, axis: a });
            full.push(s);
        }
        let p = self.pow2_at_least(len);
        full.push(p);
        let (zero, one, two) = (self.int(0), self.int(1), self.int(2));
        let pos = self.compute(ComputeFn::Arange, DType::I64, &[p], vec![zero, one]);
        // The keys: each line, then padding.
        let keys = self.value(Type::Array(kd, r));
        self.emit(OpKind::New { res: keys, sizes: full.clone() });
        let head = self.lines_part(keys, kd, r, len, false);
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: head, ins: vec![lines] });
        let tail = self.lines_part(keys, kd, r, len, true);
        let pad = self.value(Type::Scalar(kd));
        self.emit(OpKind::Const { res: pad, value: padding(kd) });
        self.emit(OpKind::Compute { func: ComputeFn::Fill, out: tail, ins: vec![pad] });
        let pos_lines = self.along_lines(pos, DType::I64, &full);
        let places = self.compute(ComputeFn::Copy, DType::I64, &full, vec![pos_lines]);

        // The stages: (k, j) = (2, 1), (4, 2), (4, 1), (8, 4), ... while k <= P.
        let i64t = Type::Scalar(DType::I64);
        let [bk, bj] = [(); 2].map(|_| self.value(i64t));
        let [ak, aj] = [(); 2].map(|_| self.value(i64t));
        let (bkeys, bplaces) = (self.value(Type::Array(kd, r)), self.value(Type::Array(DType::I64, r)));
        let (akeys, aplaces) = (self.value(Type::Array(kd, r)), self.value(Type::Array(DType::I64, r)));
        let outer = std::mem::take(&mut self.ops);
        let cond = self.scalar(BinFn::Le, bk, p, DType::I64);
        let before = std::mem::take(&mut self.ops);
        let partner = self.binary(BinFn::Xor, pos, aj, DType::I64, &[p]);
        // A position keeps the smaller of the pair when it is the lower one of an ascending block
        // or the upper one of a descending block (`flip` false), else the larger.
        let bit = self.binary(BinFn::And, pos, aj, DType::I64, &[p]);
        let lower = self.binary(BinFn::Eq, bit, zero, DType::I64, &[p]);
        let block = self.binary(BinFn::And, pos, ak, DType::I64, &[p]);
        let ascending = self.binary(BinFn::Eq, block, zero, DType::I64, &[p]);
        let flip = self.binary(BinFn::Xor, lower, ascending, DType::Bool, &[p]);
        let partner_lines = self.along_lines(partner, DType::I64, &full);
        let flip_lines = self.along_lines(flip, DType::Bool, &full);
        let last = r - 1;
        let keys_p = self.compute(ComputeFn::Gather(last), kd, &full, vec![akeys, partner_lines]);
        let places_p = self.compute(ComputeFn::Gather(last), DType::I64, &full, vec![aplaces, partner_lines]);
        let less = self.less([akeys, aplaces, keys_p, places_p], kd, &full);
        let keep = self.binary(BinFn::Xor, less, flip_lines, DType::Bool, &full);
        let next_keys = self.compute(ComputeFn::Where, kd, &full, vec![keep, akeys, keys_p]);
        let next_places = self.compute(ComputeFn::Where, DType::I64, &full, vec![keep, aplaces, places_p]);
        let end_of_k = self.scalar(BinFn::Eq, aj, one, DType::I64);
        let double = self.scalar(BinFn::Mul, ak, two, DType::I64);
        let half = self.scalar(BinFn::Shr, aj, one, DType::I64);
        let [next_k, next_j] = [(); 2].map(|_| self.value(i64t));
        self.emit(OpKind::Select { res: next_k, cond: end_of_k, lhs: double, rhs: ak });
        self.emit(OpKind::Select { res: next_j, cond: end_of_k, lhs: ak, rhs: half });
        let after = std::mem::replace(&mut self.ops, outer);
        let [rk, rj] = [(); 2].map(|_| self.value(i64t));
        let (sorted_keys, sorted_places) = (self.value(Type::Array(kd, r)), self.value(Type::Array(DType::I64, r)));
        self.emit(OpKind::While {
            inits: vec![two, one, keys, places],
            before_args: vec![bk, bj, bkeys, bplaces],
            before,
            cond,
            after_args: vec![ak, aj, akeys, aplaces],
            after,
            yields: vec![next_k, next_j, next_keys, next_places],
            results: vec![rk, rj, sorted_keys, sorted_places],
        });

        // The result: each line's first `len` entries, back along `axis`.
        let (sorted, sdt) = if indices { (sorted_places, DType::I64) } else { (sorted_keys, kd) };
        let head = self.lines_part(sorted, sdt, r, len, false);
        let target = self.axis_last(res, out_dt, r, axis);
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: target, ins: vec![head] });
    }
}

/// The key of the padding after each line: the greatest of the network's order for dtype `kd`
/// (NaN for floats; the largest value for integers, after equal real keys by position).
fn padding(kd: DType) -> Scalar {
    match kd.int_range() {
        Some((_, hi)) => Scalar::U64(hi as u64).cast(kd),
        None if kd == DType::Bool => unreachable!("bool keys sort as u8"),
        None => Scalar::F64(f64::NAN).cast(kd),
    }
}
