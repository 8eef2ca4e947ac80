//! Pass `expand-matmul`: turns every `arr.matmul` back into the fused form of a matrix product, for
//! targets without a matrix-product library (the GPU targets: cuBLAS is not wired in). `out = lhs @
//! rhs` (`n x k` by `k x m`) becomes `sum(lhs[:, :, newaxis] * rhs[newaxis, :, :], axis=1)`: a
//! broadcast `arr.mul` into an `n x k x m` array and an `arr.reduce` along axis 1 into `out`, which
//! the WSP pass contracts into one kernel, exactly the form that `lower-ast` gives products that
//! [`arrayc_core::ops::matmul_by_library`] leaves to the fused kernel. Runs before
//! `insert-del-sync`, which adds the temporary's `arr.del`.

/// The pass's name: its `arrayc-opt --pass` flag.
pub const NAME: &str = "expand-matmul";

use crate::expand::{at, expand_ops};
use arrayc_core::DType;
use arrayc_dialect::ir::{BinFn, ComputeFn, Func, IndexEntry, Module, OpKind, ReduceKind, Type, ValueId};

/// Runs the pass on every host function.
pub fn run(m: &mut Module) {
    expand_ops(m, |f, op, loc| match *op {
        OpKind::MatMul { out, lhs, rhs } => Some(at(loc, fused(f, out, lhs, rhs))),
        _ => None,
    });
}

/// The operations of the fused product `res = lhs @ rhs`.
fn fused(f: &mut Func, res: ValueId, lhs: ValueId, rhs: ValueId) -> [OpKind; 10] {
    use IndexEntry::{Full, NewAxis};
    let dt = f.ty(res).dtype();
    let [n, k, m] = [(); 3].map(|_| f.new_value(Type::Scalar(DType::I64), None));
    let [a3, b3, a, b, prod] = [(); 5].map(|_| f.new_value(Type::Array(dt, 3), None));
    [
        OpKind::Dim { res: n, src: lhs, axis: 0 },
        OpKind::Dim { res: k, src: lhs, axis: 1 },
        OpKind::Dim { res: m, src: rhs, axis: 1 },
        OpKind::View { res: a3, src: lhs, index: vec![Full, Full, NewAxis], operands: vec![] },
        OpKind::View { res: b3, src: rhs, index: vec![NewAxis, Full, Full], operands: vec![] },
        OpKind::Broadcast { res: a, src: a3, sizes: vec![n, k, m] },
        OpKind::Broadcast { res: b, src: b3, sizes: vec![n, k, m] },
        OpKind::New { res: prod, sizes: vec![n, k, m] },
        OpKind::Compute { func: ComputeFn::Binary(BinFn::Mul), out: prod, ins: vec![a, b] },
        OpKind::Compute { func: ComputeFn::Reduce(ReduceKind::Sum, Some(1)), out: res, ins: vec![prod] },
    ]
}
