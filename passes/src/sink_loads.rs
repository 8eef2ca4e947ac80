//! Pass `sink-loads`: moves the host's read of a reduction's result (`arr.load` of the 0-d array
//! that an `arr.reduce` writes) down to just before the first operation that needs the value,
//! together with the scalar arithmetic computed from it (a `mean`'s division).
//!
//! A host read ends a fusion region: the WSP partition works on the straight-line operations
//! between the front end's interactions with the data (Kristensen et al. 2016, Sec. IV; `wsp-fusion`
//! ends a segment at every `arr.load`). The lowering reads a reduction's value where the program
//! computes it, so `let s = sum(x); let q = sum(x * x);` put the two reductions in two regions,
//! and they could never share a kernel. Reading the value where it is used instead gives the
//! partition the whole run of array operations to fuse (Robinson et al. 2014, Fig. 1: normalize2's
//! two sums in one loop). The values are the same: nothing but the reduction writes such an array,
//! and the partition keeps the reduction before any later write of what it reads (Def. 12's
//! dependency edges).
//!
//! A read moves only within its body, never into or past an operation that uses its value (in its
//! nested bodies too), and never past `return`. Where one of the held reads must happen, all of them
//! do: the host waits there anyway, and one wait ends one region. Runs before `insert-del-sync`, which then places
//! the `arr.sync` before the moved read.

/// The pass's name: its `arrayc-opt --pass` flag.
pub const NAME: &str = "sink-loads";

use arrayc_dialect::ir::{Body, ComputeFn, Func, Module, Op, OpKind, Type, ValueId};
use std::collections::{HashMap, HashSet};

/// Runs the pass on every host function.
pub fn run(m: &mut Module) {
    for f in m.funcs.iter_mut().filter(|f| !f.kernel) {
        let movable = reduction_results(f);
        let mut body = std::mem::take(&mut f.body);
        sink(&mut body, &movable);
        f.body = body;
    }
}

/// The 0-d arrays of `f` that only a reduction writes and only `arr.load`s read: `arr.new` results
/// of rank 0 whose every use (in any body) is the output of one `arr.reduce` or the source of an
/// `arr.load`.
fn reduction_results(f: &Func) -> HashSet<ValueId> {
    // Per 0-d `arr.new` result: (reductions writing it, other uses).
    let mut uses: HashMap<ValueId, (usize, usize)> = HashMap::new();
    fn walk(body: &Body, f: &Func, uses: &mut HashMap<ValueId, (usize, usize)>) {
        for op in body {
            if let OpKind::New { res, sizes } = &op.kind {
                if sizes.is_empty() && matches!(f.ty(*res), Type::Array(_, 0)) {
                    uses.entry(*res).or_default();
                }
            }
            for b in op.kind.bodies() {
                walk(b, f, uses);
            }
        }
    }
    fn count(body: &Body, uses: &mut HashMap<ValueId, (usize, usize)>) {
        for op in body {
            match &op.kind {
                OpKind::Compute { func: ComputeFn::Reduce(..), out, ins } => {
                    if let Some(u) = uses.get_mut(out) {
                        u.0 += 1;
                    }
                    for v in ins {
                        if let Some(u) = uses.get_mut(v) {
                            u.1 += 1;
                        }
                    }
                }
                OpKind::Load { .. } => {}
                other => {
                    for v in other.operands() {
                        if let Some(u) = uses.get_mut(&v) {
                            u.1 += 1;
                        }
                    }
                }
            }
            for b in op.kind.bodies() {
                count(b, uses);
            }
        }
    }
    walk(&f.body, f, &mut uses);
    count(&f.body, &mut uses);
    uses.into_iter().filter(|&(_, (reductions, others))| reductions == 1 && others == 0).map(|(v, _)| v).collect()
}

/// Adds to `acc` the values that `op` reads, in its nested bodies too.
fn reads(op: &OpKind, acc: &mut HashSet<ValueId>) {
    acc.extend(op.operands());
    for b in op.bodies() {
        for o in b {
            reads(&o.kind, acc);
        }
    }
}

/// Moves the loads of `movable` arrays in `body` (and, separately, in each nested body) down to
/// just before their first user (above the allocations just before it), with the scalar arithmetic
/// that depends on them.
fn sink(body: &mut Body, movable: &HashSet<ValueId>) {
    let mut out = Vec::with_capacity(body.len());
    // The moved operations, in their order, and the values they define.
    let mut held: Vec<Op> = vec![];
    let mut defined: HashSet<ValueId> = HashSet::new();
    for mut op in std::mem::take(body) {
        for b in op.kind.bodies_mut() {
            sink(b, movable);
        }
        let hold = match &op.kind {
            OpKind::Load { src, .. } => movable.contains(src),
            OpKind::Binary { .. } | OpKind::Unary { .. } | OpKind::Cast { .. } | OpKind::Select { .. } => {
                op.kind.operands().iter().any(|v| defined.contains(v))
            }
            _ => false,
        };
        if hold {
            defined.extend(op.kind.results());
            held.push(op);
            continue;
        }
        let mut needed = HashSet::new();
        reads(&op.kind, &mut needed);
        if matches!(op.kind, OpKind::Return { .. }) || !needed.is_disjoint(&defined) {
            // Every held read, not only the needed ones: the host waits here anyway, and one wait
            // ends one region where reading each value at its own first use could end several.
            // They go above the allocations just before `op`: an `arr.new` belongs in the region of
            // the operation that first writes it, or the array could not be contracted (argmin's
            // `x == min(x)` was stored whole). None of those allocations reads a held value (that
            // one would have been `op`), and the reduction writing each held array is not one.
            let at = out.iter().rposition(|o: &Op| !matches!(o.kind, OpKind::New { .. })).map_or(0, |i| i + 1);
            out.splice(at..at, held.drain(..));
            defined.clear();
        }
        out.push(op);
    }
    out.append(&mut held);
    *body = out;
}
