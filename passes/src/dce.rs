//! Pass `dce`: removes pure host operations whose results nothing uses (views, sizes, constants,
//! scalar arithmetic), then base arrays that only their own `arr.del` still mentions, i.e. the
//! arrays contracted into kernels by `outline-kernels` (Kristensen et al. 2016, Sec. IV-A2:
//! a contracted array is never allocated).

/// The pass's name: its `arrayc-opt --pass` flag.
pub const NAME: &str = "dce";

use crate::wsp_fusion::region::is_pure_host_op;
use arrayc_dialect::ir::{Body, Module, OpKind, ValueId};
use std::collections::HashMap;

/// Runs the pass on every host function until nothing more is removed.
pub fn run(m: &mut Module) {
    for f in m.funcs.iter_mut().filter(|f| !f.kernel) {
        loop {
            let mut uses: HashMap<ValueId, usize> = HashMap::new();
            let mut del_uses: HashMap<ValueId, usize> = HashMap::new();
            count_uses(&f.body, &mut uses, &mut del_uses);
            if !remove_dead(&mut f.body, &uses, &del_uses) {
                break;
            }
        }
    }
}

fn count_uses(body: &Body, uses: &mut HashMap<ValueId, usize>, del_uses: &mut HashMap<ValueId, usize>) {
    for op in body {
        for v in op.kind.operands() {
            *uses.entry(v).or_default() += 1;
        }
        if let OpKind::Del { base } = op.kind {
            *del_uses.entry(base).or_default() += 1;
        }
        for b in op.kind.bodies() {
            count_uses(b, uses, del_uses);
        }
    }
}

/// Removes dead operations from `body` (recursively); true if anything was removed.
fn remove_dead(body: &mut Body, uses: &HashMap<ValueId, usize>, del_uses: &HashMap<ValueId, usize>) -> bool {
    let used = |v: &ValueId| uses.get(v).copied().unwrap_or(0);
    let only_deleted = |v: &ValueId| used(v) == del_uses.get(v).copied().unwrap_or(0);
    let before = body.len();
    let mut changed = false;
    body.retain(|op| match &op.kind {
        k if is_pure_host_op(k) => match k.results()[..] {
            [res] => used(&res) > 0,
            _ => true,
        },
        OpKind::New { res, .. } => !only_deleted(res),
        // A base that only `arr.del`s mention: its `arr.new` goes too (parameters never get a `del`).
        OpKind::Del { base } => !only_deleted(base),
        _ => true,
    });
    changed |= body.len() != before;
    for op in body.iter_mut() {
        for b in op.kind.bodies_mut() {
            changed |= remove_dead(b, uses, del_uses);
        }
    }
    changed
}
