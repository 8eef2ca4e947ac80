//! The named constants `pi`, `e`, `inf`, `nan`, `euler_gamma` (NumPy's `np.pi`, `np.e`, `np.inf`,
//! `np.nan`, `np.euler_gamma`).
//!
//! They are not keywords: a variable, parameter or size symbol of the same name shadows the
//! constant where it is in scope (the checker's scopes: the function, then each block), so existing
//! programs with a variable `e` keep their meaning. Where no such name is in scope, the parser's
//! [`resolve_constants`] replaces the name by its value, a float literal: a "weak" `f64` as NumPy
//! 2 treats Python floats (`x_f32 * pi` stays `f32`), typed, lowered and hovered as a literal.

use crate::ast::{Block, Expr, ExprKind, Function, Index, Program, Stmt};
use std::collections::BTreeSet;

/// Every named constant and its value.
pub const CONSTANTS: [(&str, f64); 5] = [
    ("pi", std::f64::consts::PI),
    ("e", std::f64::consts::E),
    ("inf", f64::INFINITY),
    ("nan", f64::NAN),
    ("euler_gamma", 0.577_215_664_901_532_9),
];

/// The value of the constant `name`, if it names one.
pub fn constant(name: &str) -> Option<f64> {
    CONSTANTS.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
}

/// Replaces each use of a constant's name where no variable of that name is in scope by the
/// constant's value (see the module documentation).
pub fn resolve_constants(program: &mut Program) {
    for f in &mut program.functions {
        let mut scopes = Scopes(vec![function_names(f)]);
        scopes.block_stmts(&mut f.body);
    }
}

/// The names a function's body starts with: its parameters and the size symbols of their types.
fn function_names(f: &Function) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for p in &f.params {
        for d in p.ty.dims.iter().flatten() {
            crate::check::sig::dim_symbols(d, &mut names);
        }
        names.insert(p.name.name.clone());
    }
    names
}

/// The names declared in each enclosing scope, innermost last.
struct Scopes(Vec<BTreeSet<String>>);

impl Scopes {
    fn declared(&self, name: &str) -> bool {
        self.0.iter().any(|s| s.contains(name))
    }

    fn declare(&mut self, name: &str) {
        if let Some(s) = self.0.last_mut() {
            s.insert(name.to_string());
        }
    }

    fn block(&mut self, b: &mut Block) {
        self.0.push(BTreeSet::new());
        self.block_stmts(b);
        self.0.pop();
    }

    fn block_stmts(&mut self, b: &mut Block) {
        for s in &mut b.stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &mut Stmt) {
        match s {
            Stmt::Let { names, value, .. } => {
                self.expr(value);
                for n in names {
                    self.declare(&n.name);
                }
            }
            Stmt::Assign { value, .. } | Stmt::Assert { cond: value, .. } => self.expr(value),
            Stmt::SetItem { index, value, .. } | Stmt::AugAssign { index, value, .. } => {
                index.iter_mut().for_each(|i| self.index(i));
                self.expr(value);
            }
            Stmt::For { var, start, end, step, body, .. } => {
                self.expr(start);
                self.expr(end);
                step.iter_mut().for_each(|s| self.expr(s));
                self.0.push(BTreeSet::from([var.name.clone()]));
                self.block(body);
                self.0.pop();
            }
            Stmt::While { cond, body, .. } => {
                self.expr(cond);
                self.block(body);
            }
            Stmt::If { cond, then_block, else_block, .. } => {
                self.expr(cond);
                self.block(then_block);
                if let Some(b) = else_block {
                    self.block(b);
                }
            }
            Stmt::Return { values: es, .. } | Stmt::Print { args: es, .. } => es.iter_mut().for_each(|e| self.expr(e)),
            Stmt::Expr(e) => self.expr(e),
            Stmt::Break { .. } | Stmt::Continue { .. } => {}
        }
    }

    fn index(&mut self, i: &mut Index) {
        match i {
            Index::At(e) => self.expr(e),
            Index::Slice { start, stop, step, .. } => {
                [start, stop, step].into_iter().flatten().for_each(|e| self.expr(e));
            }
            Index::NewAxis(_) | Index::Ellipsis(_) => {}
        }
    }

    fn expr(&mut self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Var(i) => {
                if let (Some(v), false) = (constant(&i.name), self.declared(&i.name)) {
                    e.kind = ExprKind::Float(v);
                }
            }
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Bool(_)
            | ExprKind::Str(_)
            | ExprKind::NoneLit
            | ExprKind::DTypeName(_) => {}
            ExprKind::Binary(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Unary(_, a) => self.expr(a),
            ExprKind::Call { args, kwargs, .. } => {
                args.iter_mut().for_each(|a| self.expr(a));
                kwargs.iter_mut().for_each(|(_, a)| self.expr(a));
            }
            ExprKind::Subscript { base, index } => {
                self.expr(base);
                index.iter_mut().for_each(|i| self.index(i));
            }
            ExprKind::Tuple(items) | ExprKind::List(items) => items.iter_mut().for_each(|a| self.expr(a)),
            ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => parts.iter_mut().for_each(|a| self.expr(a)),
            ExprKind::FString(parts) => parts.iter_mut().for_each(|p| {
                if let crate::ast::FPart::Field { value, .. } = p {
                    self.expr(value)
                }
            }),
        }
    }
}
