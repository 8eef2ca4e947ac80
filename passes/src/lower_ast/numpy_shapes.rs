//! NumPy's everyday shape and indexing idioms (their types: `grammar/src/check/numpy_shapes.rs`;
//! issue 31), composed of existing operations so that they fuse and need nothing new on the CPU or
//! the GPU: `fliplr`, `flipud` and `rot90` are views with step -1 (and `arr.transpose` for an odd
//! number of quarter turns), `transpose(x, axes)` an `arr.transpose`; `pad`'s modes other than
//! `constant` are gathers along each axis through fused index arithmetic.

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, ValueId};
use arrayc_grammar::ast::{self, DType, Expr};
use arrayc_grammar::builtin::Builtin;
use arrayc_grammar::check::literal_int;
use arrayc_grammar::numpy_shapes::{permutation, rot90_args, rot90_plan, transpose_axes, PadMode};
use arrayc_grammar::types::Ty;

impl Lowerer<'_> {
    /// A call of builtin `b` (checked: its type is `ty`) when it is one of the idioms of this file:
    /// its values; `None` for the other builtins (and `transpose` without axes).
    pub(crate) fn numpy_shape(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        _ty: &Ty,
        _e: &Expr,
    ) -> LResult<Option<Vec<ValueId>>> {
        use Builtin as B;
        let v = match b {
            B::Fliplr | B::Flipud => {
                let x = self.expr(&args[0])?;
                self.flip_axes(x, &[usize::from(b == B::Fliplr)])
            }
            B::Rot90 => {
                let x = self.expr(&args[0])?;
                let r = self.rank(x);
                let (k, axes) = rot90_args(args, kwargs);
                let k = k.map_or(1, |k| literal_int(k).expect("checked: an integer literal"));
                let (a, b) = match axes.map(|e| &e.kind) {
                    Some(ast::ExprKind::Tuple(p) | ast::ExprKind::List(p)) => {
                        let at = |e: &Expr| literal_int(e).expect("checked").rem_euclid(r as i64) as usize;
                        (at(&p[0]), at(&p[1]))
                    }
                    _ => (0, 1),
                };
                let (flips, swap) = rot90_plan(k, a, b);
                let flipped = self.flip_axes(x, &flips);
                if swap {
                    let mut perm: Vec<usize> = (0..r).collect();
                    perm.swap(a, b);
                    self.transpose(flipped, perm)
                } else {
                    flipped
                }
            }
            B::Transpose => {
                let axes = transpose_axes(&args[1..], Self::kwarg(kwargs, "axes")).expect("checked: literals");
                let Some(axes) = axes else { return Ok(None) };
                let x = self.expr(&args[0])?;
                let perm = permutation(&axes, self.rank(x)).expect("checked: a permutation");
                self.transpose(x, perm)
            }
            _ => return Ok(None),
        };
        Ok(Some(vec![v]))
    }
}

impl Lowerer<'_> {
    /// `pad(x, widths, mode=m)` for the modes other than `constant`: along each axis `d` in turn a
    /// gather (NumPy's `take(y, idx, axis=d)`) of the `sizes[d]` positions `idx[j]`, the position
    /// in `x` of padded element `j`, `t = j - before[d]` mapped into `[0, n)`: `edge`
    /// `clip(t, 0, n - 1)`; `wrap` `t mod n`; `reflect` `min(u, p - u)` with `u = t mod p`,
    /// `p = 2n - 2`; `symmetric` `min(u, p - 1 - u)` with `p = 2n` (the periodic extension NumPy
    /// builds for widths beyond the edge). `t mod p` is `(j + p - before mod p) % p`, of
    /// non-negative operands. Each index is fused arithmetic on an `arange`; an empty axis padded
    /// is a run-time error (the gather's, NumPy's ValueError).
    pub(crate) fn pad_by_gathers(
        &mut self,
        x: ValueId,
        before: &[ValueId],
        sizes: &[ValueId],
        mode: PadMode,
        ty: &Ty,
    ) -> ValueId {
        let Ty::Array(dt, shape) = ty else { unreachable!("checked: an array") };
        let (zero, one) = (self.i64_const(0), self.i64_const(1));
        let mut y = x;
        for (d, (&b, &len)) in before.iter().zip(sizes).enumerate() {
            let n = self.dim(x, d);
            let j = self.compute_new(ComputeFn::Arange, vec![zero, one], DType::I64, vec![len], None);
            let i64_op = |l: &mut Self, f: BinFn, a: ValueId, c: ValueId| {
                l.compute_new(ComputeFn::Binary(f), vec![a, c], DType::I64, vec![len], None)
            };
            let idx = if mode == PadMode::Edge {
                let t = i64_op(self, BinFn::Sub, j, b);
                let t = i64_op(self, BinFn::Maximum, t, zero);
                let last = self.scalar_binary(BinFn::Sub, n, one, DType::I64);
                i64_op(self, BinFn::Minimum, t, last)
            } else {
                let p = match mode {
                    PadMode::Wrap => n,
                    PadMode::Reflect => {
                        let two_n = self.scalar_binary(BinFn::Add, n, n, DType::I64);
                        let two = self.i64_const(2);
                        self.scalar_binary(BinFn::Sub, two_n, two, DType::I64)
                    }
                    _ => self.scalar_binary(BinFn::Add, n, n, DType::I64),
                };
                let p = self.scalar_binary(BinFn::Maximum, p, one, DType::I64);
                let bm = self.numpy_rem(b, p, DType::I64);
                let off = self.scalar_binary(BinFn::Sub, p, bm, DType::I64);
                let u = i64_op(self, BinFn::Add, j, off);
                let u = i64_op(self, BinFn::Rem, u, p);
                match mode {
                    PadMode::Wrap => u,
                    _ => {
                        let top = if mode == PadMode::Reflect {
                            p
                        } else {
                            self.scalar_binary(BinFn::Sub, p, one, DType::I64)
                        };
                        let mirrored = i64_op(self, BinFn::Sub, top, u);
                        i64_op(self, BinFn::Minimum, u, mirrored)
                    }
                }
            };
            let last = d + 1 == before.len();
            let whole = if last { Some(shape.as_slice()) } else { None };
            y = self.gather(y, &[idx], d, *dt, &shape[d..d + 1], whole);
        }
        y
    }
}
