//! Pass `outline-kernels`: turns every block of the fusion partition into an outlined kernel
//! `func.func` (marked `arr.kernel`) called from the host function, in the way IREE outlines
//! dispatch regions; one loop nest per block (Kristensen et al. 2016, Sec. IV-A).
//!
//! Each segment (see [`crate::fusion`]) is re-emitted as: its pure host operations and `arr.new`s in
//! their original order, then its blocks in a topological order of the partition, each block as one
//! kernel call followed by the block's `arr.sync`s and `arr.del`s. Base arrays contracted in a block
//! become kernel-local scalars (no parameter, no load or store); [`crate::dce`] then removes their
//! `arr.new`/`arr.del` and the views nothing uses any more. Kernel parameters are the distinct
//! values the block uses, in first-use order. Structurally identical kernels are shared.

use crate::fusion::{plan_segment, region::Symbols, segments, FusionOptions, RegionReport};
use crate::kernel_codegen;
use crate::roots::{base_arrays, base_of};
use crate::wsp::PartitionCache;
use arrayc_dialect::ir::{Body, ComputeFn, Func, Module, Op, OpKind, Type, ValueId};
use std::collections::{HashMap, HashSet};

/// Outlines the blocks of every host body of `m`; returns one report per fused region.
pub fn run(m: &mut Module, opts: &FusionOptions) -> Vec<RegionReport> {
    let mut st = State {
        kernels: vec![],
        by_key: HashMap::new(),
        reports: vec![],
        cache: PartitionCache::default(),
        opts: opts.clone(),
        new_values: vec![],
    };
    // A function that is also called from the program runs with other arguments too: it is never
    // specialized.
    let mut called = HashSet::new();
    for f in &m.funcs {
        callees(&f.body, &mut called);
    }
    for f in m.funcs.iter_mut().filter(|f| !f.kernel) {
        let bases = base_arrays(f);
        let mut syms = Symbols::for_function(f, &bases);
        let mut body = std::mem::take(&mut f.body);
        if let Some(spec) = opts.specialize.as_ref().filter(|s| s.func == f.name && !called.contains(&f.name)) {
            syms.specialize(f, &spec.args);
        }
        outline_body(&mut body, f, &bases, &mut syms, &mut st);
        f.body = body;
        for ty in std::mem::take(&mut st.new_values) {
            f.new_value(ty, None);
        }
    }
    m.funcs.extend(st.kernels);
    st.reports
}

fn callees(body: &Body, out: &mut HashSet<String>) {
    for op in body {
        if let OpKind::Call { callee, .. } = &op.kind {
            out.insert(callee.clone());
        }
        for b in op.kind.bodies() {
            callees(b, out);
        }
    }
}

struct State {
    kernels: Vec<Func>,
    by_key: HashMap<String, String>,
    reports: Vec<RegionReport>,
    cache: PartitionCache,
    opts: FusionOptions,
    /// Types of the host values this pass creates in the current function (numbered after its
    /// existing values; added to it when the function is done).
    new_values: Vec<Type>,
}

impl State {
    /// A new value of type `ty` in host function `host`.
    fn host_value(&mut self, host: &Func, ty: Type) -> ValueId {
        self.new_values.push(ty);
        (host.value_types.len() + self.new_values.len() - 1) as ValueId
    }
}

fn outline_body(body: &mut Body, host: &Func, bases: &HashMap<ValueId, ValueId>, syms: &mut Symbols, st: &mut State) {
    let segs = segments(body);
    let old = std::mem::take(body);
    let mut out = Vec::with_capacity(old.len());
    let mut i = 0;
    let mut seg_iter = segs.into_iter().peekable();
    while i < old.len() {
        if let Some(seg) = seg_iter.peek().cloned() {
            if seg.start == i {
                seg_iter.next();
                let region_no = st.reports.len();
                let (plan, report) = plan_segment(host, &old, seg.clone(), syms, &st.opts, &mut st.cache, region_no);
                st.reports.push(report);
                let in_blocks: HashSet<usize> = plan.blocks.iter().flatten().copied().collect();
                // Pure host operations and allocations keep their order, ahead of the blocks.
                for j in seg.clone() {
                    if !in_blocks.contains(&j) || matches!(old[j].kind, OpKind::New { .. }) {
                        out.push(old[j].clone());
                    }
                }
                for (block, contracted) in plan.blocks.iter().zip(&plan.contracted) {
                    emit_block(&old, block, contracted, host, bases, syms, st, &mut out);
                }
                i = seg.end;
                continue;
            }
        }
        let mut op = old[i].clone();
        syms.learn(host, &op.kind);
        for b in op.kind.bodies_mut() {
            outline_body(b, host, bases, syms, st);
        }
        out.push(op);
        i += 1;
    }
    *body = out;
}

/// Emits one block: a kernel call for its computations (or one per computation when the kernel
/// back end cannot fuse the block), then its syncs and the dels of materialized bases.
#[allow(clippy::too_many_arguments)]
fn emit_block(
    old: &Body,
    block: &[usize],
    contracted: &[ValueId],
    host: &Func,
    bases: &HashMap<ValueId, ValueId>,
    syms: &mut Symbols,
    st: &mut State,
    out: &mut Body,
) {
    let computes: Vec<&Op> =
        block.iter().map(|&j| &old[j]).filter(|o| matches!(o.kind, OpKind::Compute { .. })).collect();
    if !computes.is_empty() {
        let contracted_set: HashSet<ValueId> = contracted.iter().copied().collect();
        let canon = canonical_views(&computes, host, syms);
        let (mut kernel, mut args) = make_kernel(&computes, host, bases, &contracted_set, &canon);
        kernel.inner_strides = inner_strides(&args, host, syms);
        let fusible = computes.len() == 1
            || kernel_codegen::fusible_block(&kernel)
            || add_shape_param(&mut kernel, &mut args, old, block, contracted, host, st, out);
        if fusible {
            out.push(call(kernel, args, computes[0], st));
        } else {
            // The back end cannot run this block as one loop nest: keep its order, one kernel each.
            for c in &computes {
                let (mut k, a) = make_kernel(&[c], host, bases, &HashSet::new(), &HashMap::new());
                k.inner_strides = inner_strides(&a, host, syms);
                out.push(call(k, a, c, st));
            }
        }
    }
    for &j in block {
        match &old[j].kind {
            OpKind::Sync { .. } => out.push(old[j].clone()),
            OpKind::Del { base } if !contracted.contains(base) => out.push(old[j].clone()),
            _ => {}
        }
    }
}

/// When every array of a block is contracted, no operand gives the kernel its iteration space: pass
/// a shape parameter, a zero-stride broadcast of a fresh 0-d array to the sizes of a contracted
/// array (host operations appended to `out`; no data moves). Returns whether the block is then
/// fusible; on `false` nothing is changed. Example: `sum(sqrt(random(n)) < 0.5)` is one kernel.
#[allow(clippy::too_many_arguments)]
fn add_shape_param(
    kernel: &mut Func,
    args: &mut Vec<ValueId>,
    old: &Body,
    block: &[usize],
    contracted: &[ValueId],
    host: &Func,
    st: &mut State,
    out: &mut Body,
) -> bool {
    for &j in block {
        let OpKind::New { res, sizes } = &old[j].kind else { continue };
        if !contracted.contains(res) {
            continue;
        }
        let Type::Array(d, r) = host.ty(*res) else { continue };
        let mut k = kernel.clone();
        let p = k.new_value(Type::Array(d, r), None);
        k.params.push(p);
        k.param_names.push(format!("p{p}"));
        k.param_defaults.push(None);
        if !k.inner_strides.is_empty() {
            k.inner_strides.push(None);
        }
        if !kernel_codegen::fusible_block(&k) {
            continue;
        }
        let zero = st.host_value(host, Type::Array(d, 0));
        let shape = st.host_value(host, Type::Array(d, r));
        let loc = old[j].loc;
        out.push(Op { kind: OpKind::New { res: zero, sizes: vec![] }, loc });
        out.push(Op { kind: OpKind::Broadcast { res: shape, src: zero, sizes: sizes.clone() }, loc });
        *kernel = k;
        args.push(shape);
        return true;
    }
    false
}

/// The expected last-dimension stride of each kernel argument ([`Func::inner_strides`]): `0` or `1`
/// when the fusion symbols know it as that constant (a row-major base and the slices, broadcasts
/// and transposes of it), else `None`; empty when no argument has one.
fn inner_strides(args: &[ValueId], host: &Func, syms: &mut Symbols) -> Vec<Option<i64>> {
    let s: Vec<Option<i64>> = args
        .iter()
        .map(|&v| match host.ty(v) {
            Type::Array(_, r) if r > 0 => syms.view(host, v).strides[r - 1].as_const().filter(|c| *c == 0 || *c == 1),
            _ => None,
        })
        .collect();
    if s.iter().any(Option::is_some) {
        s
    } else {
        vec![]
    }
}

/// The host call of `kernel` (shared with an identical earlier kernel when there is one).
fn call(kernel: Func, args: Vec<ValueId>, first: &Op, st: &mut State) -> Op {
    let key = format!(
        "{:?}|{:?}|{:?}|{:?}",
        kernel.body.iter().map(|o| &o.kind).collect::<Vec<_>>(),
        kernel.value_types,
        kernel.params,
        kernel.inner_strides
    );
    let n = st.kernels.len();
    let name = st
        .by_key
        .entry(key)
        .or_insert_with(|| {
            let name = format!("kernel{n}_{}", kernel_label(&kernel));
            let mut k = kernel;
            k.name = name.clone();
            st.kernels.push(k);
            name
        })
        .clone();
    Op { kind: OpKind::Call { callee: name, args, results: vec![] }, loc: first.loc }
}

fn kernel_label(k: &Func) -> String {
    let names: Vec<&str> = k
        .body
        .iter()
        .filter_map(|o| if let OpKind::Compute { func, .. } = &o.kind { Some(func.name()) } else { None })
        .collect();
    if names.len() > 4 {
        format!("{}_{}ops", names[..3].join("_"), names.len())
    } else {
        names.join("_")
    }
}

/// For each array operand of `ops`, the first operand with the identical view (same base, offset,
/// shape and strides, Def. 11): identical views must be one kernel parameter, so that a value
/// written through one is what a later operation reads through the other in the same iteration.
fn canonical_views(ops: &[&Op], host: &Func, syms: &mut Symbols) -> HashMap<ValueId, ValueId> {
    let mut seen: Vec<(crate::wsp::View, ValueId)> = vec![];
    let mut canon = HashMap::new();
    for op in ops {
        let OpKind::Compute { out, ins, .. } = &op.kind else { continue };
        for &v in std::iter::once(out).chain(ins) {
            if !host.ty(v).is_array() || canon.contains_key(&v) {
                continue;
            }
            let w = syms.view(host, v);
            let rep = match seen.iter().find(|(x, _)| *x == w) {
                Some((_, r)) => *r,
                None => {
                    seen.push((w, v));
                    v
                }
            };
            canon.insert(v, rep);
        }
    }
    canon
}

/// A kernel function for `ops` and the host values to pass to it. Array operands whose base is in
/// `contracted` become one kernel-local value per base (no parameter); identical views (`canon`)
/// become one parameter.
fn make_kernel(
    ops: &[&Op],
    host: &Func,
    bases: &HashMap<ValueId, ValueId>,
    contracted: &HashSet<ValueId>,
    canon: &HashMap<ValueId, ValueId>,
) -> (Func, Vec<ValueId>) {
    let mut k = Func::new("", true);
    let mut map: HashMap<ValueId, ValueId> = HashMap::new();
    let mut local: HashMap<ValueId, ValueId> = HashMap::new();
    let mut args = vec![];
    for op in ops {
        let OpKind::Compute { func, out, ins } = &op.kind else { continue };
        let mut value = |v: ValueId, k: &mut Func| -> ValueId {
            let v = canon.get(&v).copied().unwrap_or(v);
            let base = base_of(bases, v);
            if host.ty(v).is_array() && contracted.contains(&base) {
                return *local.entry(base).or_insert_with(|| k.new_value(host.ty(v), None));
            }
            *map.entry(v).or_insert_with(|| {
                let p = k.new_value(host.ty(v), None);
                k.params.push(p);
                args.push(v);
                p
            })
        };
        let out = value(*out, &mut k);
        let ins = ins.iter().map(|v| value(*v, &mut k)).collect();
        k.body.push(Op { kind: OpKind::Compute { func: *func, out, ins }, loc: op.loc });
    }
    k.param_names = k.params.iter().map(|p| format!("p{p}")).collect();
    k.param_defaults = vec![None; k.params.len()];
    reductions_last(&mut k);
    (k, args)
}

/// Moves a kernel's reductions after its elementwise operations (a kernel's loop nest computes its
/// reductions last), when that changes no value: no elementwise operation after a reduction writes
/// the reduction's input or reads its output. Otherwise the body stays as it is (and the back end
/// then runs the block one kernel per operation).
fn reductions_last(k: &mut Func) {
    let is_reduce = |o: &Op| matches!(o.kind, OpKind::Compute { func: ComputeFn::Reduce(..), .. });
    for (i, r) in k.body.iter().enumerate().filter(|(_, o)| is_reduce(o)) {
        let OpKind::Compute { out: rout, ins: rins, .. } = &r.kind else { continue };
        for e in k.body[i + 1..].iter().filter(|o| !is_reduce(o)) {
            let OpKind::Compute { out, ins, .. } = &e.kind else { continue };
            if rins.contains(out) || ins.contains(rout) || out == rout {
                return;
            }
        }
    }
    let (mut body, reds): (Vec<Op>, Vec<Op>) = std::mem::take(&mut k.body).into_iter().partition(|o| !is_reduce(o));
    body.extend(reds);
    k.body = body;
}
