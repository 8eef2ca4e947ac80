//! Python's nested `def`: a `fn` inside a function body (`docs/language.md`, "Nested functions"),
//! lifted after parsing to a function of the program under the name `outer$inner`, which no
//! program can write (`$` is no character of a name).
//!
//! The parser keeps each nested function in a table and leaves a statement [`mark`] in its place;
//! [`lift`] then, for each function `F` and each function `g` defined in its body (in the
//! source's order; `g`'s own nested functions first, under `F$g$h`):
//!
//! - the names `g` reads that it does not bind itself (parameters, `let`, `=`, `for`) and that `F`
//!   binds (Python's closure) become parameters of `g`, after its own, and each call of `g` (in
//!   `F`, in `g` itself, in functions nested in `F` defined after it) passes them by keyword, so
//!   they are read at the call, as Python reads a closure's names. An array is passed as arrays
//!   are, without a copy: `buf[i] = v` in `g` writes `F`'s array, as Python's does.
//! - a captured parameter of `F` has `F`'s declared type; a captured local of `F` the type of its
//!   first binding where the front end can tell it without the checker (a literal; `len(..)`,
//!   `x.shape[k]`, `range`'s variable: `i64`; `zeros`/`ones`/`empty` of a literal dtype and as many
//!   sizes as written: an array of that rank; a list literal of numbers, or `np.array` of one,
//!   `xs = np.array([0.0, 1.0, 2.0])`: NumPy's dtype of its items and its nesting's rank); any other E0213, whose help says to pass it. A
//!   function nested in a nested one reads the outer function's names through the middle one,
//!   which takes them too.
//!
//! Refused: a call in a comprehension whose variable has a captured name E0214; writing a captured name, `t += 1` (Python's `nonlocal`) E0117; calling `g` before its
//! definition (in the source's order) E0118.

use crate::ast::{Block, DType, DimExpr, Expr, ExprKind, Function, Ident, Param, Program, Span, Stmt, TypeExpr};
use crate::builtin::QUALIFIED;
use crate::diag::Diagnostic;
use crate::syntax::mk;
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

/// The name of the call the parser leaves where a nested function was defined ([`mark`]).
pub const NESTED: &str = "fn.def";

/// The nested functions the parser has read, by number.
pub type Table = RefCell<Vec<Option<Function>>>;

/// Keeps the nested function `f` in `table` and returns the statement left in its place: a call of
/// [`NESTED`] with `f`'s number.
pub fn mark(ids: &Cell<u32>, table: &Table, f: Function) -> Stmt {
    let k = table.borrow().len();
    let span = f.span.clone();
    let func = Ident { name: NESTED.to_string(), span: f.name.span.clone() };
    table.borrow_mut().push(Some(f));
    let arg = mk(ids, ExprKind::Int(k as i64), span.clone());
    Stmt::Expr(mk(ids, ExprKind::Call { func, args: vec![arg], kwargs: vec![] }, span))
}

/// A function around a nested one: its parameters and body.
type Scope = (Vec<Param>, Block);

/// A lifted function, as its callers see it.
struct Lifted {
    /// The name it has in the program.
    name: String,
    /// The enclosing function's names it takes as parameters (passed by keyword).
    captures: Vec<String>,
    /// Where its definition starts: calls before it are E0118.
    start: usize,
}

/// Lifts every nested function of `program` (see the module's docs); the errors.
pub fn lift(program: &mut Program, table: Table) -> Vec<Diagnostic> {
    let mut table = table.into_inner();
    if table.is_empty() {
        return vec![];
    }
    let ids = Cell::new(program.num_exprs);
    let mut out = Lift { ids: &ids, table: &mut table, lifted: vec![], diags: vec![] };
    for f in &mut program.functions {
        out.enclosing(f, &HashSet::new(), &[]);
    }
    let Lift { lifted, diags, .. } = out;
    program.functions.extend(lifted);
    program.num_exprs = ids.get();
    diags
}

/// The state of the lift.
struct Lift<'a> {
    ids: &'a Cell<u32>,
    table: &'a mut Vec<Option<Function>>,
    /// The functions lifted so far.
    lifted: Vec<Function>,
    diags: Vec<Diagnostic>,
}

impl Lift<'_> {
    /// Lifts the functions nested in `f` and rewrites their calls; `outer`: the names the
    /// functions around `f` bind (a nested function reads them through `f`, which then takes them
    /// too), `scopes`: those functions' parameters and bodies, outermost first (for the types).
    fn enclosing(&mut self, f: &mut Function, outer: &HashSet<String>, scopes: &[Scope]) {
        let mut defs = Vec::new();
        self.take_defs(&mut f.body, &mut defs);
        if defs.is_empty() {
            return;
        }
        let (mut read, mut bound, mut written) = (HashSet::new(), HashSet::new(), HashSet::new());
        crate::syntax::block_names(&f.body, &mut read, &mut bound, &mut written);
        bound.extend(f.params.iter().map(|p| p.name.name.clone()));
        bound.extend(outer.iter().cloned());
        let mut done: HashMap<String, Lifted> = HashMap::new();
        let mut inner = scopes.to_vec();
        inner.push((f.params.clone(), f.body.clone()));
        for mut g in defs {
            let own = g.name.name.clone();
            let start = g.span.start;
            g.name.name = format!("{}${own}", f.name.name);
            self.enclosing(&mut g, &bound, &inner);
            self.calls(&mut g.body, &done);
            let captures = self.captures(f, &g, &bound);
            for c in &captures {
                let Some(ty) = self.capture_type(&inner, &g, c) else { continue };
                g.params.push(Param {
                    name: Ident { name: c.clone(), span: g.name.span.clone() },
                    ty,
                    default: None,
                    span: g.name.span.clone(),
                });
            }
            done.insert(own, Lifted { name: g.name.name.clone(), captures, start });
            self.calls(&mut g.body, &done);
            self.lifted.push(g);
        }
        self.calls(&mut f.body, &done);
    }

    /// Moves the functions defined in `b` (and the blocks inside it) to `defs`, in the source's
    /// order, dropping their statements.
    fn take_defs(&mut self, b: &mut Block, defs: &mut Vec<Function>) {
        let stmts = std::mem::take(&mut b.stmts);
        for mut s in stmts {
            if let Stmt::Expr(Expr { kind: ExprKind::Call { func, args, .. }, .. }) = &s {
                if func.name == NESTED {
                    if let [Expr { kind: ExprKind::Int(k), .. }] = args.as_slice() {
                        if let Some(g) = self.table.get_mut(*k as usize).and_then(Option::take) {
                            defs.push(g);
                        }
                    }
                    continue;
                }
            }
            match &mut s {
                Stmt::For { body, .. } | Stmt::While { body, .. } => self.take_defs(body, defs),
                Stmt::If { then_block, else_block, .. } => {
                    self.take_defs(then_block, defs);
                    if let Some(e) = else_block {
                        self.take_defs(e, defs);
                    }
                }
                _ => {}
            }
            b.stmts.push(s);
        }
    }

    /// The names of `f` that its nested function `g` reads and does not bind (sorted), after E0117
    /// for each one `g` writes.
    fn captures(&mut self, f: &Function, g: &Function, bound: &HashSet<String>) -> Vec<String> {
        let (mut read, mut assigned, mut written) = (HashSet::new(), HashSet::new(), HashSet::new());
        crate::syntax::block_names(&g.body, &mut read, &mut assigned, &mut written);
        let own: HashSet<&String> = g.params.iter().map(|p| &p.name.name).chain(&assigned).collect();
        let mut captures: Vec<String> = read.into_iter().filter(|n| bound.contains(n) && !own.contains(n)).collect();
        captures.sort();
        let mut rebound = Vec::new();
        rebinds(&g.body, &captures, &mut rebound);
        for (name, span) in rebound {
            self.diags.push(
                Diagnostic::error(
                    "E0117",
                    format!(
                        "the nested function `{}` writes `{name}`, a name of `{}`",
                        short(&g.name.name),
                        f.name.name
                    ),
                    span,
                    "Python's `nonlocal`",
                )
                .with_help(format!(
                    "return the new value and assign it in `{}`: `{name} = {}(..);` (a nested function reads the \
                     names of the function around it; writing into an array, `{name}[i] = v`, writes it)",
                    f.name.name,
                    short(&g.name.name)
                )),
            );
        }
        captures
    }

    /// The type of the name `c` of the functions around `g` (`scopes`, outermost first) as a
    /// parameter of `g`, or `None` after E0213.
    fn capture_type(&mut self, scopes: &[Scope], g: &Function, c: &str) -> Option<TypeExpr> {
        for (params, body) in scopes.iter().rev() {
            if let Some(p) = params.iter().find(|p| p.name.name == c) {
                return Some(p.ty.clone());
            }
            match first_binding(body, c) {
                Some((None, span)) => return Some(TypeExpr { dtype: DType::I64, dims: None, span: span.clone() }),
                Some((Some(v), span)) => match guess_type(c, v, span) {
                    Some(t) => return Some(t),
                    None => break,
                },
                None => {}
            }
        }
        let f = short(g.name.name.rsplit_once('$').map_or("", |(f, _)| f));
        let span = g.name.span.clone();
        self.diags.push(
            Diagnostic::error(
                "E0213",
                format!(
                    "the nested function `{}` reads `{c}`, a local name of `{}` whose type arrayc cannot tell before checking",
                    short(&g.name.name),
                    f
                ),
                span,
                format!("reads `{c}`"),
            )
            .with_help(format!(
                "pass it as a parameter with its type, `fn {}(.., {c}: f64[N])`, and at each call `{}(.., {c})`",
                short(&g.name.name),
                short(&g.name.name)
            )),
        );
        None
    }

    /// Rewrites the calls in `b` of the lifted functions `done` (E0118 for one before its
    /// definition).
    fn calls(&mut self, b: &mut Block, done: &HashMap<String, Lifted>) {
        let ids = self.ids;
        let diags = &mut self.diags;
        // A comprehension's variable would take the place of a captured name of the same name.
        b.for_each_expr_mut(&mut |e| {
            let ExprKind::Call { func, kwargs, .. } = &e.kind else { return };
            if !func.name.starts_with(crate::comprehension::GENERATOR) {
                return;
            }
            let vars: Vec<String> = kwargs.iter().map(|(v, _)| v.name.clone()).collect();
            e.walk_mut(&mut |x| {
                let ExprKind::Call { func, .. } = &x.kind else { return };
                let Some(l) = done.get(&func.name) else { return };
                if let Some(v) = l.captures.iter().find(|c| vars.contains(c)) {
                    diags.push(shadowed(&func.name, v, &x.span));
                }
            });
        });
        let mut visit = |e: &mut Expr| {
            let span = e.span.clone();
            let ExprKind::Call { func, kwargs, .. } = &mut e.kind else { return };
            let Some(l) = done.get(&func.name) else { return };
            if span.start < l.start {
                diags.push(
                    Diagnostic::error(
                        "E0118",
                        format!("the nested function `{}` is called before its definition", func.name),
                        span,
                        "called here",
                    )
                    .with_help(format!(
                        "define `fn {}` before its first call (Python raises NameError), or at module level",
                        func.name
                    )),
                );
                return;
            }
            func.name = l.name.clone();
            for c in &l.captures {
                let v = mk(ids, ExprKind::Var(Ident { name: c.clone(), span: span.clone() }), span.clone());
                kwargs.push((Ident { name: c.clone(), span: span.clone() }, v));
            }
        };
        b.for_each_expr_mut(&mut visit);
    }
}

/// E0214: a call of the lambda or nested function `f`, which reads the name `v` of the function
/// around it, in a comprehension whose variable is `v`.
pub fn shadowed(f: &str, v: &str, span: &Span) -> Diagnostic {
    Diagnostic::error(
        "E0214",
        format!(
            "`{f}` reads `{v}` of the function around it, and is called in a comprehension over a `{v}` of its own"
        ),
        span.clone(),
        format!("the comprehension's `{v}` would take the place of the function's"),
    )
    .with_help(format!(
        "rename the comprehension's variable (`for {v}2 in ..`): Python's `{f}` reads the function's `{v}`"
    ))
}

/// The name as written of a lifted function (`g` of `f$g`).
fn short(name: &str) -> &str {
    name.rsplit('$').next().unwrap_or(name)
}

/// The statements of `b` that write one of `names` itself (`t += 1`), with their spans.
fn rebinds(b: &Block, names: &[String], out: &mut Vec<(String, Span)>) {
    for s in &b.stmts {
        match s {
            Stmt::AugAssign { target, index, span, .. } if index.is_empty() && names.contains(&target.name) => {
                out.push((target.name.clone(), span.clone()))
            }
            Stmt::For { body, .. } | Stmt::While { body, .. } => rebinds(body, names, out),
            Stmt::If { then_block, else_block, .. } => {
                rebinds(then_block, names, out);
                if let Some(e) = else_block {
                    rebinds(e, names, out);
                }
            }
            _ => {}
        }
    }
}

/// The value of the first binding of `name` in `b` (`None` for a loop's variable, an `i64`),
/// with the statement's span.
fn first_binding<'a>(b: &'a Block, name: &str) -> Option<(Option<&'a Expr>, &'a Span)> {
    for s in &b.stmts {
        let found = match s {
            Stmt::Let { names, value, span } if names.len() == 1 && names[0].name == name => Some((Some(value), span)),
            Stmt::Assign { name: n, value, span } if n.name == name => Some((Some(value), span)),
            Stmt::For { var, span, .. } if var.name == name => Some((None, span)),
            Stmt::For { body, .. } | Stmt::While { body, .. } => first_binding(body, name),
            Stmt::If { then_block, else_block, .. } => {
                first_binding(then_block, name).or_else(|| else_block.as_ref().and_then(|e| first_binding(e, name)))
            }
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The type of a list literal `v` of number literals (nested: one rank per level, each level's
/// lists of one length), NumPy's `np.array` of it: `f64` where an item is a float, else `i64`
/// where one is an integer, else `bool`; its sizes symbols of `c`. `None` for any other list.
fn literal_list_type(c: &str, v: &Expr, span: &Span) -> Option<TypeExpr> {
    // The rank of `e` and whether it holds a float, an integer.
    fn walk(e: &Expr, kinds: &mut (bool, bool)) -> Option<usize> {
        match &e.kind {
            ExprKind::Float(_) => kinds.0 = true,
            ExprKind::Int(_) => kinds.1 = true,
            ExprKind::Bool(_) => {}
            ExprKind::Unary(crate::ast::UnOp::Neg, a) if matches!(a.kind, ExprKind::Int(_) | ExprKind::Float(_)) => {
                return walk(a, kinds);
            }
            ExprKind::List(items) if !items.is_empty() => {
                let ranks: Option<Vec<usize>> = items.iter().map(|i| walk(i, kinds)).collect();
                let ranks = ranks?;
                return ranks.iter().all(|r| *r == ranks[0]).then(|| ranks[0] + 1);
            }
            _ => return None,
        }
        Some(0)
    }
    let mut kinds = (false, false);
    let rank = walk(v, &mut kinds).filter(|r| *r > 0)?;
    let dtype = match kinds {
        (true, _) => DType::F64,
        (false, true) => DType::I64,
        _ => DType::Bool,
    };
    let dims = (0..rank).map(|i| DimExpr::Sym(Ident { name: format!("{c}${i}"), span: span.clone() })).collect();
    Some(TypeExpr { dtype, dims: Some(dims), span: span.clone() })
}

/// The type of a name `c` first bound to `v` where the front end can tell it without the checker
/// (see the module's docs).
fn guess_type(c: &str, v: &Expr, span: &Span) -> Option<TypeExpr> {
    let scalar = |dtype| Some(TypeExpr { dtype, dims: None, span: span.clone() });
    match &v.kind {
        ExprKind::Int(_) => scalar(DType::I64),
        ExprKind::Float(_) => scalar(DType::F64),
        ExprKind::Bool(_) => scalar(DType::Bool),
        ExprKind::Unary(crate::ast::UnOp::Neg, a) if matches!(a.kind, ExprKind::Int(_) | ExprKind::Float(_)) => {
            guess_type(c, a, span)
        }
        ExprKind::List(_) => literal_list_type(c, v, span),
        ExprKind::Call { func, args, kwargs } => {
            let name = func.name.strip_prefix(QUALIFIED).unwrap_or(&func.name);
            match name {
                "len" | ".shape" | "size" => scalar(DType::I64),
                "array" | "asarray" if kwargs.is_empty() => match args.as_slice() {
                    [list] => literal_list_type(c, list, span),
                    _ => None,
                },
                "zeros" | "ones" | "empty" => {
                    let rank = match args.as_slice() {
                        [Expr { kind: ExprKind::Tuple(items) | ExprKind::List(items), .. }] => items.len(),
                        _ => args.len(),
                    };
                    let dtype = match kwargs.iter().find(|(k, _)| k.name == "dtype").map(|(_, d)| &d.kind) {
                        None => DType::F64,
                        Some(ExprKind::DTypeName(d)) => *d,
                        Some(_) => return None,
                    };
                    let dims = (0..rank)
                        .map(|i| DimExpr::Sym(Ident { name: format!("{c}${i}"), span: span.clone() }))
                        .collect();
                    Some(TypeExpr { dtype, dims: Some(dims), span: span.clone() })
                }
                _ => None,
            }
        }
        _ => None,
    }
}
