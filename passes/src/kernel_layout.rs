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
        ComputeFn::Binary(BinFn::Pow) if !out.is_float() && !out.is_unsigned() => Some(NEGATIVE_INT_POWER.into()),
        ComputeFn::Gather(axis) => Some(gather_out_of_bounds(axis, inputs - 1)),
        ComputeFn::Scatter(_, ScatterMode::Raise) => Some(scatter_out_of_bounds(inputs - 1)),
        _ => None,
    }
}

/// Why a block is not a kernel this back end compiles as one loop nest: the reason, in words. The
/// outline pass falls back to one kernel per computation on it ([`legality::fusible_block`]); for
/// a kernel that was outlined, it is a compiler bug.
///
/// [`legality::fusible_block`]: crate::legality::fusible_block
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UnsupportedKernel(pub String);

impl From<String> for UnsupportedKernel {
    fn from(why: String) -> Self {
        UnsupportedKernel(why)
    }
}

impl From<&str> for UnsupportedKernel {
    fn from(why: &str) -> Self {
        UnsupportedKernel(why.to_string())
    }
}

/// Analyses the block of `kernel` (see [`KernelLayout`] for the supported forms); `Err` with a reason
/// for anything else (an op after the reduction, two reductions, a temporary read before it is
/// written, a non-parameter scalar, ranks that do not fit one iteration space, ...).
pub fn kernel_layout(kernel: &ir::Func) -> Result<KernelLayout, UnsupportedKernel> {
    let f = kernel;
    let Block { ops, reduce, extra, faults } = block_ops(f)?;
    let a = Analysis { f, ops: &ops, reduce, extra: &extra };
    let contracted = a.contracted()?;
    a.check_reductions(&contracted)?;
    let rank = a.rank()?;
    a.check_scans(rank)?;
    a.check_ranks(&contracted, rank)?;
    let space = a.space(rank)?;
    let reduces_all = reduce.is_some_and(|r| r.axis.is_none() || a.rank_of(r.out) == Some(0));
    let axis_split = !reduces_all
        && reduce.is_some_and(|r| r.axis.is_some())
        && a.reductions().all(|r| {
            let od = f.ty(r.out).dtype();
            // An arg-reduction's partial positions do not combine like its input.
            acc_dtype(r.kind, od) == od && !r.kind.is_arg()
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

/// A kernel body taken apart: its elementwise ops in order, its final reductions and the faults its
/// ops can raise.
struct Block {
    ops: Vec<(ComputeFn, ValueId, Vec<ValueId>)>,
    reduce: Option<Reduction>,
    extra: Vec<Reduction>,
    faults: Vec<KernelFault>,
}

/// Splits the body of kernel `f` into elementwise ops and the reductions that end it; `Err` for an
/// op after a reduction, a scalar operand that is not a parameter, a malformed reduction, or an
/// operation that is not a computation.
fn block_ops(f: &ir::Func) -> Result<Block, UnsupportedKernel> {
    let is_param = |v: ValueId| f.params.contains(&v);
    let mut b = Block { ops: vec![], reduce: None, extra: vec![], faults: vec![] };
    for op in &f.body {
        let (func, out, ins) = match &op.kind {
            OpKind::Compute { func, out, ins } => (*func, *out, ins),
            OpKind::Return { values } if values.is_empty() => continue,
            other => return Err(format!("unexpected operation in a kernel body: {other:?}").into()),
        };
        if b.reduce.is_some() && !matches!(func, ComputeFn::Reduce(..)) {
            return Err(format!(
                "`{}` after the block's reduction (reductions must be the last ops of their block)",
                func.name()
            )
            .into());
        }
        for &v in std::iter::once(&out).chain(ins) {
            if !is_param(v) && matches!(f.ty(v), Type::Scalar(_)) {
                return Err(format!("operand %v{v} of `{}` is a scalar but not a kernel parameter", func.name()).into());
            }
        }
        if let ComputeFn::Reduce(kind, axis) = func {
            if ins.len() != 1 {
                return Err("a reduction takes one input".into());
            }
            if !is_param(out) {
                return Err(format!("the output %v{out} of a reduction must be a kernel parameter").into());
            }
            let r = Reduction { kind, axis, out, input: ins[0] };
            // Reductions over everything (a 0-d output) share a block; so do reductions along
            // one axis of a space of rank 2 or more (checked in `space`).
            let everything = |r: &Reduction| r.axis.is_none() || matches!(f.ty(r.out), Type::Array(_, 0));
            match &b.reduce {
                None => b.reduce = Some(r),
                Some(first) if everything(first) && everything(&r) => b.extra.push(r),
                Some(first) if axis.is_none() || axis != first.axis || everything(first) => {
                    return Err(
                        "several reductions in one block must all reduce everything or all be along the same axis"
                            .into(),
                    )
                }
                Some(_) => b.extra.push(r),
            }
            continue;
        }
        if func.own_shape_output() && !is_param(out) {
            return Err(format!("the target %v{out} of `{}` must be a kernel parameter", func.name()).into());
        }
        if let Some(message) = fault_of(func, f.ty(out).dtype(), ins.len()) {
            let (line, col) = op.loc.map_or((0, 0), |l| (l.line, l.col));
            b.faults.push(KernelFault { op: b.ops.len(), message, line, col });
        }
        b.ops.push((func, out, ins.clone()));
    }
    if b.ops.is_empty() && b.reduce.is_none() {
        return Err("kernel has no array computation".into());
    }
    Ok(b)
}

/// The checks and derived facts of [`kernel_layout`] over one kernel's [`Block`].
struct Analysis<'a> {
    f: &'a ir::Func,
    ops: &'a [(ComputeFn, ValueId, Vec<ValueId>)],
    reduce: Option<Reduction>,
    extra: &'a [Reduction],
}

impl Analysis<'_> {
    fn is_param(&self, v: ValueId) -> bool {
        self.f.params.contains(&v)
    }
    fn rank_of(&self, v: ValueId) -> Option<usize> {
        match self.f.ty(v) {
            Type::Array(_, r) => Some(r),
            Type::Scalar(_) => None,
        }
    }
    /// The block's reductions, the first one first.
    fn reductions(&self) -> impl Iterator<Item = &Reduction> + '_ {
        self.reduce.iter().chain(self.extra)
    }
    /// Whether an elementwise op reads or writes `v`.
    fn elem_operand(&self, v: ValueId) -> bool {
        self.ops.iter().any(|(_, o, ins)| *o == v || ins.contains(&v))
    }
    /// The arrays a gather reads, or a scatter writes, at computed indices: of their own shape, not
    /// the iteration space's.
    fn own_shape(&self, v: ValueId) -> bool {
        self.ops.iter().any(|(func, out, ins)| {
            func.own_shape_input().is_some_and(|k| ins[k] == v) || (func.own_shape_output() && *out == v)
        })
    }

    /// Contracted temporaries, in order of first write; `Err` for one read before it is written.
    fn contracted(&self) -> Result<Vec<ValueId>, UnsupportedKernel> {
        let mut contracted: Vec<ValueId> = vec![];
        for (func, out, ins) in self.ops {
            for &v in ins {
                if !self.is_param(v) && !contracted.contains(&v) {
                    return Err(
                        format!("temporary %v{v} is read by `{}` before the block writes it", func.name()).into()
                    );
                }
            }
            if !self.is_param(*out) && !contracted.contains(out) {
                contracted.push(*out);
            }
        }
        Ok(contracted)
    }

    /// Each reduction reads a parameter or a contracted temporary, writes an output nothing else
    /// of the block uses, and reduces an input of the first one's rank.
    fn check_reductions(&self, contracted: &[ValueId]) -> Result<(), UnsupportedKernel> {
        let Some(first) = self.reduce else { return Ok(()) };
        for r in self.reductions() {
            if !self.is_param(r.input) && !contracted.contains(&r.input) {
                return Err(
                    format!("reduction input %v{} is neither a parameter nor written by the block", r.input).into()
                );
            }
            let other_use = self.reductions().any(|o| o.out != r.out && (o.out == r.input || o.input == r.out));
            if r.input == r.out || self.elem_operand(r.out) || other_use {
                return Err(format!("reduction output %v{} is also an operand of the block", r.out).into());
            }
            if self.rank_of(r.input) != self.rank_of(first.input) {
                return Err("several reductions in one block must reduce inputs of one rank".into());
            }
        }
        Ok(())
    }

    /// The iteration space's rank: the reduction input's, else the largest of the elementwise
    /// operands (arrays of their own shape, a gathered array or a scatter's target, do not count).
    fn rank(&self) -> Result<usize, UnsupportedKernel> {
        Ok(match &self.reduce {
            Some(r) => self.rank_of(r.input).ok_or_else(|| format!("reduction input %v{} is not an array", r.input))?,
            None => self
                .ops
                .iter()
                .flat_map(|(func, o, ins)| func.space_operands(o, ins))
                .filter_map(|&v| self.rank_of(v))
                .max()
                .unwrap_or(0),
        })
    }

    /// Scans: all along one axis of the space, and not in a block that reduces.
    fn check_scans(&self, rank: usize) -> Result<(), UnsupportedKernel> {
        let mut scan_axes = self.ops.iter().filter_map(|(func, ..)| match func {
            ComputeFn::Scan(_, a) => Some(*a),
            _ => None,
        });
        let Some(a) = scan_axes.next() else { return Ok(()) };
        if self.reduce.is_some() {
            return Err("a block with a scan cannot also reduce".into());
        }
        if scan_axes.any(|b| b != a) {
            return Err("several scans in one block must all be along the same axis".into());
        }
        if a >= rank {
            return Err(format!("a scan along axis {a} of a rank-{rank} iteration space").into());
        }
        Ok(())
    }

    /// Every contracted temporary and every elementwise view parameter has the space's rank
    /// (0-d views that are only read broadcast); every reduction's output fits its axis.
    fn check_ranks(&self, contracted: &[ValueId], rank: usize) -> Result<(), UnsupportedKernel> {
        for &c in contracted {
            let rc = self.rank_of(c).unwrap_or(0);
            if rc != rank {
                return Err(format!(
                    "contracted temporary %v{c} has rank {rc} but the iteration space has rank {rank}"
                )
                .into());
            }
        }
        let elem_out = |v: ValueId| self.ops.iter().any(|(_, o, _)| *o == v);
        for (func, out, ins) in self.ops {
            for &v in func.space_operands(out, ins) {
                if let (true, Some(rv)) = (self.is_param(v), self.rank_of(v)) {
                    let broadcast_input = rv == 0 && !elem_out(v);
                    if rv != rank && !broadcast_input {
                        return Err(format!(
                            "view %v{v} of `{}` has rank {rv} but the iteration space has rank {rank}",
                            func.name()
                        )
                        .into());
                    }
                }
            }
        }
        for r in self.reductions() {
            let ro = self.rank_of(r.out).ok_or_else(|| format!("reduction output %v{} is not an array", r.out))?;
            match r.axis {
                None if ro != 0 => return Err("a reduction over everything needs a 0-d output".into()),
                Some(a) if a >= rank || ro + 1 != rank => {
                    return Err(format!("reduce axis {a} of a rank-{rank} input into a rank-{ro} output").into())
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The parameter whose shape is the iteration space ([`KernelLayout::space`]): a reduction's
    /// input parameter, else the first elementwise view parameter of the space's rank that is not of
    /// its own shape, else a *shape parameter* (a view of that rank no op uses, which the outline
    /// pass passes when every array of a block is contracted).
    fn space(&self, rank: usize) -> Result<Option<ValueId>, UnsupportedKernel> {
        let params = || self.f.params.iter().copied();
        let shape_param = |p: ValueId| {
            self.rank_of(p) == Some(rank)
                && !self.elem_operand(p)
                && self.reductions().all(|r| r.out != p && r.input != p)
        };
        let space = self
            .reductions()
            .map(|r| r.input)
            .find(|&i| self.is_param(i))
            .or_else(|| params().find(|&p| self.rank_of(p) == Some(rank) && self.elem_operand(p) && !self.own_shape(p)))
            .or_else(|| params().find(|&p| shape_param(p)));
        if space.is_none() && self.ops.iter().any(|(func, ..)| func.own_shape_output()) {
            return Err("a scatter of contracted arrays needs a view parameter of the iteration-space shape among the block's operands".into());
        }
        if space.is_none() && self.reduce.is_some() {
            return Err("a reduction of a contracted temporary needs a view parameter of the iteration-space shape among the block's operands".into());
        }
        let reduces_all = self.reduce.is_some_and(|r| r.axis.is_none() || self.rank_of(r.out) == Some(0));
        if !self.extra.is_empty() && rank < 2 && !reduces_all {
            return Err("several reductions in one block need an input of rank 2 or more".into());
        }
        Ok(space)
    }
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
pub fn launch_plan(kernel: &ir::Func) -> Result<LaunchPlan, UnsupportedKernel> {
    let layout = kernel_layout(kernel).map_err(|e| UnsupportedKernel(format!("kernel @{}: {e}", kernel.name)))?;
    let param_types = kernel.params.iter().map(|&p| kernel.ty(p)).collect();
    Ok(LaunchPlan {
        name: kernel.name.clone(),
        params: kernel.params.clone(),
        param_types,
        layout,
        inner_strides: kernel.inner_strides.clone(),
    })
}
