//! Pass `expand-arg-reductions`: turns an arg-reduction (`arr.reduce {kind = "argmin"}` or
//! `"argmax"`, [`ReduceKind::ArgMin`]) into the composed form where the target's kernels do not
//! run it in one pass: `m = min(x)` along the axis, then the first position where `x == m` or `x`
//! is NaN, as the `min` of `where(found, position, n)` (two reads of `x`, each fused and
//! vectorised). The CPU kernels run an arg-reduction in one pass over everything and along the
//! last axis (`arrayc_codegen`'s `kernel_codegen/loops.rs`: per-lane best value and position);
//! along another axis the composed form keeps the contiguous row-by-row loop of `min` (NumPy's
//! `argmin(axis=0)` is 3-5x slower than it), and the GPU targets and distributed runs, whose
//! reductions combine single values (`gpu.all_reduce`, `arr.allreduce`), take it everywhere.
//! Runs before `insert-del-sync`, which adds the temporaries' `arr.del`.

/// The pass's name: its `arrayc-opt --pass` flag.
pub const NAME: &str = "expand-arg-reductions";

use crate::expand::{at, expand_ops};
use arrayc_core::DType;
use arrayc_dialect::ir::{BinFn, ComputeFn, Func, IndexEntry, Module, OpKind, ReduceKind, Scalar, Type, ValueId};

/// Runs the pass on every host function: expands every arg-reduction when `all` (the GPU targets,
/// distributed runs), else those along an axis other than the input's last.
pub fn run(m: &mut Module, all: bool) {
    expand_ops(m, |f, op, loc| match *op {
        OpKind::Compute { func: ComputeFn::Reduce(kind, axis), out, ref ins }
            if kind.is_arg() && (all || !one_pass(axis, rank(f, ins[0]))) =>
        {
            Some(at(loc, composed(f, kind, axis, out, ins[0])))
        }
        _ => None,
    });
}

/// Whether the CPU kernels run an arg-reduction along `axis` of a rank-`rank` input in one pass:
/// over everything, or along the last axis.
pub fn one_pass(axis: Option<usize>, rank: usize) -> bool {
    axis.is_none_or(|a| a + 1 == rank)
}

/// The rank of array `v` (0 for a scalar).
fn rank(f: &Func, v: ValueId) -> usize {
    match f.ty(v) {
        Type::Array(_, r) => r,
        Type::Scalar(_) => 0,
    }
}

/// The operations of `res = argmin(x)` (`kind`) along `axis` (`None`: over every element,
/// row-major positions) in the composed form (see the module docs). The value reduction `m` is NaN
/// exactly when its extent holds a NaN (min/max propagate NaN), so a NaN element is then the one
/// found first, and no other element equals `m`.
fn composed(f: &mut Func, kind: ReduceKind, axis: Option<usize>, res: ValueId, x: ValueId) -> Vec<OpKind> {
    use IndexEntry::{Full, NewAxis};
    let Type::Array(d, r) = f.ty(x) else { unreachable!("an arg-reduction reads an array") };
    let mut ops = vec![];
    let i64_scalar = |f: &mut Func| f.new_value(Type::Scalar(DType::I64), None);
    let sizes: Vec<ValueId> = (0..r)
        .map(|a| {
            let s = i64_scalar(f);
            ops.push(OpKind::Dim { res: s, src: x, axis: a });
            s
        })
        .collect();
    let reduced = |a: usize| axis.is_none_or(|k| k == a);
    let konst = |f: &mut Func, ops: &mut Vec<OpKind>, v: i64| {
        let c = f.new_value(Type::Scalar(DType::I64), None);
        ops.push(OpKind::Const { res: c, value: Scalar::I64(v) });
        c
    };
    let (zero, one) = (konst(f, &mut ops, 0), konst(f, &mut ops, 1));
    // The number of candidates per result: the axis, or every element.
    let mut n = one;
    for a in (0..r).filter(|&a| reduced(a)) {
        let p = i64_scalar(f);
        ops.push(OpKind::Binary { res: p, op: BinFn::Mul, lhs: n, rhs: sizes[a] });
        n = p;
    }
    // The extreme value, broadcast back over the reduced axes.
    let out_sizes: Vec<ValueId> = (0..r).filter(|&a| !reduced(a)).map(|a| sizes[a]).collect();
    let m = f.new_value(Type::Array(d, out_sizes.len()), None);
    ops.push(OpKind::New { res: m, sizes: out_sizes.clone() });
    ops.push(OpKind::Compute { func: ComputeFn::Reduce(kind.value_kind(), axis), out: m, ins: vec![x] });
    let m_src = match axis {
        Some(a) if r > 1 => {
            let v = f.new_value(Type::Array(d, r), None);
            let index = (0..r).map(|k| if k == a { NewAxis } else { Full }).collect();
            ops.push(OpKind::View { res: v, src: m, index, operands: vec![] });
            v
        }
        _ => m,
    };
    let mb = f.new_value(Type::Array(d, r), None);
    ops.push(OpKind::Broadcast { res: mb, src: m_src, sizes: sizes.clone() });
    let new = |f: &mut Func, ops: &mut Vec<OpKind>, dt: DType, func: ComputeFn, ins: Vec<ValueId>| {
        let t = f.new_value(Type::Array(dt, r), None);
        ops.push(OpKind::New { res: t, sizes: sizes.clone() });
        ops.push(OpKind::Compute { func, out: t, ins });
        t
    };
    let mut found = new(f, &mut ops, DType::Bool, ComputeFn::Binary(BinFn::Eq), vec![x, mb]);
    if d.is_float() {
        let nan = new(f, &mut ops, DType::Bool, ComputeFn::Binary(BinFn::Ne), vec![x, x]);
        found = new(f, &mut ops, DType::Bool, ComputeFn::Binary(BinFn::Or), vec![found, nan]);
    }
    // Each element's position: along `axis`, or row-major over every axis.
    let mut pos: Option<ValueId> = None;
    let mut stride: Option<ValueId> = None;
    for a in (0..r).rev().filter(|&a| reduced(a)) {
        let iota = f.new_value(Type::Array(DType::I64, 1), None);
        ops.push(OpKind::New { res: iota, sizes: vec![sizes[a]] });
        ops.push(OpKind::Compute { func: ComputeFn::Arange, out: iota, ins: vec![zero, one] });
        let along = if r == 1 {
            iota
        } else {
            let v = f.new_value(Type::Array(DType::I64, r), None);
            let index = (0..r).map(|k| if k == a { Full } else { NewAxis }).collect();
            ops.push(OpKind::View { res: v, src: iota, index, operands: vec![] });
            let b = f.new_value(Type::Array(DType::I64, r), None);
            ops.push(OpKind::Broadcast { res: b, src: v, sizes: sizes.clone() });
            b
        };
        let term = match stride {
            Some(s) => new(f, &mut ops, DType::I64, ComputeFn::Binary(BinFn::Mul), vec![along, s]),
            None => along,
        };
        pos = Some(match pos {
            Some(p) => new(f, &mut ops, DType::I64, ComputeFn::Binary(BinFn::Add), vec![p, term]),
            None => term,
        });
        stride = Some(match stride {
            Some(s) => {
                let p = i64_scalar(f);
                ops.push(OpKind::Binary { res: p, op: BinFn::Mul, lhs: s, rhs: sizes[a] });
                p
            }
            None => sizes[a],
        });
    }
    let pos = pos.expect("an array has an axis");
    let cand = new(f, &mut ops, DType::I64, ComputeFn::Where, vec![found, pos, n]);
    ops.push(OpKind::Compute { func: ComputeFn::Reduce(ReduceKind::Min, axis), out: res, ins: vec![cand] });
    ops
}
