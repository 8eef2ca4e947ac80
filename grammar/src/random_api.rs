//! NumPy's random API (`docs/language.md`, "NumPy's random API"): the legacy functions
//! (`np.random.seed(s); np.random.rand(n, m)`, `randn`, `random`, `random_sample`, `uniform`,
//! `normal`, `randint`, `standard_normal`) and the generators of `np.random.default_rng(s)`
//! (`rng.random`, `rng.normal`, `rng.integers`, `rng.uniform`, `rng.standard_normal`), rewritten on
//! the parsed program into arrayc's effect-free builtins `random`, `normal` and `integers`.
//!
//! NumPy's generators have state: successive draws give independent values. arrayc's expressions
//! stay free of effects: a generator's state is two hidden scalar variables ([`crate::syntax::is_synthesized`]
//! names), its seed `G.key` and its number of draws so far `G.draws` (`np.random.key`,
//! `np.random.draws` for the legacy functions' one generator). A statement with `k` draws of a
//! generator is preceded by `G.draws += k;`, and its `j`-th draw (Python's evaluation order,
//! arguments first) takes the Philox key `G.key ^ ((G.draws - k + j) << 32)`: each draw is the
//! stream of its own key, as Random123 makes independent streams (Salmon et al., "Parallel random
//! numbers: as easy as 1, 2, 3", SC'11: the key selects one of many independent streams). For seeds below
//! `2**32` (all of `np.random.seed`'s) and fewer than `2**31` draws, no two draws share a key. The
//! first draw after seeding with `s` is the builtin's `seed=s` stream, so `np.random.seed(s);
//! a = np.random.rand(n);` is `random(n, seed=s)`. A draw in a loop body is a fresh draw each
//! iteration, since `G.draws` grows. Unseeded, the legacy functions and `default_rng()` use seed 0.
//!
//! The state is a function's: each function's legacy generator starts at seed 0, so legacy draws
//! in a function that another function calls are an error (every call would repeat them), and a
//! generator cannot be passed to another function.

use crate::ast::{BinOp, Block, DType, Expr, ExprId, ExprKind, Ident, Program, Span, Stmt, UnOp};
use crate::builtin::qualified;
use crate::diag::Diagnostic;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};

/// The prefix the parser gives `np.random.f(...)`: the call `np.random.f` ([`crate::syntax`]'s
/// `method_call` of the name `np.random`, which `np.random` parses to).
pub const NP_RANDOM: &str = "np.random";

/// The legacy functions of `np.random` that arrayc has.
pub const LEGACY: &[&str] = &[
    "rand",
    "randn",
    "random",
    "random_sample",
    "sample",
    "ranf",
    "standard_normal",
    "uniform",
    "normal",
    "randint",
    "permutation",
    "shuffle",
    "choice",
];

/// The methods of a `np.random.default_rng` generator that arrayc has.
pub const GENERATOR: &[&str] =
    &["random", "standard_normal", "uniform", "normal", "integers", "permutation", "shuffle", "choice"];

/// The name of the hidden state of generator `g` (`""`: the legacy functions').
fn state_name(g: &str, part: &str) -> String {
    if g.is_empty() {
        format!("{NP_RANDOM}.{part}")
    } else {
        format!("{g}.{part}")
    }
}

/// Rewrites NumPy's random API in `program` (see the module docs); the errors, if any.
pub fn desugar(program: &mut Program) -> Vec<Diagnostic> {
    let ids = Cell::new(program.num_exprs);
    let mut errors = vec![];
    let called = called_functions(program);
    for f in &mut program.functions {
        let ints = f.params.iter().filter(|p| p.ty.dims.is_none() && p.ty.dtype.is_int()).map(|p| p.name.name.clone());
        let mut d = Desugar {
            ids: &ids,
            generators: HashSet::new(),
            ints: ints.collect(),
            legacy: false,
            unseeded: false,
            errors: vec![],
            checks: vec![],
        };
        d.block(&mut f.body);
        if (d.legacy || d.unseeded) && called.contains(&f.name.name) {
            // NumPy's legacy functions share one state across calls; here each function starts its
            // own at seed 0, so every call of this one would draw the same values.
            errors.push(
                Diagnostic::error(
                    "E0503",
                    format!("`np.random` draws in `{}`, which another function calls, would repeat on every call", f.name.name),
                    f.name.span.clone(),
                    "called elsewhere",
                )
                .with_note("arrayc's legacy generator state is each function's, seeded 0 at its start; NumPy's is global")
                .with_help("draw in the calling function and pass the values, or pass a seed and draw from `rng = np.random.default_rng(seed)`"),
            );
            continue;
        }
        if d.legacy && d.errors.is_empty() {
            // The legacy generator's state, declared at the top of the function: seed 0.
            let at = f.body.span.start..f.body.span.start;
            let init = [("key", 0), ("draws", 0)].map(|(part, v)| Stmt::Assign {
                name: Ident { name: state_name("", part), span: at.clone() },
                value: d.mk(ExprKind::Int(v), &at),
                span: at.clone(),
            });
            f.body.stmts.splice(0..0, init);
        }
        errors.append(&mut d.errors);
    }
    program.num_exprs = ids.get();
    errors
}

/// The functions of `program` that a function of it calls (by a bare name).
fn called_functions(program: &mut Program) -> HashSet<String> {
    let names: HashSet<String> = program.functions.iter().map(|f| f.name.name.clone()).collect();
    let mut called = HashSet::new();
    for f in &mut program.functions {
        f.for_each_expr_mut(&mut |e| {
            if let ExprKind::Call { func, .. } = &e.kind {
                if names.contains(&func.name) {
                    called.insert(func.name.clone());
                }
            }
        });
    }
    called
}

struct Desugar<'a> {
    ids: &'a Cell<u32>,
    /// The names bound to `np.random.default_rng(..)` so far.
    generators: HashSet<String>,
    /// The names known to hold an integer scalar where a statement is rewritten (integer scalar
    /// parameters, names last bound to [`int_scalar`] expressions): `permutation(n)` of one is
    /// NumPy's permutation of `arange(n)`, of anything else a permutation of its first axis.
    ints: HashSet<String>,
    /// Whether a legacy function or `np.random.seed` occurs.
    legacy: bool,
    /// Whether a `np.random.default_rng()` has no seed (NumPy's takes fresh entropy, arrayc's 0).
    unseeded: bool,
    errors: Vec<Diagnostic>,
    /// Run-time checks of the arguments of the draws of the statement being rewritten (`choice`'s
    /// `p=`), put before it.
    checks: Vec<Stmt>,
}

/// A draw found in an expression: the generator (`""`: legacy) and the method.
fn draw_of(e: &Expr, generators: &HashSet<String>) -> Option<(String, String)> {
    let ExprKind::Call { func, args, .. } = &e.kind else { return None };
    if let Some(m) = func.name.strip_prefix(NP_RANDOM).and_then(|m| m.strip_prefix('.')) {
        return Some((String::new(), m.to_string()));
    }
    let m = func.name.strip_prefix('.')?;
    match args.first().map(|a| &a.kind) {
        Some(ExprKind::Var(g)) if generators.contains(&g.name) => Some((g.name.clone(), m.to_string())),
        _ => None,
    }
}

impl Desugar<'_> {
    fn mk(&self, kind: ExprKind, span: &Span) -> Expr {
        crate::syntax::mk(self.ids, kind, span.clone())
    }

    fn var(&self, name: String, span: &Span) -> Expr {
        self.mk(ExprKind::Var(Ident { name, span: span.clone() }), span)
    }

    fn bin(&self, op: BinOp, a: Expr, b: Expr, span: &Span) -> Expr {
        self.mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), span)
    }

    fn call(&self, name: &str, args: Vec<Expr>, kwargs: Vec<(&str, Expr)>, span: &Span) -> Expr {
        let kwargs = kwargs.into_iter().map(|(k, v)| (Ident { name: k.to_string(), span: span.clone() }, v)).collect();
        let func = Ident { name: qualified(name), span: span.clone() };
        self.mk(ExprKind::Call { func, args, kwargs }, span)
    }

    /// A copy of `e` with fresh ids (an operand used twice).
    fn fresh(&self, e: &Expr) -> Expr {
        crate::syntax::fresh_copy(self.ids, e)
    }

    /// Rewrites every statement of `b`, in order.
    fn block(&mut self, b: &mut Block) {
        let stmts = std::mem::take(&mut b.stmts);
        for s in stmts {
            self.stmt(s, &mut b.stmts);
        }
    }

    /// `s` rewritten, appended to `out` (with the statements before it that advance the state).
    fn stmt(&mut self, mut s: Stmt, out: &mut Vec<Stmt>) {
        // A generator used where it is made, `np.random.default_rng(0).random(3)`: a generator of
        // its own, `let rng.OFFSET = np.random.default_rng(0);` before the statement (made again
        // wherever the statement runs again, as NumPy's is).
        if !matches!(s, Stmt::While { .. }) {
            let mut inline = Vec::new();
            for e in s.own_exprs_mut() {
                e.walk_mut(&mut |x| {
                    let ExprKind::Call { func, args, .. } = &mut x.kind else { return };
                    let made_here = matches!(args.first().map(|a| &a.kind),
                        Some(ExprKind::Call { func: f, .. }) if f.name == format!("{NP_RANDOM}.default_rng"));
                    if func.name.starts_with('.') && made_here {
                        let at = args[0].span.clone();
                        let name = Ident { name: format!("rng.{}", at.start), span: at.clone() };
                        let id = ExprId(self.ids.get());
                        self.ids.set(id.0 + 1);
                        let rng = std::mem::replace(
                            &mut args[0],
                            Expr { id, kind: ExprKind::Var(name.clone()), span: at.clone() },
                        );
                        inline.push(Stmt::Let { names: vec![name], value: rng, span: at });
                    }
                });
            }
            for made in inline {
                self.stmt(made, out);
            }
        }
        // `rng = np.random.default_rng(s);` and `np.random.seed(s);`
        let binding = match &mut s {
            Stmt::Assign { name, value, span } => Some((name.clone(), value, span.clone())),
            Stmt::Let { names, value, span } if names.len() == 1 => Some((names[0].clone(), value, span.clone())),
            _ => None,
        };
        if let Some((name, value, span)) = binding {
            if let ExprKind::Call { func, args, kwargs } = &mut value.kind {
                if func.name == format!("{NP_RANDOM}.default_rng") {
                    let (args, kwargs) = (std::mem::take(args), std::mem::take(kwargs));
                    let none = |e: &Expr| matches!(e.kind, ExprKind::NoneLit);
                    self.unseeded |= args.iter().all(none) && kwargs.iter().all(|(_, v)| none(v));
                    self.seed(&name.name, "default_rng", args, kwargs, &span, out);
                    self.generators.insert(name.name);
                    return;
                }
            }
        }
        if let Stmt::Expr(Expr { kind: ExprKind::Call { func, args, kwargs }, span, .. }) = &mut s {
            if func.name == format!("{NP_RANDOM}.seed") {
                let (args, kwargs, span) = (std::mem::take(args), std::mem::take(kwargs), span.clone());
                self.legacy = true;
                self.seed("", "seed", args, kwargs, &span, out);
                return;
            }
        }
        // The statement's own expressions (not those of nested blocks), in evaluation order.
        let mut counts: HashMap<String, i64> = HashMap::new();
        for e in s.own_exprs_mut() {
            count_draws(e, &self.generators, &mut counts);
        }
        if let Stmt::While { cond, .. } = &s {
            if !counts.is_empty() {
                self.errors.push(
                    Diagnostic::error(
                        "E0503",
                        "a random draw in a `while` condition",
                        cond.span.clone(),
                        "drawn once, not per iteration",
                    )
                    .with_help("draw into a variable before the loop and at the end of its body: `u = rng.random(); while u < p { ...; u = rng.random(); }`"),
                );
                return;
            }
        }
        let mut next: HashMap<String, i64> = HashMap::new();
        for e in s.own_exprs_mut() {
            self.rewrite(e, &counts, &mut next);
        }
        out.append(&mut self.checks);
        let at = s.span().start..s.span().start;
        let mut gens: Vec<_> = counts.into_iter().collect();
        gens.sort();
        for (g, k) in gens {
            if g.is_empty() {
                self.legacy = true;
            }
            out.push(Stmt::AugAssign {
                target: Ident { name: state_name(&g, "draws"), span: at.clone() },
                index: vec![],
                op: BinOp::Add,
                value: self.mk(ExprKind::Int(k), &at),
                span: at.clone(),
            });
        }
        match &mut s {
            Stmt::For { body, .. } | Stmt::While { body, .. } => self.block(body),
            Stmt::If { then_block, else_block, .. } => {
                self.block(then_block);
                if let Some(e) = else_block {
                    self.block(e);
                }
            }
            _ => {}
        }
        let bound = match &s {
            Stmt::Assign { name, value, .. } => Some((name, value)),
            Stmt::Let { names, value, .. } if names.len() == 1 => Some((&names[0], value)),
            _ => None,
        };
        if let Some((name, value)) = bound {
            if int_scalar(value, &self.ints) {
                self.ints.insert(name.name.clone());
            } else {
                self.ints.remove(&name.name);
            }
        }
        out.push(s);
    }

    /// `np.random.seed(s)` (`g` empty) or `g = np.random.default_rng(s)`: the state's key `s`
    /// (0 without one) and no draws; a literal out of NumPy's range is E0503, else checked at run time.
    fn seed(
        &mut self,
        g: &str,
        what: &str,
        args: Vec<Expr>,
        kwargs: Vec<(Ident, Expr)>,
        span: &Span,
        out: &mut Vec<Stmt>,
    ) {
        let name = format!("np.random.{what}");
        let Some(p) = self.bind(&name, &["seed"], args, kwargs, span) else { return };
        let seed = p.into_iter().next().flatten().filter(|e| !matches!(e.kind, ExprKind::NoneLit));
        let (limit, msg) = if g.is_empty() {
            (Some(u32::MAX as i64), "Seed must be between 0 and 2**32 - 1")
        } else {
            (None, "expected a non-negative integer seed")
        };
        let seed = match seed {
            None => self.mk(ExprKind::Int(0), span),
            Some(s) => {
                if let Some(v) = crate::check::builtins::literal_int(&s) {
                    if v < 0 || limit.is_some_and(|l| v > l) {
                        self.errors.push(
                            Diagnostic::error("E0503", format!("`{name}({v})`: {msg}"), s.span.clone(), "out of range")
                                .with_note(format!("NumPy raises ValueError: {msg}")),
                        );
                        return;
                    }
                } else {
                    let zero = self.mk(ExprKind::Int(0), &s.span);
                    let ok = self.bin(BinOp::Ge, self.fresh(&s), zero, &s.span);
                    out.push(Stmt::Assert {
                        cond: ok,
                        msg: Some(format!("{name}: {msg} (NumPy's ValueError)")),
                        span: span.clone(),
                    });
                    if let Some(l) = limit {
                        let lim = self.mk(ExprKind::Int(l), &s.span);
                        let ok = self.bin(BinOp::Le, self.fresh(&s), lim, &s.span);
                        out.push(Stmt::Assert {
                            cond: ok,
                            msg: Some(format!("{name}: {msg} (NumPy's ValueError)")),
                            span: span.clone(),
                        });
                    }
                }
                self.call("int", vec![s], vec![], span)
            }
        };
        let zero = self.mk(ExprKind::Int(0), span);
        for (part, value) in [("key", seed), ("draws", zero)] {
            out.push(Stmt::Assign {
                name: Ident { name: state_name(g, part), span: span.clone() },
                value,
                span: span.clone(),
            });
        }
    }

    /// NumPy's parameters `params` of `name` bound to the positional `args` and the keyword
    /// `kwargs` (E0501 for too many, E0502 for an unknown or repeated keyword).
    fn bind(
        &mut self,
        name: &str,
        params: &[&str],
        args: Vec<Expr>,
        kwargs: Vec<(Ident, Expr)>,
        span: &Span,
    ) -> Option<Vec<Option<Expr>>> {
        let usage = format!("{name}({})", params.join(", "));
        if args.len() > params.len() {
            self.errors.push(
                Diagnostic::error(
                    "E0501",
                    format!("`{name}` takes at most {} arguments", params.len()),
                    span.clone(),
                    "too many arguments",
                )
                .with_note(format!("usage: {usage}")),
            );
            return None;
        }
        let mut out: Vec<Option<Expr>> = args.into_iter().map(Some).collect();
        out.resize(params.len(), None);
        for (k, v) in kwargs {
            match params.iter().position(|p| *p == k.name) {
                Some(i) if out[i].is_none() => out[i] = Some(v),
                _ => {
                    self.errors.push(
                        Diagnostic::error(
                            "E0502",
                            format!("`{name}` has no argument `{}` here", k.name),
                            k.span.clone(),
                            "unknown or repeated",
                        )
                        .with_note(format!("usage: {usage}")),
                    );
                    return None;
                }
            }
        }
        Some(out)
    }

    /// Rewrites the draws in `e` (arguments first), numbering each generator's from `next`.
    fn rewrite(&mut self, e: &mut Expr, counts: &HashMap<String, i64>, next: &mut HashMap<String, i64>) {
        let generator_call = draw_of(e, &self.generators).is_some_and(|(g, _)| !g.is_empty());
        match &mut e.kind {
            ExprKind::Call { args, kwargs, .. } => {
                // A generator's method call: its first argument is the generator's name.
                let skip = usize::from(generator_call);
                args.iter_mut().skip(skip).for_each(|a| self.rewrite(a, counts, next));
                kwargs.iter_mut().for_each(|(_, a)| self.rewrite(a, counts, next));
            }
            ExprKind::Var(v) if self.generators.contains(&v.name) => {
                self.errors.push(
                    Diagnostic::error(
                        "E0503",
                        format!("the generator `{}` is not a value in arrayc", v.name),
                        v.span.clone(),
                        "a generator",
                    )
                    .with_help(format!(
                        "call its methods where it is made (`{0}.random(n)`, `{0}.normal(0, 1, n)`); to draw in another \
                         function, pass a seed and make a generator there",
                        v.name
                    )),
                );
                return;
            }
            _ => {
                let mut children = vec![];
                direct_children(e, &mut children);
                for c in children {
                    self.rewrite(c, counts, next);
                }
                return;
            }
        }
        let Some((g, method)) = draw_of(e, &self.generators) else { return };
        let ExprKind::Call { func, args, kwargs } = &mut e.kind else { return };
        let span = e.span.clone();
        let mut args = std::mem::take(args);
        let kwargs = std::mem::take(kwargs);
        let fspan = func.span.clone();
        if !g.is_empty() {
            args.remove(0);
        }
        let j = next.entry(g.clone()).or_insert(0);
        let k = counts[&g];
        let index = *j - k;
        *j += 1;
        // key = G.key ^ ((G.draws + index) << 32)
        let draws = self.var(state_name(&g, "draws"), &span);
        let off = self.mk(ExprKind::Int(index), &span);
        let n = self.bin(BinOp::Add, draws, off, &span);
        let shift = self.mk(ExprKind::Int(32), &span);
        let n = self.bin(BinOp::Shl, n, shift, &span);
        let key = self.bin(BinOp::Xor, self.var(state_name(&g, "key"), &span), n, &span);
        match self.draw(&g, &method, args, kwargs, key, &span, &fspan) {
            Some(x) => *e = x,
            None => *e = self.mk(ExprKind::Float(0.0), &span),
        }
    }

    /// The builtin expression of one draw `method(args, kwargs)` of generator `g` with Philox key `key`.
    #[allow(clippy::too_many_arguments)]
    fn draw(
        &mut self,
        g: &str,
        method: &str,
        args: Vec<Expr>,
        kwargs: Vec<(Ident, Expr)>,
        key: Expr,
        span: &Span,
        fspan: &Span,
    ) -> Option<Expr> {
        let name = if g.is_empty() {
            format!("np.random.{method}")
        } else if g.strip_prefix("rng.").is_some_and(|o| o.bytes().all(|c| c.is_ascii_digit())) {
            // A generator drawn from where it is made (its synthesized name).
            format!("np.random.default_rng(..).{method}")
        } else {
            format!("{g}.{method}")
        };
        let known = if g.is_empty() { LEGACY } else { GENERATOR };
        if g.is_empty() && (method == "default_rng" || method == "seed") {
            let (msg, help) = if method == "seed" {
                ("`np.random.seed(s)` is a statement of its own", "write `np.random.seed(s);` before the draws")
            } else {
                (
                    "`np.random.default_rng(s)` is assigned to a name",
                    "write `rng = np.random.default_rng(s);`, then draw with `rng.random(n)`",
                )
            };
            self.errors.push(Diagnostic::error("E0503", msg, span.clone(), "in an expression").with_help(help));
            return None;
        }
        if !known.contains(&method) {
            let (what, list) = if g.is_empty() {
                ("NumPy's legacy random function", "np.random.seed, default_rng, ".to_string() + &LEGACY.join(", "))
            } else {
                ("method of a generator", GENERATOR.join(", "))
            };
            self.errors.push(
                Diagnostic::error(
                    "E0202",
                    format!("`{name}`: arrayc has no such {what}"),
                    fspan.clone(),
                    "not supported",
                )
                .with_help(format!(
                    "arrayc has {list} (docs/language.md, \"NumPy's random API\"); the other distributions are not \
                         supported"
                )),
            );
            return None;
        }
        // `size`: `None` gives a scalar, as NumPy's.
        let sizes = |s: Option<Expr>| s.filter(|e| !matches!(e.kind, ExprKind::NoneLit)).map(|e| vec![e]);
        let uniform = |d: &mut Self, sz: Option<Vec<Expr>>, key: Expr| match sz {
            Some(dims) => d.call("random", dims, vec![("seed", key)], span),
            None => {
                let one = d.mk(ExprKind::Int(1), span);
                let u = d.call("random", vec![one], vec![("seed", key)], span);
                d.first(u, span)
            }
        };
        match method {
            "rand" | "randn" => {
                if let Some((k, _)) = kwargs.first() {
                    self.errors.push(
                        Diagnostic::error(
                            "E0502",
                            format!("`{name}` takes no keywords"),
                            k.span.clone(),
                            "unknown keyword",
                        )
                        .with_note(format!("usage: {name}(d0, d1, ...)")),
                    );
                    return None;
                }
                let sz = if args.is_empty() { None } else { Some(args) };
                if method == "rand" {
                    Some(uniform(self, sz, key))
                } else {
                    Some(self.normal(sz, key, None, None, span))
                }
            }
            "random" | "random_sample" | "sample" | "ranf" | "standard_normal" => {
                let params: &[&str] = if g.is_empty() { &["size"] } else { &["size", "dtype"] };
                let mut p = self.bind(&name, params, args, kwargs, span)?;
                if let Some(Some(d)) = p.get_mut(1) {
                    self.dtype(&name, d, DType::F64)?;
                }
                let sz = sizes(p[0].take());
                if method == "standard_normal" {
                    Some(self.normal(sz, key, None, None, span))
                } else {
                    Some(uniform(self, sz, key))
                }
            }
            "uniform" => {
                let mut p = self.bind(&name, &["low", "high", "size"], args, kwargs, span)?;
                let u = uniform(self, sizes(p[2].take()), key);
                let low = p[0].take().unwrap_or_else(|| self.mk(ExprKind::Float(0.0), span));
                let high = p[1].take().unwrap_or_else(|| self.mk(ExprKind::Float(1.0), span));
                // NumPy's `low + (high - low) * random_sample()`.
                let low2 = self.fresh(&low);
                let width = self.bin(BinOp::Sub, high, low, span);
                let t = self.bin(BinOp::Mul, width, u, span);
                Some(self.bin(BinOp::Add, low2, t, span))
            }
            "normal" => {
                let mut p = self.bind(&name, &["loc", "scale", "size"], args, kwargs, span)?;
                let sz = sizes(p[2].take());
                Some(self.normal(sz, key, p[0].take(), p[1].take(), span))
            }
            "randint" | "integers" => {
                let params: &[&str] = if g.is_empty() {
                    &["low", "high", "size", "dtype"]
                } else {
                    &["low", "high", "size", "dtype", "endpoint"]
                };
                let mut p = self.bind(&name, params, args, kwargs, span)?;
                if let Some(d) = &p[3] {
                    self.dtype(&name, d, DType::I64)?;
                }
                let endpoint = match p.get_mut(4).and_then(|e| e.take()) {
                    None => false,
                    Some(Expr { kind: ExprKind::Bool(b), .. }) => b,
                    Some(e) => {
                        self.errors.push(Diagnostic::error(
                            "E0503",
                            format!("`{name}`'s `endpoint` must be `True` or `False`"),
                            e.span.clone(),
                            "not a literal",
                        ));
                        return None;
                    }
                };
                let Some(first) = p[0].take() else {
                    self.errors.push(
                        Diagnostic::error(
                            "E0501",
                            format!("`{name}` needs `low` (or `high`)"),
                            span.clone(),
                            "missing argument",
                        )
                        .with_note(format!("usage: {name}({})", params.join(", "))),
                    );
                    return None;
                };
                let (low, high) = match p[1].take().filter(|e| !matches!(e.kind, ExprKind::NoneLit)) {
                    Some(h) => (first, h),
                    None => (self.mk(ExprKind::Int(0), span), first),
                };
                let high = if endpoint {
                    let one = self.mk(ExprKind::Int(1), span);
                    self.bin(BinOp::Add, high, one, span)
                } else {
                    high
                };
                let mut args = vec![low, high];
                let sz = sizes(p[2].take());
                let scalar = sz.is_none();
                args.extend(sz.unwrap_or_else(|| vec![self.mk(ExprKind::Int(1), span)]));
                let x = self.call("integers", args, vec![("seed", key)], span);
                Some(if scalar { self.first(x, span) } else { x })
            }
            "permutation" | "shuffle" | "choice" => self.permute(&name, method, args, kwargs, key, span),
            _ => unreachable!("`known` lists it"),
        }
    }

    /// NumPy's `permutation(x)`, `shuffle(x)` and `choice(a, size, replace)` of generator key
    /// `key`, through random keys: `perm = argsort(random(n, seed=key))` is a permutation of
    /// `arange(n)` (exactly: the sort is stable, so equal keys still give each position once).
    /// `permutation(n)` of an integer is `perm`, of an array `x[perm]` (its first axis permuted,
    /// a copy); `shuffle(x)` is `copyto(x, x[perm])` (a statement, [`crate::writes`]);
    /// `choice(a, size)` picks `integers(0, n, size)` (`replace=True`, NumPy's default) or the
    /// first `size` positions of `perm` (`replace=False`; a size above `n` is an index out of
    /// range at run time, NumPy's ValueError), of `arange(a)` for an integer `a`, else `a[idx]`.
    fn permute(
        &mut self,
        name: &str,
        method: &str,
        args: Vec<Expr>,
        kwargs: Vec<(Ident, Expr)>,
        key: Expr,
        span: &Span,
    ) -> Option<Expr> {
        let params: &[&str] = match method {
            "choice" => &["a", "size", "replace", "p", "axis", "shuffle"],
            _ => &["x"],
        };
        let mut p = self.bind(name, params, args, kwargs, span)?;
        let Some(x) = p[0].take() else {
            self.errors.push(
                Diagnostic::error("E0501", format!("`{name}` needs `{}`", params[0]), span.clone(), "missing argument")
                    .with_note(format!("usage: {name}({})", params.join(", "))),
            );
            return None;
        };
        let integer = method != "shuffle" && int_scalar(&x, &self.ints);
        let n = if integer { self.fresh(&x) } else { self.call("len", vec![self.fresh(&x)], vec![], span) };
        let perm = |d: &Self, n: Expr, key: Expr| {
            let keys = d.call("random", vec![n], vec![("seed", key)], span);
            d.call("argsort", vec![keys], vec![], span)
        };
        let pick = |d: &Self, idx: Expr| {
            if integer {
                idx
            } else {
                d.mk(ExprKind::Subscript { base: Box::new(d.fresh(&x)), index: vec![crate::ast::Index::At(idx)] }, span)
            }
        };
        match method {
            "permutation" => Some(pick(self, perm(self, n, key))),
            "shuffle" => {
                let value = pick(self, perm(self, n, key));
                let dst = self.fresh(&x);
                Some(self.call("copyto", vec![dst, value], vec![], span))
            }
            _ => {
                if p[4].as_ref().is_some_and(|a| crate::check::builtins::literal_int(a) != Some(0)) {
                    let at = p[4].as_ref().map_or(span.clone(), |e| e.span.clone());
                    self.errors.push(
                        Diagnostic::error("E0503", format!("`{name}`'s `axis=` is not supported"), at, "not supported")
                            .with_help("picks along the first axis only: move the axis first, `np.moveaxis(a, k, 0)`"),
                    );
                    return None;
                }
                let weights = p[3].take().filter(|e| !matches!(e.kind, ExprKind::NoneLit));
                let replace = match p[2].take() {
                    None => true,
                    Some(Expr { kind: ExprKind::Bool(b), .. }) => b,
                    Some(e) => {
                        self.errors.push(Diagnostic::error(
                            "E0503",
                            format!("`{name}`'s `replace` must be `True` or `False`"),
                            e.span.clone(),
                            "not a literal",
                        ));
                        return None;
                    }
                };
                let size = p[1].take().filter(|e| !matches!(e.kind, ExprKind::NoneLit));
                if let Some(probs) = &weights {
                    self.p_checks(name, probs, &n, span);
                }
                // Without replacement, weighted: the order of the keys `-log(u) / p` (smallest
                // first), Efraimidis and Spirakis's sampling, whose first `k` are distributed as
                // NumPy's successive draws of the remaining weights.
                let perm = |d: &Self, n: Expr, key: Expr| match &weights {
                    None => perm(d, n, key),
                    Some(probs) => {
                        let u = d.call("random", vec![n], vec![("seed", key)], span);
                        let log = d.call("log", vec![u], vec![], span);
                        let minus = d.mk(ExprKind::Unary(crate::ast::UnOp::Neg, Box::new(log)), span);
                        let keys = d.bin(BinOp::Div, minus, d.fresh(probs), span);
                        d.call("argsort", vec![keys], vec![], span)
                    }
                };
                if let (Some(probs), true) = (&weights, replace) {
                    let idx = self.weighted_picks(probs, size, key, span);
                    return Some(pick(self, idx));
                }
                if let (Some(probs), false) = (&weights, replace) {
                    // NumPy's ValueError "Fewer non-zero entries in p than size".
                    let count = match &size {
                        None => self.mk(ExprKind::Int(1), span),
                        Some(sz) => match &sz.kind {
                            ExprKind::Tuple(items) | ExprKind::List(items) => {
                                let one = self.mk(ExprKind::Int(1), span);
                                items.iter().fold(one, |k, d| self.bin(BinOp::Mul, k, self.fresh(d), span))
                            }
                            _ => self.fresh(sz),
                        },
                    };
                    let zero = self.mk(ExprKind::Float(0.0), span);
                    let positive = self.bin(BinOp::Gt, self.fresh(probs), zero, span);
                    let nonzero = self.call("count_nonzero", vec![positive], vec![], span);
                    let cond = self.bin(BinOp::Ge, nonzero, count, span);
                    let msg = Some(format!("{name}: fewer non-zero entries in `p` than `size` (NumPy's ValueError)"));
                    self.checks.push(Stmt::Assert { cond, msg, span: span.clone() });
                }
                let idx = match (replace, size) {
                    (true, Some(sz)) => {
                        let zero = self.mk(ExprKind::Int(0), span);
                        self.call("integers", vec![zero, n, sz], vec![("seed", key)], span)
                    }
                    (true, None) => {
                        let (zero, one) = (self.mk(ExprKind::Int(0), span), self.mk(ExprKind::Int(1), span));
                        let x = self.call("integers", vec![zero, n, one], vec![("seed", key)], span);
                        self.first(x, span)
                    }
                    (false, None) => self.first(perm(self, n, key), span),
                    (false, Some(sz)) => {
                        // The first `k` positions of the permutation (`k` the product of a tuple
                        // `size`, in its shape): an index past `n` is out of range.
                        let (count, shaped) = match &sz.kind {
                            ExprKind::Tuple(items) | ExprKind::List(items) => {
                                let one = self.mk(ExprKind::Int(1), span);
                                let k = items.iter().fold(one, |k, d| self.bin(BinOp::Mul, k, self.fresh(d), span));
                                (k, true)
                            }
                            _ => (self.fresh(&sz), false),
                        };
                        let k = self.call("arange", vec![count], vec![], span);
                        let first = self.mk(
                            ExprKind::Subscript {
                                base: Box::new(perm(self, n, key)),
                                index: vec![crate::ast::Index::At(k)],
                            },
                            span,
                        );
                        if shaped {
                            self.call("reshape", vec![first, sz], vec![], span)
                        } else {
                            first
                        }
                    }
                };
                Some(pick(self, idx))
            }
        }
    }

    /// NumPy's run-time checks of `choice`'s `p=` (ValueError), put before the statement: as
    /// many as `a` has (`n`), none negative, summing to 1 within `sqrt(eps)`.
    fn p_checks(&mut self, name: &str, probs: &Expr, n: &Expr, span: &Span) {
        let len = self.call("len", vec![self.fresh(probs)], vec![], span);
        let zero = self.mk(ExprKind::Float(0.0), span);
        let nonneg = self.bin(BinOp::Ge, self.fresh(probs), zero, span);
        let total = self.call("sum", vec![self.fresh(probs)], vec![], span);
        let one = self.mk(ExprKind::Float(1.0), span);
        let off = self.bin(BinOp::Sub, total, one, span);
        let off = self.call("abs", vec![off], vec![], span);
        let tol = self.mk(ExprKind::Float(f64::EPSILON.sqrt()), span);
        for (cond, msg) in [
            (self.bin(BinOp::Eq, len, self.fresh(n), span), "`a` and `p` must have the same size"),
            (self.call("all", vec![nonneg], vec![], span), "probabilities are not non-negative"),
            (self.bin(BinOp::Le, off, tol, span), "probabilities do not sum to 1"),
        ] {
            let msg = Some(format!("{name}: {msg} (NumPy's ValueError)"));
            self.checks.push(Stmt::Assert { cond, msg, span: span.clone() });
        }
    }

    /// `choice(a, size, p=probs)` with replacement, NumPy's algorithm (`Generator.choice`):
    /// `cdf = cumsum(p) / cumsum(p)[-1]`, the positions `searchsorted(cdf, random(size), side=right)`
    /// (values of NumPy's distribution, not its stream).
    fn weighted_picks(&self, probs: &Expr, size: Option<Expr>, key: Expr, span: &Span) -> Expr {
        let probs = self.fresh(probs);
        let cdf = self.call("cumsum", vec![self.fresh(&probs)], vec![], span);
        let last = self.mk(ExprKind::Int(-1), span);
        let total = self.call("cumsum", vec![probs], vec![], span);
        let total =
            self.mk(ExprKind::Subscript { base: Box::new(total), index: vec![crate::ast::Index::At(last)] }, span);
        let cdf = self.bin(BinOp::Div, cdf, total, span);
        let one = self.mk(ExprKind::Int(1), span);
        let u = self.call("random", vec![size.clone().unwrap_or(one)], vec![("seed", key)], span);
        let right = self.mk(ExprKind::Var(Ident { name: "right".to_string(), span: span.clone() }), span);
        let idx = self.call("searchsorted", vec![cdf, u], vec![("side", right)], span);
        if size.is_some() {
            idx
        } else {
            self.first(idx, span)
        }
    }

    /// `x[0]`: the scalar of a draw of one element (NumPy's draw without `size`).
    fn first(&self, x: Expr, span: &Span) -> Expr {
        let zero = self.mk(ExprKind::Int(0), span);
        self.mk(ExprKind::Subscript { base: Box::new(x), index: vec![crate::ast::Index::At(zero)] }, span)
    }

    /// `normal(sizes, seed=key, loc=, scale=)`, a scalar without sizes.
    fn normal(
        &mut self,
        sz: Option<Vec<Expr>>,
        key: Expr,
        loc: Option<Expr>,
        scale: Option<Expr>,
        span: &Span,
    ) -> Expr {
        let mut kw = vec![("seed", key)];
        kw.extend(loc.map(|l| ("loc", l)));
        kw.extend(scale.map(|s| ("scale", s)));
        match sz {
            Some(dims) => self.call("normal", dims, kw, span),
            None => {
                let one = self.mk(ExprKind::Int(1), span);
                let x = self.call("normal", vec![one], kw, span);
                self.first(x, span)
            }
        }
    }

    /// A `dtype=` of `name` that must be `want` (NumPy's default there): E0503 otherwise.
    fn dtype(&mut self, name: &str, d: &Expr, want: DType) -> Option<()> {
        let ok = match &d.kind {
            ExprKind::DTypeName(x) => *x == want,
            ExprKind::Var(v) => (v.name == "int" && want == DType::I64) || (v.name == "float" && want == DType::F64),
            ExprKind::Str(s) => DType::from_numpy_name(s).is_some_and(|x| x == want) || s == want.name(),
            ExprKind::NoneLit => true,
            _ => false,
        };
        if !ok {
            self.errors.push(
                Diagnostic::error(
                    "E0503",
                    format!("`{name}` draws `{}` only", want.name()),
                    d.span.clone(),
                    "another dtype",
                )
                .with_help(format!("convert the draws: `{name}(...).astype(f32)`")),
            );
            return None;
        }
        Some(())
    }
}

/// The direct sub-expressions of `e` that are not a call's arguments.
fn direct_children<'a>(e: &'a mut Expr, v: &mut Vec<&'a mut Expr>) {
    match &mut e.kind {
        ExprKind::Binary(_, a, b) => {
            v.push(a);
            v.push(b);
        }
        ExprKind::Unary(UnOp::Neg | UnOp::Not, a) => v.push(a),
        ExprKind::Subscript { base, index } => {
            v.push(base);
            for ix in index {
                v.extend(ix.exprs_mut());
            }
        }
        ExprKind::Tuple(items) | ExprKind::List(items) => v.extend(items.iter_mut()),
        ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => v.extend(parts.iter_mut()),
        _ => {}
    }
}

/// Whether `e` is an integer scalar as written: an integer literal, a name of `ints`, `len(..)`,
/// `int(..)`, `x.shape[k]`, `x.size`, `x.ndim`, or `+ - * // %` of these.
fn int_scalar(e: &Expr, ints: &HashSet<String>) -> bool {
    match &e.kind {
        ExprKind::Int(_) => true,
        ExprKind::Var(v) => ints.contains(&v.name),
        ExprKind::Unary(UnOp::Neg, a) => int_scalar(a, ints),
        ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::FloorDiv | BinOp::Rem, a, b) => {
            int_scalar(a, ints) && int_scalar(b, ints)
        }
        ExprKind::Call { func, args, .. } => {
            let plain = func.name.strip_prefix(crate::builtin::QUALIFIED).unwrap_or(&func.name);
            matches!(plain, "len" | "size" | "ndim" | "int") && args.len() == 1
        }
        ExprKind::Subscript { base, index } => {
            index.len() == 1 && matches!(&base.kind, ExprKind::Call { func, .. } if func.name == ".shape")
        }
        _ => false,
    }
}

/// Counts the draws of each generator in `e`.
fn count_draws(e: &mut Expr, generators: &HashSet<String>, counts: &mut HashMap<String, i64>) {
    e.walk_mut(&mut |x| {
        if let Some((g, _)) = draw_of(x, generators) {
            *counts.entry(g).or_insert(0) += 1;
        }
    });
}
