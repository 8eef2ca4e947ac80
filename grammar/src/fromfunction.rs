//! NumPy's `fromfunction(f, shape, dtype=d)` (issue 31), rewritten as the program is parsed (from
//! [`crate::spellings::rewrite_call`], before lambdas are inlined): `f` called once with one array
//! of coordinates per axis, each of `shape` and dtype `d` (NumPy's default `float64`), as NumPy
//! calls it: `f(g0, g1, ..)` with `gk = asarray(zeros(shape) + arange(dk)[.., :, ..], dtype=d)`,
//! `arange(dk)` along axis `k` and broadcast over the others (fused: no grid is stored where `f`
//! is elementwise). `f` is a `lambda` written in the call (its parameters replaced by the grids)
//! or a name, of a lambda (inlined as its other calls) or of a function of the program. `shape`
//! is a tuple (or list) literal of sizes (`shape=` too). Anything else stays the call, which the checker refuses.

use crate::ast::{Expr, ExprKind, Ident, Index};
use crate::compositions::Build;
use crate::lambda::LAMBDA;
use std::cell::Cell;
use std::collections::HashMap;

/// The rewrite of `e`, a call of `fromfunction` (see the module's docs), in place.
pub fn rewrite(ids: &Cell<u32>, e: &mut Expr) {
    let ExprKind::Call { args, kwargs, .. } = &e.kind else { return };
    let keyword = |name: &str| kwargs.iter().find(|(k, _)| k.name == name).map(|(_, v)| v);
    if kwargs.iter().any(|(k, _)| !matches!(k.name.as_str(), "shape" | "dtype")) {
        return;
    }
    let (f, shape) = match (args.as_slice(), keyword("shape")) {
        ([f, shape], None) | ([f], Some(shape)) => (f, shape),
        _ => return,
    };
    let (ExprKind::Tuple(sizes) | ExprKind::List(sizes)) = &shape.kind else { return };
    let dtype = keyword("dtype");
    let b = Build { ids, at: e.span.clone() };
    let grids: Vec<Expr> = (0..sizes.len()).map(|k| grid(&b, shape, &sizes[k], k, sizes.len(), dtype)).collect();
    let new = match &f.kind {
        ExprKind::Call { func, args: parts, .. } if func.name == LAMBDA => {
            let (body, params) = parts.split_last().unwrap_or_else(|| unreachable!("a lambda has a body"));
            if params.len() != grids.len() {
                return;
            }
            let values: HashMap<String, Expr> = params
                .iter()
                .zip(grids)
                .filter_map(|(p, g)| match &p.kind {
                    ExprKind::Var(v) => Some((v.name.clone(), g)),
                    _ => None,
                })
                .collect();
            let mut body = b.copy(body);
            crate::lambda::substitute(&mut body, &values);
            body
        }
        ExprKind::Var(name) => b.e(ExprKind::Call { func: name.clone(), args: grids, kwargs: vec![] }),
        _ => return,
    };
    *e = new;
}

/// The coordinates along axis `k` of `rank`: `asarray(zeros(shape) + arange(size)[..], dtype=d)`.
fn grid(b: &Build, shape: &Expr, size: &Expr, k: usize, rank: usize, dtype: Option<&Expr>) -> Expr {
    let positions = b.call("arange", vec![b.copy(size)], vec![]);
    let index = (0..rank)
        .map(|a| match a == k {
            true => Index::Slice { start: None, stop: None, step: None, span: b.at.clone() },
            false => Index::NewAxis(b.at.clone()),
        })
        .collect();
    let along = b.e(ExprKind::Subscript { base: Box::new(positions), index });
    let zeros = b.call("zeros", vec![b.copy(shape)], vec![]);
    let dtype = match dtype {
        Some(d) => b.copy(d),
        None => b.e(ExprKind::DTypeName(crate::ast::DType::F64)),
    };
    let kw = Ident { name: "dtype".into(), span: b.at.clone() };
    b.call("asarray", vec![b.bin(crate::ast::BinOp::Add, zeros, along)], vec![(kw, dtype)])
}
