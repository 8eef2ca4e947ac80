//! The host executor: runs the host functions of an `arr` module (scalar code, `scf` control flow,
//! views, `new`/`del`/`sync`, `print`) and launches outlined kernels through a [`KernelLauncher`].
//!
//! This is the role of Bohrium's front end and runtime (Kristensen et al. 2016, Sec. IV): the host
//! program runs on the CPU thread and hands array operations, fused into kernels, to the back end.
//! Every error names the source location of the operation that failed.
//!
//! Host code includes scalar loops that run millions of times, so each host function is translated
//! once, when it is first called, into [`Code`]: a flat list of register instructions with `scf`
//! control flow as jumps (no recursion inside a function; calls recurse), callees resolved, and
//! scalar and view registers apart. A scalar register holds the bits of its value
//! ([`Scalar::to_bits`]), whose dtype the translation knows: binary operations and casts are
//! functions chosen per operation and dtype ([`binary_fn`], [`cast_fn`], NumPy's semantics from
//! `arrayc_core`), constants are in the registers when a frame is made, and a `while` condition
//! that is one comparison is tested with its jump. An element view `x[i, j]` that is only read
//! (`arr.load`) and written (a host `fill`/`copy`) in its own body is never made: it is a
//! bounds-checked offset into `x` ([`element_only`]), so `x[i] = f(i)` in a loop allocates nothing
//! and touches no reference count.

use arrayc_core::error::{InternalError, ScalarError};
use arrayc_core::format_spec::FormatSpec;
use arrayc_core::ir::{
    BinFn, Body, ComputeFn, Func, IndexEntry, LinAlgFn, Loc, Module, Op, OpKind, ReduceKind, Type, UnFn, ValueId,
};
use arrayc_core::semantics::{scalar_binary, scalar_unary};
use arrayc_core::{DType, Scalar};
use arrayc_runtime::array::View;
use arrayc_runtime::launch::LaunchError;
use arrayc_runtime::print::{format_scalar, format_view};
use arrayc_runtime::value::{KernelLauncher, RtValue};
use arrayc_runtime::views::{
    apply_index, broadcast, c_contiguous, diagonal, element_offset, reshape, reshaped, transpose,
};
use std::io::Write;
use std::rc::Rc;

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
    module: &'a Module,
    kernels: &'a dyn KernelLauncher,
    out: &'a mut dyn Write,
    /// The translation of each function of `module` (by position), made when it is first called.
    codes: Vec<Option<Rc<Code>>>,
    /// Whether the kernels run on their own copies of the arrays (a GPU): host reads and writes of
    /// array elements then go through `kernels`' `host_read`/`host_write` first.
    device: bool,
}

impl<'a> Executor<'a> {
    pub fn new(module: &'a Module, kernels: &'a dyn KernelLauncher, out: &'a mut dyn Write) -> Self {
        Executor { module, kernels, out, codes: vec![None; module.funcs.len()], device: kernels.device_memory() }
    }

    /// Calls host function `name` with `args` (one per parameter) and returns its results.
    /// Errors: any run-time error of the program, with its source location; a call chain deeper
    /// than [`MAX_CALL_DEPTH`] is one.
    pub fn call(&mut self, name: &str, args: Vec<RtValue>) -> Result<Vec<RtValue>, ExecError> {
        let f = self.module.funcs.iter().position(|f| f.name == name);
        let f = f.ok_or_else(|| self.err(None, format!("no function `{name}`")))?;
        let results = self.call_at(f, args, 0)?;
        // The launches still in flight (on a GPU) may have faulted.
        self.kernels.finish().map_err(|e| self.launch_err(e, None))?;
        Ok(results)
    }

    /// A launcher's error as the program's: a kernel fault at the faulting op's own line, anything
    /// else at `loc`, the launching (or waiting) instruction's.
    fn launch_err(&self, e: LaunchError, loc: Option<Loc>) -> ExecError {
        match e {
            LaunchError::Invalid(m) => self.err(loc, m),
            LaunchError::Fault(f) => self.err(Some(Loc { line: f.line, col: f.col }), f.message),
        }
    }

    /// Calls the host function at position `f` of the module at call depth `depth` (0 for the
    /// entry function).
    fn call_at(&mut self, f: usize, args: Vec<RtValue>, depth: usize) -> Result<Vec<RtValue>, ExecError> {
        let code = match &self.codes[f] {
            Some(c) => c.clone(),
            None => {
                let c = Rc::new(Code::new(self.module, &self.module.funcs[f]));
                self.codes[f] = Some(c.clone());
                c
            }
        };
        let mut fr =
            Frame { scalars: code.scalars.clone(), views: vec![None; code.n_views], elems: vec![0; code.n_offsets] };
        for (k, (p, a)) in code.params.iter().zip(args).enumerate() {
            if !fr.set(*p, a) {
                let name = &self.module.funcs[f].name;
                return Err(self.err(
                    None,
                    InternalError::new(format!("argument {k} of `{name}` has the wrong kind")).to_string(),
                ));
            }
        }
        // Calls recurse: grow the stack on demand rather than overflow it.
        stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || self.run(&code, &mut fr, depth))
    }

    fn err(&self, loc: Option<Loc>, message: String) -> ExecError {
        let l = loc.unwrap_or(Loc { line: 0, col: 0 });
        ExecError { file: self.module.source_name.clone(), line: l.line, col: l.col, message }
    }

    /// Runs `code` in frame `fr` to its `return` (or its end) and returns the returned values.
    fn run(&mut self, code: &Code, fr: &mut Frame, depth: usize) -> Result<Vec<RtValue>, ExecError> {
        let mut pc = 0;
        while let Some(inst) = code.insts.get(pc) {
            pc += 1;
            match self.step(inst, fr, depth) {
                Ok(Next::Pc) => {}
                Ok(Next::Jump(to)) => pc = to as usize,
                Ok(Next::Return(values)) => {
                    return values
                        .iter()
                        .map(|v| fr.value(*v))
                        .collect::<Result<_, _>>()
                        .map_err(|e| self.err(code.locs[pc - 1], e.to_string()));
                }
                Err(OpError::Msg(m) | OpError::Launch(LaunchError::Invalid(m))) => {
                    // A fault of a launch still in flight (on a GPU) came first.
                    if let Err(e @ LaunchError::Fault(_)) = self.kernels.finish() {
                        return Err(self.launch_err(e, None));
                    }
                    return Err(self.err(code.locs[pc - 1], m));
                }
                Err(OpError::Launch(e)) => return Err(self.launch_err(e, code.locs[pc - 1])),
                Err(OpError::Exec(e)) => return Err(*e),
            }
        }
        Ok(vec![])
    }

    /// Runs one instruction.
    #[inline(always)]
    fn step<'c>(&mut self, inst: &'c Inst, fr: &mut Frame, depth: usize) -> Result<Next<'c>, OpError> {
        match inst {
            Inst::Binary { f, res, lhs, rhs } => {
                fr.scalars[*res as usize] = f(fr.scalars[*lhs as usize], fr.scalars[*rhs as usize])?
            }
            Inst::Unary { op, dt, res, arg } => {
                fr.scalars[*res as usize] = scalar_unary(*op, fr.sc(*arg, *dt)).to_bits()
            }
            Inst::Cast { f, res, arg } => fr.scalars[*res as usize] = f(fr.scalars[*arg as usize]),
            Inst::MoveS { dst, src } => fr.scalars[*dst as usize] = fr.scalars[*src as usize],
            Inst::MoveV { dst, src } => fr.views[*dst as usize] = Some(fr.vw(*src)?.clone()),
            Inst::SelectS { res, cond, lhs, rhs } => {
                fr.scalars[*res as usize] = fr.scalars[if fr.truth(*cond) { *lhs } else { *rhs } as usize]
            }
            Inst::SelectV { res, cond, lhs, rhs } => {
                let v = fr.vw(if fr.truth(*cond) { *lhs } else { *rhs })?.clone();
                fr.views[*res as usize] = Some(v)
            }
            Inst::Jump(to) => return Ok(Next::Jump(*to)),
            Inst::JumpUnless { cond, to } => {
                if !fr.truth(*cond) {
                    return Ok(Next::Jump(*to));
                }
            }
            Inst::CompareJump { f, res, lhs, rhs, to, when } => {
                let c = f(fr.scalars[*lhs as usize], fr.scalars[*rhs as usize])?;
                fr.scalars[*res as usize] = c;
                if (c != 0) == *when {
                    return Ok(Next::Jump(*to));
                }
            }
            Inst::ForEnter { iv, lo, hi, exit } => {
                let lo = fr.int(*lo);
                fr.scalars[*iv as usize] = lo as u64;
                if lo >= fr.int(*hi) {
                    return Ok(Next::Jump(*exit));
                }
            }
            Inst::ForNext { iv, hi, step, body } => {
                if let Some(i) = fr.int(*iv).checked_add(fr.int(*step)).filter(|&i| i < fr.int(*hi)) {
                    fr.scalars[*iv as usize] = i as u64;
                    return Ok(Next::Jump(*body));
                }
            }
            Inst::Call(c) => self.call_op(c, fr, depth)?,
            Inst::Return(values) => return Ok(Next::Return(values)),
            Inst::Assert(a) => {
                if !fr.truth(a.cond) {
                    return Err(OpError::Msg(a.message(fr)));
                }
            }
            Inst::New { res, dtype, sizes } => {
                let shape: Vec<i64> = sizes.iter().map(|s| fr.int(*s)).collect();
                if let Some(n) = shape.iter().find(|n| **n < 0) {
                    return Err(OpError::Msg(format!("negative dimension {n} in array size {shape:?}")));
                }
                let v = View::uninitialised(*dtype, &shape).map_err(|e| OpError::Msg(e.to_string()))?;
                if self.device {
                    self.kernels.fresh(&v);
                }
                fr.views[*res as usize] = Some(v)
            }
            Inst::View { res, src, index, operands } => {
                let v = with_indices(fr, operands, |ops| Ok(apply_index(fr.vw(*src)?, index, ops)?))?;
                fr.views[*res as usize] = Some(v)
            }
            Inst::Element { off, src, index } => {
                fr.elems[*off as usize] = element_offset(fr.vw(*src)?, index.iter().map(|r| fr.int(*r)))?
            }
            Inst::Broadcast { res, src, sizes } => {
                let shape: Vec<i64> = sizes.iter().map(|s| fr.int(*s)).collect();
                fr.views[*res as usize] = Some(broadcast(fr.vw(*src)?, &shape)?)
            }
            Inst::Transpose { res, src, perm } => fr.views[*res as usize] = Some(transpose(fr.vw(*src)?, perm)),
            Inst::Diagonal { res, src } => fr.views[*res as usize] = Some(diagonal(fr.vw(*src)?)?),
            Inst::Reshape { res, src, sizes } => {
                let shape: Vec<i64> = sizes.iter().map(|s| fr.int(*s)).collect();
                fr.views[*res as usize] = Some(reshape(fr.vw(*src)?, &shape)?)
            }
            Inst::Reshapable { res, src, sizes } => {
                let shape: Vec<i64> = sizes.iter().map(|s| fr.int(*s)).collect();
                fr.scalars[*res as usize] = u64::from(reshaped(fr.vw(*src)?, &shape).is_some())
            }
            Inst::Contiguous { res, src } => fr.scalars[*res as usize] = u64::from(c_contiguous(fr.vw(*src)?)),
            Inst::Dim { res, src, axis } => fr.scalars[*res as usize] = fr.vw(*src)?.shape[*axis] as u64,
            Inst::Load { res, src } => {
                if self.device {
                    self.kernels.host_read(fr.vw(src.view)?)?;
                }
                fr.scalars[*res as usize] = fr.load(*src)?.to_bits()
            }
            // One element written by the host (`outline::is_element_write`): NumPy's cast to the
            // destination's dtype, as the kernel would do it.
            Inst::Store { dst, src } => {
                if self.device {
                    if let Operand::Elem(e) = src {
                        self.kernels.host_read(fr.vw(e.view)?)?;
                    }
                    self.kernels.host_write(fr.vw(dst.view)?)?;
                }
                let x = match *src {
                    Operand::Scalar(r, dt) => fr.sc(r, dt),
                    Operand::Elem(e) => fr.load(e)?,
                };
                let (v, off) = fr.elem(*dst)?;
                v.write_at(off, x)
            }
            Inst::Del { base } => fr.views[*base as usize] = None,
            Inst::Print { value, spec, end } => {
                let text = match *value {
                    Slot::S(r, dt) => match spec {
                        Some(spec) => spec.apply(fr.sc(r, dt), &format_scalar),
                        None => format_scalar(fr.sc(r, dt)),
                    },
                    slot => {
                        let v = fr.vw(slot.view())?;
                        if self.device {
                            self.kernels.host_read(v)?;
                        }
                        format_view(v)
                    }
                };
                // What the program printed before a fault stays what it was: wait for the launches.
                self.kernels.finish()?;
                let _ = write!(self.out, "{text}{end}");
            }
            Inst::PrintText { text, end } => {
                self.kernels.finish()?;
                let _ = write!(self.out, "{text}{end}");
            }
            Inst::MatMul { out, lhs, rhs } => {
                let (out, lhs, rhs) = (fr.vw(*out)?, fr.vw(*lhs)?, fr.vw(*rhs)?);
                if self.device {
                    self.kernels.host_read(lhs)?;
                    self.kernels.host_read(rhs)?;
                    self.kernels.host_write(out)?;
                }
                arrayc_runtime::matmul::matmul(out, lhs, rhs)?
            }
            Inst::Exchange { view } => self.kernels.exchange(fr.vw(*view)?)?,
            Inst::AllReduce { view, kind } => self.kernels.allreduce(fr.vw(*view)?, *kind)?,
            Inst::Sort { out, src, axis, indices } => {
                let (out, src) = (fr.vw(*out)?, fr.vw(*src)?);
                if self.device {
                    self.kernels.host_read(src)?;
                    self.kernels.host_write(out)?;
                }
                arrayc_runtime::sort::sort(out, src, *axis, *indices)?
            }
            Inst::Convolve { out, a, v, off } => {
                let (out, a, v) = (fr.vw(*out)?, fr.vw(*a)?, fr.vw(*v)?);
                if self.device {
                    self.kernels.host_read(a)?;
                    self.kernels.host_read(v)?;
                    self.kernels.host_write(out)?;
                }
                arrayc_runtime::convolve::convolve(out, a, v, fr.int(*off))?
            }
            Inst::LinAlg { func, out, a, b } => {
                let (out, a) = (fr.vw(*out)?, fr.vw(*a)?);
                let b = b.map(|b| fr.vw(b)).transpose()?;
                if self.device {
                    self.kernels.host_read(a)?;
                    if let Some(b) = b {
                        self.kernels.host_read(b)?;
                    }
                    self.kernels.host_write(out)?;
                }
                arrayc_runtime::linalg::linalg(*func, out, a, b)?
            }
            Inst::Fail(e) => return Err(OpError::Msg(e.to_string())),
        }
        Ok(Next::Pc)
    }

    /// A `func.call`: a kernel launch, or a call of a host function one level deeper.
    fn call_op(&mut self, c: &CallInst, fr: &mut Frame, depth: usize) -> Result<(), OpError> {
        let argv: Vec<RtValue> = c.args.iter().map(|a| fr.value(*a)).collect::<Result<_, _>>()?;
        match &c.callee {
            Callee::Missing(name) => Err(OpError::Msg(format!("no function `{name}`"))),
            Callee::Kernel(name) => Ok(self.kernels.launch(name, &argv)?),
            Callee::Host(f) => {
                if depth + 1 >= MAX_CALL_DEPTH {
                    let callee = &self.module.funcs[*f].name;
                    return Err(OpError::Msg(format!(
                        "calls nested deeper than {MAX_CALL_DEPTH} (in `{callee}`): is the recursion missing a base case?"
                    )));
                }
                let r = self.call_at(*f, argv, depth + 1).map_err(|e| OpError::Exec(Box::new(e)))?;
                for (slot, x) in c.results.iter().zip(r) {
                    if !fr.set(*slot, x) {
                        return Err(OpError::Msg(InternalError::new("a call result has the wrong kind").to_string()));
                    }
                }
                Ok(())
            }
        }
    }
}

/// What runs after an instruction.
enum Next<'c> {
    /// The next instruction.
    Pc,
    Jump(u32),
    /// The function returns these values.
    Return(&'c [Slot]),
}

/// Calls `f` with the values of the i64 registers `regs`, gathered on the stack (a host loop may
/// make a view, a slice say, every iteration).
fn with_indices<T>(fr: &Frame, regs: &[u32], f: impl FnOnce(&[i64]) -> Result<T, OpError>) -> Result<T, OpError> {
    let mut buf = [0i64; 16];
    let mut heap = vec![];
    let ops: &mut [i64] = if regs.len() <= buf.len() {
        &mut buf[..regs.len()]
    } else {
        heap.resize(regs.len(), 0);
        &mut heap
    };
    for (o, r) in ops.iter_mut().zip(regs) {
        *o = fr.int(*r);
    }
    f(ops)
}

enum OpError {
    Msg(String),
    /// A launcher's error: a kernel fault names its own line ([`Executor::launch_err`]).
    Launch(LaunchError),
    Exec(Box<ExecError>),
}

impl From<String> for OpError {
    fn from(s: String) -> Self {
        OpError::Msg(s)
    }
}

/// NumPy's error of a scalar operation (an integer `**` with a negative exponent), located by the
/// executor at the operation.
impl From<ScalarError> for OpError {
    fn from(e: ScalarError) -> Self {
        OpError::Msg(e.to_string())
    }
}

/// NumPy's error of an index or a broadcast, located by the executor at the operation.
impl From<arrayc_runtime::views::ViewError> for OpError {
    fn from(e: arrayc_runtime::views::ViewError) -> Self {
        OpError::Msg(e.to_string())
    }
}

/// A compiler bug found while running, located by the executor at the operation.
impl From<InternalError> for OpError {
    fn from(e: InternalError) -> Self {
        OpError::Msg(e.to_string())
    }
}

/// A launcher's error: a launch's, a wait's, or a failed copy between host and device memory
/// (`KernelLauncher::host_read`/`host_write`).
impl From<LaunchError> for OpError {
    fn from(e: LaunchError) -> Self {
        OpError::Launch(e)
    }
}

/// The registers of one call of a host function.
struct Frame {
    /// Scalar registers, each value's [`Scalar::to_bits`] (its dtype is known from the code).
    scalars: Vec<u64>,
    /// View registers; `None` before definition and after `arr.del`.
    views: Vec<Option<View>>,
    /// Element registers: base element offsets into a view register ([`Slot::E`]).
    elems: Vec<i64>,
}

impl Frame {
    fn sc(&self, r: u32, dt: DType) -> Scalar {
        Scalar::from_bits(dt, self.scalars[r as usize])
    }
    /// An `i64` register.
    fn int(&self, r: u32) -> i64 {
        self.scalars[r as usize] as i64
    }
    /// A `bool` register.
    fn truth(&self, r: u32) -> bool {
        self.scalars[r as usize] != 0
    }
    fn vw(&self, r: u32) -> Result<&View, InternalError> {
        self.views[r as usize]
            .as_ref()
            .ok_or_else(|| InternalError::new("a view is used after `arr.del` or before definition"))
    }
    /// The value in `slot` (an element slot is never read whole: [`element_only`]).
    fn value(&self, slot: Slot) -> Result<RtValue, InternalError> {
        match slot {
            Slot::S(r, dt) => Ok(RtValue::Scalar(self.sc(r, dt))),
            slot => Ok(RtValue::View(self.vw(slot.view())?.clone())),
        }
    }
    /// Puts `x` in `slot` (a scalar cast to the slot's dtype); `false` if `x` is of the other kind.
    fn set(&mut self, slot: Slot, x: RtValue) -> bool {
        match (slot, x) {
            (Slot::S(r, dt), RtValue::Scalar(s)) => self.scalars[r as usize] = s.cast(dt).to_bits(),
            (Slot::V(r), RtValue::View(v)) => self.views[r as usize] = Some(v),
            _ => return false,
        }
        true
    }
    /// The view and base element offset of the element `e`.
    fn elem(&self, e: Elem) -> Result<(&View, i64), InternalError> {
        let v = self.vw(e.view)?;
        Ok((v, e.off.map_or(v.offset, |o| self.elems[o as usize])))
    }
    fn load(&self, e: Elem) -> Result<Scalar, InternalError> {
        let (v, off) = self.elem(e)?;
        Ok(v.read_at(off))
    }
}

/// Where a value lives in a [`Frame`].
#[derive(Clone, Copy, PartialEq)]
enum Slot {
    /// A scalar register holding a value of this dtype.
    S(u32, DType),
    /// A view register.
    V(u32),
    /// An element of view register `view` at the base offset in element register `off`: an
    /// `arr.view` with an integer for every dimension whose uses are all element reads and writes
    /// ([`element_only`]).
    E { view: u32, off: u32 },
}

impl Slot {
    /// The view register of a view slot (other slots have none: `u32::MAX`, which no frame has, so
    /// using one as a view panics; only a module that fails verification, or an element slot that
    /// [`element_only`] should have refused, gets there).
    fn view(self) -> u32 {
        match self {
            Slot::V(r) => r,
            Slot::S(..) | Slot::E { .. } => u32::MAX,
        }
    }
}

/// One element: of a 0-d view register (`off` is `None`), or an element slot.
#[derive(Clone, Copy)]
struct Elem {
    view: u32,
    off: Option<u32>,
}

/// The value an element write stores.
#[derive(Clone, Copy)]
enum Operand {
    Scalar(u32, DType),
    Elem(Elem),
}

enum Callee {
    /// A host function, by position in the module.
    Host(usize),
    /// An outlined kernel: a launch.
    Kernel(String),
    /// No function of this name (an error when the call runs).
    Missing(String),
}

struct CallInst {
    callee: Callee,
    args: Vec<Slot>,
    results: Vec<Slot>,
}

/// A `cf.assert` (`cond` a `bool` register) and, when its message names `{lhs}` and `{rhs}`, the
/// operands of the comparison that computed its condition (so a size check can say which sizes
/// differ).
struct AssertInst {
    cond: u32,
    msg: String,
    operands: Option<(Slot, Slot)>,
}

impl AssertInst {
    /// The message: `{lhs}` and `{rhs}` replaced by the operands' values, `?` when the condition is
    /// not such a comparison.
    fn message(&self, fr: &Frame) -> String {
        let text = |s: Option<Slot>| match s {
            Some(Slot::S(r, dt)) => format_scalar(fr.sc(r, dt)),
            _ => "?".to_string(),
        };
        if !self.msg.contains("{lhs}") && !self.msg.contains("{rhs}") {
            return self.msg.clone();
        }
        self.msg.replace("{lhs}", &text(self.operands.map(|o| o.0))).replace("{rhs}", &text(self.operands.map(|o| o.1)))
    }
}

/// `lhs op rhs` on the bits of two scalars of one dtype ([`binary_fn`]); `Err` is NumPy's error
/// (an integer `**` with a negative exponent).
type BinaryFn = fn(u64, u64) -> Result<u64, ScalarError>;
/// A cast on the bits of a scalar ([`cast_fn`]).
type CastFn = fn(u64) -> u64;

/// One instruction. Registers are indices into the frame's files ([`Frame`]); jump targets are
/// instruction indices. Conditions, bounds, sizes and indices are `bool` and `i64` registers (the
/// translation casts other dtypes first). The tag is a plain byte, so dispatch is one table jump.
#[repr(u8)]
enum Inst {
    Binary {
        f: BinaryFn,
        res: u32,
        lhs: u32,
        rhs: u32,
    },
    Unary {
        op: UnFn,
        dt: DType,
        res: u32,
        arg: u32,
    },
    Cast {
        f: CastFn,
        res: u32,
        arg: u32,
    },
    MoveS {
        dst: u32,
        src: u32,
    },
    MoveV {
        dst: u32,
        src: u32,
    },
    SelectS {
        res: u32,
        cond: u32,
        lhs: u32,
        rhs: u32,
    },
    SelectV {
        res: u32,
        cond: u32,
        lhs: u32,
        rhs: u32,
    },
    Jump(u32),
    /// Jumps to `to` unless `cond` is true.
    JumpUnless {
        cond: u32,
        to: u32,
    },
    /// `res = lhs op rhs` (a `bool`), then jumps to `to` if it is `when`: a `while` condition
    /// (`Binary` and `JumpUnless` in one), and the same test at the end of the loop body, which
    /// jumps back into the body while it holds.
    CompareJump {
        f: BinaryFn,
        res: u32,
        lhs: u32,
        rhs: u32,
        to: u32,
        when: bool,
    },
    /// `scf.for` entry: `iv = lo`, and to `exit` unless `lo < hi`.
    ForEnter {
        iv: u32,
        lo: u32,
        hi: u32,
        exit: u32,
    },
    /// `scf.for` back edge: `iv += step`, and back to `body` while `iv < hi`.
    ForNext {
        iv: u32,
        hi: u32,
        step: u32,
        body: u32,
    },
    Call(Box<CallInst>),
    Return(Vec<Slot>),
    Assert(Box<AssertInst>),
    New {
        res: u32,
        dtype: DType,
        sizes: Vec<u32>,
    },
    View {
        res: u32,
        src: u32,
        index: Vec<IndexEntry>,
        operands: Vec<u32>,
    },
    /// An element slot: the bounds-checked base offset of `src[index...]` into register `off`.
    Element {
        off: u32,
        src: u32,
        index: Vec<u32>,
    },
    Broadcast {
        res: u32,
        src: u32,
        sizes: Vec<u32>,
    },
    Transpose {
        res: u32,
        src: u32,
        perm: Vec<usize>,
    },
    Diagonal {
        res: u32,
        src: u32,
    },
    /// `arr.reshape` (a view) and `arr.reshapable` (into a scalar register: whether it can be one).
    Reshape {
        res: u32,
        src: u32,
        sizes: Vec<u32>,
    },
    Reshapable {
        res: u32,
        src: u32,
        sizes: Vec<u32>,
    },
    /// `arr.contiguous` (into a scalar register).
    Contiguous {
        res: u32,
        src: u32,
    },
    Dim {
        res: u32,
        src: u32,
        axis: usize,
    },
    Load {
        res: u32,
        src: Elem,
    },
    Store {
        dst: Elem,
        src: Operand,
    },
    Del {
        base: u32,
    },
    /// `arr.print`: `spec` an f-string field's (checked by the front end), `None` for `str`.
    Print {
        value: Slot,
        spec: Option<FormatSpec>,
        end: String,
    },
    /// `arr.print_text`.
    PrintText {
        text: String,
        end: String,
    },
    /// `arr.matmul`: `out = lhs @ rhs` by the library (`arrayc_runtime::matmul`).
    MatMul {
        out: u32,
        lhs: u32,
        rhs: u32,
    },
    /// `arr.exchange`: the launcher's [`KernelLauncher::exchange`] of the view.
    Exchange {
        view: u32,
    },
    /// `arr.allreduce`: the launcher's [`KernelLauncher::allreduce`] of the view.
    AllReduce {
        view: u32,
        kind: ReduceKind,
    },
    /// `arr.sort`: `out` is `src` sorted along `axis`, or its sorting indices (`arrayc_runtime::sort`).
    Sort {
        out: u32,
        src: u32,
        axis: usize,
        indices: bool,
    },
    /// `arr.convolve`: `out` is NumPy's `convolve` of `a` and `v` from offset `off`, an `i64`
    /// register (`arrayc_runtime::convolve`).
    Convolve {
        out: u32,
        a: u32,
        v: u32,
        off: u32,
    },
    /// `arr.linalg`: `out` is NumPy's `linalg.solve(a, b)` or `linalg.det(a)`
    /// (`arrayc_runtime::linalg`).
    LinAlg {
        func: LinAlgFn,
        out: u32,
        a: u32,
        b: Option<u32>,
    },
    /// An internal error found by the translation, reported if the operation is reached.
    Fail(InternalError),
}

/// A host function translated for the executor.
struct Code {
    insts: Vec<Inst>,
    /// The source location of each instruction (of the operation it comes from).
    locs: Vec<Option<Loc>>,
    params: Vec<Slot>,
    /// The scalar registers of a new frame: the constants, zero elsewhere.
    scalars: Vec<u64>,
    n_views: usize,
    n_offsets: usize,
}

/// Translates one host function into [`Code`].
struct Translator<'a> {
    module: &'a Module,
    f: &'a Func,
    /// The slot of every value (an element view's slot is set when its `arr.view` is translated).
    slots: Vec<Slot>,
    /// How often each value is an operand in the whole function.
    uses: Vec<u32>,
    code: Code,
}

impl Code {
    fn new(module: &Module, f: &Func) -> Code {
        let (mut n_s, mut n_v) = (0, 0);
        let slots = f
            .value_types
            .iter()
            .map(|t| match *t {
                Type::Scalar(dt) => (Slot::S(n_s, dt), n_s += 1).0,
                Type::Array(..) => (Slot::V(n_v), n_v += 1).0,
            })
            .collect();
        let mut uses = vec![0; f.value_types.len()];
        count_uses(&f.body, &mut uses);
        let code = Code {
            insts: vec![],
            locs: vec![],
            params: vec![],
            scalars: vec![0; n_s as usize],
            n_views: n_v as usize,
            n_offsets: 0,
        };
        let mut t = Translator { module, f, slots, uses, code };
        t.code.params = f.params.iter().map(|p| t.slot(*p)).collect();
        t.body(&f.body);
        t.code
    }
}

/// Whether the element view `res = src[...]` at `body[j]` (`uses` uses in all) is used only by
/// element reads and writes later in `body` itself, before any `arr.del` of `src`: then it can be
/// an element slot, since `src`'s register holds the same view at every use.
fn element_only(body: &[Op], j: usize, res: ValueId, src: ValueId, uses: u32) -> bool {
    let mut seen = 0;
    for op in &body[j + 1..] {
        if seen == uses {
            break;
        }
        match &op.kind {
            OpKind::Load { src: s, .. } if *s == res => seen += 1,
            OpKind::Compute { func: ComputeFn::Fill | ComputeFn::Copy, out, ins } if ins.len() == 1 => {
                seen += u32::from(*out == res) + u32::from(ins[0] == res);
            }
            OpKind::Del { base } if *base == src => return false,
            k if k.operands().contains(&res) => return false,
            _ => {}
        }
    }
    seen == uses
}

fn count_uses(body: &Body, uses: &mut [u32]) {
    for op in body {
        for v in op.kind.operands() {
            uses[v as usize] += 1;
        }
        for b in op.kind.bodies() {
            count_uses(b, uses);
        }
    }
}

impl Translator<'_> {
    fn slot(&self, v: ValueId) -> Slot {
        self.slots[v as usize]
    }
    /// The scalar register of `v` and its dtype (`u32::MAX` for a view, as in [`Slot::view`]).
    fn scalar_reg_dtype(&self, v: ValueId) -> (u32, DType) {
        match self.slot(v) {
            Slot::S(r, dt) => (r, dt),
            _ => (u32::MAX, self.f.ty(v).dtype()),
        }
    }
    fn scalar_reg(&self, v: ValueId) -> u32 {
        self.scalar_reg_dtype(v).0
    }
    fn view_reg(&self, v: ValueId) -> u32 {
        self.slot(v).view()
    }
    /// A register holding `v` as `dt`: its own, or a new one that a cast fills first.
    fn s_as(&mut self, v: ValueId, dt: DType, loc: Option<Loc>) -> u32 {
        let (arg, from) = self.scalar_reg_dtype(v);
        if from == dt {
            return arg;
        }
        let res = self.temp_s();
        self.emit(Inst::Cast { f: cast_fn(from, dt), res, arg }, loc);
        res
    }
    fn ints(&mut self, vs: &[ValueId], loc: Option<Loc>) -> Vec<u32> {
        vs.iter().map(|v| self.s_as(*v, DType::I64, loc)).collect()
    }
    fn temp_s(&mut self) -> u32 {
        self.code.scalars.push(0);
        self.code.scalars.len() as u32 - 1
    }
    fn here(&self) -> u32 {
        self.code.insts.len() as u32
    }
    fn emit(&mut self, i: Inst, loc: Option<Loc>) {
        self.code.insts.push(i);
        self.code.locs.push(loc);
    }
    fn elem(&self, v: ValueId) -> Option<Elem> {
        match (self.slot(v), self.f.ty(v)) {
            (Slot::E { view, off }, _) => Some(Elem { view, off: Some(off) }),
            (Slot::V(view), Type::Array(_, 0)) => Some(Elem { view, off: None }),
            _ => None,
        }
    }

    /// `dsts = srcs` as one parallel assignment (loop-carried values may be permuted): through
    /// fresh registers when a source would be overwritten before it is read.
    fn moves(&mut self, dsts: &[ValueId], srcs: &[ValueId], loc: Option<Loc>) {
        let d: Vec<Slot> = dsts.iter().map(|v| self.slot(*v)).collect();
        let s: Vec<Slot> = srcs.iter().map(|v| self.slot(*v)).collect();
        if (0..d.len().min(s.len())).any(|k| s[k + 1..].contains(&d[k])) {
            let temps: Vec<Slot> = s
                .iter()
                .map(|x| match *x {
                    Slot::S(_, dt) => Slot::S(self.temp_s(), dt),
                    _ => {
                        self.code.n_views += 1;
                        Slot::V(self.code.n_views as u32 - 1)
                    }
                })
                .collect();
            self.move_slots(&temps, &s, loc);
            self.move_slots(&d, &temps, loc);
        } else {
            self.move_slots(&d, &s, loc);
        }
    }
    fn move_slots(&mut self, d: &[Slot], s: &[Slot], loc: Option<Loc>) {
        for (d, s) in d.iter().zip(s).filter(|(d, s)| d != s) {
            let i = match (*d, *s) {
                (Slot::S(dst, to), Slot::S(src, from)) if to == from => Inst::MoveS { dst, src },
                (Slot::S(res, to), Slot::S(arg, from)) => Inst::Cast { f: cast_fn(from, to), res, arg },
                (Slot::V(dst), Slot::V(src)) => Inst::MoveV { dst, src },
                _ => Inst::Fail(InternalError::new("a loop or branch value changes kind")),
            };
            self.emit(i, loc);
        }
    }

    fn body(&mut self, body: &[Op]) {
        // Bodies nest as deep as the source (`nesting::MAX_NESTING`).
        stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, || {
            for (j, op) in body.iter().enumerate() {
                self.translate_op(body, j, op);
            }
        })
    }

    fn translate_op(&mut self, body: &[Op], j: usize, op: &Op) {
        use OpKind::*;
        let loc = op.loc;
        let i = match &op.kind {
            Const { res, value } => {
                let (r, dt) = self.scalar_reg_dtype(*res);
                self.code.scalars[r as usize] = value.cast(dt).to_bits();
                return;
            }
            Binary { res, op, lhs, rhs } => {
                let (lhs, dt) = self.scalar_reg_dtype(*lhs);
                Inst::Binary { f: binary_fn(*op, dt), res: self.scalar_reg(*res), lhs, rhs: self.scalar_reg(*rhs) }
            }
            Unary { res, op, arg } => {
                let (arg, dt) = self.scalar_reg_dtype(*arg);
                Inst::Unary { op: *op, dt, res: self.scalar_reg(*res), arg }
            }
            Cast { res, arg } => {
                let ((arg, from), (res, to)) = (self.scalar_reg_dtype(*arg), self.scalar_reg_dtype(*res));
                Inst::Cast { f: cast_fn(from, to), res, arg }
            }
            Select { res, cond, lhs, rhs } => {
                let cond = self.s_as(*cond, DType::Bool, loc);
                match self.slot(*res) {
                    Slot::S(res, _) => {
                        Inst::SelectS { res, cond, lhs: self.scalar_reg(*lhs), rhs: self.scalar_reg(*rhs) }
                    }
                    _ => Inst::SelectV {
                        res: self.view_reg(*res),
                        cond,
                        lhs: self.view_reg(*lhs),
                        rhs: self.view_reg(*rhs),
                    },
                }
            }
            For { iv, lo, hi, step, inits, carried, body, yields, results } => {
                let [lo, hi, step] = [*lo, *hi, *step].map(|v| self.s_as(v, DType::I64, loc));
                self.moves(carried, inits, loc);
                let enter = self.here();
                let iv = self.scalar_reg(*iv);
                self.emit(Inst::ForEnter { iv, lo, hi, exit: 0 }, loc);
                self.body(body);
                self.moves(carried, yields, loc);
                self.emit(Inst::ForNext { iv, hi, step, body: enter + 1 }, loc);
                self.patch(enter);
                self.moves(results, carried, loc);
                return;
            }
            While { inits, before_args, before, cond, after_args, after, yields, results } => {
                // `after` runs with `after_args` bound to the values of `before_args`, which nothing
                // changes before the back edge: they share registers.
                for (a, b) in after_args.iter().zip(before_args) {
                    self.slots[*a as usize] = self.slot(*b);
                }
                self.moves(before_args, inits, loc);
                let top = self.here();
                let test = self.condition(before, *cond, loc);
                self.body(after);
                self.moves(before_args, yields, loc);
                let back = match self.code.insts[top as usize] {
                    // The condition is that one comparison: test it here and go on into the body.
                    Inst::CompareJump { f, res, lhs, rhs, .. } if test == top => {
                        Inst::CompareJump { f, res, lhs, rhs, to: top + 1, when: true }
                    }
                    _ => Inst::Jump(top),
                };
                self.emit(back, loc);
                self.patch(test);
                self.moves(results, before_args, loc);
                return;
            }
            If { cond, then_body, then_yields, else_body, else_yields, results } => {
                let cond = self.s_as(*cond, DType::Bool, loc);
                let test = self.here();
                self.emit(Inst::JumpUnless { cond, to: 0 }, loc);
                self.body(then_body);
                self.moves(results, then_yields, loc);
                let skip = self.here();
                self.emit(Inst::Jump(0), loc);
                self.patch(test);
                self.body(else_body);
                self.moves(results, else_yields, loc);
                self.patch(skip);
                return;
            }
            Call { callee, args, results } => {
                let callee = match self.module.funcs.iter().position(|g| g.name == *callee) {
                    Some(g) if self.module.funcs[g].kernel => Callee::Kernel(callee.clone()),
                    Some(g) => Callee::Host(g),
                    None => Callee::Missing(callee.clone()),
                };
                let args = args.iter().map(|v| self.slot(*v)).collect();
                let results = results.iter().map(|v| self.slot(*v)).collect();
                Inst::Call(Box::new(CallInst { callee, args, results }))
            }
            Return { values } => Inst::Return(values.iter().map(|v| self.slot(*v)).collect()),
            Assert { cond: c, msg } => {
                let operands = comparison(&self.f.body, *c).map(|(l, r)| (self.slot(l), self.slot(r)));
                let cond = self.s_as(*c, DType::Bool, loc);
                Inst::Assert(Box::new(AssertInst { cond, msg: msg.clone(), operands }))
            }
            New { res, sizes } => {
                Inst::New { res: self.view_reg(*res), dtype: self.f.ty(*res).dtype(), sizes: self.ints(sizes, loc) }
            }
            View { res, src, index, operands } => {
                let whole = matches!(self.f.ty(*src), Type::Array(_, r) if r == index.len());
                let operands = self.ints(operands, loc);
                if whole
                    && index.iter().all(|e| *e == IndexEntry::At)
                    && element_only(body, j, *res, *src, self.uses[*res as usize])
                {
                    let off = self.code.n_offsets as u32;
                    self.code.n_offsets += 1;
                    self.slots[*res as usize] = Slot::E { view: self.view_reg(*src), off };
                    Inst::Element { off, src: self.view_reg(*src), index: operands }
                } else {
                    Inst::View { res: self.view_reg(*res), src: self.view_reg(*src), index: index.clone(), operands }
                }
            }
            Broadcast { res, src, sizes } => {
                Inst::Broadcast { res: self.view_reg(*res), src: self.view_reg(*src), sizes: self.ints(sizes, loc) }
            }
            Transpose { res, src, perm } => {
                Inst::Transpose { res: self.view_reg(*res), src: self.view_reg(*src), perm: perm.clone() }
            }
            Diagonal { res, src } => Inst::Diagonal { res: self.view_reg(*res), src: self.view_reg(*src) },
            Reshape { res, src, sizes } => {
                Inst::Reshape { res: self.view_reg(*res), src: self.view_reg(*src), sizes: self.ints(sizes, loc) }
            }
            Reshapable { res, src, sizes } => {
                Inst::Reshapable { res: self.scalar_reg(*res), src: self.view_reg(*src), sizes: self.ints(sizes, loc) }
            }
            Contiguous { res, src } => Inst::Contiguous { res: self.scalar_reg(*res), src: self.view_reg(*src) },
            Dim { res, src, axis } => Inst::Dim { res: self.scalar_reg(*res), src: self.view_reg(*src), axis: *axis },
            Load { res, src } => match self.elem(*src) {
                Some(e) => Inst::Load { res: self.scalar_reg(*res), src: e },
                None => Inst::Fail(InternalError::new("host read of an array")),
            },
            Del { base } => {
                // The region is done with the base array; free it now unless the function returns
                // it (Fig. 3b's `SYNC D; DEL D` before returning D: the caller's reference keeps it).
                let returned =
                    matches!(self.f.body.last().map(|o| &o.kind), Some(Return { values }) if values.contains(base));
                match self.slot(*base) {
                    Slot::V(base) if !returned => Inst::Del { base },
                    _ => return,
                }
            }
            Sync { .. } => return,
            Print { value, spec, end } => match spec.as_deref().map(FormatSpec::parse).transpose() {
                Ok(spec) => Inst::Print { value: self.slot(*value), spec, end: end.clone() },
                Err(e) => Inst::Fail(InternalError::new(format!("print's format spec: {e}"))),
            },
            PrintText { text, end } => Inst::PrintText { text: text.clone(), end: end.clone() },
            Exchange { view } => Inst::Exchange { view: self.view_reg(*view) },
            AllReduce { view, kind } => Inst::AllReduce { view: self.view_reg(*view), kind: *kind },
            Sort { out, src, axis, indices } => {
                Inst::Sort { out: self.view_reg(*out), src: self.view_reg(*src), axis: *axis, indices: *indices }
            }
            Convolve { out, a, v, off } => Inst::Convolve {
                out: self.view_reg(*out),
                a: self.view_reg(*a),
                v: self.view_reg(*v),
                off: self.scalar_reg(*off),
            },
            LinAlg { func, out, a, b } => Inst::LinAlg {
                func: *func,
                out: self.view_reg(*out),
                a: self.view_reg(*a),
                b: b.map(|b| self.view_reg(b)),
            },
            MatMul { out, lhs, rhs } => {
                Inst::MatMul { out: self.view_reg(*out), lhs: self.view_reg(*lhs), rhs: self.view_reg(*rhs) }
            }
            Compute { func: ComputeFn::Fill | ComputeFn::Copy, out, ins } if ins.len() == 1 => {
                let src = match self.slot(ins[0]) {
                    Slot::S(r, dt) => Some(Operand::Scalar(r, dt)),
                    _ => self.elem(ins[0]).map(Operand::Elem),
                };
                match (self.elem(*out), src) {
                    (Some(dst), Some(src)) => Inst::Store { dst, src },
                    (None, _) => Inst::Fail(InternalError::new("host element write to an array")),
                    (_, None) => Inst::Fail(InternalError::new("host element copy from an array")),
                }
            }
            Compute { func, .. } => {
                Inst::Fail(InternalError::new(format!("`arr.{}` was not outlined into a kernel", func.name())))
            }
        };
        self.emit(i, loc);
    }

    /// The `before` region of a `scf.while` computing `cond`, then a jump (to be patched) taken
    /// when it is false; returns the jump's position. A comparison that ends the region is one
    /// instruction with the jump.
    fn condition(&mut self, before: &[Op], cond: ValueId, loc: Option<Loc>) -> u32 {
        if let [rest @ .., Op { kind: OpKind::Binary { res, op, lhs, rhs }, loc: cmp_loc, .. }] = before {
            if *res == cond && self.scalar_reg_dtype(cond).1 == DType::Bool {
                self.body(rest);
                let (lhs, dt) = self.scalar_reg_dtype(*lhs);
                let (f, res, rhs) = (binary_fn(*op, dt), self.scalar_reg(*res), self.scalar_reg(*rhs));
                self.emit(Inst::CompareJump { f, res, lhs, rhs, to: 0, when: false }, *cmp_loc);
                return self.here() - 1;
            }
        }
        self.body(before);
        let cond = self.s_as(cond, DType::Bool, loc);
        self.emit(Inst::JumpUnless { cond, to: 0 }, loc);
        self.here() - 1
    }

    /// Points the jump at `at` (or the loop entry's exit) to the next instruction.
    fn patch(&mut self, at: u32) {
        let here = self.here();
        match &mut self.code.insts[at as usize] {
            Inst::Jump(to)
            | Inst::JumpUnless { to, .. }
            | Inst::CompareJump { to, .. }
            | Inst::ForEnter { exit: to, .. } => *to = here,
            _ => unreachable!("only jumps are patched"),
        }
    }
}

/// The operands of the comparison (a `Binary`) that computes `cond`, if one does.
fn comparison(body: &Body, cond: ValueId) -> Option<(ValueId, ValueId)> {
    body.iter().find_map(|op| match &op.kind {
        OpKind::Binary { res, lhs, rhs, .. } if *res == cond => Some((*lhs, *rhs)),
        k => k.bodies().into_iter().find_map(|b| comparison(b, cond)),
    })
}

/// NumPy's `lhs op rhs` for two scalars of dtype `dt` ([`scalar_binary`]) on their bits, as one
/// function per operation and dtype, so that running it dispatches on neither.
fn binary_fn(op: BinFn, dt: DType) -> BinaryFn {
    macro_rules! by_op {
        ($dt:ident: $($op:ident)*) => {
            match op {
                $(BinFn::$op => |a, b| {
                    let (a, b) = (Scalar::from_bits(DType::$dt, a), Scalar::from_bits(DType::$dt, b));
                    scalar_binary(BinFn::$op, a, b).map(Scalar::to_bits)
                },)*
            }
        };
    }
    macro_rules! by_dtype {
        ($($dt:ident)*) => {
            match dt {
                $(DType::$dt => by_op!($dt: Add Sub Mul Div Rem Pow Minimum Maximum Eq Ne Lt Le Gt Ge And Or Arctan2 Copysign FloorDiv Xor Shl Shr),)*
            }
        };
    }
    by_dtype!(F64 F32 I64 I32 I16 I8 U64 U32 U16 U8 Bool)
}

/// NumPy's cast ([`Scalar::cast`]) from `from` to `to` on the bits, one function per pair.
fn cast_fn(from: DType, to: DType) -> CastFn {
    macro_rules! by_to {
        ($from:ident: $($to:ident)*) => {
            match to {
                $(DType::$to => |a| Scalar::from_bits(DType::$from, a).cast(DType::$to).to_bits(),)*
            }
        };
    }
    macro_rules! by_from {
        ($($from:ident)*) => {
            match from {
                $(DType::$from => by_to!($from: F64 F32 I64 I32 I16 I8 U64 U32 U16 U8 Bool),)*
            }
        };
    }
    by_from!(F64 F32 I64 I32 I16 I8 U64 U32 U16 U8 Bool)
}
