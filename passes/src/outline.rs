//! Pass `outline-kernels`: turns every block of the fusion partition into an outlined kernel
//! `func.func` (marked `arr.kernel`) called from the host function, in the way IREE outlines
//! dispatch regions. Kernel parameters are the distinct values the block's operations use, in first
//! use order. Structurally identical kernels (same operations on the same parameter types) are
//! shared, so a program compiles each distinct kernel once.

use crate::fusion;
use arrayc_dialect::ir::{Body, Func, Module, Op, OpKind, ValueId};
use std::collections::HashMap;

/// Outlines the blocks of every host body of `m`.
pub fn run(m: &mut Module) {
    let mut kernels: Vec<Func> = vec![];
    let mut by_key: HashMap<String, String> = HashMap::new();
    for f in m.funcs.iter_mut().filter(|f| !f.kernel) {
        let mut body = std::mem::take(&mut f.body);
        outline_body(&mut body, f, &mut kernels, &mut by_key);
        f.body = body;
    }
    m.funcs.extend(kernels);
}

fn outline_body(body: &mut Body, host: &Func, kernels: &mut Vec<Func>, by_key: &mut HashMap<String, String>) {
    for op in body.iter_mut() {
        for b in op.kind.bodies_mut() {
            outline_body(b, host, kernels, by_key);
        }
    }
    let blocks = fusion::partition(body);
    let mut replacement: HashMap<usize, Op> = HashMap::new();
    let mut removed = vec![false; body.len()];
    for block in blocks {
        let ops: Vec<&Op> = block.iter().map(|&i| &body[i]).collect();
        let (kernel, args) = make_kernel(&ops, host);
        let key = format!("{:?}|{:?}", kernel.body.iter().map(|o| &o.kind).collect::<Vec<_>>(), kernel.value_types);
        let name = by_key
            .entry(key)
            .or_insert_with(|| {
                let name = format!("kernel{}_{}", kernels.len(), kernel_label(&kernel));
                let mut k = kernel;
                k.name = name.clone();
                kernels.push(k);
                name
            })
            .clone();
        let loc = ops[0].loc;
        for &i in &block[1..] {
            removed[i] = true;
        }
        replacement.insert(block[0], Op { kind: OpKind::Call { callee: name, args, results: vec![] }, loc });
    }
    let old = std::mem::take(body);
    for (i, op) in old.into_iter().enumerate() {
        if let Some(r) = replacement.remove(&i) {
            body.push(r);
        } else if !removed[i] {
            body.push(op);
        }
    }
}

fn kernel_label(k: &Func) -> String {
    k.body
        .iter()
        .filter_map(|o| if let OpKind::Compute { func, .. } = &o.kind { Some(func.name()) } else { None })
        .collect::<Vec<_>>()
        .join("_")
}

/// A kernel function for `ops` and the host values to pass to it.
fn make_kernel(ops: &[&Op], host: &Func) -> (Func, Vec<ValueId>) {
    let mut k = Func::new("", true);
    let mut map: HashMap<ValueId, ValueId> = HashMap::new();
    let mut args = vec![];
    for op in ops {
        let OpKind::Compute { func, out, ins } = &op.kind else { continue };
        let mut param = |v: ValueId, k: &mut Func| -> ValueId {
            *map.entry(v).or_insert_with(|| {
                let p = k.new_value(host.ty(v), None);
                k.params.push(p);
                args.push(v);
                p
            })
        };
        let out = param(*out, &mut k);
        let ins = ins.iter().map(|v| param(*v, &mut k)).collect();
        k.body.push(Op { kind: OpKind::Compute { func: *func, out, ins }, loc: op.loc });
    }
    k.param_names = k.params.iter().map(|p| format!("p{p}")).collect();
    k.param_defaults = vec![None; k.params.len()];
    (k, args)
}
