//! Statements: bindings, in-place writes, control flow with SSA carried variables.

use super::{LResult, Lowerer};
use arrayc_dialect::ir::{BinFn, ComputeFn, IndexEntry, OpKind, Scalar, ScatterKind, ScatterMode, Type, ValueId};
use arrayc_grammar::ast::{self, DType, Span, Stmt};
use arrayc_grammar::print_stmt::printed_dtype;
use arrayc_grammar::types::Ty;
use std::collections::BTreeSet;

impl Lowerer<'_> {
    pub(crate) fn stmt(&mut self, s: &Stmt) -> LResult<()> {
        match s {
            Stmt::Let { names, value, span } => {
                self.set_loc(span);
                let vals = match arrayc_grammar::syntax::shape_base(value) {
                    // `let (n, m) = x.shape;`: the sizes of `x`, as many as the names (checked).
                    Some(x) if matches!(self.ty_of(value), Ty::Tuple(_)) => {
                        let x = self.expr(x)?;
                        (0..names.len()).map(|k| self.dim(x, k)).collect()
                    }
                    // `a, b = x` of an array: its views `x[0]`, `x[1]` (Python unpacks axis 0).
                    _ if names.len() > 1 && self.ty_of(value).is_array() => {
                        let x = self.expr(value)?;
                        self.unpack_first_axis(x, names.len())
                    }
                    _ => self.expr_multi(value)?,
                };
                if vals.len() != names.len() {
                    return Err(self.error("E0904", span, "wrong number of names for the values", ""));
                }
                for (n, v) in names.iter().zip(vals) {
                    self.name_value(v, &n.name);
                    self.declare(&n.name, v);
                }
            }
            Stmt::Assign { name, value, span } => {
                self.set_loc(span);
                let v = self.expr(value)?;
                if self.checked.rebinds.contains(&value.id) {
                    // Python's rebinding to another dtype or rank: a new variable (the checker
                    // allowed it only in the block that declared the old one).
                    self.name_value(v, &name.name);
                    self.declare(&name.name, v);
                    return Ok(());
                }
                let v = self.coerce_scalar_to_var(&name.name, v);
                self.name_value(v, &name.name);
                self.rebind(&name.name, v);
            }
            Stmt::SetItem { target, index, value, span } => {
                self.set_loc(span);
                if let [ast::Index::At(e)] = index.as_slice() {
                    if let Ty::Array(DType::Bool, _) = *self.ty_of(e) {
                        let (x, mask) = (self.var(target)?, self.expr(e)?);
                        let v = self.expr(value)?;
                        self.check_python_int(value, v, self.f.ty(x).dtype());
                        self.masked_assign(x, mask, v);
                        return Ok(());
                    }
                }
                if index.iter().any(|ix| self.is_index_array(ix)) {
                    // `x[i, 0, :, j] = v` with index arrays: a scatter (NumPy's advanced indexing).
                    let x = self.var(target)?;
                    let v = self.expr(value)?;
                    self.check_python_int(value, v, self.f.ty(x).dtype());
                    let Some(Ty::Array(_, shape)) = self.checked.target_types.get(&value.id).cloned() else {
                        unreachable!("the checker typed the scatter's target")
                    };
                    return self.scatter_subscript(x, index, &shape, v);
                }
                let dest = self.target_view(target, index, value.id)?;
                self.assign_into(dest, value)?;
            }
            Stmt::AugAssign { target, index, op, value, span } => {
                self.set_loc(span);
                let var = self.var(target)?;
                if !self.f.ty(var).is_array() {
                    // Scalar: `x op= e` rebinds `x = x op e`.
                    let rhs = self.expr(value)?;
                    let rd = self.in_place_dtype(self.f.ty(var).dtype(), *op, value, rhs);
                    let r = self.scalar_bin_promoted(super::expr::bin_fn_in(*op, rd), var, rhs, rd);
                    let r = self.coerce_scalar_to_var(&target.name, r);
                    self.name_value(r, &target.name);
                    self.rebind(&target.name, r);
                } else {
                    if let [ast::Index::At(e)] = index.as_slice() {
                        if let Ty::Array(DType::Bool, _) = *self.ty_of(e) {
                            // `x[mask] op= v`: `x[mask] = x[mask] op v` (a mask selects each
                            // element once).
                            let mask = self.expr(e)?;
                            let v = self.expr(value)?;
                            let Type::Array(dd, _) = self.f.ty(var) else { unreachable!("checked: an array") };
                            let rd = self.in_place_dtype(dd, *op, value, v);
                            self.masked_update(var, mask, super::expr::bin_fn_in(*op, rd), v, rd);
                            return Ok(());
                        }
                    }
                    if index.iter().any(|ix| self.is_index_array(ix)) {
                        return self.aug_assign_indexed(var, index, *op, value);
                    }
                    let dest = self.target_view(target, index, value.id)?;
                    self.aug_assign(dest, *op, value)?;
                }
            }
            Stmt::For { var, start, end, step, body, span } => {
                self.set_loc(span);
                self.lower_for(var, start, end, step.as_deref(), body, span)?;
            }
            Stmt::While { cond, body, span } => {
                self.set_loc(span);
                match super::jumps::jumps_in(&body.stmts) {
                    (false, false) => self.lower_while(cond, body)?,
                    (has_break, _) => self.lower_while_jumps(cond, body, has_break, span)?,
                }
            }
            Stmt::Break { span } | Stmt::Continue { span } => {
                self.set_loc(span);
                self.lower_jump(matches!(s, Stmt::Break { .. }), span)?;
            }
            Stmt::If { cond, then_block, else_block, span } => {
                self.set_loc(span);
                self.lower_if(cond, then_block, else_block.as_ref())?;
            }
            Stmt::Return { values, span } => {
                self.set_loc(span);
                if self.bodies.len() > 1 {
                    unreachable!("a return inside a block is lowered by tail_block (returns.rs)");
                }
                let vals = self.return_values(values, span)?;
                self.emit(OpKind::Return { values: vals });
            }
            Stmt::Assert { cond, msg, span } => {
                self.set_loc(span);
                let c = self.expr(cond)?;
                let cond = self.cast_scalar(c, DType::Bool);
                let msg = match msg {
                    Some(m) => format!("AssertionError: {m}"),
                    None => "AssertionError".to_string(),
                };
                self.emit(OpKind::Assert { cond, msg });
            }
            Stmt::Print { args, sep, end, span } => {
                self.set_loc(span);
                // Python evaluates every argument (an f-string's fields in order), then prints: a
                // string literal its text, each argument followed by `sep`, the last by `end`.
                let text = |text: &str| OpKind::PrintText { text: text.to_string(), end: String::new() };
                // A value printed with `spec` (`None`: `print`'s `str`), or `x.dtype`'s NumPy name.
                let value = |this: &mut Self, v: &ast::Expr, spec: Option<&String>| -> LResult<OpKind> {
                    Ok(match printed_dtype(v) {
                        // A checked value has a dtype.
                        Some(x) => text(this.ty_of(x).dtype().map_or("", DType::numpy_name)),
                        None => OpKind::Print { value: this.expr(v)?, spec: spec.cloned(), end: String::new() },
                    })
                };
                let mut pieces: Vec<Vec<OpKind>> = Vec::with_capacity(args.len());
                for a in args {
                    pieces.push(match &a.kind {
                        ast::ExprKind::Str(t) => vec![text(t)],
                        ast::ExprKind::FString(parts) => parts
                            .iter()
                            .map(|p| match p {
                                ast::FPart::Text(t) => Ok(text(t)),
                                ast::FPart::Field { value: v, spec, .. } => value(self, v, Some(spec)),
                            })
                            .collect::<LResult<_>>()?,
                        _ => vec![value(self, a, None)?],
                    });
                }
                if pieces.is_empty() {
                    pieces.push(Vec::new());
                }
                let n = pieces.len();
                for (i, mut ops) in pieces.into_iter().enumerate() {
                    // `print()` and `f""` print nothing but their end.
                    if ops.is_empty() {
                        ops.push(text(""));
                    }
                    if let Some(OpKind::Print { end: e, .. } | OpKind::PrintText { end: e, .. }) = ops.last_mut() {
                        *e = if i + 1 == n { end.clone() } else { sep.clone() };
                    }
                    ops.into_iter().for_each(|op| self.emit(op));
                }
            }
            Stmt::Expr(e) => {
                self.set_loc(&e.span);
                self.expr_multi(e)?;
            }
        }
        Ok(())
    }

    /// `x[mask] = v` (a mask of the shape of `x`'s k leading axes, checked at run time): a scalar
    /// `v` is `where(mask, v, x)` into `x` (the mask broadcast along `x`'s other axes; elementwise,
    /// parallel); an array `v`, one value (row) per selected element in row-major order (its size
    /// checked at run time), is scattered to the selected positions: NumPy's
    /// `x[nonzero(mask)] = v`, the positions along each masked axis being that axis's `arange`
    /// filtered by the mask. Those positions are distinct and in range, so the scatter is one that
    /// drops (`ScatterMode::Drop`: it never does here) and runs in any order, in parallel.
    fn masked_assign(&mut self, x: ValueId, mask: ValueId, v: ValueId) {
        if self.f.ty(v).is_array() {
            let sizes = self.check_mask_size(x, mask);
            let k = sizes.len();
            let zero = self.i64_const(0);
            let one = self.i64_const(1);
            let mut selected = vec![];
            for a in 0..k {
                let positions = self.new_array(DType::I64, vec![sizes[a]]);
                self.emit(OpKind::Compute { func: ComputeFn::Arange, out: positions, ins: vec![zero, one] });
                let entries = (0..k).map(|b| if a == b { IndexEntry::Full } else { IndexEntry::NewAxis }).collect();
                let along = self.expand(positions, entries);
                let along = self.broadcast_to_sizes(along, &sizes);
                selected.push(self.filter(along, mask, None));
            }
            self.scatter(x, &selected, None, v, ScatterKind::Set, ScatterMode::Drop);
        } else {
            self.masked_where(x, mask, v);
        }
    }

    /// `x = where(mask, v, x)` in place, the mask (checked against `x`'s leading axes at run time)
    /// broadcast along `x`'s other axes; `v` a scalar or an array of `x`'s shape. A mask or `v`
    /// that may overlap `x` through another view (`x[transpose(x)[0]] = false`) is copied first: NumPy
    /// reads the whole mask before it writes.
    fn masked_where(&mut self, x: ValueId, mask: ValueId, v: ValueId) {
        self.check_mask_size(x, mask);
        let mask = self.unaliased(mask, x);
        let v = if self.f.ty(v).is_array() { self.unaliased(v, x) } else { v };
        let (Type::Array(_, r), Type::Array(_, q)) = (self.f.ty(x), self.f.ty(mask)) else {
            unreachable!("checked: arrays")
        };
        let mask = if r == q {
            mask
        } else {
            let entries =
                std::iter::repeat_n(IndexEntry::Full, q).chain(std::iter::repeat_n(IndexEntry::NewAxis, r - q));
            let expanded = self.expand(mask, entries.collect());
            self.broadcast_to(expanded, x)
        };
        self.emit(OpKind::Compute { func: ComputeFn::Where, out: x, ins: vec![mask, v, x] });
    }

    /// `x[mask] op= v`: with a scalar `v`, `where(mask, x op v, x)` into `x` (elementwise, parallel,
    /// fused); with an array `v` (one value or row per selected element), the selected elements
    /// op `v`, scattered back.
    /// `rd` is the dtype the operation computes in ([`Self::in_place_dtype`]); the result is cast
    /// to `x`'s when it is written back.
    fn masked_update(&mut self, x: ValueId, mask: ValueId, f: BinFn, v: ValueId, rd: DType) {
        let Type::Array(_, r) = self.f.ty(x) else { unreachable!("checked: an array") };
        if self.f.ty(v).is_array() {
            let selected = self.filter(x, mask, None);
            let Type::Array(_, rs) = self.f.ty(selected) else { unreachable!("a filter gives an array") };
            let sizes = (0..rs).map(|a| self.dim(selected, a)).collect();
            let updated = self.compute_new(ComputeFn::Binary(f), vec![selected, v], rd, sizes, None);
            self.masked_assign(x, mask, updated);
        } else {
            let sizes = (0..r).map(|a| self.dim(x, a)).collect();
            let updated = self.compute_new(ComputeFn::Binary(f), vec![x, v], rd, sizes, None);
            self.masked_where(x, mask, updated);
        }
    }

    /// Gives an unnamed value the variable's name for readable IR.
    fn name_value(&mut self, v: ValueId, name: &str) {
        if self.f.value_names[v as usize].is_none() {
            self.f.value_names[v as usize] = Some(name.to_string());
        }
    }

    pub(crate) fn var(&self, id: &ast::Ident) -> LResult<ValueId> {
        self.lookup(&id.name)
            .ok_or_else(|| self.error("E0906", &id.span, &format!("unknown variable `{}`", id.name), ""))
    }

    /// A rebinding keeps the variable's scalar dtype (`x = 1` for an f64 `x` stores 1.0).
    fn coerce_scalar_to_var(&mut self, name: &str, v: ValueId) -> ValueId {
        match (self.lookup(name).map(|old| self.f.ty(old)), self.f.ty(v)) {
            (Some(Type::Scalar(d)), Type::Scalar(e)) if d != e => self.cast_scalar(v, d),
            _ => v,
        }
    }

    /// The view written by `x[index] = ...` (the array itself for no index or `[...]`).
    fn target_view(&mut self, target: &ast::Ident, index: &[ast::Index], value: ast::ExprId) -> LResult<ValueId> {
        let base = self.var(target)?;
        if index.is_empty() || matches!(index, [ast::Index::Ellipsis(_)]) {
            return Ok(base);
        }
        let v = self.view(base, index)?;
        if let Some(arrayc_grammar::types::Ty::Array(_, shape)) = self.checked.target_types.get(&value).cloned() {
            self.shapes.insert(v, shape);
        }
        Ok(v)
    }

    /// `dest[...] = value`: broadcast and cast into the view. Computes straight into `dest` when
    /// the value is an elementwise operation whose inputs do not overlap `dest` (other than as the
    /// identical view) and whose result has dest's shape and dtype; else via the value's array.
    fn assign_into(&mut self, dest: ValueId, value: &ast::Expr) -> LResult<()> {
        if self.try_compute_into(dest, value)? {
            return Ok(());
        }
        let v = self.expr(value)?;
        if !self.f.ty(v).is_array() {
            // NumPy's `x_u8[0] = k` of a Python int beyond `u8` is OverflowError.
            self.check_python_int(value, v, self.f.ty(dest).dtype());
            self.emit(OpKind::Compute { func: ComputeFn::Fill, out: dest, ins: vec![v] });
            return Ok(());
        }
        let v = self.unaliased(v, dest);
        let v = self.broadcast_to(v, dest);
        self.emit(OpKind::Compute { func: ComputeFn::Copy, out: dest, ins: vec![v] });
        Ok(())
    }

    /// `dest op= value` in place (NumPy `out=` semantics: inputs that overlap `dest` non-identically
    /// are copied first).
    fn aug_assign(&mut self, dest: ValueId, op: ast::BinOp, value: &ast::Expr) -> LResult<()> {
        let rhs = self.expr(value)?;
        let rhs = if self.f.ty(rhs).is_array() {
            let r = self.unaliased(rhs, dest);
            self.broadcast_to(r, dest)
        } else {
            rhs
        };
        let Type::Array(dd, r) = self.f.ty(dest) else { unreachable!("checked: an array target") };
        let rd = self.in_place_dtype(dd, op, value, rhs);
        let func = ComputeFn::Binary(super::expr::bin_fn_in(op, rd));
        if rd == dd {
            self.emit(OpKind::Compute { func, out: dest, ins: vec![dest, rhs] });
        } else {
            let sizes = (0..r).map(|a| self.dim(dest, a)).collect();
            let t = self.compute_new(func, vec![dest, rhs], rd, sizes, None);
            self.emit(OpKind::Compute { func: ComputeFn::Copy, out: dest, ins: vec![t] });
        }
        Ok(())
    }

    /// `x[index] op= value` through index arrays (NumPy's advanced indexing): NumPy's buffered
    /// `x[index] = x[index] op value`, a gather of the elements, the operation in the in-place
    /// dtype ([`Self::in_place_dtype`]), and a scatter back. An element that several indices name is
    /// updated once, from its old value: the last index's result wins, as in NumPy (`add_at` adds
    /// every one).
    fn aug_assign_indexed(
        &mut self,
        x: ValueId,
        index: &[ast::Index],
        op: ast::BinOp,
        value: &ast::Expr,
    ) -> LResult<()> {
        let Some(Ty::Array(_, shape)) = self.checked.target_types.get(&value.id).cloned() else {
            unreachable!("the checker typed the scatter's target")
        };
        let Type::Array(dd, _) = self.f.ty(x) else { unreachable!("checked: an array") };
        // The index arrays are computed once, for the gather and the scatter.
        let advanced = self.advanced_index(x, index)?;
        let old = self.gather_advanced(advanced.clone(), &Ty::Array(dd, shape.clone()));
        let rhs = self.expr(value)?;
        let rd = self.in_place_dtype(dd, op, value, rhs);
        let new = self.binary(super::expr::bin_fn_in(op, rd), old, rhs, &Ty::Array(rd, shape.clone()))?;
        self.scatter_advanced(advanced, &shape, new);
        Ok(())
    }

    /// The dtype NumPy computes `target op= value` in, for a target (array or scalar variable) of
    /// dtype `dd`: the promotion of `dd` and the value's dtype (a weak literal keeps `dd`), so
    /// `f32 -= f64` subtracts in f64 and then casts (computing in `dd` would round the value first,
    /// unlike `op(t, v, out=t)`), while `f32 -= 0.3` subtracts in f32 (as `t = t - 0.3` does), and a
    /// Python int other than a literal (value `v`) is checked to fit what `op` computes in
    /// ([`Self::check_python_int_in`]).
    fn in_place_dtype(&mut self, dd: DType, op: ast::BinOp, value: &ast::Expr, v: ValueId) -> DType {
        use arrayc_grammar::check::promote::promote;
        let rd = promote(dd, None, self.ty_of(value).dtype().unwrap_or(dd), self.checked.weak_of(value));
        self.check_python_int_in(op, value, v, rd);
        rd
    }

    /// `v` itself, or a fresh copy of it when it may overlap `dest` without being the identical view.
    pub(crate) fn unaliased(&mut self, v: ValueId, dest: ValueId) -> ValueId {
        if !self.may_overlap(v, dest) || self.identical_views(v, dest) {
            return v;
        }
        self.fresh_copy(v)
    }

    /// Variables assigned (rebound) in `stmts` that are visible from outside, in source order.
    /// With `jumps`, the flags that a `break` or `continue` in `stmts` sets for the innermost loop
    /// being lowered count as assigned (`jumps.rs`); without, `stmts` are a loop's body, whose
    /// `break` and `continue` are its own.
    pub(crate) fn assigned_outer(
        &self,
        stmts: &[Stmt],
        shadowed: &BTreeSet<String>,
        out: &mut Vec<String>,
        jumps: bool,
    ) {
        let start = out.len();
        let mut shadowed = shadowed.clone();
        for s in stmts {
            match s {
                Stmt::Let { names, .. } => {
                    for n in names {
                        shadowed.insert(n.name.clone());
                    }
                }
                Stmt::Assign { name, .. } | Stmt::AugAssign { target: name, .. } => {
                    let scalar_aug = matches!(s, Stmt::AugAssign { index, .. } if index.is_empty());
                    if (matches!(s, Stmt::Assign { .. }) || scalar_aug)
                        && !shadowed.contains(&name.name)
                        && self.lookup(&name.name).is_some()
                        && !out.contains(&name.name)
                    {
                        out.push(name.name.clone());
                    }
                }
                Stmt::For { var, body, .. } => {
                    let mut sh = shadowed.clone();
                    sh.insert(var.name.clone());
                    self.assigned_outer(&body.stmts, &sh, out, false);
                }
                Stmt::While { body, .. } => self.assigned_outer(&body.stmts, &shadowed, out, false),
                Stmt::If { then_block, else_block, .. } => {
                    self.assigned_outer(&then_block.stmts, &shadowed, out, jumps);
                    if let Some(b) = else_block {
                        self.assigned_outer(&b.stmts, &shadowed, out, jumps);
                    }
                }
                Stmt::Break { .. } | Stmt::Continue { .. } if jumps => {
                    for f in self.jump_flags(matches!(s, Stmt::Break { .. })) {
                        if !out.contains(&f) {
                            out.push(f);
                        }
                    }
                }
                _ => {}
            }
        }
        // Array variables updated in place are not rebound. Only the names this call added are
        // filtered: a name found in an `if`'s then-block stays when the else-block leaves it alone.
        let added: Vec<String> = out.drain(start..).collect();
        out.extend(
            added.into_iter().filter(|n| {
                self.lookup(n).is_some_and(|v| !self.f.ty(v).is_array() || assigned_by_rebinding(stmts, n))
            }),
        );
    }

    /// Block arguments standing for `names` inside a region (same types and names as now).
    pub(crate) fn carried_args(&mut self, names: &[String]) -> Vec<ValueId> {
        names
            .iter()
            .map(|n| {
                let cur = self.lookup(n).unwrap();
                let v = self.value(self.f.ty(cur), Some(n));
                if self.f.ty(cur).is_array() {
                    // A carried array may be rebound to another base each iteration.
                    self.roots.insert(v, super::Root::Outside(v));
                }
                v
            })
            .collect()
    }

    pub(crate) fn current(&self, names: &[String]) -> Vec<ValueId> {
        names.iter().map(|n| self.lookup(n).unwrap()).collect()
    }

    pub(crate) fn bind_all(&mut self, names: &[String], vals: &[ValueId]) {
        for (n, v) in names.iter().zip(vals) {
            self.rebind(n, *v);
        }
    }

    /// `for var in start..end` (`step` `None`), or Python's `for var in range(start, end, step)`:
    /// a loop of `len(range(...))` iterations `k`, the variable `start + k * step` (so `scf.for`
    /// keeps its step 1 whatever the sign of `step`). A zero `step` is Python's ValueError, at
    /// run time naming the line (the checker rejects a literal 0).
    fn lower_for(
        &mut self,
        var: &ast::Ident,
        start: &ast::Expr,
        end: &ast::Expr,
        step: Option<&ast::Expr>,
        body: &ast::Block,
        span: &Span,
    ) -> LResult<()> {
        let lo = self.expr(start)?;
        let lo = self.cast_scalar(lo, DType::I64);
        let hi = self.expr(end)?;
        let hi = self.cast_scalar(hi, DType::I64);
        let range = match step {
            Some(s) => {
                let s = self.expr(s)?;
                let s = self.cast_scalar(s, DType::I64);
                let (zero, one) = (self.i64_const(0), self.i64_const(1));
                let nonzero = self.scalar_binary(BinFn::Ne, s, zero, DType::I64);
                self.emit(OpKind::Assert { cond: nonzero, msg: "range() arg 3 must not be zero (ValueError)".into() });
                // len(range(lo, hi, s)) = max(0, (hi - lo + s - sign(s)) // s), NumPy's `//`.
                let up = self.scalar_binary(BinFn::Gt, s, zero, DType::I64);
                let minus_one = self.i64_const(-1);
                let sign = self.value(Type::Scalar(DType::I64), None);
                self.emit(OpKind::Select { res: sign, cond: up, lhs: one, rhs: minus_one });
                let span = self.scalar_binary(BinFn::Sub, hi, lo, DType::I64);
                let span = self.scalar_binary(BinFn::Add, span, s, DType::I64);
                let span = self.scalar_binary(BinFn::Sub, span, sign, DType::I64);
                let n = self.scalar_binary(BinFn::FloorDiv, span, s, DType::I64);
                let n = self.scalar_binary(BinFn::Maximum, n, zero, DType::I64);
                Some((lo, s, n))
            }
            None => None,
        };
        let (lo, hi) = match range {
            Some((_, _, n)) => (self.i64_const(0), n),
            None => (lo, hi),
        };
        let (has_break, has_continue) = super::jumps::jumps_in(&body.stmts);
        if has_break {
            return self.lower_for_break(var, (lo, hi), range.map(|(start, s, _)| (start, s)), body, span);
        }
        // A `continue` only needs the flag `skip` (`jumps.rs`): the loop stays an `scf.for`.
        let jumps = has_continue.then(|| super::jumps::LoopJumps { brk: None, skip: format!("skip.{}", span.start) });
        let step = self.i64_const(1);
        let mut names = vec![];
        let mut sh = BTreeSet::new();
        sh.insert(var.name.clone());
        self.assigned_outer(&body.stmts, &sh, &mut names, false);
        let inits = self.current(&names);
        let iv = self.value(Type::Scalar(DType::I64), Some(&var.name));
        let carried = self.carried_args(&names);
        let saved = inits.clone();
        self.bind_all(&names, &carried);
        let (b, yields) = self.in_body(|l| {
            let i = match range {
                Some((start, s, _)) => {
                    let k = l.scalar_binary(BinFn::Mul, iv, s, DType::I64);
                    l.scalar_binary(BinFn::Add, start, k, DType::I64)
                }
                None => iv,
            };
            l.loop_body(jumps, Some((&var.name, i)), body, &names)
        })?;
        self.bind_all(&names, &saved);
        let results = self.results_like(&carried, &names);
        self.emit(OpKind::For { iv, lo, hi, step, inits, carried, body: b, yields, results: results.clone() });
        self.bind_all(&names, &results);
        Ok(())
    }

    fn lower_while(&mut self, cond: &ast::Expr, body: &ast::Block) -> LResult<()> {
        let mut names = vec![];
        self.assigned_outer(&body.stmts, &BTreeSet::new(), &mut names, false);
        let results = self.while_loop(
            &names,
            |l| {
                let c = l.expr(cond)?;
                Ok(l.cast_scalar(c, DType::Bool))
            },
            |l| l.loop_body(None, None, body, &names),
        )?;
        self.bind_all(&names, &results);
        Ok(())
    }

    /// An `scf.while` carrying the variables `names`: `cond` builds its condition (a bool) in the
    /// before region, `body` its after region, returning the new values of `names`; returns the
    /// loop's results (not yet bound to `names`).
    pub(super) fn while_loop(
        &mut self,
        names: &[String],
        cond: impl FnOnce(&mut Self) -> LResult<ValueId>,
        body: impl FnOnce(&mut Self) -> LResult<Vec<ValueId>>,
    ) -> LResult<Vec<ValueId>> {
        let inits = self.current(names);
        let before_args = self.carried_args(names);
        self.bind_all(names, &before_args);
        let (before, c) = self.in_body(cond)?;
        let after_args = self.carried_args(names);
        self.bind_all(names, &after_args);
        let (after, yields) = self.in_body(body)?;
        let results = self.results_like(&after_args, names);
        self.emit(OpKind::While {
            inits,
            before_args,
            before,
            cond: c,
            after_args,
            after,
            yields,
            results: results.clone(),
        });
        Ok(results)
    }

    fn lower_if(&mut self, cond: &ast::Expr, then_block: &ast::Block, else_block: Option<&ast::Block>) -> LResult<()> {
        // A question about dtypes decides the branch at compile time: the other one, which the
        // checker did not check, is lowered as empty (`dtype_queries`).
        let empty_then = ast::Block { stmts: vec![], span: then_block.span.clone() };
        let empty_else = else_block.map(|b| ast::Block { stmts: vec![], span: b.span.clone() });
        let (then_block, else_block) = match (self.static_truth(cond), else_block) {
            (Some(false), e) => (&empty_then, e),
            (Some(true), Some(_)) => (then_block, empty_else.as_ref()),
            (_, e) => (then_block, e),
        };
        let c = self.expr(cond)?;
        let c = self.cast_scalar(c, DType::Bool);
        let mut names = vec![];
        self.assigned_outer(&then_block.stmts, &BTreeSet::new(), &mut names, true);
        if let Some(b) = else_block {
            self.assigned_outer(&b.stmts, &BTreeSet::new(), &mut names, true);
        }
        let before = self.current(&names);
        let (then_body, then_yields) = self.in_body(|l| {
            l.block_stmts(&then_block.stmts)?;
            Ok(l.current(&names))
        })?;
        self.bind_all(&names, &before);
        let (else_body, else_yields) = self.in_body(|l| {
            if let Some(b) = else_block {
                l.block_stmts(&b.stmts)?;
            }
            Ok(l.current(&names))
        })?;
        self.bind_all(&names, &before);
        let results = self.results_like(&before, &names);
        self.emit(OpKind::If { cond: c, then_body, then_yields, else_body, else_yields, results: results.clone() });
        self.bind_all(&names, &results);
        Ok(())
    }

    /// `a if c else b` (`parts`: `[c, a, b]`) of type `ty`: an `If` whose branches evaluate one of
    /// `a` and `b` each (scalars cast to `ty`'s dtype), so only the chosen one is evaluated.
    pub(crate) fn lower_if_else(&mut self, parts: &[ast::Expr; 3], ty: &Ty) -> LResult<ValueId> {
        let [cond, a, b] = parts;
        let branch = |l: &mut Self, e: &ast::Expr| -> LResult<Vec<ValueId>> {
            let v = l.expr(e)?;
            Ok(vec![match (ty, l.f.ty(v)) {
                (Ty::Scalar(d), Type::Scalar(_)) => l.cast_scalar(v, *d),
                _ => v,
            }])
        };
        // A question about dtypes chooses at compile time (`dtype_queries`).
        if let Some(taken) = self.static_truth(cond) {
            return Ok(branch(self, if taken { a } else { b })?[0]);
        }
        let c = self.expr(cond)?;
        let c = self.cast_scalar(c, DType::Bool);
        let (then_body, then_yields) = self.in_body(|l| branch(l, a))?;
        let (else_body, else_yields) = self.in_body(|l| branch(l, b))?;
        if self.f.ty(then_yields[0]) != self.f.ty(else_yields[0]) {
            let span = a.span.start..b.span.end;
            return Err(self.error(
                "E0913",
                &span,
                "the branches of `a if c else b` are arrays of different static shapes",
                "make both the same size, or assign in an `if c { x = a; } else { x = b; }` statement",
            ));
        }
        let results = self.results_like(&then_yields, &[String::from("ifelse")]);
        self.emit(OpKind::If { cond: c, then_body, then_yields, else_body, else_yields, results: results.clone() });
        Ok(results[0])
    }

    pub(crate) fn results_like(&mut self, like: &[ValueId], names: &[String]) -> Vec<ValueId> {
        like.iter()
            .zip(names)
            .map(|(v, n)| {
                let r = self.value(self.f.ty(*v), Some(n));
                if self.f.ty(r).is_array() {
                    self.roots.insert(r, super::Root::Outside(r));
                }
                r
            })
            .collect()
    }

    pub(crate) fn cast_scalar(&mut self, v: ValueId, d: DType) -> ValueId {
        if self.f.ty(v) == Type::Scalar(d) {
            return v;
        }
        if let Some(s) = self.consts.get(&v).copied() {
            return self.constant(s.cast(d));
        }
        let r = self.value(Type::Scalar(d), None);
        self.emit(OpKind::Cast { res: r, arg: v });
        r
    }

    /// `1` for NumPy's boolean negation helper: `~b == (b != true)`.
    /// Checks at run time that result `i`, array `v`, has the shape the signature declares, where
    /// the checker could not prove it (`-> f64[m]` returning an `f64[N]`): a function never returns
    /// an array whose size differs from its signature's.
    /// The values of `return values;` at `span`: scalars cast to the function's result dtypes, the
    /// shapes checked against the declared ones.
    pub(crate) fn return_values(&mut self, values: &[ast::Expr], span: &Span) -> LResult<Vec<ValueId>> {
        let mut vals = vec![];
        for (i, e) in values.iter().enumerate() {
            let v = self.expr(e)?;
            let want = self.f.results.get(i).copied();
            vals.push(match want {
                Some(Type::Scalar(d)) if self.f.ty(v) != Type::Scalar(d) => self.cast_scalar(v, d),
                _ => v,
            });
        }
        for (i, &v) in vals.iter().enumerate() {
            self.check_result_shape(i, v, span);
        }
        Ok(vals)
    }

    fn check_result_shape(&mut self, i: usize, v: ValueId, span: &Span) {
        let Some(Some(declared)) = self.result_sizes.get(i) else { return };
        if self.same_static_shape(v, &declared.shape) {
            return;
        }
        let dims = declared.dims.clone();
        let (line, _) = self.lines.line_col(span.start);
        for (axis, (expected, text)) in dims.into_iter().enumerate().filter_map(|(a, d)| Some((a, d?))) {
            let dim = self.value(Type::Scalar(DType::I64), None);
            self.emit(OpKind::Dim { res: dim, src: v, axis });
            let ok = self.scalar_binary(BinFn::Eq, dim, expected, DType::I64);
            // `{lhs}` and `{rhs}`: the executor puts in the compared sizes (see `cf.assert`).
            let msg = format!(
                "line {line}: result {i} of `{}` has size {{lhs}} in dimension {axis}, but the signature says {text} = {{rhs}}",
                self.f.name
            );
            self.emit(OpKind::Assert { cond: ok, msg });
        }
    }

    pub(crate) fn not_bool(&mut self, v: ValueId) -> ValueId {
        let t = self.constant(Scalar::Bool(true));
        self.scalar_binary(BinFn::Ne, v, t, DType::Bool)
    }
}

/// Is `name` rebound (`name = ...`) anywhere in `stmts` (as opposed to written in place)?
fn assigned_by_rebinding(stmts: &[Stmt], name: &str) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Assign { name: n, .. } => n.name == name,
        Stmt::For { body, .. } | Stmt::While { body, .. } => assigned_by_rebinding(&body.stmts, name),
        Stmt::If { then_block, else_block, .. } => {
            assigned_by_rebinding(&then_block.stmts, name)
                || else_block.as_ref().is_some_and(|b| assigned_by_rebinding(&b.stmts, name))
        }
        _ => false,
    })
}

impl Lowerer<'_> {
    /// The views `x[0]`, ..., `x[k - 1]` (the elements, of a 1-d `x`) of an array `x` along its first axis (Python's unpacking
    /// `a, b = x`), after checking at run time that the axis has `k` items where the checker could
    /// not (NumPy's ValueError "too many values to unpack" / "not enough values to unpack").
    fn unpack_first_axis(&mut self, x: ValueId, k: usize) -> Vec<ValueId> {
        let n = self.dim(x, 0);
        if self.consts.get(&n).map(|c| c.as_f64()) != Some(k as f64) {
            let want = self.i64_const(k as i64);
            let same = self.scalar_binary(BinFn::Eq, n, want, DType::I64);
            let msg = format!(
                "cannot unpack an array of {{lhs}} items along its first axis into {k} names (NumPy's ValueError)"
            );
            self.emit(OpKind::Assert { cond: same, msg });
        }
        let Type::Array(_, rank) = self.f.ty(x) else { unreachable!("checked: an array") };
        (0..k as i64)
            .map(|j| {
                let at = self.i64_const(j);
                let mut entries = vec![IndexEntry::At];
                entries.extend(std::iter::repeat_n(IndexEntry::Full, rank - 1));
                let v = self.view_with(x, entries, vec![at]);
                if rank == 1 {
                    self.load_element(v)
                } else {
                    v
                }
            })
            .collect()
    }
}
