//! Rank-generic functions: a parameter `x: f64[...]` takes an array of any rank. Such a function
//! is checked (and later lowered) once per tuple of its `[...]` arguments' ranks at its calls, as
//! a copy of its tree whose `[...]` types are concrete: `f64[x.shape.0, x.shape.1]` for rank 2,
//! size symbols that each call binds like any other ([`crate::types::shape_symbol`]). The checker
//! is the same for an instance as for any function; only the inferred result `-> f64[...]` is
//! new: the first `return` gives it ([`super::stmt`]), and the instance's declared result then
//! says the same in the size symbols of its parameters (`f64[x.shape.0-2, x.shape.1-2]`), so that
//! each call knows the result's sizes.

use super::sig::mutated_names;
use super::Checker;
use crate::ast::{DimExpr, Expr, ExprId, Function, Ident, Span};
use crate::diag::Diagnostic;
use crate::types::{shape_symbol, Size, SizeSym, Ty};
use crate::FnSig;

/// How many instances may be being checked inside each other: a function that calls itself with
/// a higher rank each time (`f(x[newaxis])` in `f`) would otherwise make instances for ever.
pub const MAX_INSTANCE_DEPTH: usize = 16;

/// How an error in an instance's body names the instance (and the call that made it).
const INSTANCE_NOTE: &str = "in the instance of";

/// How many instances (innermost first) an error names.
const MAX_INSTANCE_NOTES: usize = 3;

impl Checker {
    /// The instance of the rank-generic function `fi` for the arguments `arg_tys` (by parameter;
    /// `None` for a parameter not given) of the call `call` (`None`: the entry function of
    /// `arrayc run`, whose arguments give the ranks), made and checked when it is the first call
    /// with these ranks. `None` after an error (reported here, or earlier for the arguments).
    pub(super) fn instantiate(
        &mut self,
        fi: usize,
        slots: &[Option<&Expr>],
        arg_tys: &[Option<Ty>],
        call: Option<&Expr>,
    ) -> Option<usize> {
        let generic = self.generic_asts.get(&fi)?.clone();
        let name = generic.name.name.clone();
        let call_span = call.map_or_else(|| generic.name.span.clone(), |c| c.span.clone());
        let mut ranks = Vec::new();
        let mut ok = true;
        for (k, p) in generic.params.iter().enumerate() {
            if !p.ty.is_any_rank() {
                continue;
            }
            match (&arg_tys[k], slots[k]) {
                (Some(Ty::Array(d, shape)), _) if *d == p.ty.dtype => ranks.push(shape.len()),
                (Some(t), Some(a)) if *t != Ty::Error => {
                    let expected = Ty::AnyRank(p.ty.dtype);
                    let mut d = Diagnostic::error(
                        "E0312",
                        format!("argument `{}` of `{name}` has type {t}, expected {expected}", p.name.name),
                        a.span.clone(),
                        format!("expected {expected}, an array of any rank"),
                    );
                    d = match t {
                        Ty::Array(..) => d.with_help(format!("cast it: `{}(...)`", p.ty.dtype.name())),
                        _ => d.with_help("pass an array: a `[...]` parameter takes an array of any rank, not a scalar"),
                    };
                    self.err(d);
                    ok = false;
                }
                _ => ok = false,
            }
        }
        if !ok {
            return None;
        }
        let key = (fi, ranks.clone());
        if let Some(&ii) = self.instances.get(&key) {
            let inferring = self.sigs[ii].results.iter().any(|t| matches!(t, Ty::AnyRank(_)));
            if inferring && self.inst_stack.contains(&ii) {
                self.err(
                    Diagnostic::error(
                        "E0209",
                        format!("`{name}` calls itself before its result's rank is known"),
                        call_span,
                        "recursive call",
                    )
                    .with_note(format!("the result of `{name}` is `[...]`, inferred from its `return`"))
                    .with_help("declare the result type with its rank"),
                );
                return None;
            }
            return Some(ii);
        }
        if self.inst_stack.len() >= MAX_INSTANCE_DEPTH {
            self.err(
                Diagnostic::error(
                    "E0209",
                    format!("too many nested instances of rank-generic functions (more than {MAX_INSTANCE_DEPTH})"),
                    call_span,
                    "one more instance here",
                )
                .with_note(format!("`{name}` is called with ever higher ranks, each a new instance"))
                .with_help("give the recursion a rank that does not grow"),
            );
            return None;
        }
        let mut inst = generic;
        inst.name.name = instance_name(&name, &ranks);
        let mut generic_ranks = ranks.iter();
        for p in &mut inst.params {
            let Some([DimExpr::AnyRank(sp)]) = p.ty.dims.as_deref() else { continue };
            let (sp, rank) = (sp.clone(), generic_ranks.next().copied().unwrap_or(0));
            p.ty.dims = Some(
                (0..rank)
                    .map(|axis| DimExpr::Sym(Ident { name: shape_symbol(&p.name.name, axis), span: sp.clone() }))
                    .collect(),
            );
        }
        let mut next = self.next_expr;
        inst.for_each_expr_mut(&mut |e| {
            e.id = ExprId(next);
            next += 1;
        });
        self.next_expr = next;
        let mut info = super::FnInfo { primary: false, ..Default::default() };
        mutated_names(&inst.body, &mut info.mutated);
        let sig = self.signature(&inst, &mut info);
        let ii = self.sigs.len();
        let what = instance_text(&sig, &self.generic_asts[&fi]);
        self.sigs.push(sig);
        self.infos.push(info);
        self.instance_of.push(Some(fi));
        self.instances.insert(key, ii);
        let slot = self.new_functions.len();
        self.new_functions.push(None);

        // Check the body as any function's, then put back the caller's state.
        let scopes = std::mem::take(&mut self.scopes);
        let caller = self.cur_fn;
        let first = self.diags.len();
        self.cur_fn = ii;
        self.inst_stack.push(ii);
        self.check_function(&inst);
        self.inst_stack.pop();
        self.cur_fn = caller;
        self.scopes = scopes;
        for d in &mut self.diags[first..] {
            // Name the instances the error is in, innermost first, and at most a few of them.
            let shown = d.notes.iter().filter(|n| n.starts_with(INSTANCE_NOTE)).count();
            if shown < MAX_INSTANCE_NOTES {
                d.notes.push(format!("{INSTANCE_NOTE} `{name}` for {what}"));
                if let Some(c) = call {
                    let label = format!("{INSTANCE_NOTE} `{name}` for {what}, called here");
                    d.secondary.push(crate::diag::Label { span: c.span.clone(), message: label });
                }
            } else if shown == MAX_INSTANCE_NOTES {
                d.notes.push("and in the instances that call these".to_string());
            }
        }
        self.declare_inferred_results(&mut inst, ii);
        self.new_functions[slot] = Some(inst);
        Some(ii)
    }

    /// The instance of the rank-generic function `entry` for the ranks `ranks` of its `[...]`
    /// parameters, as `arrayc run --entry` makes it from its array arguments; the other
    /// parameters have their declared types.
    pub(super) fn instantiate_entry(&mut self, entry: &str, ranks: &[usize]) {
        let Some(&fi) = self.fn_index.get(entry) else { return };
        let Some(generic) = self.generic_asts.get(&fi) else { return };
        let mut ranks = ranks.iter();
        let params: Vec<(crate::ast::DType, Option<usize>)> = generic
            .params
            .iter()
            .map(|p| (p.ty.dtype, p.ty.is_any_rank().then(|| ranks.next().copied()).flatten()))
            .collect();
        let mut arg_tys = Vec::new();
        for (k, (dtype, rank)) in params.into_iter().enumerate() {
            arg_tys.push(Some(match rank {
                Some(r) => Ty::Array(dtype, (0..r).map(|_| self.fresh()).collect()),
                None => self.sigs[fi].params[k].1.clone(),
            }));
        }
        let slots = vec![None; arg_tys.len()];
        self.instantiate(fi, &slots, &arg_tys, None);
    }

    /// Writes each inferred result type (`-> f64[...]`) of instance `ii`, as its `return` gave it,
    /// into the instance's tree: sizes over the parameters' size symbols as those, other sizes
    /// (known only in the body) as `?`.
    fn declare_inferred_results(&mut self, inst: &mut Function, ii: usize) {
        for (r, ty) in inst.results.iter_mut().zip(&self.sigs[ii].results) {
            let Some([DimExpr::AnyRank(sp)]) = r.dims.as_deref() else { continue };
            let Ty::Array(_, shape) = ty else { continue };
            let sp = sp.clone();
            r.dims = Some(shape.iter().map(|s| size_dim(s, &sp)).collect());
        }
    }
}

/// The name of the instance of the rank-generic function `name` for the ranks of its `[...]`
/// parameters, in order: `lap.r2`, `axpy.r1_2` (a dot, which no name a program writes has).
pub fn instance_name(name: &str, ranks: &[usize]) -> String {
    let ranks: Vec<String> = ranks.iter().map(|r| r.to_string()).collect();
    format!("{name}.r{}", ranks.join("_"))
}

/// `x: f64[_, _]` (the `[...]` parameters of instance `sig` of `generic`), for messages.
fn instance_text(sig: &FnSig, generic: &Function) -> String {
    let parts: Vec<String> = generic
        .params
        .iter()
        .zip(&sig.params)
        .filter(|(p, _)| p.ty.is_any_rank())
        .map(|(p, (_, t))| {
            let rank = t.rank().unwrap_or(0);
            format!("`{}: {}[{}]`", p.name.name, p.ty.dtype.name(), vec!["_"; rank].join(", "))
        })
        .collect();
    parts.join(", ")
}

/// A size as a dimension of a declared type: `Exists` when it has a size known only in the body.
fn size_dim(s: &Size, sp: &Span) -> DimExpr {
    // An unknown or a ceiling division (no declared type can write one) is a size known in the body.
    if s.has_unknown() || !s.is_affine() {
        return DimExpr::Exists(sp.clone());
    }
    let lit = |v: i64| DimExpr::Lit(v, sp.clone());
    let mut out: Option<DimExpr> = None;
    for (sym, k) in &s.terms {
        let SizeSym::Named(n) = sym else { continue };
        let atom = DimExpr::Sym(Ident { name: n.clone(), span: sp.clone() });
        let mag = k.unsigned_abs() as i64;
        let term = if mag == 1 { atom } else { DimExpr::Mul(Box::new(lit(mag)), Box::new(atom), sp.clone()) };
        out = Some(match (out, *k < 0) {
            (None, false) => term,
            (None, true) => DimExpr::Sub(Box::new(lit(0)), Box::new(term), sp.clone()),
            (Some(a), false) => DimExpr::Add(Box::new(a), Box::new(term), sp.clone()),
            (Some(a), true) => DimExpr::Sub(Box::new(a), Box::new(term), sp.clone()),
        });
    }
    match out {
        None => lit(s.constant),
        Some(a) if s.constant > 0 => DimExpr::Add(Box::new(a), Box::new(lit(s.constant)), sp.clone()),
        Some(a) if s.constant < 0 => {
            DimExpr::Sub(Box::new(a), Box::new(lit(s.constant.unsigned_abs() as i64)), sp.clone())
        }
        Some(a) => a,
    }
}
