//! Pass `insert-del-sync`: adds Bohrium's `SYNC` before every host read of an array and `DEL` after
//! the last use of every base array (Kristensen et al. 2016, Sec. IV, Fig. 3b).
//!
//! Host reads: `arr.load`, `arr.print` of a view, the operands of `arr.matmul`, and the results of
//! the entry function (the driver reads them). `arr.del %b` goes right after the last operation of
//! the region (body) that defines `%b` with `arr.new` and uses `%b` or a view of it, nested regions
//! included. Arrays that leave
//! their region get no `del` there: results of a non-entry function, and values yielded out of a
//! loop or branch. Results of the entry function are synced and then deleted just before
//! `func.return`, as Fig. 3b's `SYNC D; DEL D` (the returned value keeps its storage alive; `del` ends
//! the region's own use, which is what the WSP cost model needs).

/// The pass's name: its `arrayc-opt --pass` flag.
pub const NAME: &str = "insert-del-sync";

use crate::roots::{base_arrays, base_of};
use arrayc_dialect::ir::{Body, Func, Module, Op, OpKind, ValueId};
use std::collections::{HashMap, HashSet};

/// Runs the pass on every host function; `entry` names the function whose results the host reads.
pub fn run(m: &mut Module, entry: &str) {
    for f in m.funcs.iter_mut().filter(|f| !f.kernel) {
        let bases = base_arrays(f);
        let is_entry = f.name == entry;
        let mut body = std::mem::take(&mut f.body);
        insert_syncs(&mut body, f, &bases, is_entry);
        insert_dels(&mut body, &bases, &HashSet::new(), is_entry);
        f.body = body;
    }
}

fn insert_syncs(body: &mut Body, f: &Func, bases: &HashMap<ValueId, ValueId>, is_entry: bool) {
    let mut out = Vec::with_capacity(body.len());
    for mut op in std::mem::take(body) {
        for b in op.kind.bodies_mut() {
            insert_syncs(b, f, bases, is_entry);
        }
        let reads: Vec<ValueId> = match &op.kind {
            OpKind::Load { src, .. } => vec![*src],
            OpKind::Print { value, .. } if f.ty(*value).is_array() => vec![*value],
            OpKind::MatMul { lhs, rhs, .. } => vec![*lhs, *rhs],
            OpKind::Sort { src, .. } => vec![*src],
            OpKind::Convolve { a, v, .. } => vec![*a, *v],
            OpKind::LinAlg { a, b, .. } => [*a].into_iter().chain(*b).collect(),
            OpKind::Return { values } if is_entry => values.iter().copied().filter(|v| f.ty(*v).is_array()).collect(),
            _ => vec![],
        };
        let mut seen = HashSet::new();
        for v in reads {
            let base = base_of(bases, v);
            if seen.insert(base) {
                out.push(Op { kind: OpKind::Sync { base }, loc: op.loc, block: None });
            }
        }
        out.push(op);
    }
    *body = out;
}

/// Every base array that `op` touches, looking into nested bodies.
fn touched(op: &OpKind, bases: &HashMap<ValueId, ValueId>, acc: &mut HashSet<ValueId>) {
    for v in op.operands() {
        acc.insert(base_of(bases, v));
    }
    for b in op.bodies() {
        for o in b {
            touched(&o.kind, bases, acc);
        }
    }
}

/// Inserts dels into `body` for the arrays it allocates; `escaping` are bases that leave the region
/// (yielded to the enclosing operation).
fn insert_dels(body: &mut Body, bases: &HashMap<ValueId, ValueId>, escaping: &HashSet<ValueId>, is_entry: bool) {
    // Recurse first: each nested body handles its own allocations.
    for op in body.iter_mut() {
        let yielded: HashSet<ValueId> = match &op.kind {
            OpKind::For { yields, .. } | OpKind::While { yields, .. } => {
                yields.iter().map(|v| base_of(bases, *v)).collect()
            }
            OpKind::If { then_yields, else_yields, .. } => {
                then_yields.iter().chain(else_yields).map(|v| base_of(bases, *v)).collect()
            }
            _ => HashSet::new(),
        };
        let mut nested_escaping = yielded;
        nested_escaping.extend(escaping.iter().copied());
        for b in op.kind.bodies_mut() {
            insert_dels(b, bases, &nested_escaping, is_entry);
        }
    }
    let allocated: Vec<ValueId> =
        body.iter().filter_map(|o| if let OpKind::New { res, .. } = o.kind { Some(res) } else { None }).collect();
    let mut last_use: HashMap<ValueId, usize> = HashMap::new();
    let mut returned: HashSet<ValueId> = HashSet::new();
    for (i, op) in body.iter().enumerate() {
        let mut t = HashSet::new();
        touched(&op.kind, bases, &mut t);
        if let OpKind::Return { values } = &op.kind {
            returned.extend(values.iter().map(|v| base_of(bases, *v)));
        }
        for b in t {
            last_use.insert(b, i);
        }
    }
    // Dels to insert after position i (or before the return for synced entry results).
    let mut after: HashMap<usize, Vec<ValueId>> = HashMap::new();
    for b in allocated {
        if escaping.contains(&b) {
            continue;
        }
        if returned.contains(&b) {
            if !is_entry {
                continue;
            }
            let ret = body.iter().position(|o| matches!(o.kind, OpKind::Return { .. })).unwrap();
            after.entry(ret.wrapping_sub(1)).or_default().push(b);
            continue;
        }
        let at = last_use.get(&b).copied().unwrap_or(0);
        after.entry(at).or_default().push(b);
    }
    let mut out = Vec::with_capacity(body.len() + after.len());
    if let Some(ds) = after.get(&usize::MAX) {
        out.extend(ds.iter().map(|b| Op { kind: OpKind::Del { base: *b }, loc: None, block: None }));
    }
    for (i, op) in std::mem::take(body).into_iter().enumerate() {
        let loc = op.loc;
        out.push(op);
        if let Some(ds) = after.get(&i) {
            out.extend(ds.iter().map(|b| Op { kind: OpKind::Del { base: *b }, loc, block: None }));
        }
    }
    *body = out;
}
