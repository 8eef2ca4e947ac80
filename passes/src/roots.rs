//! Base arrays of views: which `arr.new` (or outside array) each array value views.

use arrayc_dialect::ir::{Body, Func, OpKind, ValueId};
use std::collections::HashMap;

/// Maps every array value of `f` to its base: the `arr.new` result it views, or itself when it comes
/// from outside the function's own allocations (a parameter, a call result, a block argument).
pub fn base_arrays(f: &Func) -> HashMap<ValueId, ValueId> {
    let mut m = HashMap::new();
    walk(&f.body, &mut m);
    m
}

/// The base of `v` in `bases` (`v` itself when it has no recorded base).
pub fn base_of(bases: &HashMap<ValueId, ValueId>, v: ValueId) -> ValueId {
    bases.get(&v).copied().unwrap_or(v)
}

fn walk(body: &Body, m: &mut HashMap<ValueId, ValueId>) {
    for op in body {
        match &op.kind {
            OpKind::New { res, .. } => {
                m.insert(*res, *res);
            }
            k if let Some((res, src)) = k.view_of() => {
                let b = base_of(m, src);
                m.insert(res, b);
            }
            k => k.bodies().into_iter().for_each(|b| walk(b, m)),
        }
    }
}
