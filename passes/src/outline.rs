//! Pass `outline-kernels`: turns every block of the fusion partition into an outlined kernel
//! `func.func` (marked `arr.kernel`) called from the host function, in the way IREE outlines
//! dispatch regions; one loop nest per block (Kristensen et al. 2016, Sec. IV-A).
//!
//! The partition is the one `wsp-fusion` ([`crate::wsp_fusion`]) recorded in [`Op::block`]: a block
//! is emitted where its first operation is, as the block's `arr.exchange`s, one kernel call, then
//! its `arr.allreduce`s, `arr.sync`s and the `arr.del`s of its materialised base arrays. Base arrays contracted in a block (their
//! `arr.new` carries the block's number) become kernel-local scalars (no parameter, no load or
//! store); [`crate::dce`] then removes their `arr.new`/`arr.del` and the views nothing uses any more.
//! A computation in no block (the module was not fused) becomes a kernel of its own. Kernel
//! parameters are the distinct values the block uses, in first-use order. Structurally identical
//! kernels are shared. No operation keeps a block number afterwards.

mod contiguous_axis;

use crate::legality;
use crate::roots::{base_arrays, base_of};
use crate::wsp_fusion::{called_functions, function_symbols, region::Symbols, FusionOptions};
use arrayc_dialect::ir::{Body, ComputeFn, Func, Module, Op, OpKind, Type, ValueId};
use std::collections::{HashMap, HashSet};

/// The pass's name: its `arrayc-opt --pass` flag.
pub const NAME: &str = "outline-kernels";

/// Outlines the blocks of every host body of `m`. `opts.specialize` gives the known argument
/// shapes the kernels' static inner strides are derived from (as in `wsp-fusion`).
pub fn run(m: &mut Module, opts: &FusionOptions) {
    let mut st = State { kernels: vec![], by_key: HashMap::new(), new_values: vec![] };
    let called = called_functions(m);
    for f in m.funcs.iter_mut().filter(|f| !f.kernel) {
        let bases = base_arrays(f);
        let mut syms = function_symbols(f, &bases, opts, &called);
        let mut body = std::mem::take(&mut f.body);
        outline_body(&mut body, f, &bases, &mut syms, &mut st);
        f.body = body;
        for ty in std::mem::take(&mut st.new_values) {
            f.new_value(ty, None);
        }
    }
    m.funcs.extend(st.kernels);
}

struct State {
    kernels: Vec<Func>,
    by_key: HashMap<String, String>,
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
    let old = std::mem::take(body);
    // Per block of this body: its computations, syncs and dels (body indices, in order), and the
    // `arr.new`s of the base arrays contracted in it.
    let mut members: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut news: HashMap<u32, Vec<usize>> = HashMap::new();
    for (j, op) in old.iter().enumerate() {
        if let Some(b) = op.block {
            let list = if matches!(op.kind, OpKind::New { .. }) { &mut news } else { &mut members };
            list.entry(b).or_default().push(j);
        }
    }
    let mut out = Vec::with_capacity(old.len());
    for (j, op) in old.iter().enumerate() {
        syms.learn(host, &op.kind);
        let is_new = matches!(op.kind, OpKind::New { .. });
        match op.block {
            // A block is emitted where its first computation, sync or del is.
            Some(b) if !is_new => {
                if members[&b][0] == j {
                    let new_ops = news.get(&b).map(Vec::as_slice).unwrap_or(&[]);
                    let contracted: Vec<ValueId> = new_ops
                        .iter()
                        .filter_map(|&n| if let OpKind::New { res, .. } = old[n].kind { Some(res) } else { None })
                        .collect();
                    let all: Vec<usize> = new_ops.iter().chain(&members[&b]).copied().collect();
                    emit_block(&old, &all, &contracted, host, bases, syms, st, &mut out);
                }
            }
            None if matches!(op.kind, OpKind::Compute { .. }) => {
                emit_block(&old, &[j], &[], host, bases, syms, st, &mut out)
            }
            _ => {
                let mut op = Op { block: None, ..op.clone() };
                for b in op.kind.bodies_mut() {
                    outline_body(b, host, bases, syms, st);
                }
                out.push(op);
            }
        }
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
    // A base is contracted into one kernel-local value per iteration only where the block reaches
    // it through one view; one written and read through several (`w[0]`, `w[1]`, `w[2]` of a
    // literal `w`) is materialised: its `arr.new` stays where it is (`outline_body` keeps every
    // `arr.new`; the dead ones of contracted bases go later), its `arr.del` after the kernel.
    // So is one read before the block writes it (`np.empty(3) * 0.0`: NumPy's uninitialized
    // contents, which a kernel-local value would not have).
    let several = several_views(&computes, host, syms, bases);
    let unwritten = read_before_written(&computes, host, bases);
    let contracted: Vec<ValueId> =
        contracted.iter().copied().filter(|b| !several.contains(b) && !unwritten.contains(b)).collect();
    let contracted = contracted.as_slice();
    // A block's exchanges precede its kernel.
    for &j in block.iter().filter(|&&j| matches!(old[j].kind, OpKind::Exchange { .. })) {
        out.push(Op { block: None, ..old[j].clone() });
    }
    let on_host = matches!(computes.as_slice(), [c] if contracted.is_empty() && is_element_write(&c.kind, host));
    if on_host {
        out.push(Op { block: None, ..computes[0].clone() });
    } else if !computes.is_empty() {
        let contracted_set: HashSet<ValueId> = contracted.iter().copied().collect();
        let canon = canonical_views(&computes, host, syms);
        let (mut kernel, mut args) = make_kernel(&computes, host, bases, &contracted_set, &canon);
        kernel.inner_strides =
            contiguous_axis::reduce_along_contiguous_axis(&mut kernel, &mut args, host, syms, st, computes[0].loc, out)
                .unwrap_or_else(|| inner_strides(&args, host, syms));
        let fusible = computes.len() == 1
            || legality::fusible_block(&kernel)
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
            // A block's all-reduces follow its kernel (its exchanges precede it: above).
            OpKind::AllReduce { .. } => out.push(Op { block: None, ..old[j].clone() }),
            OpKind::Sync { .. } => out.push(old[j].clone()),
            OpKind::Del { base } if !contracted.contains(base) => out.push(old[j].clone()),
            _ => {}
        }
    }
}

/// Whether `k` is a write of one element, `fill` or `copy` whose array operands are all 0-d views,
/// which the host executor runs itself (`arrayc_exec::exec`) instead of launching a kernel: a host
/// loop writing one element per iteration would otherwise pay a launch (about 1.5 µs) per element.
pub fn is_element_write(k: &OpKind, host: &Func) -> bool {
    match k {
        OpKind::Compute { func: ComputeFn::Fill | ComputeFn::Copy, out, ins } => {
            std::iter::once(out).chain(ins).all(|&v| matches!(host.ty(v), Type::Array(_, 0) | Type::Scalar(_)))
        }
        _ => false,
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
        if !legality::fusible_block(&k) {
            continue;
        }
        let zero = st.host_value(host, Type::Array(d, 0));
        let shape = st.host_value(host, Type::Array(d, r));
        let loc = old[j].loc;
        out.push(Op { kind: OpKind::New { res: zero, sizes: vec![] }, loc, block: None });
        out.push(Op { kind: OpKind::Broadcast { res: shape, src: zero, sizes: sizes.clone() }, loc, block: None });
        *kernel = k;
        args.push(shape);
        return true;
    }
    false
}

/// The last-dimension stride of each kernel argument ([`Func::inner_strides`]): `0` or `1`
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
    Op { kind: OpKind::Call { callee: name, args, results: vec![] }, loc: first.loc, block: None }
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

/// The bases that `ops` reach through views of more than one offset or stride (their shapes may
/// differ as symbols: the partition fused them, so they are equal where it runs, as under the
/// residue assumption of a versioned entry), which cannot be contracted into one value per
/// iteration.
fn several_views(ops: &[&Op], host: &Func, syms: &mut Symbols, bases: &HashMap<ValueId, ValueId>) -> HashSet<ValueId> {
    type Place = (crate::wsp::sym::SymExpr, Vec<crate::wsp::sym::SymExpr>);
    let mut place_of: HashMap<ValueId, Place> = HashMap::new();
    let mut several = HashSet::new();
    for op in ops {
        let OpKind::Compute { out, ins, .. } = &op.kind else { continue };
        for &v in std::iter::once(out).chain(ins) {
            if !host.ty(v).is_array() {
                continue;
            }
            let w = syms.view(host, v);
            let base = base_of(bases, v);
            if *place_of.entry(base).or_insert_with(|| (w.offset.clone(), w.strides.clone())) != (w.offset, w.strides) {
                several.insert(base);
            }
        }
    }
    several
}

/// The base arrays an operation of `ops` reads before one of `ops` writes them (in order).
fn read_before_written(ops: &[&Op], host: &Func, bases: &HashMap<ValueId, ValueId>) -> HashSet<ValueId> {
    let mut written = HashSet::new();
    let mut unwritten = HashSet::new();
    for op in ops {
        let OpKind::Compute { out, ins, .. } = &op.kind else { continue };
        for &v in ins.iter().filter(|&&v| host.ty(v).is_array()) {
            let base = base_of(bases, v);
            if !written.contains(&base) {
                unwritten.insert(base);
            }
        }
        written.insert(base_of(bases, *out));
    }
    unwritten
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
        k.body.push(Op { kind: OpKind::Compute { func: *func, out, ins }, loc: op.loc, block: None });
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
