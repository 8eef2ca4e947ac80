//! What the server knows about one version of a document: the front end's diagnostics, its tree
//! with the types the checker found, and an index of every name: where each function, parameter,
//! size symbol, `let` binding and loop variable is defined and where it is used.
//!
//! The index resolves names with the checker's scoping rules (`grammar/src/check/stmt.rs`):
//! parameters and size symbols in a function's outermost scope, a new scope per block, a `for`
//! variable in a scope around its body, a `let` visible after its statement.

use crate::text::LineMap;
use arrayc_grammar::ast::{Block, DimExpr, Expr, ExprId, ExprKind, FPart, Function, Ident, Index, Program, Span, Stmt};
use arrayc_grammar::builtin::Callee;
use arrayc_grammar::types::Ty;
use arrayc_grammar::{Checked, Diagnostic};
use std::collections::HashMap;
use std::sync::Arc;

/// What kind of name a definition introduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefKind {
    /// `fn name(...)`.
    Function,
    /// A function parameter.
    Param,
    /// A size symbol of a parameter's array type (`N` in `a: f64[N]`), an `i64` in the body.
    SizeSymbol,
    /// A name bound by `let` (one of several in `let (a, b) = ...`).
    Let,
    /// The variable of a `for` loop.
    LoopVar,
}

/// One definition of a name.
#[derive(Clone, Debug)]
pub struct Def {
    /// The name.
    pub name: String,
    /// What it names.
    pub kind: DefKind,
    /// The name where it is defined.
    pub span: Span,
    /// The whole construct (function, parameter, `let` statement, loop), for document symbols.
    pub full_span: Span,
    /// Index of the function it belongs to (its own index for a function).
    pub function: usize,
    /// The checked type, when the checker found one.
    pub ty: Option<Ty>,
    /// For a `let` bound to a view (subscript, `transpose`, `diagonal`): the variable it views,
    /// followed back through other views to the base array.
    pub view_of: Option<String>,
}

/// One written occurrence of a name: a definition or a use of one.
#[derive(Clone, Debug)]
pub struct Occurrence {
    /// Where the name is written.
    pub span: Span,
    /// Index into [`Analysis::defs`].
    pub def: usize,
    /// The expression it is, for uses that are expressions (their type at that point).
    pub expr: Option<u32>,
}

/// One analysed version of a document.
pub struct Analysis {
    /// The document version (from the client) this analysis is of.
    pub version: i32,
    /// The document's text.
    pub text: Arc<str>,
    /// Its lines, for LSP positions.
    pub lines: LineMap,
    /// Every front-end diagnostic, as `arrayc check` reports them (without the lowering's, in an
    /// analysis made by [`Analysis::front_end`]).
    pub diagnostics: Vec<Diagnostic>,
    /// The parsed and checked program, when it parses. When the checker reported errors, the
    /// expressions it could not type have `Ty::Error`; the rest keep their types.
    pub checked: Option<Checked>,
    /// Whether the front end reported no error: only then the lowering and the fusion pass run.
    pub clean: bool,
    /// Every definition: the functions, then each function's parameters and bindings in order.
    pub defs: Vec<Def>,
    /// Every occurrence of a defined name (definitions included), sorted by position.
    pub occurrences: Vec<Occurrence>,
    /// Every expression's span by id, for hover on expressions.
    pub expr_spans: Vec<(Span, u32)>,
}

impl Analysis {
    /// Runs the front end on `text` and indexes the result. `lowering` gives the diagnostics of the
    /// stages after the checker that `arrayc check` also runs (the lowering), for a checked program.
    pub fn new(version: i32, text: Arc<str>, lowering: impl FnOnce(&Checked, &str) -> Vec<Diagnostic>) -> Self {
        let mut a = Analysis::front_end(version, text);
        if let Some(c) = a.checked.as_ref().filter(|_| a.clean) {
            let more = lowering(c, &a.text);
            a.diagnostics.extend(more);
        }
        a
    }

    /// [`Analysis::new`] without the lowering: the parser's and the checker's diagnostics only. The
    /// server answers requests from it at once and runs the lowering on another thread.
    pub fn front_end(version: i32, text: Arc<str>) -> Self {
        // The two steps of `arrayc_grammar::frontend`, keeping the checker's results when it
        // reports errors (for navigation and the types it found).
        let (program, mut diagnostics) = arrayc_grammar::parse(&text);
        let checked = program.filter(|_| !diagnostics.iter().any(Diagnostic::is_error)).map(|p| {
            let (c, d) = arrayc_grammar::check_keeping_errors(p);
            diagnostics.extend(d);
            c
        });
        let clean = checked.is_some() && !diagnostics.iter().any(Diagnostic::is_error);
        let mut a = Analysis {
            version,
            lines: LineMap::new(&text),
            text,
            diagnostics,
            checked,
            clean,
            defs: vec![],
            occurrences: vec![],
            expr_spans: vec![],
        };
        a.index();
        a
    }

    /// The program's tree.
    pub fn tree(&self) -> Option<&Program> {
        self.checked.as_ref().map(|c| &c.program)
    }

    /// The checked type of expression `id`.
    pub fn expr_type(&self, id: u32) -> Option<&Ty> {
        self.checked.as_ref().and_then(|c| c.types.get(id as usize)).filter(|t| !matches!(t, Ty::Error))
    }

    /// What call `id` calls, as the checker resolved it (the lowering reads the same).
    pub fn callee(&self, id: u32) -> Option<Callee> {
        self.checked.as_ref().and_then(|c| c.callee(ExprId(id)))
    }

    /// The occurrence of a name at byte offset `off` (a name's end counts, as editors put the
    /// cursor after a word).
    pub fn occurrence_at(&self, off: usize) -> Option<&Occurrence> {
        // Names do not overlap: only the last occurrence starting at or before `off` can contain it.
        let i = self.occurrences.partition_point(|o| o.span.start <= off);
        self.occurrences[..i].last().filter(|o| off <= o.span.end)
    }

    /// The smallest expression whose span contains `off`.
    pub fn expr_at(&self, off: usize) -> Option<(Span, u32)> {
        self.expr_spans
            .iter()
            .filter(|(s, _)| s.start <= off && off < s.end)
            .min_by_key(|(s, _)| s.end - s.start)
            .cloned()
    }

    /// Every occurrence of definition `def`, its definition included.
    pub fn references(&self, def: usize) -> impl Iterator<Item = &Occurrence> {
        self.occurrences.iter().filter(move |o| o.def == def)
    }

    fn index(&mut self) {
        let Some(program) = self.tree() else { return };
        let mut ix = Indexer {
            checked: self.checked.as_ref(),
            types: self.checked.as_ref().map(|c| &c.types[..]),
            sigs: self.checked.as_ref().map(|c| &c.signatures[..]),
            defs: vec![],
            occ: vec![],
            exprs: vec![],
            scopes: vec![],
            functions: vec![],
            cur: 0,
        };
        for (i, f) in program.functions.iter().enumerate() {
            // A call of a rank-generic function calls an instance: its definition is the generic
            // function's (instances follow the program's functions).
            let generic = self.checked.as_ref().and_then(|c| c.instance_of.get(i).copied().flatten());
            if let Some(&d) = generic.and_then(|g| ix.functions.get(g)) {
                ix.functions.push(d);
                continue;
            }
            let d = ix.def(&f.name, DefKind::Function, f.span.clone(), i, None);
            ix.functions.push(d);
        }
        for (i, f) in program.functions.iter().enumerate() {
            if f.is_instance() {
                continue;
            }
            ix.cur = i;
            ix.function(f, i);
        }
        let Indexer { defs, mut occ, exprs, .. } = ix;
        occ.sort_by_key(|o| o.span.start);
        self.defs = defs;
        self.occurrences = occ;
        self.expr_spans = exprs;
    }
}

/// The walk that builds the name index.
struct Indexer<'a> {
    /// The checked program, for what calls call.
    checked: Option<&'a Checked>,
    types: Option<&'a [Ty]>,
    sigs: Option<&'a [arrayc_grammar::FnSig]>,
    defs: Vec<Def>,
    occ: Vec<Occurrence>,
    exprs: Vec<(Span, u32)>,
    scopes: Vec<HashMap<String, usize>>,
    /// The definition of each function, by its index in the program.
    functions: Vec<usize>,
    cur: usize,
}

impl Indexer<'_> {
    fn def(&mut self, id: &Ident, kind: DefKind, full_span: Span, function: usize, ty: Option<Ty>) -> usize {
        self.defs.push(Def {
            name: id.name.clone(),
            kind,
            span: id.span.clone(),
            full_span,
            function,
            ty,
            view_of: None,
        });
        let d = self.defs.len() - 1;
        self.occ.push(Occurrence { span: id.span.clone(), def: d, expr: None });
        d
    }

    fn declare(&mut self, id: &Ident, kind: DefKind, full_span: Span, ty: Option<Ty>) -> usize {
        let d = self.def(id, kind, full_span, self.cur, ty);
        if let Some(s) = self.scopes.last_mut() {
            s.insert(id.name.clone(), d);
        }
        d
    }

    fn lookup(&self, name: &str) -> Option<usize> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    fn use_name(&mut self, id: &Ident, expr: Option<u32>) {
        if let Some(def) = self.lookup(&id.name) {
            self.occ.push(Occurrence { span: id.span.clone(), def, expr });
        }
    }

    /// What call `e` calls, as the checker resolved it.
    fn callee(&self, e: &Expr) -> Option<Callee> {
        self.checked.and_then(|c| c.callee(e.id))
    }

    fn ty(&self, e: &Expr) -> Option<Ty> {
        self.types.and_then(|t| t.get(e.id.0 as usize)).filter(|t| !matches!(t, Ty::Error)).cloned()
    }

    fn function(&mut self, f: &Function, index: usize) {
        self.scopes = vec![HashMap::new()];
        let sig = self.sigs.and_then(|s| s.get(index));
        for p in &f.params {
            if let Some(dims) = &p.ty.dims {
                for d in dims {
                    self.dims(d, true);
                }
            }
        }
        for (k, p) in f.params.iter().enumerate() {
            if let Some(d) = &p.default {
                self.expr(d);
            }
            let ty = sig.and_then(|s| s.params.get(k)).map(|(_, t)| t.clone()).filter(|t| !matches!(t, Ty::Error));
            self.declare(&p.name, DefKind::Param, p.span.clone(), ty);
        }
        for r in &f.results {
            if let Some(dims) = &r.dims {
                for d in dims {
                    self.dims(d, false);
                }
            }
        }
        self.stmts(&f.body);
        self.scopes.clear();
    }

    /// Size symbols in a type: in parameter types the first occurrence defines the symbol.
    fn dims(&mut self, d: &DimExpr, params: bool) {
        match d {
            DimExpr::Lit(..) | DimExpr::Exists(_) | DimExpr::AnyRank(_) => {}
            DimExpr::Sym(id) => {
                if self.lookup(&id.name).is_some() || !params {
                    self.use_name(id, None);
                } else {
                    let ty = self.types.map(|_| Ty::Scalar(arrayc_grammar::ast::DType::I64));
                    self.declare(id, DefKind::SizeSymbol, id.span.clone(), ty);
                }
            }
            DimExpr::Add(a, b, _) | DimExpr::Sub(a, b, _) | DimExpr::Mul(a, b, _) => {
                self.dims(a, params);
                self.dims(b, params);
            }
        }
    }

    fn block(&mut self, b: &Block) {
        self.scopes.push(HashMap::new());
        self.stmts(b);
        self.scopes.pop();
    }

    fn stmts(&mut self, b: &Block) {
        for s in &b.stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Let { names, value, span } => {
                self.expr(value);
                let value_ty = self.ty(value);
                let view_of = self.view_base(value);
                for (k, n) in names.iter().enumerate() {
                    let ty = match (&value_ty, names.len()) {
                        (Some(Ty::Tuple(ts)), _) => ts.get(k).filter(|t| !matches!(t, Ty::Error)).cloned(),
                        (t, 1) => t.clone(),
                        _ => None,
                    };
                    if arrayc_grammar::syntax::is_synthesized(&n.name) {
                        // A tuple assignment's temporary: not the program's name, never shown.
                        continue;
                    }
                    let d = self.declare(n, DefKind::Let, span.clone(), ty);
                    self.defs[d].view_of = view_of.clone();
                }
            }
            Stmt::Assign { name, value, .. } => {
                self.expr(value);
                self.use_name(name, None);
            }
            Stmt::SetItem { target, index, value, .. } | Stmt::AugAssign { target, index, value, .. } => {
                self.use_name(target, None);
                self.indices(index);
                self.expr(value);
            }
            Stmt::For { var, start, end, step, body, span } => {
                self.expr(start);
                self.expr(end);
                if let Some(s) = step {
                    self.expr(s);
                }
                self.scopes.push(HashMap::new());
                let ty = self.types.map(|_| Ty::Scalar(arrayc_grammar::ast::DType::I64));
                self.declare(var, DefKind::LoopVar, span.clone(), ty);
                self.block(body);
                self.scopes.pop();
            }
            Stmt::While { cond, body, .. } => {
                self.expr(cond);
                self.block(body);
            }
            Stmt::If { cond, then_block, else_block, .. } => {
                self.expr(cond);
                self.block(then_block);
                if let Some(e) = else_block {
                    self.block(e);
                }
            }
            Stmt::Return { values: args, .. } | Stmt::Print { args, .. } => {
                for a in args {
                    self.expr(a);
                }
            }
            Stmt::Expr(e) | Stmt::Assert { cond: e, .. } => self.expr(e),
            Stmt::Break { .. } | Stmt::Continue { .. } => {}
        }
    }

    /// The base array a `let` value views: `x[...]`, `transpose(x)`, `diagonal(x)`, through views of
    /// views to the first variable that is not itself a view.
    fn view_base(&self, e: &Expr) -> Option<String> {
        let inner = match &e.kind {
            ExprKind::Subscript { base, .. } => base,
            ExprKind::Call { args, .. }
                if matches!(self.callee(e), Some(Callee::Builtin(b)) if b.returns_view()) && args.len() == 1 =>
            {
                &args[0]
            }
            _ => return None,
        };
        match &inner.kind {
            ExprKind::Var(id) => {
                let d = self.lookup(&id.name);
                Some(d.and_then(|d| self.defs[d].view_of.clone()).unwrap_or_else(|| id.name.clone()))
            }
            _ => self.view_base(inner),
        }
    }

    fn indices(&mut self, index: &[Index]) {
        for i in index {
            match i {
                Index::At(e) => self.expr(e),
                Index::Slice { start, stop, step, .. } => {
                    for e in [start, stop, step].into_iter().flatten() {
                        self.expr(e);
                    }
                }
                Index::NewAxis(_) | Index::Ellipsis(_) => {}
            }
        }
    }

    fn expr(&mut self, e: &Expr) {
        self.exprs.push((e.span.clone(), e.id.0));
        match &e.kind {
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::NoneLit
            | ExprKind::DTypeName(_) => {}
            ExprKind::Var(id) => self.use_name(id, Some(e.id.0)),
            ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Unary(_, a) => self.expr(a),
            ExprKind::Call { func, args, kwargs } => {
                if let Some(Callee::User(fi)) = self.callee(e) {
                    if let Some(&d) = self.functions.get(fi) {
                        self.occ.push(Occurrence { span: func.span.clone(), def: d, expr: Some(e.id.0) });
                    }
                }
                for a in args.iter().chain(kwargs.iter().map(|(_, v)| v)) {
                    self.expr(a);
                }
            }
            ExprKind::Subscript { base, index } => {
                self.expr(base);
                self.indices(index);
            }
            ExprKind::Tuple(items) | ExprKind::List(items) => items.iter().for_each(|a| self.expr(a)),
            ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => parts.iter().for_each(|a| self.expr(a)),
            ExprKind::FString(parts) => parts.iter().filter_map(FPart::value).for_each(|a| self.expr(a)),
        }
    }
}
