//! The walk the `expand-*` passes share ([`crate::expand_matmul`], [`crate::expand_sort`],
//! [`crate::expand_arg_reductions`]): each replaces some operations of the host functions by
//! others, at their source location, inside loop and branch bodies too.

use arrayc_dialect::ir::{Body, Func, Loc, Module, Op, OpKind};

/// Replaces, in every host function (not kernels), each operation for which `rewrite` gives a body
/// by that body; nested bodies are rewritten first. `rewrite` sees the function (to add values),
/// the operation and its location.
pub(crate) fn expand_ops(m: &mut Module, mut rewrite: impl FnMut(&mut Func, &OpKind, Option<Loc>) -> Option<Body>) {
    for f in m.funcs.iter_mut().filter(|f| !f.kernel) {
        let body = std::mem::take(&mut f.body);
        f.body = expand_body(f, body, &mut rewrite);
    }
}

fn expand_body(
    f: &mut Func,
    body: Body,
    rewrite: &mut impl FnMut(&mut Func, &OpKind, Option<Loc>) -> Option<Body>,
) -> Body {
    let mut out = Vec::with_capacity(body.len());
    for mut op in body {
        for b in op.kind.bodies_mut() {
            let inner = std::mem::take(b);
            *b = expand_body(f, inner, rewrite);
        }
        match rewrite(f, &op.kind, op.loc) {
            Some(ops) => out.extend(ops),
            None => out.push(op),
        }
    }
    out
}

/// `kinds` as operations at `loc`.
pub(crate) fn at(loc: Option<Loc>, kinds: impl IntoIterator<Item = OpKind>) -> Body {
    kinds.into_iter().map(|kind| Op::new(kind, loc)).collect()
}
