//! `einsum` and `tensordot` (their types: `grammar/src/check/einsum.rs`; the subscripts and axes
//! read by `arrayc_grammar::einsum`, the parser the checker uses too). Each operand becomes a view
//! over the einsum's axes, the output's then the summed ones (its diagonal for a letter repeated
//! in a matrix, its axes transposed to that order, new axes for the labels it lacks); the views'
//! broadcast product is summed over the trailing summed axes. The product and the sum fuse into
//! one kernel, as `dot`'s fused form. An einsum that is exactly one matrix product of two 2-d
//! operands (`'ij,jk->ik'`, its transposes) is `dot` of (transposed) views instead, so that the
//! matrix product library (`arr.matmul`, faer) computes it where `dot` would.

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, ReduceKind, ValueId};
use arrayc_grammar::ast::{self, Expr, ExprKind};
use arrayc_grammar::builtin::Builtin;
use arrayc_grammar::einsum::{self, label_name, AxisLabel};
use arrayc_grammar::types::{Size, SizeSym, Ty};

impl Lowerer<'_> {
    /// A call of `einsum` or `tensordot` (builtin `b`, checked: its type is `ty`): its value;
    /// `None` for the other builtins.
    pub(crate) fn einsum(
        &mut self,
        b: Builtin,
        args: &[Expr],
        kwargs: &[(ast::Ident, Expr)],
        ty: &Ty,
        e: &Expr,
    ) -> LResult<Option<ValueId>> {
        let (operands, axes) = match b {
            Builtin::Einsum => (&args[1..], None),
            Builtin::Tensordot => (&args[..2], args.get(2).or(Self::kwarg(kwargs, "axes"))),
            _ => return Ok(None),
        };
        let mut shapes: Vec<Vec<Size>> = operands
            .iter()
            .map(|a| match self.ty_of(a) {
                Ty::Array(_, s) => s.clone(),
                _ => unreachable!("checked: array operands"),
            })
            .collect();
        let ranks: Vec<usize> = shapes.iter().map(Vec::len).collect();
        let spec = match (&args[0].kind, b) {
            (ExprKind::Str(s), Builtin::Einsum) => einsum::parse(s, &ranks),
            _ => einsum::tensordot(axes, ranks[0], ranks[1]),
        }
        .expect("checked: the subscripts fit the operands");
        let mut vals = vec![];
        for a in operands {
            vals.push(self.expr(a)?);
        }
        let mut inputs = spec.inputs.clone();
        if b == Builtin::Tensordot {
            // NumPy's `tensordot` pairs axes of equal sizes (a size 1 does not broadcast).
            for (j, l) in inputs[1].iter().enumerate() {
                let Some(i) = inputs[0].iter().position(|m| m == l) else { continue };
                if shapes[0][i] != shapes[1][j] {
                    let (n, m) = (self.dim(vals[0], i), self.dim(vals[1], j));
                    let msg = format!(
                        "tensordot: shape-mismatch for sum: axis {i} of `a` has size {{lhs}}, axis {j} of `b` {{rhs}}"
                    );
                    self.assert_same_size(n, m, &msg);
                }
            }
        }
        for (k, v) in vals.iter_mut().enumerate() {
            let [i, j] = inputs[k][..] else { continue };
            if i != j {
                continue;
            }
            // `'ii'`: the diagonal of a matrix, whose two sizes must be equal (the checker allows
            // repeated letters in matrices only).
            if shapes[k][0] != shapes[k][1] {
                let (n, m) = (self.dim(*v, 0), self.dim(*v, 1));
                let msg = format!(
                    "einsum: dimensions in operand {k} for collapsing index {} don't match ({{lhs}} != {{rhs}})",
                    label_name(i)
                );
                self.assert_same_size(n, m, &msg);
            }
            *v = self.diagonal(*v);
            inputs[k] = vec![i];
            shapes[k] = vec![shapes[k][0].clone()];
        }
        if let Some(m) = spec.matmul() {
            // Exactly `a @ b` of (transposed) matrices: `dot`, when the summed sizes are known
            // equal (a size 1 that broadcasts is left to the product below).
            let k = spec.contracted()[0];
            let at = |v: &[AxisLabel]| v.iter().position(|l| *l == k).expect("a summed label");
            if shapes[0][at(&inputs[0])] == shapes[1][at(&inputs[1])] {
                let (l, r) = if m.swap { (1, 0) } else { (0, 1) };
                let (mut lhs, mut rhs) = (vals[l], vals[r]);
                let (mut sl, mut sr) = (shapes[l].clone(), shapes[r].clone());
                if m.transpose_lhs {
                    lhs = self.transpose(lhs, vec![1, 0]);
                    sl.reverse();
                }
                if m.transpose_rhs {
                    rhs = self.transpose(rhs, vec![1, 0]);
                    sr.reverse();
                }
                return Ok(Some(self.dot_of(lhs, rhs, sl, sr, ty, e)?));
            }
        }
        let d = ty.dtype().expect("checked: a numeric result");
        let labels = spec.all_labels();
        let out_rank = spec.output.len();
        let checked = spec.label_sizes(&shapes).expect("checked: sizes that go together");
        let size_of = |i: usize| match (ty, &checked[i]) {
            (Ty::Array(_, out), _) if i < out_rank => out[i].clone(),
            (_, Some(z)) => z.clone(),
            _ => Size::sym(SizeSym::Named(format!("?einsum{}.{i}", e.id.0))),
        };
        // Each operand as a view over `labels`: its axes in that order, new axes for the others.
        let mut views = vec![];
        for (k, &v) in vals.iter().enumerate() {
            let mine = &inputs[k];
            let mut perm: Vec<usize> = (0..mine.len()).collect();
            perm.sort_by_key(|&a| labels.iter().position(|l| *l == mine[a]));
            let v = if perm.iter().enumerate().all(|(i, &p)| i == p) { v } else { self.transpose(v, perm) };
            let entries = labels.iter().map(|l| if mine.contains(l) { IndexEntry::Full } else { IndexEntry::NewAxis });
            views.push(self.expand(v, entries.collect()));
        }
        // Their product, each factor of the full shape (the first broadcast to it), so that the
        // products of three or more operands fuse with each other and with the sum.
        let shape: Vec<Size> = (0..labels.len()).map(size_of).collect();
        let p = if views.len() == 1 {
            views[0]
        } else {
            let sizes = self.broadcast_sizes(&views, &shape);
            let mut p = self.broadcast_to_sizes(views[0], &sizes);
            for &v in &views[1..] {
                p = self.compute_new(ComputeFn::Binary(BinFn::Mul), vec![p, v], d, sizes.clone(), Some(&shape));
            }
            p
        };
        let summed: Vec<usize> = (out_rank..labels.len()).collect();
        if summed.is_empty() && ty.is_array() {
            // A product of several operands is a new array already; one operand is copied.
            return Ok(Some(if vals.len() > 1 { p } else { self.array_op(ComputeFn::Copy, vec![p], ty)? }));
        }
        let axes = (!summed.is_empty() && ty.is_array()).then_some(summed);
        Ok(Some(self.reduction(false, ReduceKind::Sum, p, axes.as_deref(), ty, e)?))
    }
}
