//! Writes through a method's result, `z.ravel()[4] = v;`, `np.ravel(z)[i] += v;`,
//! `z.reshape(2, 6)[1, 2] = v;`, `z.view()[0] = v;` (`docs/language.md`, "Writes through a
//! method's result"): NumPy writes `z` where the result is a view of it and writes a copy, lost,
//! where it is one. arrayc binds the result to a temporary and writes that (`let view.OFFSET =
//! ravel(z); view.OFFSET[4] = v;`) where its view-or-copy is NumPy's:
//!
//! - the views NumPy always makes (`transpose`, `swapaxes`, `squeeze`, `expand_dims`, `flip`,
//!   `moveaxis`, `rot90`, ..: [`Builtin::returns_view`]) and `z.view()` (`z` itself);
//! - the copies NumPy always makes (`flatten`, `copy`), whose write is lost as NumPy's;
//! - `reshape` and `ravel` of a name the function binds only to new arrays ([`reshape_writes`]):
//!   both are views of a contiguous array in arrayc and NumPy; of another array (a parameter, a
//!   view) they may differ (NumPy's reshape views where the strides allow, its ravel copies a 1-d
//!   strided view that arrayc's views), so that is E0328, as are `diagonal` (NumPy's view is
//!   read-only), `astype` (arrayc keeps an array of the same dtype) and any other method.

use crate::ast::{BinOp, Expr, ExprKind, Ident, Index, Program, Span, Stmt};
use crate::builtin::Builtin;
use crate::diag::Diagnostic;
use crate::lexer::LexError;
use crate::syntax::{index_tuple, mk};
use std::cell::Cell;

/// The prefix of the temporary that holds a reshape or ravel written through, which [`reshape_writes`]
/// checks.
const RESHAPED: &str = "reshaped.";

/// `base.name(all)[index] = value;` (`op`: `op=`) as statements (see the module's docs).
#[allow(clippy::too_many_arguments)]
pub fn method_write(
    ids: &Cell<u32>,
    base: Ident,
    name: Ident,
    all: Vec<(Option<Ident>, Expr)>,
    index: Vec<Index>,
    op: Option<BinOp>,
    value: Expr,
    span: Span,
) -> Result<Vec<Stmt>, LexError> {
    let at = base.span.start..name.span.end;
    let index = index_tuple(ids, index);
    let write = |target: Ident| match op {
        None => Stmt::SetItem { target, index, value, span: span.clone() },
        Some(op) => Stmt::AugAssign { target, index, op, value, span: span.clone() },
    };
    let numpy = crate::syntax::NUMPY_MODULES.contains(&base.name.as_str());
    if name.name == "view" && all.is_empty() && !numpy {
        return Ok(vec![write(base)]);
    }
    let var = mk(ids, ExprKind::Var(base.clone()), base.span.clone());
    let call = crate::syntax::method_call(ids, var, name.clone(), all, at.clone())?;
    let builtin = match &call.kind {
        ExprKind::Call { func, .. } => Builtin::from_name(&func.name),
        _ => None,
    };
    let reshape = matches!(builtin, Some(Builtin::Reshape | Builtin::Ravel));
    let exact = match builtin {
        Some(Builtin::Ravel | Builtin::Flatten | Builtin::Copy | Builtin::Reshape) => true,
        Some(b) => b.returns_view() && b != Builtin::Diagonal,
        None => false,
    };
    if !exact {
        return Err(LexError::ViewWrite {
            message: format!("arrayc cannot tell whether NumPy writes through `{}(..)` here", name.name),
            help: "write into the array itself (`z[i, j] = v`, `z.flat[k] = v`, `z.T[j, i] = v`); NumPy's \
                   `diagonal` is read-only and `astype` a copy, whose writes are lost"
                .into(),
            span: at,
        });
    }
    let prefix = if reshape { RESHAPED } else { "view." };
    let temp = Ident { name: format!("{prefix}{}", span.start), span: at.clone() };
    Ok(vec![Stmt::Let { names: vec![temp.clone()], value: call, span: at }, write(temp)])
}

/// E0328 at each reshape or ravel written through ([`method_write`]) of anything but a name the function
/// binds only to new arrays (creations, copies, arithmetic), which are contiguous, so that arrayc's
/// reshape is a view as NumPy's.
pub fn reshape_writes(program: &Program) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for f in &program.functions {
        let mut temps = Vec::new();
        let mut values: std::collections::HashMap<String, Vec<&Expr>> = Default::default();
        collect(&f.body, &mut temps, &mut values);
        for (call, span) in temps {
            let ExprKind::Call { args, .. } = &call.kind else { continue };
            let fresh = match args.first().map(|a| &a.kind) {
                Some(ExprKind::Var(z)) => {
                    let bound = values.get(&z.name);
                    !f.params.iter().any(|p| p.name.name == z.name)
                        && bound.is_some_and(|vs| vs.iter().all(|v| is_new_array(v)))
                }
                _ => false,
            };
            if !fresh {
                errors.push(
                    Diagnostic::error(
                        "E0328",
                        "a write through `reshape` or `ravel` of an array that may not be contiguous",
                        span.clone(),
                        "written through",
                    )
                    .with_note(
                        "NumPy's reshape is a view where the strides allow one (the write reaches the array) and \
                         a copy elsewhere (the write is lost), its ravel a view of a C-contiguous array only; \
                         arrayc's agree for a contiguous array, so arrayc takes the write for a name bound only to \
                         new arrays (`z = np.zeros(..)`, `z = x.copy()`, arithmetic)",
                    )
                    .with_help("write into the array itself, `z[i, j] = v` or `z.flat[k] = v`, or reshape a copy: `z = x.copy()`"),
                );
            }
        }
    }
    errors
}

/// Whether `e` is certainly a new array (contiguous): a creation, a copy, arithmetic.
fn is_new_array(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(..) | ExprKind::Unary(..) | ExprKind::List(_) => true,
        ExprKind::Call { func, .. } => matches!(
            Builtin::from_name(&func.name),
            Some(
                Builtin::Zeros
                    | Builtin::Ones
                    | Builtin::Empty
                    | Builtin::Full
                    | Builtin::ZerosLike
                    | Builtin::OnesLike
                    | Builtin::EmptyLike
                    | Builtin::FullLike
                    | Builtin::Arange
                    | Builtin::Linspace
                    | Builtin::Copy
                    | Builtin::Array
                    | Builtin::Flatten
                    | Builtin::Eye
                    | Builtin::Identity
            )
        ),
        _ => false,
    }
}

/// The reshapes written through in `b` (their calls and spans) and every value bound to each name.
fn collect<'a>(
    b: &'a crate::ast::Block,
    temps: &mut Vec<(&'a Expr, &'a Span)>,
    values: &mut std::collections::HashMap<String, Vec<&'a Expr>>,
) {
    for s in &b.stmts {
        match s {
            Stmt::Let { names, value, span } => {
                if let [n] = names.as_slice() {
                    if n.name.starts_with(RESHAPED) {
                        temps.push((value, span));
                    }
                }
                for n in names {
                    values.entry(n.name.clone()).or_default().push(value);
                }
            }
            Stmt::Assign { name, value, .. } => values.entry(name.name.clone()).or_default().push(value),
            Stmt::For { var, start, body, .. } => {
                values.entry(var.name.clone()).or_default().push(start);
                collect(body, temps, values);
            }
            Stmt::While { body, .. } => collect(body, temps, values),
            Stmt::If { then_block, else_block, .. } => {
                collect(then_block, temps, values);
                if let Some(e) = else_block {
                    collect(e, temps, values);
                }
            }
            _ => {}
        }
    }
}
