//! The structure of a kernel's block ([`KernelLayout`]: its elementwise ops, contracted
//! temporaries, final reductions and iteration space) and the launch plan the runtime receives with
//! each compiled kernel. The code generator and the launcher both work from this one analysis, so
//! they agree on the iteration space; it is computed once per kernel, at compile time.

pub use arrayc_core::abi::{acc_dtype, atomic_scatter_add, KernelFault, KernelLayout, LaunchPlan, Reduction};
use arrayc_core::semantics::{gather_out_of_bounds, scatter_out_of_bounds, NEGATIVE_INT_POWER};
use arrayc_core::{BinFn, DType, ScatterMode};
use arrayc_dialect::ir::{self, ComputeFn, OpKind, Type, ValueId};

/// The error an elementwise op `func` with output dtype `out` and `inputs` inputs raises on some
/// inputs where NumPy
/// raises (a [`KernelFault`]): an integer power (computed in i64 for an integer or bool output) with
/// a negative exponent; a gather, or a scatter in [`ScatterMode::Raise`], with an index out of
/// range. The code generator checks for it
/// where this says so.
pub fn fault_of(func: ComputeFn, out: DType, inputs: usize) -> Option<String> {
    match func {
        ComputeFn::Binary(BinFn::Pow) if !out.is_float() => Some(NEGATIVE_INT_POWER.into()),
        ComputeFn::Gather(axis) => Some(gather_out_of_bounds(axis, inputs - 1)),
        ComputeFn::Scatter(_, ScatterMode::Raise) => Some(scatter_out_of_bounds(inputs - 1)),
        _ => None,
    }
}

/// Analyses the block of `kernel` (see [`KernelLayout`] for the supported forms); `Err` with a reason
/// for anything else (an op after the reduction, two reductions, a temporary read before it is
/// written, a non-parameter scalar, ranks that do not fit one iteration space, ...).
pub fn kernel_layout(kernel: &ir::Func) -> Result<KernelLayout, String> {
    let f = kernel;
    let is_param = |v: ValueId| f.params.contains(&v);
    let rank_of = |v: ValueId| match f.ty(v) {
        Type::Array(_, r) => Some(r),
        Type::Scalar(_) => None,
    };
    let mut ops = vec![];
    let mut reduce: Option<Reduction> = None;
    let mut extra: Vec<Reduction> = vec![];
    let mut faults: Vec<KernelFault> = vec![];
    for op in &f.body {
        match &op.kind {
            OpKind::Compute { func, out, ins } => {
                if reduce.is_some() && !matches!(func, ComputeFn::Reduce(..)) {
                    return Err(format!(
                        "`{}` after the block's reduction (reductions must be the last ops of their block)",
                        func.name()
                    ));
                }
                for &v in std::iter::once(out).chain(ins) {
                    if !is_param(v) && rank_of(v).is_none() {
                        return Err(format!(
                            "operand %v{v} of `{}` is a scalar but not a kernel parameter",
                            func.name()
                        ));
                    }
                }
                if let ComputeFn::Reduce(kind, axis) = *func {
                    if ins.len() != 1 {
                        return Err("a reduction takes one input".into());
                    }
                    if !is_param(*out) {
                        return Err(format!("the output %v{out} of a reduction must be a kernel parameter"));
                    }
                    let r = Reduction { kind, axis, out: *out, input: ins[0] };
                    match &reduce {
                        None => reduce = Some(r),
                        Some(first) => {
                            if axis.is_none() || axis != first.axis {
                                return Err("several reductions in one block must all be along the same axis".into());
                            }
                            extra.push(r);
                        }
                    }
                } else {
                    if func.own_shape_output() && !is_param(*out) {
                        return Err(format!("the target %v{out} of `{}` must be a kernel parameter", func.name()));
                    }
                    if let Some(message) = fault_of(*func, f.ty(*out).dtype(), ins.len()) {
                        let (line, col) = op.loc.map_or((0, 0), |l| (l.line, l.col));
                        faults.push(KernelFault { op: ops.len(), message, line, col });
                    }
                    ops.push((*func, *out, ins.clone()));
                }
            }
            OpKind::Return { values } if values.is_empty() => {}
            other => return Err(format!("unexpected operation in a kernel body: {other:?}")),
        }
    }
    if ops.is_empty() && reduce.is_none() {
        return Err("kernel has no array computation".into());
    }
    // Contracted temporaries: written before they are read.
    let mut contracted: Vec<ValueId> = vec![];
    for (func, out, ins) in &ops {
        for &v in ins {
            if !is_param(v) && !contracted.contains(&v) {
                return Err(format!("temporary %v{v} is read by `{}` before the block writes it", func.name()));
            }
        }
        if !is_param(*out) && !contracted.contains(out) {
            contracted.push(*out);
        }
    }
    let elem_operand = |v: ValueId| ops.iter().any(|(_, o, ins)| *o == v || ins.contains(&v));
    let elem_out = |v: ValueId| ops.iter().any(|(_, o, _)| *o == v);
    if let Some(r) = &reduce {
        for r in std::iter::once(r).chain(&extra) {
            if !is_param(r.input) && !contracted.contains(&r.input) {
                return Err(format!("reduction input %v{} is neither a parameter nor written by the block", r.input));
            }
            let other_use =
                extra.iter().chain(reduce.iter()).any(|o| o.out != r.out && (o.out == r.input || o.input == r.out));
            if r.input == r.out || elem_operand(r.out) || other_use {
                return Err(format!("reduction output %v{} is also an operand of the block", r.out));
            }
            if rank_of(r.input) != rank_of(reduce.as_ref().map_or(r.input, |f| f.input)) {
                return Err("several reductions in one block must reduce inputs of one rank".into());
            }
        }
    }
    let rank = match &reduce {
        Some(r) => rank_of(r.input).ok_or_else(|| format!("reduction input %v{} is not an array", r.input))?,
        // Arrays of their own shape (a gathered array, a scatter's target) do not count.
        None => ops
            .iter()
            .flat_map(|(func, o, ins)| func.space_operands(o, ins))
            .filter_map(|&v| rank_of(v))
            .max()
            .unwrap_or(0),
    };
    let scan_axes: Vec<usize> = ops
        .iter()
        .filter_map(|(func, ..)| match func {
            ComputeFn::Scan(_, a) => Some(*a),
            _ => None,
        })
        .collect();
    if let Some(&a) = scan_axes.first() {
        if reduce.is_some() {
            return Err("a block with a scan cannot also reduce".into());
        }
        if scan_axes.iter().any(|&b| b != a) {
            return Err("several scans in one block must all be along the same axis".into());
        }
        if a >= rank {
            return Err(format!("a scan along axis {a} of a rank-{rank} iteration space"));
        }
    }
    for &c in &contracted {
        let rc = rank_of(c).unwrap_or(0);
        if rc != rank {
            return Err(format!("contracted temporary %v{c} has rank {rc} but the iteration space has rank {rank}"));
        }
    }
    // The arrays a gather reads, or a scatter writes, at computed indices: of their own shape, not
    // the iteration space's.
    let own_shape = |v: ValueId| {
        ops.iter().any(|(func, out, ins)| {
            func.own_shape_input().is_some_and(|k| ins[k] == v) || (func.own_shape_output() && *out == v)
        })
    };
    for (func, out, ins) in &ops {
        for &v in func.space_operands(out, ins) {
            if let (true, Some(rv)) = (is_param(v), rank_of(v)) {
                let broadcast_input = rv == 0 && !elem_out(v);
                if rv != rank && !broadcast_input {
                    return Err(format!(
                        "view %v{v} of `{}` has rank {rv} but the iteration space has rank {rank}",
                        func.name()
                    ));
                }
            }
        }
    }
    for r in reduce.iter().chain(&extra) {
        let ro = rank_of(r.out).ok_or_else(|| format!("reduction output %v{} is not an array", r.out))?;
        match r.axis {
            None if ro != 0 => return Err("a reduction over everything needs a 0-d output".into()),
            Some(a) if a >= rank || ro + 1 != rank => {
                return Err(format!("reduce axis {a} of a rank-{rank} input into a rank-{ro} output"))
            }
            _ => {}
        }
    }
    // A view parameter of the iteration-space rank that no op uses is a *shape parameter*: it only
    // gives the shape (the outline pass passes one when every array of a block is contracted).
    let shape_param = |p: ValueId| {
        rank_of(p) == Some(rank) && !elem_operand(p) && reduce.iter().chain(&extra).all(|r| r.out != p && r.input != p)
    };
    let space = reduce
        .iter()
        .chain(&extra)
        .map(|r| r.input)
        .find(|&i| is_param(i))
        .or_else(|| f.params.iter().copied().find(|&p| rank_of(p) == Some(rank) && elem_operand(p) && !own_shape(p)))
        .or_else(|| f.params.iter().copied().find(|&p| shape_param(p)));
    if space.is_none() && ops.iter().any(|(func, ..)| func.own_shape_output()) {
        return Err("a scatter of contracted arrays needs a view parameter of the iteration-space shape among the block's operands".into());
    }
    if space.is_none() && reduce.is_some() {
        return Err("a reduction of a contracted temporary needs a view parameter of the iteration-space shape among the block's operands".into());
    }
    if !extra.is_empty() && rank < 2 {
        return Err("several reductions in one block need an input of rank 2 or more".into());
    }
    let reduces_all = reduce.is_some_and(|r| r.axis.is_none() || rank_of(r.out) == Some(0));
    let axis_split = !reduces_all
        && reduce.is_some_and(|r| r.axis.is_some())
        && reduce.iter().chain(&extra).all(|r| {
            let od = f.ty(r.out).dtype();
            acc_dtype(r.kind, od) == od
        });
    let scatters = || ops.iter().filter(|(func, ..)| func.own_shape_output());
    let atomic_scatters =
        scatters().next().is_some() && scatters().all(|&(func, out, _)| atomic_scatter_add(func, f.ty(out).dtype()));
    let chunked_scan = chunked_scan(f, &ops, rank);
    Ok(KernelLayout {
        ops,
        reduce,
        extra,
        rank,
        space,
        contracted,
        reduces_all,
        axis_split,
        faults,
        atomic_scatters,
        chunked_scan,
    })
}

/// Whether the scans of the block `ops` of kernel `f`, over a rank-`rank` iteration space, can run
/// as a [`KernelLayout::chunked_scan`]: the space is 1-d, there are scans, every scan accumulates in
/// `i64` (a sum or product of `i64` or `bool`, a min or max of `i64`: exact in any grouping, where a
/// float scan must combine in NumPy's order), no scan's input depends on a scan's output (through
/// the block's ops: its totals would need the carries), and no op runs in order.
fn chunked_scan(f: &ir::Func, ops: &[(ComputeFn, ValueId, Vec<ValueId>)], rank: usize) -> bool {
    let mut from_scan: Vec<ValueId> = vec![];
    let mut scans = 0;
    for (func, out, ins) in ops {
        let reads_scan = ins.iter().any(|v| from_scan.contains(v));
        match func {
            ComputeFn::Scan(kind, _) => {
                if reads_scan || acc_dtype(*kind, f.ty(*out).dtype()) != DType::I64 {
                    return false;
                }
                scans += 1;
                from_scan.push(*out);
            }
            _ if func.runs_in_order() => return false,
            _ if reads_scan => from_scan.push(*out),
            _ => {}
        }
    }
    rank == 1 && scans > 0
}

/// The launch plan of `kernel`: its name, parameters, parameter types, [`kernel_layout`] and the
/// inner strides its CPU code assumes.
/// Errors: as [`kernel_layout`], prefixed with the kernel's name.
pub fn launch_plan(kernel: &ir::Func) -> Result<LaunchPlan, String> {
    let layout = kernel_layout(kernel).map_err(|e| format!("kernel @{}: {e}", kernel.name))?;
    let param_types = kernel.params.iter().map(|&p| kernel.ty(p)).collect();
    Ok(LaunchPlan {
        name: kernel.name.clone(),
        params: kernel.params.clone(),
        param_types,
        layout,
        inner_strides: kernel.inner_strides.clone(),
    })
}
