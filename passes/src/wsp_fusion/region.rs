//! Builds the WSP region ([`wsp::Region`]) of a straight-line segment of an `arr` body: one WSP
//! operation per `arr.new`, computation, `arr.del` and `arr.sync` (Kristensen et al. 2016,
//! Sec. IV-A3), with every view resolved to `(base, offset, shape, strides)` as symbolic
//! expressions in elements.
//!
//! Symbols are the function's own i64 values (`n`, `%12`): sizes from `arr.dim` resolve to the
//! shape of the view they measure, and `+ - *` of sizes stay symbolic, so `N-2` equals `N-2`.
//! Resolution is exact for constant indices and constant-step slices (assuming in-range bounds, which
//! only makes two views *identical* when they really are the same view; a step slice's length is
//! a canonical ceiling division, [`crate::wsp::sym::Atom::Ceil`]); anything else becomes an
//! opaque view with fresh symbols, which the WSP graph treats as overlapping everything on its base
//! (conservative, never wrong).
//!
//! Scalar values that are known (constants, and the entry's arguments under a
//! [`super::Specialization`]) are folded through the host arithmetic with the runtime's own scalar
//! semantics, so sizes computed by comparisons, `select`s, casts and float arithmetic become
//! constants too.

use super::KnownArg;
use crate::wsp::{self, BaseId, SymExpr, ViewFacts};
use arrayc_core::semantics::{scalar_binary, scalar_unary};
use arrayc_core::shape::SymbolicSize;
use arrayc_dialect::ir::{BinFn, Body, ComputeFn, Func, IndexEntry, OpKind, Scalar, Type, ValueId};
use arrayc_grammar::ast::DType;
use std::collections::HashMap;

/// Symbolic knowledge about the values of one function, accumulated over its bodies.
#[derive(Default)]
pub struct Symbols {
    views: HashMap<ValueId, wsp::View>,
    ints: HashMap<ValueId, SymExpr>,
    bases: HashMap<ValueId, BaseId>,
    base_sizes: HashMap<BaseId, SymExpr>,
    base_names: HashMap<BaseId, String>,
    /// Scalar values known at compile time.
    consts: HashMap<ValueId, Scalar>,
    /// Booleans that are an equality of two sizes, `x == y` (the lowering's run-time broadcast
    /// `select(x == 1, y, x)`).
    eqs: HashMap<ValueId, (SymExpr, SymExpr)>,
    fresh: u32,
    /// The one base of every array from outside the function's own allocations (see [`Symbols::base`]).
    outside: Option<BaseId>,
    /// Arrays with a base of their own: the function's `arr.new` results that never escape (see
    /// [`Symbols::for_function`]) and the entry's specialized array parameters.
    own: std::collections::HashSet<ValueId>,
}

impl Symbols {
    pub(crate) fn name(f: &Func, v: ValueId) -> String {
        match &f.value_names[v as usize] {
            Some(n) => format!("{n}_{v}"),
            None => format!("%{v}"),
        }
    }

    fn fresh_sym(&mut self, what: &str) -> SymExpr {
        self.fresh += 1;
        SymExpr::sym(&format!("?{what}{}", self.fresh))
    }

    /// Does `v` (an `arr.new` result or a parameter) have a base of its own, rather than the
    /// shared base of everything from outside?
    pub fn has_own_base(&self, v: ValueId) -> bool {
        self.own.contains(&v)
    }

    /// The symbols of function `f`. Every `arr.new` of `f` gets a base of its own unless it
    /// *escapes*: it (or a view of it) is passed to a call, or flows into a loop-carried value or
    /// the result of a branch, from where it may come back under another name (a call may return
    /// its argument, a carried value aliases what was yielded). An array yielded by the loop body
    /// or branch that allocates it (at the body's top level) does not escape: the other name (the
    /// next iteration's carried value, the loop's or branch's result) appears only outside that
    /// body, and inside it, after the `arr.new`, every other array live there is another
    /// allocation (so `x = where(c, y, x[idx])` in a loop, which reads the carried `x` and writes
    /// the new one, is one kernel). Everything else from outside the
    /// function's own allocations (parameters, call results, loop-carried values, branch results)
    /// and every escaping array share one base with opaque layouts, so the overlap test treats
    /// them as possibly overlapping: two names of one array never look disjoint.
    /// `bases` is [`crate::roots::base_arrays`] of `f`.
    pub fn for_function(f: &Func, bases: &HashMap<ValueId, ValueId>) -> Symbols {
        let mut news = std::collections::HashSet::new();
        let mut escaped = std::collections::HashSet::new();
        fn walk(
            body: &arrayc_dialect::ir::Body,
            bases: &HashMap<ValueId, ValueId>,
            news: &mut std::collections::HashSet<ValueId>,
            escaped: &mut std::collections::HashSet<ValueId>,
        ) {
            for op in body {
                let flows: Vec<ValueId> = match &op.kind {
                    OpKind::New { res, .. } => {
                        news.insert(*res);
                        vec![]
                    }
                    OpKind::Call { args, .. } => args.clone(),
                    OpKind::For { inits, yields, body, .. } => {
                        [inits.clone(), from_outside(yields, body, bases)].concat()
                    }
                    OpKind::While { inits, yields, after, .. } => {
                        [inits.clone(), from_outside(yields, after, bases)].concat()
                    }
                    OpKind::If { then_yields, else_yields, then_body, else_body, .. } => {
                        [from_outside(then_yields, then_body, bases), from_outside(else_yields, else_body, bases)]
                            .concat()
                    }
                    _ => vec![],
                };
                escaped.extend(flows.into_iter().map(|v| crate::roots::base_of(bases, v)));
                for b in op.kind.bodies() {
                    walk(b, bases, news, escaped);
                }
            }
        }
        /// The values of `yields` whose base array is not allocated in `body` itself (an `arr.new`
        /// at its top level): those may be another name of an array used in the region around.
        fn from_outside(
            yields: &[ValueId],
            body: &arrayc_dialect::ir::Body,
            bases: &HashMap<ValueId, ValueId>,
        ) -> Vec<ValueId> {
            let local = |b: ValueId| body.iter().any(|op| matches!(op.kind, OpKind::New { res, .. } if res == b));
            yields.iter().copied().filter(|&v| !local(crate::roots::base_of(bases, v))).collect()
        }
        walk(&f.body, bases, &mut news, &mut escaped);
        Symbols { own: news.difference(&escaped).copied().collect(), ..Symbols::default() }
    }

    /// Binds the parameters of `f` to what is known of its arguments (one entry per parameter).
    /// A specialized array parameter is a fresh array of its own (`.npy` arguments and defaults
    /// are), so it gets a base of its own.
    pub fn specialize(&mut self, f: &Func, args: &[Option<KnownArg>]) {
        for (&p, a) in f.params.iter().zip(args) {
            match a {
                Some(KnownArg::Scalar(s)) if f.ty(p) == Type::Scalar(s.dtype()) => self.record(f, p, *s),
                Some(KnownArg::Residue { modulus, residue })
                    if f.ty(p) == Type::Scalar(DType::I64) && *modulus >= 2 && (0..*modulus).contains(residue) =>
                {
                    let q = SymExpr::sym(&quotient_symbol(&Self::name(f, p), *modulus));
                    self.ints.insert(p, SymExpr::constant(*modulus) * q + SymExpr::constant(*residue));
                }
                Some(KnownArg::Shape(shape)) if matches!(f.ty(p), Type::Array(_, r) if r == shape.len()) => {
                    self.own.insert(p);
                    let b = self.base(f, p);
                    self.set_whole_base(p, b, shape.iter().map(|&d| SymExpr::constant(d)).collect());
                }
                _ => {}
            }
        }
    }

    /// Makes `v` the row-major view of the whole base `base`, of shape `shape` (elements).
    fn set_whole_base(&mut self, v: ValueId, base: BaseId, shape: Vec<SymExpr>) {
        let total = shape.iter().fold(SymExpr::constant(1), |acc, s| acc * s.clone());
        self.base_sizes.insert(base, total);
        self.views.insert(v, wsp::View::full(base, shape));
    }

    fn record(&mut self, f: &Func, v: ValueId, s: Scalar) {
        if f.ty(v) == Type::Scalar(DType::I64) {
            self.ints.insert(v, SymExpr::constant(s.as_i64()));
        }
        self.consts.insert(v, s);
    }

    /// The value of a scalar, if known.
    fn known(&self, v: ValueId) -> Option<Scalar> {
        self.consts.get(&v).copied().or_else(|| self.ints.get(&v).and_then(|e| e.as_const()).map(Scalar::I64))
    }

    /// The symbolic value of an i64 value.
    pub fn int(&mut self, f: &Func, v: ValueId) -> SymExpr {
        if let Some(e) = self.ints.get(&v) {
            return e.clone();
        }
        SymExpr::sym(&Self::name(f, v))
    }

    /// The base array of an array value: a base of its own for a non-escaping `arr.new` and a
    /// specialized parameter, else the one shared base of everything from outside
    /// ([`Symbols::for_function`]).
    pub fn base(&mut self, f: &Func, v: ValueId) -> BaseId {
        if let Some(b) = self.bases.get(&v) {
            return *b;
        }
        if !self.own.contains(&v) {
            let b = match self.outside {
                Some(b) => b,
                None => {
                    let b = BaseId(self.base_sizes.len() as u32);
                    self.base_sizes.insert(b, SymExpr::sym("size(outside)"));
                    self.base_names.insert(b, "outside".into());
                    self.outside = Some(b);
                    b
                }
            };
            self.bases.insert(v, b);
            return b;
        }
        let b = BaseId(self.base_sizes.len() as u32);
        self.bases.insert(v, b);
        self.base_sizes.insert(b, SymExpr::sym(&format!("size({})", Self::name(f, v))));
        self.base_names.insert(b, Self::name(f, v));
        b
    }

    /// The view of an array value.
    pub fn view(&mut self, f: &Func, v: ValueId) -> wsp::View {
        if let Some(w) = self.views.get(&v) {
            return w.clone();
        }
        // From outside: an opaque layout over its own base.
        let base = self.base(f, v);
        let Type::Array(_, rank) = f.ty(v) else { unreachable!("view of a scalar") };
        let n = Self::name(f, v);
        let w = wsp::View {
            base,
            offset: SymExpr::sym(&format!("off({n})")),
            shape: (0..rank).map(|k| SymExpr::sym(&format!("dim({n},{k})"))).collect(),
            strides: (0..rank).map(|k| SymExpr::sym(&format!("stride({n},{k})"))).collect(),
            facts: ViewFacts::default(),
        };
        self.views.insert(v, w.clone());
        w
    }

    fn opaque_view(&mut self, base: BaseId, rank: usize) -> wsp::View {
        wsp::View {
            base,
            offset: self.fresh_sym("off"),
            shape: (0..rank).map(|_| self.fresh_sym("dim")).collect(),
            strides: (0..rank).map(|_| self.fresh_sym("stride")).collect(),
            facts: ViewFacts::never_exact(),
        }
    }

    /// Records what a pure host operation means symbolically (sizes, views).
    pub fn learn(&mut self, f: &Func, k: &OpKind) {
        if let Some(res) =
            k.view_of().map(|(res, _)| res).or(if let OpKind::New { res, .. } = k { Some(*res) } else { None })
        {
            if self.views.contains_key(&res) {
                return;
            }
        }
        match k {
            OpKind::Const { res, value } => self.record(f, *res, *value),
            OpKind::Binary { res, op, lhs, rhs } if let (Some(a), Some(b)) = (self.known(*lhs), self.known(*rhs)) => {
                if let Ok(v) = scalar_binary(*op, a, b) {
                    self.record(f, *res, v);
                }
            }
            OpKind::Unary { res, op, arg } if let Some(a) = self.known(*arg) => {
                self.record(f, *res, scalar_unary(*op, a))
            }
            OpKind::Cast { res, arg } if let Some(a) = self.known(*arg) => {
                self.record(f, *res, a.cast(f.ty(*res).dtype()))
            }
            OpKind::Select { res, cond, lhs, rhs } if let Some(c) = self.known(*cond) => {
                let pick = if matches!(c.cast(DType::Bool), Scalar::Bool(true)) { *lhs } else { *rhs };
                if let Some(v) = self.known(pick) {
                    self.record(f, *res, v);
                } else if f.ty(*res) == Type::Scalar(DType::I64) {
                    let e = self.int(f, pick);
                    self.ints.insert(*res, e);
                }
            }
            // Either way the same size (the lowering's broadcast of two provably equal sizes),
            // or `select(x == y, l, r)` with `l` and `r` each `x` or `y`: `r` either way (the
            // broadcast of a size with 1, `select(x == 1, 1, x)`, is `x`).
            OpKind::Select { res, cond, lhs, rhs } if f.ty(*res) == Type::Scalar(DType::I64) => {
                let (a, b) = (self.int(f, *lhs), self.int(f, *rhs));
                let either = |(x, y): &(SymExpr, SymExpr)| [&a, &b].iter().all(|e| *e == x || *e == y);
                if a == b || self.eqs.get(cond).is_some_and(either) {
                    self.ints.insert(*res, b);
                }
            }
            OpKind::Binary { res, op: BinFn::Eq, lhs, rhs }
                if f.ty(*lhs) == Type::Scalar(DType::I64) && f.ty(*rhs) == Type::Scalar(DType::I64) =>
            {
                let e = (self.int(f, *lhs), self.int(f, *rhs));
                self.eqs.insert(*res, e);
            }
            OpKind::Binary { res, op, lhs, rhs } if f.ty(*res) == Type::Scalar(DType::I64) => {
                let (a, b) = (self.int(f, *lhs), self.int(f, *rhs));
                let divisor = b.as_const().filter(|&k| k != 0);
                let e = match op {
                    BinFn::Add => Some(a + b),
                    BinFn::Sub => Some(a - b),
                    BinFn::Mul => Some(a * b),
                    // By a non-zero constant: NumPy's floor division and remainder (the checker's rule).
                    BinFn::FloorDiv => divisor.and_then(|k| SymbolicSize::floor_div(&a, k)),
                    BinFn::Rem => divisor.and_then(|k| SymbolicSize::rem(&a, k)),
                    _ => None,
                };
                if let Some(e) = e {
                    self.ints.insert(*res, e);
                }
            }
            OpKind::Dim { res, src, axis } => {
                let w = self.view(f, *src);
                self.ints.insert(*res, w.shape[*axis].clone());
            }
            OpKind::New { res, sizes } => {
                let shape: Vec<SymExpr> = sizes.iter().map(|s| self.int(f, *s)).collect();
                if self.own.contains(res) {
                    let b = BaseId(self.base_sizes.len() as u32);
                    self.bases.insert(*res, b);
                    self.base_names
                        .insert(b, f.value_names[*res as usize].clone().unwrap_or_else(|| format!("%{res}")));
                    self.set_whole_base(*res, b, shape);
                } else {
                    // An escaping array: on the shared base, with an opaque layout of its shape.
                    let b = self.base(f, *res);
                    let n = Self::name(f, *res);
                    let strides = (0..shape.len()).map(|k| SymExpr::sym(&format!("stride({n},{k})"))).collect();
                    self.views.insert(
                        *res,
                        wsp::View {
                            base: b,
                            offset: SymExpr::sym(&format!("off({n})")),
                            shape,
                            strides,
                            facts: ViewFacts::default(),
                        },
                    );
                }
            }
            OpKind::View { res, src, index, operands } => {
                let w = self.index_view(f, *src, index, operands);
                let b = w.base;
                self.bases.insert(*res, b);
                self.views.insert(*res, w);
            }
            OpKind::Broadcast { res, src, sizes } => {
                let w = self.view(f, *src);
                self.bases.insert(*res, w.base);
                let target: Vec<SymExpr> = sizes.iter().map(|s| self.int(f, *s)).collect();
                let (r, k) = (w.shape.len(), target.len());
                let mut strides = vec![SymExpr::constant(0); k];
                let mut ok = r <= k;
                for j in (k - r.min(k))..k {
                    let i = j + r - k;
                    if w.shape[i] == target[j] {
                        strides[j] = w.strides[i].clone();
                    } else if w.shape[i].as_const() != Some(1) {
                        ok = false;
                    }
                }
                let v = if ok {
                    wsp::View { base: w.base, offset: w.offset, shape: target, strides, facts: w.facts }
                } else {
                    self.opaque_view(w.base, k)
                };
                self.views.insert(*res, v);
            }
            OpKind::Transpose { res, src, perm } => {
                let w = self.view(f, *src);
                self.bases.insert(*res, w.base);
                let shape = perm.iter().map(|&a| w.shape[a].clone()).collect();
                let strides = perm.iter().map(|&a| w.strides[a].clone()).collect();
                self.views.insert(*res, wsp::View { base: w.base, offset: w.offset, shape, strides, facts: w.facts });
            }
            OpKind::Reshape { res, src, sizes } => {
                // Row-major (every stride the next one times its size, the last 1) stays row-major.
                let w = self.view(f, *src);
                self.bases.insert(*res, w.base);
                let shape: Vec<SymExpr> = sizes.iter().map(|s| self.int(f, *s)).collect();
                let mut inner = SymExpr::constant(1);
                let mut row_major = true;
                for k in (0..w.shape.len()).rev() {
                    row_major &= w.strides[k] == inner;
                    inner = inner * w.shape[k].clone();
                }
                let v = if row_major {
                    let mut strides = vec![SymExpr::constant(1); shape.len()];
                    for k in (0..shape.len().saturating_sub(1)).rev() {
                        strides[k] = strides[k + 1].clone() * shape[k + 1].clone();
                    }
                    wsp::View { base: w.base, offset: w.offset, shape, strides, facts: w.facts }
                } else {
                    self.opaque_view(w.base, sizes.len())
                };
                self.views.insert(*res, v);
            }
            OpKind::Diagonal { res, src } => {
                let w = self.view(f, *src);
                self.bases.insert(*res, w.base);
                let (d0, d1) = (&w.shape[0], &w.shape[1]);
                let n = match (d0.as_const(), d1.as_const()) {
                    (Some(a), Some(b)) => Some(SymExpr::constant(a.min(b))),
                    _ if d0 == d1 => Some(d0.clone()),
                    _ => None,
                };
                let v = match n {
                    Some(n) => wsp::View {
                        base: w.base,
                        offset: w.offset,
                        shape: vec![n],
                        strides: vec![w.strides[0].clone() + w.strides[1].clone()],
                        facts: w.facts,
                    },
                    None => self.opaque_view(w.base, 1),
                };
                self.views.insert(*res, v);
            }
            _ => {}
        }
    }

    fn index_view(&mut self, f: &Func, src: ValueId, index: &[IndexEntry], operands: &[ValueId]) -> wsp::View {
        let w = self.view(f, src);
        let operands: Vec<SymExpr> = operands.iter().map(|&o| self.int(f, o)).collect();
        match index_view_of(&w, index, &operands) {
            Some(v) => v,
            None => self.opaque_view(w.base, count_rank(index, w.shape.len())),
        }
    }
}

/// The view `w[index]`, with the index's integer operands (in order: an `At`'s index, a slice's
/// present start, stop and step) as symbolic sizes; `None` where the result is not a strided
/// view of known form (a symbolic step, or a step slice's length past [`wsp::sym::MAX_WEIGHT`]).
///
/// Bounds are resolved as the checker does (in range; a negative constant counts from the end),
/// and [`ViewFacts`] records when that is NumPy's view: `valid` gains each integer index's range
/// (when `w` is its form without conditions, so that the facts are of the real axis), `exact_if`
/// each bound that NumPy would clip or wrap outside it (a constant stop past a symbolic axis, a
/// symbolic bound or index that may be negative).
pub fn index_view_of(w: &wsp::View, index: &[IndexEntry], operands: &[SymExpr]) -> Option<wsp::View> {
    let mut out =
        wsp::View { base: w.base, offset: w.offset.clone(), shape: vec![], strides: vec![], facts: w.facts.clone() };
    // Facts of the axes of `w` hold where `w` exists only if `w` is exactly its form.
    let axes_exact = w.facts.exact_if.is_empty();
    let c = SymExpr::constant;
    let mut ops = operands.iter();
    let mut d = 0;
    for e in index {
        match *e {
            IndexEntry::Full => {
                out.shape.push(w.shape[d].clone());
                out.strides.push(w.strides[d].clone());
                d += 1;
            }
            IndexEntry::NewAxis => {
                out.shape.push(c(1));
                out.strides.push(c(0));
            }
            IndexEntry::At => {
                let dim = &w.shape[d];
                let i = ops.next()?.clone();
                // A constant is NumPy's index (a negative one from the end); so is a symbolic
                // `d - 1`, negative only where the axis is empty. Any other symbolic index is
                // wrapped by NumPy where negative: the form is the view only for i >= 0.
                let (i, resolved) = match i.as_const() {
                    Some(k) if k < 0 => (dim + &c(k), true),
                    Some(_) => (i, true),
                    None => {
                        let last = (dim - &i).as_const().is_some_and(|k| k <= 1);
                        (i, last)
                    }
                };
                if !resolved {
                    out.facts.exact_if.push(i.clone());
                }
                if axes_exact {
                    // In range: 0 <= i < d after resolution, -d <= i < d before.
                    out.facts.valid.push(&(dim - &c(1)) - &i);
                    out.facts.valid.push(if resolved { i.clone() } else { dim + &i });
                }
                out.offset = out.offset + &i * &w.strides[d];
                d += 1;
            }
            IndexEntry::Slice { start, stop, step } => {
                let n = w.shape[d].clone();
                let a = if start { Some(ops.next()?.clone()) } else { None };
                let b = if stop { Some(ops.next()?.clone()) } else { None };
                let s = if step { Some(ops.next()?.clone()) } else { None };
                let step_c = match &s {
                    None => 1,
                    Some(e) => e.as_const()?,
                };
                let bounds = match n.as_const() {
                    // Everything known: NumPy's exact clipping.
                    Some(nc)
                        if a.as_ref().is_none_or(|x| x.is_const())
                            && b.as_ref().is_none_or(|x| x.is_const())
                            && step_c != 0 =>
                    {
                        let (first, len) = arrayc_core::shape::slice_indices(
                            nc,
                            a.and_then(|x| x.as_const()),
                            b.and_then(|x| x.as_const()),
                            step_c,
                        );
                        Some((c(first), c(len)))
                    }
                    // A constant step over a symbolic size: bounds assumed in range, the
                    // checker's rule (lengths `ceil((stop - start) / step)`).
                    _ => {
                        out.facts.exact_if.extend(slice_exact_if(&n, a.as_ref(), b.as_ref(), step_c));
                        arrayc_core::shape::symbolic_slice(&n, a, b, step_c)
                            .filter(|(f, l)| f.weight() <= wsp::sym::MAX_WEIGHT && l.weight() <= wsp::sym::MAX_WEIGHT)
                    }
                };
                let (first, len) = bounds?;
                out.offset = out.offset + first * w.strides[d].clone();
                out.shape.push(len);
                out.strides.push(w.strides[d].clone() * c(step_c));
                d += 1;
            }
        }
    }
    for k in d..w.shape.len() {
        out.shape.push(w.shape[k].clone());
        out.strides.push(w.strides[k].clone());
    }
    Some(out)
}

/// Conditions (each `>= 0`) under which NumPy's slice `start:stop:step` of an axis of `n` is the
/// in-range form of [`arrayc_core::shape::symbolic_slice`], as a set of indices. With `step > 0`:
/// a start that is absent or a constant `>= 0` needs none (past the end both are empty), a
/// negative constant start `n + start >= 0`, a symbolic one `0 <= start <= n`; a stop that is
/// absent or a negative constant needs none (before the start both are empty), a constant
/// `n - stop >= 0`, a symbolic one `0 <= stop <= n`. With `step < 0` (first `n - 1`, stop `-1` by
/// default), every present bound `-1 <= bound <= n - 1` after resolution (start: `>= 0`).
fn slice_exact_if(n: &SymExpr, start: Option<&SymExpr>, stop: Option<&SymExpr>, step: i64) -> Vec<SymExpr> {
    let c = SymExpr::constant;
    let resolve = |b: &SymExpr| match b.as_const() {
        Some(k) if k < 0 => n + &c(k),
        _ => b.clone(),
    };
    let mut out = vec![];
    if step > 0 {
        if let Some(s) = start {
            match s.as_const() {
                Some(k) if k >= 0 => {}
                Some(k) => out.push(n + &c(k)),
                None => out.extend([s.clone(), n - s]),
            }
        }
        if let Some(e) = stop {
            match e.as_const() {
                Some(k) if k < 0 => {}
                Some(k) => out.push(n - &c(k)),
                None => out.extend([e.clone(), n - e]),
            }
        }
    } else {
        if let Some(s) = start {
            let s = resolve(s);
            out.extend([s.clone(), &(n - &c(1)) - &s]);
        }
        if let Some(e) = stop {
            let e = resolve(e);
            out.extend([&e + &c(1), &(n - &c(1)) - &e]);
        }
    }
    out
}

/// Rank of the result of indexing a `rank`-d array with `index`.
fn count_rank(index: &[IndexEntry], rank: usize) -> usize {
    let dropped = index.iter().filter(|e| matches!(e, IndexEntry::At)).count();
    let added = index.iter().filter(|e| matches!(e, IndexEntry::NewAxis)).count();
    rank - dropped + added
}

/// Is `k` an operation the WSP region contains (an array operation of Def. 9/10)?
pub fn is_wsp_op(k: &OpKind) -> bool {
    matches!(
        k,
        OpKind::New { .. }
            | OpKind::Compute { .. }
            | OpKind::Del { .. }
            | OpKind::Sync { .. }
            | OpKind::Exchange { .. }
            | OpKind::AllReduce { .. }
    )
}

/// Is `k` a pure host operation that can move freely inside a segment (no effects, no reads of
/// array contents)?
pub fn is_pure_host_op(k: &OpKind) -> bool {
    matches!(
        k,
        OpKind::Const { .. }
            | OpKind::Binary { .. }
            | OpKind::Unary { .. }
            | OpKind::Cast { .. }
            | OpKind::Select { .. }
            | OpKind::Dim { .. }
            | OpKind::Reshapable { .. }
            | OpKind::Contiguous { .. }
    ) || k.view_of().is_some()
}

/// Is `k` a host check (`cf.assert`) of host values only? Such a check stays inside a segment: the
/// outline pass emits it with the segment's pure host operations, ahead of the segment's kernels,
/// which is unobservable (a segment has no host-visible effect, and a failed check ends the
/// program). Checks must not split regions: `arange`'s, or a size check, would cut fusion apart.
pub fn is_host_check(k: &OpKind) -> bool {
    matches!(k, OpKind::Assert { .. })
}

/// The WSP region of `body[range]` (a segment of WSP and pure host operations) and, for each region
/// operation, its index in `body`.
pub fn build_region(
    f: &Func,
    body: &Body,
    range: std::ops::Range<usize>,
    syms: &mut Symbols,
) -> (wsp::Region, Vec<usize>) {
    let mut ops = vec![];
    let mut index = vec![];
    for i in range {
        let op = &body[i];
        let line = op.loc.map(|l| l.line);
        syms.learn(f, &op.kind);
        let w = match &op.kind {
            // An escaping array lives on the shared base of everything from outside: its `new` is
            // not a region operation (the outline pass emits allocations ahead of the blocks
            // anyway), and its `del` is a `del` of the shared base, ordered after every use (reads
            // included: a `sync` alone orders only after writes, and a read could then run after
            // the array is freed), and a `sync` of it, so that the shared base is never contracted
            // (Sec. IV-A2 applies to a whole base) and counts as written.
            OpKind::New { res, .. } if !syms.has_own_base(*res) => continue,
            OpKind::Del { base } if !syms.has_own_base(*base) => {
                let shared = syms.base(f, *base);
                let mut op = wsp::Op::del(shared);
                op.sync.push(shared);
                op
            }
            OpKind::New { res, .. } => {
                let b = syms.base(f, *res);
                wsp::Op::new_base(b)
            }
            OpKind::Del { base } => wsp::Op::del(syms.base(f, *base)),
            OpKind::Sync { base } => wsp::Op::sync(syms.base(f, *base)),
            OpKind::Exchange { view } => wsp::Op::communication("exchange", vec![syms.view(f, *view)], vec![]),
            OpKind::AllReduce { view, .. } => {
                let v = syms.view(f, *view);
                wsp::Op::communication("allreduce", vec![v.clone()], vec![v])
            }
            OpKind::Compute { func, out, ins } => {
                let outs = vec![syms.view(f, *out)];
                let arrays: Vec<wsp::View> =
                    ins.iter().filter(|v| f.ty(**v).is_array()).map(|v| syms.view(f, *v)).collect();
                match func {
                    ComputeFn::Reduce(_, axis) => {
                        wsp::Op::reduction(func.name(), outs[0].clone(), arrays[0].clone(), *axis)
                    }
                    ComputeFn::Scatter(..) => {
                        wsp::Op::scatter(func.name(), outs[0].clone(), arrays[0].clone(), arrays[1..].to_vec())
                    }
                    ComputeFn::Scan(_, axis) => wsp::Op::scan(func.name(), outs[0].clone(), arrays[0].clone(), *axis),
                    ComputeFn::Gather(_) => {
                        wsp::Op::gather(func.name(), outs[0].clone(), arrays[0].clone(), arrays[1..].to_vec())
                    }
                    _ => wsp::Op::elementwise(func.name(), outs, arrays),
                }
            }
            _ => continue,
        };
        ops.push(match line {
            Some(l) => w.with_line(l),
            None => w,
        });
        index.push(i);
    }
    // An exchange is for the next computation, an all-reduce for the previous one (the
    // `distribute` pass puts them right before and right after it).
    let computation = |o: &wsp::Op| !matches!(o.kind, wsp::OpKind::System | wsp::OpKind::Communication { .. });
    for k in 0..ops.len() {
        if matches!(ops[k].kind, wsp::OpKind::Communication { .. }) {
            let partner = match ops[k].outs.is_empty() {
                true => (k + 1..ops.len()).find(|&j| computation(&ops[j])),
                false => (0..k).rev().find(|&j| computation(&ops[j])),
            };
            ops[k].kind = wsp::OpKind::Communication { partner };
        }
    }
    let mut facts: Vec<SymExpr> =
        ops.iter().flat_map(|o| o.ins.iter().chain(&o.outs)).flat_map(|v| v.facts.valid.iter().cloned()).collect();
    facts.retain(|e| e.as_const().is_none_or(|c| c < 0));
    facts.sort();
    facts.dedup();
    let region = wsp::Region {
        ops,
        base_sizes: syms.base_sizes.clone(),
        base_names: syms.base_names.clone(),
        bindings: HashMap::new(),
        facts,
    };
    (region, index)
}

/// The symbol `q` of an i64 parameter known only modulo `modulus` ([`KnownArg::Residue`]): the
/// parameter is `modulus * q + residue`, so sizes such as `ceil(n / 2)` and `ceil((n - 1) / 2)`
/// become polynomials in `q` and compare exactly.
pub fn quotient_symbol(param: &str, modulus: i64) -> String {
    format!("({param} div {modulus})")
}
