//! The nesting-depth limit: a program whose syntax tree nests deeper than [`MAX_NESTING`] is
//! rejected right after parsing (E0104), before any recursive phase sees it.
//!
//! Every later phase (the checker, the AST dump, the lowering, MLIR's own verifier and printer, the
//! executor) walks the tree recursively, so an unbounded depth would overflow a stack: a sum of
//! 20,000 terms or 20,000 nested `if`s once aborted `arrayc check`. This walk uses an explicit stack,
//! so it handles any depth. The limit is like CPython's recursion limit (1000); real programs stay
//! far below it, and the fix for generated code is to split long expressions with `let` bindings.
//!
//! At the limit the phases after parsing need more stack than a default 2 MiB thread has: the
//! drivers run them on a thread with a large stack (`arrayc_tools::on_driver_stack`), and any other
//! caller (a language server) must too.

use crate::ast::{Block, DimExpr, Expr, ExprKind, FPart, Index, Program, Span, Stmt, TypeExpr};
use crate::diag::Diagnostic;

/// The deepest nesting a program may have: expressions inside expressions (each operand of a
/// binary operator, a call's argument, a subscript's index, a size inside a type is one level
/// deeper) and blocks inside blocks (`if`, `while` and `for` bodies) together.
pub const MAX_NESTING: usize = 1000;

/// A node of the walk.
enum Node<'a> {
    Expr(&'a Expr),
    Block(&'a Block),
    Dim(&'a DimExpr),
}

/// `Some(E0104)` at the first node (in source order of the walk) nested deeper than
/// [`MAX_NESTING`], else `None`.
pub fn check_nesting(program: &Program) -> Option<Diagnostic> {
    let mut stack: Vec<(Node, usize)> = program.globals.iter().map(|(_, e, _)| (Node::Expr(e), 1)).collect();
    for f in &program.functions {
        stack.push((Node::Block(&f.body), 1));
        for p in &f.params {
            push_type(&mut stack, &p.ty, 1);
            if let Some(d) = &p.default {
                stack.push((Node::Expr(d), 1));
            }
        }
        for r in &f.results {
            push_type(&mut stack, r, 1);
        }
    }
    while let Some((node, depth)) = stack.pop() {
        if depth > MAX_NESTING {
            return Some(too_deep(span_of(&node)));
        }
        let d = depth + 1;
        match node {
            Node::Block(b) => {
                for s in &b.stmts {
                    push_stmt(&mut stack, s, d);
                }
            }
            Node::Dim(e) => match e {
                DimExpr::Lit(..) | DimExpr::Sym(_) | DimExpr::Exists(_) | DimExpr::AnyRank(_) => {}
                DimExpr::Add(a, b, _) | DimExpr::Sub(a, b, _) | DimExpr::Mul(a, b, _) => {
                    stack.push((Node::Dim(a), d));
                    stack.push((Node::Dim(b), d));
                }
            },
            Node::Expr(e) => match &e.kind {
                ExprKind::Int(_)
                | ExprKind::Float(_)
                | ExprKind::Str(_)
                | ExprKind::NoneLit
                | ExprKind::Bool(_)
                | ExprKind::Var(_)
                | ExprKind::DTypeName(_) => {}
                ExprKind::Binary(_, a, b) => {
                    stack.push((Node::Expr(a), d));
                    stack.push((Node::Expr(b), d));
                }
                ExprKind::Unary(_, a) => stack.push((Node::Expr(a), d)),
                ExprKind::Call { args, kwargs, .. } => {
                    stack.extend(args.iter().map(|a| (Node::Expr(a), d)));
                    stack.extend(kwargs.iter().map(|(_, a)| (Node::Expr(a), d)));
                }
                ExprKind::Tuple(items) | ExprKind::List(items) => {
                    stack.extend(items.iter().map(|a| (Node::Expr(a), d)))
                }
                ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => {
                    stack.extend(parts.iter().map(|a| (Node::Expr(a), d)))
                }
                ExprKind::FString(parts) => {
                    stack.extend(parts.iter().filter_map(FPart::value).map(|a| (Node::Expr(a), d)))
                }
                ExprKind::Subscript { base, index } => {
                    stack.push((Node::Expr(base), d));
                    push_index(&mut stack, index, d);
                }
            },
        }
    }
    None
}

/// Drops a program of any depth without recursion: the compiler-generated drop of a `Box` chain
/// recurses once per level, and a rejected program may be arbitrarily deep. Each node is taken
/// apart into a work list, so every drop that runs is of a node whose children are already gone.
pub fn dismantle(program: Program) {
    enum Owned {
        Expr(Expr),
        Block(Block),
        Dim(DimExpr),
    }
    let mut work: Vec<Owned> = program.globals.into_iter().map(|(_, e, _)| Owned::Expr(e)).collect();
    for f in program.functions {
        work.push(Owned::Block(f.body));
        for p in f.params {
            work.extend(p.ty.dims.into_iter().flatten().map(Owned::Dim));
            work.extend(p.default.map(Owned::Expr));
        }
        work.extend(f.results.into_iter().flat_map(|t| t.dims.into_iter().flatten()).map(Owned::Dim));
    }
    let index_exprs = |index: Vec<Index>| {
        index.into_iter().flat_map(|i| match i {
            Index::At(e) => vec![e],
            Index::Slice { start, stop, step, .. } => [start, stop, step].into_iter().flatten().collect(),
            Index::NewAxis(_) | Index::Ellipsis(_) => vec![],
        })
    };
    while let Some(node) = work.pop() {
        match node {
            Owned::Block(b) => {
                for s in b.stmts {
                    match s {
                        Stmt::Let { value, .. }
                        | Stmt::Assign { value, .. }
                        | Stmt::Expr(value)
                        | Stmt::Assert { cond: value, .. } => work.push(Owned::Expr(value)),
                        Stmt::SetItem { index, value, .. } | Stmt::AugAssign { index, value, .. } => {
                            work.extend(index_exprs(index).map(Owned::Expr));
                            work.push(Owned::Expr(value));
                        }
                        Stmt::For { start, end, step, body, .. } => {
                            work.extend([Owned::Expr(start), Owned::Expr(end), Owned::Block(body)]);
                            work.extend(step.map(|s| Owned::Expr(*s)));
                        }
                        Stmt::While { cond, body, .. } => work.extend([Owned::Expr(cond), Owned::Block(body)]),
                        Stmt::If { cond, then_block, else_block, .. } => {
                            work.extend([Owned::Expr(cond), Owned::Block(then_block)]);
                            work.extend(else_block.map(Owned::Block));
                        }
                        Stmt::Return { values, .. } | Stmt::Print { args: values, .. } => {
                            work.extend(values.into_iter().map(Owned::Expr))
                        }
                        Stmt::Break { .. } | Stmt::Continue { .. } => {}
                    }
                }
            }
            Owned::Dim(DimExpr::Add(a, b, _) | DimExpr::Sub(a, b, _) | DimExpr::Mul(a, b, _)) => {
                work.extend([Owned::Dim(*a), Owned::Dim(*b)]);
            }
            Owned::Dim(DimExpr::Lit(..) | DimExpr::Sym(_) | DimExpr::Exists(_) | DimExpr::AnyRank(_)) => {}
            Owned::Expr(e) => match e.kind {
                ExprKind::Binary(_, a, b) => work.extend([Owned::Expr(*a), Owned::Expr(*b)]),
                ExprKind::Unary(_, a) => work.push(Owned::Expr(*a)),
                ExprKind::Call { args, kwargs, .. } => {
                    work.extend(args.into_iter().map(Owned::Expr));
                    work.extend(kwargs.into_iter().map(|(_, a)| Owned::Expr(a)));
                }
                ExprKind::Tuple(items) | ExprKind::List(items) => work.extend(items.into_iter().map(Owned::Expr)),
                ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => {
                    work.extend((*parts).into_iter().map(Owned::Expr))
                }
                ExprKind::FString(parts) => work.extend(parts.into_iter().filter_map(|p| match p {
                    FPart::Field { value, .. } => Some(Owned::Expr(value)),
                    FPart::Text(_) => None,
                })),
                ExprKind::Subscript { base, index } => {
                    work.push(Owned::Expr(*base));
                    work.extend(index_exprs(index).map(Owned::Expr));
                }
                ExprKind::Int(_)
                | ExprKind::Float(_)
                | ExprKind::Str(_)
                | ExprKind::NoneLit
                | ExprKind::Bool(_)
                | ExprKind::Var(_)
                | ExprKind::DTypeName(_) => {}
            },
        }
    }
}

fn push_type<'a>(stack: &mut Vec<(Node<'a>, usize)>, t: &'a TypeExpr, depth: usize) {
    stack.extend(t.dims.iter().flatten().map(|e| (Node::Dim(e), depth)));
}

fn push_index<'a>(stack: &mut Vec<(Node<'a>, usize)>, index: &'a [Index], depth: usize) {
    for i in index {
        match i {
            Index::At(e) => stack.push((Node::Expr(e), depth)),
            Index::Slice { start, stop, step, .. } => {
                stack.extend([start, stop, step].into_iter().flatten().map(|e| (Node::Expr(e), depth)));
            }
            Index::NewAxis(_) | Index::Ellipsis(_) => {}
        }
    }
}

/// A statement's expressions and blocks, at `depth` (the statement itself is not a level).
fn push_stmt<'a>(stack: &mut Vec<(Node<'a>, usize)>, s: &'a Stmt, depth: usize) {
    match s {
        Stmt::Let { value, .. } | Stmt::Assign { value, .. } | Stmt::Expr(value) | Stmt::Assert { cond: value, .. } => {
            stack.push((Node::Expr(value), depth))
        }
        Stmt::SetItem { index, value, .. } | Stmt::AugAssign { index, value, .. } => {
            push_index(stack, index, depth);
            stack.push((Node::Expr(value), depth));
        }
        Stmt::For { start, end, step, body, .. } => {
            stack.push((Node::Expr(start), depth));
            stack.push((Node::Expr(end), depth));
            if let Some(s) = step {
                stack.push((Node::Expr(s), depth));
            }
            stack.push((Node::Block(body), depth));
        }
        Stmt::While { cond, body, .. } => {
            stack.push((Node::Expr(cond), depth));
            stack.push((Node::Block(body), depth));
        }
        Stmt::If { cond, then_block, else_block, .. } => {
            stack.push((Node::Expr(cond), depth));
            stack.push((Node::Block(then_block), depth));
            if let Some(b) = else_block {
                stack.push((Node::Block(b), depth));
            }
        }
        Stmt::Return { values, .. } | Stmt::Print { args: values, .. } => {
            stack.extend(values.iter().map(|e| (Node::Expr(e), depth)));
        }
        Stmt::Break { .. } | Stmt::Continue { .. } => {}
    }
}

fn span_of(n: &Node) -> Span {
    match n {
        Node::Expr(e) => e.span.clone(),
        Node::Block(b) => b.span.clone(),
        Node::Dim(DimExpr::Lit(_, s) | DimExpr::Exists(s) | DimExpr::AnyRank(s)) => s.clone(),
        Node::Dim(DimExpr::Sym(i)) => i.span.clone(),
        Node::Dim(DimExpr::Add(_, _, s) | DimExpr::Sub(_, _, s) | DimExpr::Mul(_, _, s)) => s.clone(),
    }
}

fn too_deep(span: Span) -> Diagnostic {
    // Point at the start of the too-deep node only: its span may cover most of the file.
    let at = span.start..span.start + 1.min(span.len());
    Diagnostic::error(
        "E0104",
        format!("nesting too deep (limit {MAX_NESTING})"),
        at,
        format!("nested more than {MAX_NESTING} levels deep here"),
    )
    .with_help("split long expressions with `let` bindings, and move deeply nested blocks into functions")
}
