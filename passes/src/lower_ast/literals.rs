//! Array literals and reshapes (`docs/language.md`, "Array literals"; their types:
//! `grammar/src/check/literals.rs`).
//!
//! An array literal `[a, b, ..]` (and `array`/`asarray` of one) is a new array (`arr.new`) whose
//! elements the host writes one by one, each a `fill` of the 0-d view at its position, which the
//! outline pass keeps in the host function (`is_element_write`): the items are scalars of any
//! expression, so there is nothing to fuse.
//!
//! `reshape` is NumPy's: a view of the argument (`arr.reshape`) when its elements lie in row-major
//! order, else a copy. Where the argument is known here to be row-major (an array this function
//! allocates, and views of it that keep the row-major layout: leading integers, one unit-step slice,
//! whole axes), the view is emitted directly; otherwise `arr.reshapable` decides at run time, and
//! an `scf.if` yields the view or a new array into which the argument is copied (through an
//! `arr.reshape` of the new array to the argument's shape). `ravel` is `reshape(x, -1)`; `flatten`
//! always copies.

use super::{LResult, Lowerer, Root};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, Type, ValueId};
use arrayc_grammar::ast::{DType, Expr, ExprKind, UnOp};
use arrayc_grammar::builtin::{reshape_dims, Builtin};
use arrayc_grammar::types::Ty;

/// Whether a view through `entries` of a row-major array is row-major: integers (and new axes)
/// first, then at most one slice with unit step, then only whole axes (and new axes).
fn keeps_row_major(entries: &[IndexEntry]) -> bool {
    let mut sliced = false;
    for e in entries {
        match e {
            IndexEntry::NewAxis => {}
            IndexEntry::At if !sliced => {}
            IndexEntry::Slice { step: false, .. } if !sliced => sliced = true,
            IndexEntry::Full => sliced = true,
            _ => return false,
        }
    }
    true
}

impl Lowerer<'_> {
    /// The array literal `e` (checked: an array of type `ty`, whose dtype the items are cast to).
    /// A literal of arrays (NumPy's `np.array([a, b])` of same-shape arrays) is
    /// `stack((a, b))` of its items (a nested literal of arrays, an array of its own).
    pub(crate) fn list_literal(&mut self, e: &Expr, ty: &Ty) -> LResult<ValueId> {
        let Ty::Array(d, shape) = ty else { unreachable!("checked: an array literal") };
        if let ExprKind::List(items) = &e.kind {
            if self.literal_of_arrays(e) {
                let mut vals = vec![];
                for it in items {
                    vals.push(self.expr(it)?);
                }
                return Ok(self.join(Builtin::Stack, &vals, 0, true, ty));
            }
        }
        let sizes: Vec<i64> = shape.iter().map(|s| s.as_const().expect("checked: literal sizes")).collect();
        let size_values = sizes.iter().map(|&n| self.i64_const(n)).collect();
        let out = self.new_array(*d, size_values);
        self.shapes.insert(out, shape.clone());
        let mut at = vec![];
        self.fill_items(out, e, *d, &mut at)?;
        Ok(out)
    }

    /// Whether the literal `e`'s items are arrays (checked: all or none are): its first item that
    /// is no literal has an array type.
    fn literal_of_arrays(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::List(items) => items.first().is_some_and(|it| self.literal_of_arrays(it)),
            _ => matches!(self.ty_of(e), Ty::Array(..)),
        }
    }

    /// Writes the items of literal `e` into `out` at the position `at` (the indices of the
    /// enclosing literals), in row-major order.
    fn fill_items(&mut self, out: ValueId, e: &Expr, d: DType, at: &mut Vec<i64>) -> LResult<()> {
        let ExprKind::List(items) = &e.kind else {
            let v = self.expr(e)?;
            let v = self.cast_scalar(v, d);
            let operands = at.iter().map(|&i| self.i64_const(i)).collect();
            let element = self.view_with(out, vec![IndexEntry::At; at.len()], operands);
            self.emit(OpKind::Compute { func: ComputeFn::Fill, out: element, ins: vec![v] });
            return Ok(());
        };
        for (i, it) in items.iter().enumerate() {
            at.push(i as i64);
            self.fill_items(out, it, d, at)?;
            at.pop();
        }
        Ok(())
    }

    /// `array(x, dtype=..)` (`copy`: a new array) or `asarray(x, dtype=..)` of type `ty`.
    pub(crate) fn array_call(&mut self, arg: &Expr, copy: bool, ty: &Ty) -> LResult<ValueId> {
        if let ExprKind::List(_) = arg.kind {
            return self.list_literal(arg, ty);
        }
        let Ty::Array(d, shape) = ty else { unreachable!("checked: an array") };
        let x = self.expr(arg)?;
        match self.f.ty(x) {
            Type::Scalar(_) => {
                let v = self.cast_scalar(x, *d);
                let out = self.new_array(*d, vec![]);
                self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![v] });
                Ok(out)
            }
            Type::Array(xd, r) if copy || xd != *d => {
                let sizes = (0..r).map(|a| self.dim(x, a)).collect();
                Ok(self.compute_new(ComputeFn::Copy, vec![x], *d, sizes, Some(shape)))
            }
            Type::Array(..) => Ok(x),
        }
    }

    /// Whether array value `v` is known to be row-major (C-contiguous) whatever the sizes: an
    /// array this function allocated, or a view of one that keeps that layout.
    fn is_row_major(&self, v: ValueId) -> bool {
        if self.root(v) == Root::New(v) || self.row_major.contains(&v) {
            return true;
        }
        match self.view_defs.get(&v) {
            Some((src, entries, _)) => keeps_row_major(entries) && self.is_row_major(*src),
            None => false,
        }
    }

    /// `reshape`, `ravel` or `flatten` (`b`) of `args[0]` (type `ty`, checked).
    pub(crate) fn reshape_call(&mut self, b: Builtin, args: &[Expr], ty: &Ty) -> LResult<ValueId> {
        let x = self.expr(&args[0])?;
        let (d, x) = match self.f.ty(x) {
            Type::Array(d, _) => (d, x),
            // A scalar reshapes as a 0-d array of it.
            Type::Scalar(d) => {
                let out = self.new_array(d, vec![]);
                self.emit(OpKind::Compute { func: ComputeFn::Fill, out, ins: vec![x] });
                (d, out)
            }
        };
        let r = match self.f.ty(x) {
            Type::Array(_, r) => r,
            Type::Scalar(_) => 0,
        };
        let x_sizes: Vec<ValueId> = (0..r).map(|a| self.dim(x, a)).collect();
        let one = self.i64_const(1);
        let count = x_sizes.iter().fold(one, |p, &n| self.scalar_binary(BinFn::Mul, p, n, DType::I64));
        let Ty::Array(_, shape) = ty else { unreachable!("checked: an array") };
        let sizes = match b {
            Builtin::Reshape if arrayc_grammar::syntax::shape_base(&args[1]).is_some() => {
                // `x.reshape(y.shape)`: `y`'s sizes, holding as many elements as `x` (checked
                // here where the checker could not know both counts).
                let sizes = self.flat_operands(&args[1])?;
                let total = sizes.iter().fold(one, |p, &n| self.scalar_binary(BinFn::Mul, p, n, DType::I64));
                let same = self.scalar_binary(BinFn::Eq, count, total, DType::I64);
                let msg = "cannot reshape array of size {lhs} into another array's shape ({rhs} elements)".to_string();
                self.emit(OpKind::Assert { cond: same, msg });
                sizes
            }
            Builtin::Reshape => {
                let dims = reshape_dims(&args[1..]).expect("checked: reshape sizes");
                self.reshape_sizes(&dims, count, ty)?
            }
            _ => vec![count],
        };
        if b == Builtin::Flatten {
            let out = self.new_array(d, sizes);
            self.shapes.insert(out, shape.clone());
            let as_x = self.reshape_view(out, x_sizes);
            self.emit(OpKind::Compute { func: ComputeFn::Copy, out: as_x, ins: vec![x] });
            return Ok(out);
        }
        if self.is_row_major(x) {
            let v = self.reshape_view(x, sizes);
            self.row_major.insert(v);
            return Ok(v);
        }
        let can = self.value(Type::Scalar(DType::Bool), None);
        if b == Builtin::Ravel {
            // NumPy's `ravel` is a view only of a C-contiguous array (`x[::2].ravel()` is a
            // copy, where `reshape(x[::2], -1)` is a view).
            self.emit(OpKind::Contiguous { res: can, src: x });
        } else {
            self.emit(OpKind::Reshapable { res: can, src: x, sizes: sizes.clone() });
        }
        let (then_body, then_yields) = self.in_body(|l| Ok(vec![l.reshape_view(x, sizes.clone())]))?;
        let (else_body, else_yields) = self.in_body(|l| {
            let out = l.new_array(d, sizes.clone());
            let as_x = l.reshape_view(out, x_sizes.clone());
            l.emit(OpKind::Compute { func: ComputeFn::Copy, out: as_x, ins: vec![x] });
            Ok(vec![out])
        })?;
        let res = self.value(Type::Array(d, sizes.len()), None);
        self.emit(OpKind::If { cond: can, then_body, then_yields, else_body, else_yields, results: vec![res] });
        Ok(res)
    }

    /// An `arr.reshape` view of `src` with `sizes` (aliasing `src`).
    pub(crate) fn reshape_view(&mut self, src: ValueId, sizes: Vec<ValueId>) -> ValueId {
        let Type::Array(d, _) = self.f.ty(src) else { unreachable!("reshapes of arrays") };
        let res = self.value(Type::Array(d, sizes.len()), None);
        self.emit(OpKind::Reshape { res, src, sizes });
        let root = self.root(src);
        self.roots.insert(res, root);
        res
    }

    /// The sizes of `reshape(x, dims)` of an `x` of `count` elements: each size as given, a `-1`
    /// inferred as `count` over the product of the others; checked at run time (unless the
    /// checker knew them: `ty`) to be non-negative and to hold `count` elements, NumPy's errors.
    fn reshape_sizes(&mut self, dims: &[&Expr], count: ValueId, ty: &Ty) -> LResult<Vec<ValueId>> {
        let Ty::Array(_, shape) = ty else { unreachable!("checked: an array") };
        let known = shape.iter().all(|s| s.as_const().is_some());
        let text: Vec<&str> = dims.iter().map(|d| self.lines.text(&d.span)).collect();
        let shown = match text.as_slice() {
            [one] => format!("({one},)"),
            _ => format!("({})", text.join(", ")),
        };
        let mut sizes = vec![];
        let mut inferred = None;
        for (k, a) in dims.iter().enumerate() {
            if matches!(&a.kind, ExprKind::Unary(UnOp::Neg, inner) if matches!(inner.kind, ExprKind::Int(1))) {
                inferred = Some(k);
                sizes.push(self.i64_const(-1));
                continue;
            }
            let v = self.expr(a)?;
            let v = self.cast_scalar(v, DType::I64);
            if !self.consts.contains_key(&v) {
                let zero = self.i64_const(0);
                let ok = self.scalar_binary(BinFn::Ge, v, zero, DType::I64);
                self.emit(OpKind::Assert { cond: ok, msg: format!("reshape: negative size in shape {shown}") });
            }
            sizes.push(v);
        }
        let one = self.i64_const(1);
        let others = sizes
            .iter()
            .enumerate()
            .filter(|&(k, _)| Some(k) != inferred)
            .fold(one, |p, (_, &n)| self.scalar_binary(BinFn::Mul, p, n, DType::I64));
        match inferred {
            Some(k) if known => sizes[k] = self.i64_const(shape[k].as_const().unwrap_or(0)),
            Some(k) => {
                let zero = self.i64_const(0);
                let nonzero = self.scalar_binary(BinFn::Ne, others, zero, DType::I64);
                let safe = self.scalar_binary(BinFn::Maximum, others, one, DType::I64);
                let rem = self.scalar_binary(BinFn::Rem, count, safe, DType::I64);
                let divides = self.scalar_binary(BinFn::Eq, rem, zero, DType::I64);
                let ok = self.scalar_binary(BinFn::And, nonzero, divides, DType::Bool);
                let msg = format!(
                    "cannot reshape array into shape {shown}: its size is not a multiple of the other sizes' product"
                );
                self.emit(OpKind::Assert { cond: ok, msg });
                sizes[k] = self.scalar_binary(BinFn::FloorDiv, count, safe, DType::I64);
            }
            None if known => {}
            None => {
                let same = self.scalar_binary(BinFn::Eq, count, others, DType::I64);
                let msg = format!("cannot reshape array of size {{lhs}} into shape {shown} ({{rhs}} elements)");
                self.emit(OpKind::Assert { cond: same, msg });
            }
        }
        Ok(sizes)
    }
}
