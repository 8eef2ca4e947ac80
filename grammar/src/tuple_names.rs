//! Python's tuple bound to one name (`docs/language.md`, "Tuples bound to a name"), rewritten after
//! parsing into one name per element: `g = x.shape;`, `parts = np.array_split(x, 3);`,
//! `r = f(x);` (a function with several results), `qr = divmod(a, b);`, `t = (1, 2.0);`,
//! `g = np.meshgrid(u, v);`, `g = np.gradient(z);` (of a parameter), `t2 = t;` (a tuple name).
//!
//! A name bound exactly once in its function (a `let` or its first assignment), to a value whose
//! number of elements `k` the front end knows ([`tuple_len`]), becomes the `k` names `g.0 .. g.k-1`
//! (`let (g.0, g.1) = x.shape;`, [`crate::syntax::is_synthesized`] names), and its uses:
//!
//! - `g[i]`, `i` an integer literal (negative counts from the end), is `g.i`; out of range, or a
//!   run-time index, E0309 naming the literal index and `np.array(g)`.
//! - `len(g)` is `k`.
//! - `n, m = g` (as many targets as elements, else E0106) binds the elements.
//! - `for d in g` (and `for d in x.shape`) iterates the elements as the list `[g.0, g.1, ..]`
//!   (an array: elements of one shape).
//! - Python's `sum(g)` is `0 + g.0 + g.1 + ..`.
//! - any other use (`zeros(g)`, `reshape(y, g)`) is the tuple `(g.0, g.1, ..)`.
//!
//! A `let` with a starred name (`a, *rest = t`) is [`crate::starred_targets::unpack`]'s.
//!
//! A name bound more than once keeps today's meaning (a tuple used as one value is E0309).
//!
//! Python's reductions of a shape (`x.shape` of such a parameter, or a name bound to it), whose
//! elements are integers: `len(s)` is the rank, `min(s)`/`max(s)` (also `np.`) Python's `min`/`max`
//! of the elements, `sum(s)` their sum, `np.prod(s)`/`math.prod(s)` their product (`1` of a 0-d
//! shape, as NumPy's and Python's) ([`TupleNames::shape_reductions`]).

use crate::ast::{BinOp, Block, Expr, ExprKind, FPart, Function, Index, Program, Stmt};
use crate::builtin::QUALIFIED;
use crate::check::literal_int;
use crate::diag::Diagnostic;
use crate::syntax::mk;
use std::cell::Cell;
use std::collections::HashMap;

/// Rewrites every function's names bound to a tuple (see the module's docs); returns the errors.
pub fn tuple_names(program: &mut Program) -> Vec<Diagnostic> {
    let results: HashMap<String, usize> =
        program.functions.iter().map(|f| (f.name.name.clone(), f.results.len())).collect();
    let ids = Cell::new(program.num_exprs);
    let mut errors = Vec::new();
    for f in &mut program.functions {
        let count = crate::py_lists::binding_counts(&f.body);
        let mut pass = TupleNames {
            ids: &ids,
            results: &results,
            count,
            ranks: ranks(f),
            tuples: HashMap::new(),
            shapes: Default::default(),
            rows: Default::default(),
            errors: vec![],
        };
        pass.block(&mut f.body);
        let rows = &mut pass.rows;
        pass.errors.extend(crate::starred_targets::list_uses(&mut f.body, rows));
        f.for_each_expr_mut(&mut |e| pass.shape_reductions(e));
        if !pass.tuples.is_empty() {
            let TupleNames { tuples, ids, errors: errs, .. } = &mut pass;
            f.for_each_expr_mut(&mut |e| uses(ids, tuples, e, errs));
        }
        errors.append(&mut pass.errors);
    }
    program.num_exprs = ids.get();
    errors
}

/// The number of elements of the tuple `e`, where the front end knows it: a tuple literal, a
/// call of one of the program's functions with several results (`results`), `divmod`, `split` and
/// `array_split` of a literal count (or list of points), `meshgrid` of `k` arrays, `x.shape` and
/// NumPy's `np.gradient(x)` (one gradient per axis) of a parameter `x` declared as an array of rank
/// `ranks[x]` and never rebound (not in `count`, the names bound in the function).
pub fn tuple_len(
    e: &Expr,
    results: &HashMap<String, usize>,
    count: &HashMap<String, usize>,
    ranks: &HashMap<String, usize>,
) -> Option<usize> {
    let param_rank = |x: &Expr| match &x.kind {
        ExprKind::Var(x) if !count.contains_key(&x.name) => ranks.get(&x.name).copied(),
        _ => None,
    };
    match &e.kind {
        ExprKind::Tuple(items) => Some(items.len()),
        ExprKind::Call { func, args, kwargs } => {
            let name = func.name.strip_prefix(QUALIFIED).unwrap_or(&func.name);
            match name {
                ".shape" => param_rank(&args[0]),
                "divmod" => Some(2),
                "split" | "array_split" | "vsplit" | "hsplit" => match &args.get(1)?.kind {
                    ExprKind::Int(k) if *k > 1 => usize::try_from(*k).ok(),
                    ExprKind::List(points) | ExprKind::Tuple(points) => Some(points.len() + 1),
                    _ => None,
                },
                // NumPy's list of one gradient per axis (a 1-d `f`'s gradient is one array).
                "gradient" if func.name == crate::builtin::qualified("gradient") && kwargs.is_empty() => {
                    let [f] = args.as_slice() else { return None };
                    param_rank(f).filter(|&r| r > 1)
                }
                "meshgrid" if func.name == crate::builtin::qualified("meshgrid") && args.len() > 1 => Some(args.len()),
                _ => results.get(&func.name).copied().filter(|&k| k > 1),
            }
        }
        _ => None,
    }
}

/// The rank of each parameter declared as an array (`x: f64[N, M]` has 2).
pub fn ranks(f: &Function) -> HashMap<String, usize> {
    f.params.iter().filter_map(|p| Some((p.name.name.clone(), p.ty.dims.as_ref()?.len()))).collect()
}

/// The state of one function's rewrite.
struct TupleNames<'a> {
    ids: &'a Cell<u32>,
    /// The number of results of each of the program's functions.
    results: &'a HashMap<String, usize>,
    /// How many times each name is bound in the function.
    count: HashMap<String, usize>,
    /// The parameters' ranks.
    ranks: HashMap<String, usize>,
    /// The names rewritten, with their number of elements.
    tuples: HashMap<String, usize>,
    /// Those of them bound to a shape (`g = x.shape`), whose elements are integers.
    shapes: std::collections::HashSet<String>,
    /// The names bound to Python's list of an array's rows by a starred target
    /// ([`crate::starred_targets::unpack`]).
    rows: std::collections::HashSet<String>,
    errors: Vec<Diagnostic>,
}

/// The name of element `i` of the tuple `g`.
fn element(g: &str, i: usize) -> String {
    format!("{g}.{i}")
}

impl TupleNames<'_> {
    /// The number of elements of the tuple `e`, where the front end knows it ([`tuple_len`]).
    fn tuple_len(&self, e: &Expr) -> Option<usize> {
        tuple_len(e, self.results, &self.count, &self.ranks)
    }

    /// Rewrites the bindings in `b` and the blocks inside it.
    fn block(&mut self, b: &mut Block) {
        for s in std::mem::take(&mut b.stmts) {
            self.stmt(s, b);
        }
    }

    /// Rewrites the binding `s` (and the blocks inside it) into `b`.
    fn stmt(&mut self, mut s: Stmt, b: &mut Block) {
        {
            match &mut s {
                Stmt::For { body, .. } | Stmt::While { body, .. } => self.block(body),
                Stmt::Print { args, .. } => {
                    // `print(x.shape)`: Python's `str` of the tuple, as the f-string `f"{x.shape}"`.
                    for a in args.iter_mut().filter(|a| self.is_shape(a)) {
                        let field = FPart::Field { value: a.clone(), spec: String::new(), spec_span: a.span.clone() };
                        a.kind = ExprKind::FString(vec![field]);
                        a.id = mk(self.ids, ExprKind::NoneLit, a.span.clone()).id;
                    }
                }
                Stmt::If { then_block, else_block, .. } => {
                    self.block(then_block);
                    if let Some(e) = else_block {
                        self.block(e);
                    }
                }
                Stmt::Let { names, value, span } => {
                    if names.iter().any(|n| crate::starred_targets::is_starred(&n.name)) {
                        let value = std::mem::replace(value, mk(self.ids, ExprKind::NoneLit, span.clone()));
                        let elements = self.elements(&value, span, b);
                        let (ids, rows, errors) = (self.ids, &mut self.rows, &mut self.errors);
                        for s in crate::starred_targets::unpack(ids, names, value, elements, span, rows, errors) {
                            match s {
                                Stmt::Let { names, value: Expr { kind: ExprKind::Tuple(items), .. }, .. } => {
                                    self.bind_tuple(&names[0], items, span, b)
                                }
                                s => b.stmts.push(s),
                            }
                        }
                        return;
                    }
                    // `t2 = t` of a tuple name: a tuple of the same elements.
                    // (A `for` over it, `let iter.N = t;`, iterates the list of the elements, below.)
                    if let (ExprKind::Var(g), [n]) = (&value.kind, names.as_slice()) {
                        let alias = self.count.get(&n.name) == Some(&1) && !n.name.starts_with("iter.");
                        if let Some(&k) = self.tuples.get(&g.name).filter(|_| alias) {
                            let items = (0..k).map(|i| self.var(&g.name, i, span)).collect();
                            if self.shapes.contains(&g.name) {
                                self.shapes.insert(n.name.clone());
                            }
                            let n = n.clone();
                            self.bind_tuple(&n, items, span, b);
                            return;
                        }
                    }
                    if let [g] = names.as_slice() {
                        // The parser's own temporaries (`let (s,) = f(x)`'s `tuple.OFFSET.0`) stay.
                        let own = !crate::syntax::is_synthesized(&g.name) || g.name.starts_with("iter.");
                        if own && self.count.get(&g.name) == Some(&1) {
                            if let Some(k) = self.tuple_len(value) {
                                let names = (0..k)
                                    .map(|i| crate::ast::Ident { name: element(&g.name, i), span: g.span.clone() })
                                    .collect::<Vec<_>>();
                                let g = g.clone();
                                let is_shape = self.shape_of(value).is_some();
                                let value = std::mem::replace(value, mk(self.ids, ExprKind::NoneLit, span.clone()));
                                let value = crate::syntax::gradient_per_axis(self.ids, value, k);
                                match value.kind {
                                    ExprKind::Tuple(items) => {
                                        for (n, e) in names.into_iter().zip(items) {
                                            let span = e.span.clone();
                                            b.stmts.push(Stmt::Let { names: vec![n], value: e, span });
                                        }
                                    }
                                    _ => b.stmts.push(Stmt::Let { names, value, span: span.clone() }),
                                }
                                if g.name.starts_with("iter.") {
                                    // `for d in x.shape`: the loop's array is the list of the elements.
                                    let items = (0..k).map(|i| self.var(&g.name, i, span)).collect();
                                    let value = mk(self.ids, ExprKind::List(items), span.clone());
                                    b.stmts.push(Stmt::Let { names: vec![g], value, span: span.clone() });
                                } else {
                                    if is_shape {
                                        self.shapes.insert(g.name.clone());
                                    }
                                    self.tuples.insert(g.name, k);
                                }
                                return;
                            }
                        }
                    }
                    // `n, m = g`: the elements, one `let` each.
                    if let ExprKind::Var(g) = &value.kind {
                        if let Some(&k) = self.tuples.get(&g.name) {
                            if names.len() > 1 {
                                if names.len() != k {
                                    self.errors.push(Diagnostic::error(
                                        "E0106",
                                        format!(
                                            "{} targets for the {k} elements of the tuple `{}`",
                                            names.len(),
                                            g.name
                                        ),
                                        value.span.clone(),
                                        format!("a tuple of {k}"),
                                    ));
                                    return;
                                }
                                for (i, n) in names.iter().enumerate() {
                                    let v = crate::ast::Ident { name: element(&g.name, i), span: value.span.clone() };
                                    let value = mk(self.ids, ExprKind::Var(v), value.span.clone());
                                    b.stmts.push(Stmt::Let { names: vec![n.clone()], value, span: span.clone() });
                                }
                                return;
                            }
                            // `for d in g`: the loop's array is the list of the elements.
                            if names.len() == 1 && names[0].name.starts_with("iter.") {
                                let items = (0..k).map(|i| self.var(&g.name, i, &value.span)).collect();
                                value.kind = ExprKind::List(items);
                            }
                        }
                    }
                }
                _ => {}
            }
            b.stmts.push(s);
        }
    }

    /// `let g.0 = items[0]; ..`: `g` is the tuple of `items` from here on.
    fn bind_tuple(&mut self, g: &crate::ast::Ident, items: Vec<Expr>, span: &crate::ast::Span, b: &mut Block) {
        self.tuples.insert(g.name.clone(), items.len());
        for (i, e) in items.into_iter().enumerate() {
            let n = crate::ast::Ident { name: element(&g.name, i), span: g.span.clone() };
            b.stmts.push(Stmt::Let { names: vec![n], value: e, span: span.clone() });
        }
    }

    /// The elements of the tuple `value` where the front end knows them ([`Self::tuple_len`]),
    /// those of a call bound first to names `star.OFFSET.K` by a `let` in `b`; `None` of anything
    /// else (an array).
    fn elements(&mut self, value: &Expr, span: &crate::ast::Span, b: &mut Block) -> Option<Vec<Expr>> {
        match &value.kind {
            ExprKind::Tuple(items) => return Some(items.clone()),
            ExprKind::Var(g) => {
                let k = *self.tuples.get(&g.name)?;
                return Some((0..k).map(|i| self.var(&g.name, i, span)).collect());
            }
            _ => {}
        }
        let k = self.tuple_len(value)?;
        let names: Vec<crate::ast::Ident> = (0..k)
            .map(|i| crate::ast::Ident { name: format!("star.{}.{i}", span.start), span: span.clone() })
            .collect();
        let vars = names.iter().map(|n| mk(self.ids, ExprKind::Var(n.clone()), span.clone())).collect();
        let value = crate::syntax::gradient_per_axis(self.ids, crate::syntax::fresh_copy(self.ids, value), k);
        match value.kind {
            ExprKind::Tuple(items) => {
                for (n, e) in names.into_iter().zip(items) {
                    b.stmts.push(Stmt::Let { names: vec![n], value: e, span: span.clone() });
                }
            }
            _ => b.stmts.push(Stmt::Let { names, value, span: span.clone() }),
        }
        Some(vars)
    }

    /// The variable `g.i` at `span`.
    fn var(&self, g: &str, i: usize, span: &crate::ast::Span) -> Expr {
        var(self.ids, g, i, span)
    }

    /// The rank of `x` where `e` is `x.shape` of a parameter `x` declared as an array and never
    /// rebound.
    fn shape_of(&self, e: &Expr) -> Option<usize> {
        let ExprKind::Call { func, .. } = &e.kind else { return None };
        (func.name.strip_prefix(QUALIFIED).unwrap_or(&func.name) == ".shape").then_some(())?;
        self.tuple_len(e)
    }

    /// The integer elements of the shape `e` (`x.shape`: `x.shape[i]`; a name bound to one: its
    /// element names), if it is one.
    fn shape_elements(&self, e: &Expr) -> Option<Vec<Expr>> {
        let span = &e.span;
        if let ExprKind::Subscript { base, index } = &e.kind {
            // Python's slice of a shape with literal bounds, `x.shape[1:]`, `x.shape[::-1]`.
            let [Index::Slice { start, stop, step, .. }] = index.as_slice() else { return None };
            let items = self.shape_elements(base)?;
            let bound = |b: &Option<Expr>| b.as_ref().map(|b| literal_int(b).ok_or(())).transpose();
            let (Ok(start), Ok(stop), Ok(step)) = (bound(start), bound(stop), bound(step)) else { return None };
            // An empty slice, NumPy's `()` (a 0-d shape), is left to the checker (E0207).
            let picked = python_slice(items.len(), start, stop, step.unwrap_or(1)).filter(|p| !p.is_empty())?;
            let mut items: Vec<Option<Expr>> = items.into_iter().map(Some).collect();
            return Some(picked.into_iter().filter_map(|i| items[i].take()).collect());
        }
        if let ExprKind::Var(g) = &e.kind {
            let k = *self.tuples.get(&g.name).filter(|_| self.shapes.contains(&g.name))?;
            return Some((0..k).map(|i| self.var(&g.name, i, span)).collect());
        }
        let k = self.shape_of(e)?;
        let at = |i: usize| {
            // `x.shape[i]`, as the parser makes it (`size(x, axis=i)`).
            let index = vec![Index::At(mk(self.ids, ExprKind::Int(i as i64), span.clone()))];
            crate::syntax::subscript(self.ids, crate::syntax::fresh_copy(self.ids, e), index, span.clone())
        };
        Some((0..k).map(at).collect())
    }

    /// Whether `e` is a shape whose elements the front end knows ([`Self::shape_elements`]).
    fn is_shape(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(g) => self.shapes.contains(&g.name),
            _ => self.shape_of(e).is_some(),
        }
    }

    /// An f-string's field `{s}` of a shape `s` (no spec) as Python's `str` of the tuple, the
    /// text `(4, 6)` (`(4,)` of one element, `()` of none) with a field per element.
    fn shape_fields(&self, parts: &mut Vec<FPart>) {
        let mut out = Vec::with_capacity(parts.len());
        for p in std::mem::take(parts) {
            let items = match &p {
                FPart::Field { value, spec, .. } if spec.is_empty() => self.shape_elements(value),
                _ => None,
            };
            let Some(items) = items else {
                out.push(p);
                continue;
            };
            let k = items.len();
            out.push(FPart::Text("(".to_string()));
            for (i, value) in items.into_iter().enumerate() {
                let span = value.span.clone();
                out.push(FPart::Field { value, spec: String::new(), spec_span: span });
                out.push(FPart::Text(
                    if i + 1 < k {
                        ", "
                    } else if k == 1 {
                        ",)"
                    } else {
                        ")"
                    }
                    .to_string(),
                ));
            }
            if k == 0 {
                out.push(FPart::Text(")".to_string()));
            }
        }
        *parts = out;
    }

    /// Python's `len`, `min`, `max`, `sum` and `prod` of a shape (see the module's docs), and
    /// an f-string's field of a shape ([`Self::shape_fields`]), at `e`.
    fn shape_reductions(&self, e: &mut Expr) {
        if let ExprKind::FString(parts) = &mut e.kind {
            return self.shape_fields(parts);
        }
        if let ExprKind::Subscript { .. } = &e.kind {
            // `x.shape[1:]`, `x.shape[::-1]`: Python's slice of the tuple, a tuple (`zeros(x.shape[::-1])`).
            if let Some(items) = self.shape_elements(e) {
                e.kind = ExprKind::Tuple(items);
            }
            return;
        }
        let ExprKind::Call { func, args, kwargs } = &e.kind else { return };
        let ([s], true) = (args.as_slice(), kwargs.is_empty()) else { return };
        let name = func.name.strip_prefix(QUALIFIED).unwrap_or(&func.name);
        if !matches!(name, "len" | "min" | "max" | "amin" | "amax" | "sum" | "prod") {
            return;
        }
        // Python's `sum` of any tuple name, `0 + t[0] + t[1] + ..` (scalars or arrays).
        let any_tuple = || match &s.kind {
            ExprKind::Var(g) if func.name == "sum" => {
                let k = *self.tuples.get(&g.name)?;
                Some((0..k).map(|i| self.var(&g.name, i, &s.span)).collect())
            }
            _ => None,
        };
        let Some(items) = self.shape_elements(s).or_else(any_tuple) else { return };
        let span = e.span.clone();
        let fold = |op: BinOp, unit: i64, items: Vec<Expr>| {
            let first = mk(self.ids, ExprKind::Int(unit), span.clone());
            items
                .into_iter()
                .fold(first, |acc, x| mk(self.ids, ExprKind::Binary(op, Box::new(acc), Box::new(x)), span.clone()))
        };
        let kind = match name {
            "len" => ExprKind::Int(items.len() as i64),
            "sum" => fold(BinOp::Add, 0, items).kind,
            "prod" => fold(BinOp::Mul, 1, items).kind,
            _ if items.len() == 1 => items.into_iter().next().map(|x| x.kind).unwrap_or(ExprKind::Int(0)),
            // Python's `min(())` is a ValueError: left as it is (E0207 or E0309).
            _ if items.is_empty() => return,
            "min" | "amin" => ExprKind::Call {
                func: crate::ast::Ident { name: "min".into(), span: span.clone() },
                args: items,
                kwargs: vec![],
            },
            _ => ExprKind::Call {
                func: crate::ast::Ident { name: "max".into(), span: span.clone() },
                args: items,
                kwargs: vec![],
            },
        };
        e.kind = kind;
    }
}

/// The positions Python's slice `[start:stop:step]` (literal bounds, `None` where absent) takes
/// from a sequence of `len` items, in order (`slice.indices`: negative bounds count from the end,
/// bounds clipped); `None` for a zero step (Python's ValueError, left to the checker).
fn python_slice(len: usize, start: Option<i64>, stop: Option<i64>, step: i64) -> Option<Vec<usize>> {
    if step == 0 {
        return None;
    }
    let n = len as i64;
    let clip = |b: i64, lo: i64, hi: i64| if b < 0 { (b + n).max(lo) } else { b.min(hi) };
    let (first, end) = if step > 0 {
        (start.map_or(0, |b| clip(b, 0, n)), stop.map_or(n, |b| clip(b, 0, n)))
    } else {
        (start.map_or(n - 1, |b| clip(b, -1, n - 1)), stop.map_or(-1, |b| clip(b, -1, n - 1)))
    };
    let mut out = vec![];
    let mut i = first;
    while (step > 0 && i < end) || (step < 0 && i > end) {
        out.push(i as usize);
        i += step;
    }
    Some(out)
}

/// The variable `g.i` at `span`, under a fresh id.
fn var(ids: &Cell<u32>, g: &str, i: usize, span: &crate::ast::Span) -> Expr {
    mk(ids, ExprKind::Var(crate::ast::Ident { name: element(g, i), span: span.clone() }), span.clone())
}

/// Rewrites one use of a tuple name at `e` (see the module's docs); called outer expressions first.
fn uses(ids: &Cell<u32>, tuples: &HashMap<String, usize>, e: &mut Expr, errors: &mut Vec<Diagnostic>) {
    let tuple_of = |x: &Expr| match &x.kind {
        ExprKind::Var(g) => tuples.get(&g.name).map(|&k| (g.name.clone(), k)),
        _ => None,
    };
    let kind = match &e.kind {
        ExprKind::Subscript { base, index } => {
            let Some((g, k)) = tuple_of(base) else { return };
            let at = match index.as_slice() {
                [Index::At(i)] => literal_int(i),
                _ => None,
            };
            match at.map(|i| if i < 0 { i + k as i64 } else { i }) {
                Some(i) if (0..k as i64).contains(&i) => {
                    ExprKind::Var(crate::ast::Ident { name: element(&g, i as usize), span: e.span.clone() })
                }
                _ => {
                    errors.push(
                        Diagnostic::error(
                            "E0309",
                            format!(
                                "the tuple `{g}` of {k} elements indexed other than by an integer literal in range"
                            ),
                            e.span.clone(),
                            format!("an index from {} to {}", -(k as i64), k - 1),
                        )
                        .with_help(format!(
                            "index it with an integer literal (`{g}[0]`), or make it an array first, \
                             `a = np.array({g})` (elements of one shape), and index that"
                        )),
                    );
                    return;
                }
            }
        }
        ExprKind::Call { func, args, kwargs }
            if matches!(func.name.as_str(), "len" | "np.len") && kwargs.is_empty() =>
        {
            let [x] = args.as_slice() else { return };
            let Some((_, k)) = tuple_of(x) else { return };
            ExprKind::Int(k as i64)
        }
        ExprKind::Var(_) => {
            let Some((g, k)) = tuple_of(e) else { return };
            ExprKind::Tuple((0..k).map(|i| var(ids, &g, i, &e.span)).collect())
        }
        _ => return,
    };
    e.kind = kind;
}
