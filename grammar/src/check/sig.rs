//! Function signatures: declared types to checked types, size symbols, call-site binding.

use super::{Checker, FnInfo};
use crate::ast::{Block, DimExpr, Function, Program, Stmt, TypeExpr};
use crate::diag::Diagnostic;
use crate::types::{Size, SizeSym, Ty};
use crate::FnSig;
use std::collections::{BTreeSet, HashMap, HashSet};

/// Collects names reassigned (`x = e`, `x op= e` without index) anywhere in `b`.
pub fn mutated_names(b: &Block, out: &mut HashSet<String>) {
    for s in &b.stmts {
        match s {
            Stmt::Assign { name, .. } => {
                out.insert(name.name.clone());
            }
            Stmt::AugAssign { target, index, .. } if index.is_empty() => {
                out.insert(target.name.clone());
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => mutated_names(body, out),
            Stmt::If { then_block, else_block, .. } => {
                mutated_names(then_block, out);
                if let Some(e) = else_block {
                    mutated_names(e, out);
                }
            }
            _ => {}
        }
    }
}

/// Size symbols named in a dimension expression.
pub fn dim_symbols(d: &DimExpr, out: &mut BTreeSet<String>) {
    match d {
        DimExpr::Lit(..) | DimExpr::Exists(_) | DimExpr::AnyRank(_) => {}
        DimExpr::Sym(i) => {
            out.insert(i.name.clone());
        }
        DimExpr::Add(a, b, _) | DimExpr::Sub(a, b, _) | DimExpr::Mul(a, b, _) => {
            dim_symbols(a, out);
            dim_symbols(b, out);
        }
    }
}

impl Checker {
    /// Converts a dimension expression to an affine size; reports non-affine products.
    pub fn dim_size(&mut self, d: &DimExpr) -> Option<Size> {
        match d {
            DimExpr::Lit(v, _) => Some(Size::lit(*v)),
            DimExpr::Exists(_) => Some(self.fresh()),
            // Only as the whole of `f64[...]`, which `type_of` takes first.
            DimExpr::AnyRank(_) => None,
            DimExpr::Sym(i) => Some(Size::sym(SizeSym::Named(i.name.clone()))),
            DimExpr::Add(a, b, _) => Some(self.dim_size(a)?.add(&self.dim_size(b)?)),
            DimExpr::Sub(a, b, _) => Some(self.dim_size(a)?.sub(&self.dim_size(b)?)),
            DimExpr::Mul(a, b, sp) => {
                let (x, y) = (self.dim_size(a)?, self.dim_size(b)?);
                let r = x.mul(&y);
                if r.is_none() {
                    self.error(
                        "E0206",
                        "array sizes must be affine: one factor of `*` must be a literal",
                        sp.clone(),
                        "product of two symbols",
                    );
                }
                r
            }
        }
    }

    /// Converts a written type to a checked type (symbols become `SizeSym::Named`).
    pub fn type_of(&mut self, t: &TypeExpr) -> Ty {
        if t.is_any_rank() {
            return Ty::AnyRank(t.dtype);
        }
        match &t.dims {
            None => Ty::Scalar(t.dtype),
            Some(dims) => {
                let mut shape = Vec::new();
                for d in dims {
                    match self.dim_size(d) {
                        Some(s) => shape.push(s),
                        None => return Ty::Error,
                    }
                }
                Ty::Array(t.dtype, shape)
            }
        }
    }

    /// Pass 1: signatures of all functions, duplicates, size symbols in result types.
    pub fn collect_signatures(&mut self, p: &Program) {
        for (i, f) in p.functions.iter().enumerate() {
            let mut info = FnInfo { primary: true, rank_generic: f.is_rank_generic(), ..Default::default() };
            mutated_names(&f.body, &mut info.mutated);
            if info.rank_generic {
                self.generic_asts.insert(i, f.clone());
            }
            let name = f.name.name.as_str();
            // A function may shadow a builtin (`docs/language.md`), but not `range`, the syntax
            // of `for` loops, which no call reaches.
            if name == "range" {
                self.err(
                    Diagnostic::error(
                        "E0203",
                        "function `range` redefines the `for` loop's `range`".to_string(),
                        f.name.span.clone(),
                        "`range` is syntax",
                    )
                    .with_note(
                        "`for i in range(a, b, step)` is a loop, not a call, so this function could never be called",
                    )
                    .with_help("rename the function"),
                );
                info.primary = false;
            } else if let Some(&j) = self.fn_index.get(name) {
                let first = p.functions[j].name.span.clone();
                self.err(
                    Diagnostic::error(
                        "E0203",
                        format!("function `{name}` is defined more than once"),
                        f.name.span.clone(),
                        "redefined here",
                    )
                    .with_label(first, "first defined here"),
                );
                info.primary = false;
            } else {
                self.fn_index.insert(name.to_string(), i);
            }
            let sig = self.signature(f, &mut info);
            self.sigs.push(sig);
            self.infos.push(info);
            self.instance_of.push(None);
        }
    }

    pub(super) fn signature(&mut self, f: &Function, info: &mut FnInfo) -> FnSig {
        let mut params = Vec::new();
        let mut seen: HashMap<&str, &crate::ast::Ident> = HashMap::new();
        let mut bound = BTreeSet::new();
        for p in &f.params {
            if let Some(prev) = seen.get(p.name.name.as_str()) {
                self.err(
                    Diagnostic::error(
                        "E0204",
                        format!("parameter `{}` is declared twice", p.name.name),
                        p.name.span.clone(),
                        "duplicate parameter",
                    )
                    .with_label(prev.span.clone(), "first declared here"),
                );
            }
            seen.insert(&p.name.name, &p.name);
            let ty = self.type_of(&p.ty);
            if let Some(dims) = &p.ty.dims {
                for d in dims {
                    dim_symbols(d, &mut bound);
                }
            }
            if ty == Ty::Scalar(crate::ast::DType::I64) && !info.mutated.contains(&p.name.name) {
                info.size_params.insert(p.name.name.clone());
                bound.insert(p.name.name.clone());
            }
            info.required.push(p.default.is_none());
            params.push((p.name.name.clone(), ty));
        }
        let mut results = Vec::new();
        for r in &f.results {
            let ty = self.type_of(r);
            if r.is_any_rank() && !f.is_rank_generic() && !f.name.name.contains('.') {
                self.err(
                    Diagnostic::error(
                        "E0208",
                        format!("the result type {ty} of `{}` needs a rank-generic parameter", f.name.name),
                        r.span.clone(),
                        "rank inferred from nothing",
                    )
                    .with_note("a result `f64[...]` takes its rank from the body of each instance of a function with a `[...]` parameter")
                    .with_help("write the result's rank (`f64[N, M]`, `f64[?]`), or make a parameter rank-generic (`x: f64[...]`)"),
                );
            }
            if let Some(dims) = &r.dims {
                let mut syms = BTreeSet::new();
                for d in dims {
                    dim_symbols(d, &mut syms);
                }
                for s in syms.difference(&bound) {
                    let mut d = Diagnostic::error(
                        "E0205",
                        format!("size symbol `{s}` in the result type is not bound by any parameter"),
                        r.span.clone(),
                        "unbound size symbol",
                    );
                    if info.mutated.contains(s) {
                        d = d.with_note(format!("`{s}` is reassigned in the body, so it cannot be used as a size"));
                    } else {
                        d = d.with_help(format!(
                            "add a parameter `{s}: i64` or mention `{s}` in a parameter's array type"
                        ));
                    }
                    self.err(d);
                }
            }
            results.push(ty);
        }
        // An instance (`lap.r2`) is named after its generic function in messages.
        let name = f.name.name.split('.').next().unwrap_or_default().to_string();
        FnSig { name, params, results }
    }
}

/// Substitutes bound symbols in `s`; `None` if a symbol is unbound.
pub fn subst(s: &Size, binding: &HashMap<String, Size>) -> Option<Size> {
    let mut out = Size::lit(s.constant);
    for (sym, k) in &s.terms {
        let v = match sym {
            SizeSym::Named(n) => binding.get(n)?.clone(),
            SizeSym::Unknown(_) => Size::sym(sym.clone()),
            SizeSym::Ceil(num, d) => subst(num, binding)?.ceil_div(*d)?,
            SizeSym::Bcast(m) => {
                let mut out = subst(m.first()?, binding)?;
                for s in &m[1..] {
                    out = Size::broadcast(&out, &subst(s, binding)?);
                }
                out
            }
        };
        out = out.add(&v.mul(&Size::lit(*k))?);
    }
    Some(out)
}

/// Tries to bind the single unbound symbol of `expected` (coefficient ±1) from `actual`.
/// Returns `Some(Some(false))` when `expected` is fully bound and provably differs from `actual`.
pub fn bind_dim(expected: &Size, actual: &Size, binding: &mut HashMap<String, Size>) -> Option<bool> {
    if let Some(s) = subst(expected, binding) {
        return s.provably_eq(actual);
    }
    let unbound: Vec<(&String, i64)> = expected
        .terms
        .iter()
        .filter_map(|(s, k)| match s {
            SizeSym::Named(n) if !binding.contains_key(n) => Some((n, *k)),
            _ => None,
        })
        .collect();
    if let [(name, k)] = unbound.as_slice() {
        if *k == 1 || *k == -1 {
            let mut rest = expected.clone();
            rest.terms.remove(&SizeSym::Named((*name).clone()));
            let rest = subst(&rest, binding)?;
            let v = actual.sub(&rest).mul(&Size::lit(*k))?;
            binding.insert((*name).clone(), v);
        }
    }
    None
}
