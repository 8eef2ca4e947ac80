//! The host executor: runs the host functions of an `arr` module (scalar code, `scf` control flow,
//! views, `new`/`del`/`sync`, `print`) and launches outlined kernels through a [`KernelLauncher`].
//!
//! This is the role of Bohrium's front end and runtime (Kristensen et al. 2016, Sec. IV): the host
//! program runs on the CPU thread and hands array operations, fused into kernels, to the back end.
//! Every error names the source location of the operation that failed.

use arrayc_core::semantics::{scalar_binary, scalar_unary};
use arrayc_core::{DType, Scalar};
use arrayc_dialect::ir::{Body, ComputeFn, Func, Loc, Module, OpKind, ValueId};
use arrayc_runtime::array::View;
use arrayc_runtime::launch::LaunchError;
use arrayc_runtime::print::{format_scalar, format_view};
use arrayc_runtime::value::{KernelLauncher, RtValue};
use arrayc_runtime::views::{apply_index, broadcast, diagonal, transpose};
use std::io::Write;

/// A run-time error with the source location of the failing operation.
#[derive(Debug, thiserror::Error)]
#[error("{file}:{line}:{col}: error: {message}")]
pub struct ExecError {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

/// The deepest chain of host function calls a program may make (Python's default recursion limit
/// is 1000): deeper is a run-time error, not a stack overflow.
pub const MAX_CALL_DEPTH: usize = 10_000;
/// When less than this much stack (bytes) is left, the executor continues on a new stack segment
/// of [`STACK_GROWTH`] bytes (`stacker`).
const STACK_RED_ZONE: usize = 256 << 10;
const STACK_GROWTH: usize = 8 << 20;

/// Runs host functions of `module`, printing to `out`.
pub struct Executor<'a> {
    pub module: &'a Module,
    pub kernels: &'a dyn KernelLauncher,
    pub out: &'a mut dyn Write,
}

enum Flow {
    Next,
    Return(Vec<RtValue>),
}

type Frame = Vec<Option<RtValue>>;

impl Executor<'_> {
    /// Calls host function `name` with `args` (one per parameter) and returns its results.
    /// Errors: any run-time error of the program, with its source location; a call chain deeper
    /// than [`MAX_CALL_DEPTH`] is one.
    pub fn call(&mut self, name: &str, args: Vec<RtValue>) -> Result<Vec<RtValue>, ExecError> {
        self.call_at(name, args, 0)
    }

    /// [`Executor::call`] at call depth `depth` (0 for the entry function).
    fn call_at(&mut self, name: &str, args: Vec<RtValue>, depth: usize) -> Result<Vec<RtValue>, ExecError> {
        let module = self.module;
        let f = module.func(name).ok_or_else(|| self.err(None, format!("no function `{name}`")))?;
        let mut frame: Frame = vec![None; f.value_types.len()];
        for (p, a) in f.params.iter().zip(args) {
            frame[*p as usize] = Some(a);
        }
        match self.body(f, &f.body, &mut frame, depth)? {
            Flow::Return(v) => Ok(v),
            Flow::Next => Ok(vec![]),
        }
    }

    fn err(&self, loc: Option<Loc>, message: String) -> ExecError {
        let l = loc.unwrap_or(Loc { line: 0, col: 0 });
        ExecError { file: self.module.source_name.clone(), line: l.line, col: l.col, message }
    }

    fn body(&mut self, f: &Func, body: &Body, fr: &mut Frame, depth: usize) -> Result<Flow, ExecError> {
        // Nested bodies and calls recurse: grow the stack on demand rather than overflow it.
        stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || self.body_ops(f, body, fr, depth))
    }

    fn body_ops(&mut self, f: &Func, body: &Body, fr: &mut Frame, depth: usize) -> Result<Flow, ExecError> {
        for op in body {
            let r = self.op(f, &op.kind, fr, depth).map_err(|m| match m {
                OpError::Msg(m) => self.err(op.loc, m),
                OpError::Exec(e) => e,
            })?;
            if let Flow::Return(v) = r {
                return Ok(Flow::Return(v));
            }
        }
        Ok(Flow::Next)
    }

    fn op(&mut self, f: &Func, k: &OpKind, fr: &mut Frame, depth: usize) -> Result<Flow, OpError> {
        use OpKind::*;
        match k {
            Const { res, value } => set(fr, *res, RtValue::Scalar(*value)),
            Binary { res, op, lhs, rhs } => {
                let v = scalar_binary(*op, sc(fr, *lhs)?, sc(fr, *rhs)?)?;
                set(fr, *res, RtValue::Scalar(v))
            }
            Unary { res, op, arg } => set(fr, *res, RtValue::Scalar(scalar_unary(*op, sc(fr, *arg)?))),
            Cast { res, arg } => set(fr, *res, RtValue::Scalar(sc(fr, *arg)?.cast(f.ty(*res).dtype()))),
            Select { res, cond, lhs, rhs } => {
                let v = if truth(sc(fr, *cond)?) { get(fr, *lhs)? } else { get(fr, *rhs)? };
                set(fr, *res, v)
            }
            For { iv, lo, hi, step, inits, carried, body, yields, results } => {
                let (lo, hi, step) = (sc(fr, *lo)?.as_i64(), sc(fr, *hi)?.as_i64(), sc(fr, *step)?.as_i64());
                let mut vals = gets(fr, inits)?;
                let mut i = lo;
                while i < hi {
                    set(fr, *iv, RtValue::Scalar(Scalar::I64(i)));
                    bind(fr, carried, &vals);
                    if let Flow::Return(v) = self.body(f, body, fr, depth).map_err(OpError::Exec)? {
                        return Ok(Flow::Return(v));
                    }
                    vals = gets(fr, yields)?;
                    i += step;
                }
                bind(fr, results, &vals);
            }
            While { inits, before_args, before, cond, after_args, after, yields, results } => {
                let mut vals = gets(fr, inits)?;
                loop {
                    bind(fr, before_args, &vals);
                    self.body(f, before, fr, depth).map_err(OpError::Exec)?;
                    if !truth(sc(fr, *cond)?) {
                        break;
                    }
                    bind(fr, after_args, &vals);
                    self.body(f, after, fr, depth).map_err(OpError::Exec)?;
                    vals = gets(fr, yields)?;
                }
                bind(fr, results, &vals);
            }
            If { cond, then_body, then_yields, else_body, else_yields, results } => {
                let (b, y) = if truth(sc(fr, *cond)?) { (then_body, then_yields) } else { (else_body, else_yields) };
                self.body(f, b, fr, depth).map_err(OpError::Exec)?;
                let vals = gets(fr, y)?;
                bind(fr, results, &vals);
            }
            Call { callee, args, results } => {
                let argv = gets(fr, args)?;
                let callee_f =
                    self.module.func(callee).ok_or_else(|| OpError::Msg(format!("no function `{callee}`")))?;
                if callee_f.kernel {
                    self.kernels.launch(callee, &argv).map_err(|e| match e {
                        LaunchError::Invalid(m) => OpError::Msg(m),
                        LaunchError::Fault(f) => {
                            OpError::Exec(self.err(Some(Loc { line: f.line, col: f.col }), f.message))
                        }
                    })?;
                } else {
                    if depth + 1 >= MAX_CALL_DEPTH {
                        return Err(OpError::Msg(format!(
                            "calls nested deeper than {MAX_CALL_DEPTH} (in `{callee}`): is the recursion missing a base case?"
                        )));
                    }
                    let r = self.call_at(callee, argv, depth + 1).map_err(OpError::Exec)?;
                    bind(fr, results, &r);
                }
            }
            Return { values } => return Ok(Flow::Return(gets(fr, values)?)),
            Assert { cond, msg } => {
                if !truth(sc(fr, *cond)?) {
                    return Err(OpError::Msg(assert_message(f, *cond, msg, fr)));
                }
            }
            New { res, sizes } => {
                let shape: Vec<i64> = sizes.iter().map(|s| sc(fr, *s).map(|x| x.as_i64())).collect::<Result<_, _>>()?;
                if let Some(n) = shape.iter().find(|n| **n < 0) {
                    return Err(OpError::Msg(format!("negative dimension {n} in array size {shape:?}")));
                }
                let v = arrayc_runtime::array::View::uninitialised(f.ty(*res).dtype(), &shape)
                    .map_err(|e| OpError::Msg(e.to_string()))?;
                set(fr, *res, RtValue::View(v))
            }
            View { res, src, index, operands } => {
                // Index operands on the stack: a host loop creates one view per element it touches.
                let mut ops = [0i64; 16];
                let mut heap = vec![];
                let ops: &mut [i64] = if operands.len() <= ops.len() {
                    &mut ops[..operands.len()]
                } else {
                    heap.resize(operands.len(), 0);
                    &mut heap
                };
                for (o, s) in ops.iter_mut().zip(operands) {
                    *o = sc(fr, *s)?.as_i64();
                }
                let v = apply_index(vw(fr, *src)?, index, ops)?;
                set(fr, *res, RtValue::View(v))
            }
            Broadcast { res, src, sizes } => {
                let shape: Vec<i64> = sizes.iter().map(|s| sc(fr, *s).map(|x| x.as_i64())).collect::<Result<_, _>>()?;
                let v = broadcast(vw(fr, *src)?, &shape)?;
                set(fr, *res, RtValue::View(v))
            }
            Transpose { res, src, perm } => {
                let v = transpose(vw(fr, *src)?, perm);
                set(fr, *res, RtValue::View(v))
            }
            Diagonal { res, src } => {
                let v = diagonal(vw(fr, *src)?)?;
                set(fr, *res, RtValue::View(v))
            }
            Dim { res, src, axis } => {
                let n = vw(fr, *src)?.shape[*axis];
                set(fr, *res, RtValue::Scalar(Scalar::I64(n)))
            }
            Load { res, src } => {
                let v = vw(fr, *src)?;
                let s = v.read_at(v.element_offset(&[]));
                set(fr, *res, RtValue::Scalar(s))
            }
            Del { base } => {
                // The region is done with the base array; free it now unless the function returns it
                // (Fig. 3b's `SYNC D; DEL D` before returning D: the caller's reference keeps it).
                let returned =
                    matches!(f.body.last().map(|o| &o.kind), Some(Return { values }) if values.contains(base));
                if !returned {
                    fr[*base as usize] = None;
                }
            }
            Sync { .. } => {}
            Print { value, newline } => {
                let text = match get(fr, *value)? {
                    RtValue::Scalar(s) => format_scalar(s),
                    RtValue::View(v) => format_view(&v),
                };
                let _ = write!(self.out, "{text}{}", if *newline { "\n" } else { " " });
            }
            // One element written by the host (`outline::is_element_write`): NumPy's cast to the
            // destination's dtype, as the kernel would do it.
            Compute { func: ComputeFn::Fill | ComputeFn::Copy, out, ins } if ins.len() == 1 => {
                let v = match fr[ins[0] as usize].as_ref() {
                    Some(RtValue::Scalar(s)) => *s,
                    Some(RtValue::View(v)) if v.shape.is_empty() => v.read_at(v.offset),
                    _ => return Err(OpError::Msg("internal error: host element copy from an array".into())),
                };
                let o = vw(fr, *out)?;
                if !o.shape.is_empty() {
                    return Err(OpError::Msg("internal error: host element write to an array".into()));
                }
                o.write_at(o.offset, v);
            }
            Compute { func, .. } => {
                return Err(OpError::Msg(format!(
                    "internal error: `arr.{}` was not outlined into a kernel",
                    func.name()
                )));
            }
        }
        Ok(Flow::Next)
    }
}

/// The message of a failed `cf.assert`: `{lhs}` and `{rhs}` in `msg` become the values of the
/// operands of the comparison that computed `cond` (so a size check can say which sizes differ),
/// `?` when `cond` is not such a comparison.
fn assert_message(f: &Func, cond: ValueId, msg: &str, fr: &Frame) -> String {
    if !msg.contains("{lhs}") && !msg.contains("{rhs}") {
        return msg.to_string();
    }
    fn find(body: &Body, cond: ValueId) -> Option<(ValueId, ValueId)> {
        body.iter().find_map(|op| match &op.kind {
            OpKind::Binary { res, lhs, rhs, .. } if *res == cond => Some((*lhs, *rhs)),
            k => k.bodies().into_iter().find_map(|b| find(b, cond)),
        })
    }
    let text = |v: Option<ValueId>| match v.and_then(|v| fr.get(v as usize).cloned().flatten()) {
        Some(RtValue::Scalar(s)) => format_scalar(s),
        _ => "?".to_string(),
    };
    let operands = find(&f.body, cond);
    msg.replace("{lhs}", &text(operands.map(|o| o.0))).replace("{rhs}", &text(operands.map(|o| o.1)))
}

enum OpError {
    Msg(String),
    Exec(ExecError),
}

impl From<String> for OpError {
    fn from(s: String) -> Self {
        OpError::Msg(s)
    }
}

fn set(fr: &mut Frame, v: ValueId, x: RtValue) {
    fr[v as usize] = Some(x);
}

fn get(fr: &Frame, v: ValueId) -> Result<RtValue, OpError> {
    fr[v as usize]
        .clone()
        .ok_or_else(|| OpError::Msg(format!("internal error: value %{v} used after `arr.del` or before definition")))
}

fn gets(fr: &Frame, vs: &[ValueId]) -> Result<Vec<RtValue>, OpError> {
    vs.iter().map(|v| get(fr, *v)).collect()
}

fn bind(fr: &mut Frame, vs: &[ValueId], vals: &[RtValue]) {
    for (v, x) in vs.iter().zip(vals) {
        set(fr, *v, x.clone());
    }
}

fn sc(fr: &Frame, v: ValueId) -> Result<Scalar, OpError> {
    match fr[v as usize].as_ref() {
        Some(RtValue::Scalar(s)) => Ok(*s),
        _ => Err(OpError::Msg(format!("internal error: %{v} is not a live scalar"))),
    }
}

fn vw(fr: &Frame, v: ValueId) -> Result<&View, OpError> {
    fr[v as usize]
        .as_ref()
        .and_then(|x| x.view())
        .ok_or_else(|| OpError::Msg(format!("internal error: %{v} is not a live view")))
}

fn truth(s: Scalar) -> bool {
    matches!(s.cast(DType::Bool), Scalar::Bool(true))
}
