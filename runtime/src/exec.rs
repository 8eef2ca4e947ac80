//! The host executor: runs the host functions of an `arr` module (scalar code, `scf` control flow,
//! views, `new`/`del`/`sync`, `print`) and launches outlined kernels through a [`KernelLauncher`].
//!
//! This is the role of Bohrium's front end and runtime (Kristensen et al. 2016, Sec. IV): the host
//! program runs on the CPU thread and hands array operations, fused into kernels, to the back end.
//! Every error names the source location of the operation that failed.

use crate::array::{checked_len, shape_str, Scalar, View};
use crate::print::{format_scalar, format_view};
use crate::value::{KernelLauncher, RtValue};
use arrayc_dialect::ir::{BinFn, Body, Func, IndexEntry, Loc, Module, OpKind, UnFn, ValueId};
use arrayc_grammar::ast::DType;
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
                let callee_f = self.module.func(callee).ok_or_else(|| OpError::Msg(format!("no function `{callee}`")))?;
                if callee_f.kernel {
                    self.kernels.launch(callee, &argv).map_err(OpError::Msg)?;
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
                let v = crate::array::View::uninitialised(f.ty(*res).dtype(), &shape).map_err(|e| OpError::Msg(e.to_string()))?;
                set(fr, *res, RtValue::View(v))
            }
            View { res, src, index, operands } => {
                let ops: Vec<i64> = operands.iter().map(|s| sc(fr, *s).map(|x| x.as_i64())).collect::<Result<_, _>>()?;
                let v = apply_index(vw(fr, *src)?, index, &ops)?;
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
                let returned = matches!(f.body.last().map(|o| &o.kind), Some(Return { values }) if values.contains(base));
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
            Compute { func, .. } => {
                return Err(OpError::Msg(format!("internal error: `arr.{}` was not outlined into a kernel", func.name())));
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
    fr[v as usize].clone().ok_or_else(|| OpError::Msg(format!("internal error: value %{v} used after `arr.del` or before definition")))
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
    get(fr, v)?.scalar().ok_or_else(|| OpError::Msg(format!("internal error: %{v} is not a scalar")))
}

fn vw(fr: &Frame, v: ValueId) -> Result<&View, OpError> {
    fr[v as usize].as_ref().and_then(|x| x.view()).ok_or_else(|| OpError::Msg(format!("internal error: %{v} is not a live view")))
}

fn truth(s: Scalar) -> bool {
    matches!(s.cast(DType::Bool), Scalar::Bool(true))
}

/// NumPy basic indexing (`slice.indices` semantics: bounds clipped, negative values count from the
/// end; an integer out of range is an error). Offsets and strides in elements.
pub fn apply_index(src: &View, index: &[IndexEntry], ops: &[i64]) -> Result<View, String> {
    let mut v = View { base: src.base.clone(), dtype: src.dtype, offset: src.offset, shape: vec![], strides: vec![] };
    let mut d = 0;
    let mut k = 0;
    let mut next = || {
        k += 1;
        ops[k - 1]
    };
    for e in index {
        match *e {
            IndexEntry::Full => {
                v.shape.push(src.shape[d]);
                v.strides.push(src.strides[d]);
                d += 1;
            }
            IndexEntry::NewAxis => {
                v.shape.push(1);
                v.strides.push(0);
            }
            IndexEntry::At => {
                let n = src.shape[d];
                let i0 = next();
                let i = if i0 < 0 { i0 + n } else { i0 };
                if i < 0 || i >= n {
                    return Err(format!("index {i0} is out of bounds for axis {d} with size {n}"));
                }
                v.offset += i * src.strides[d];
                d += 1;
            }
            IndexEntry::Slice { start, stop, step } => {
                let (a, b) = (if start { Some(next()) } else { None }, if stop { Some(next()) } else { None });
                let s = if step { next() } else { 1 };
                if s == 0 {
                    return Err(format!("slice step cannot be zero (axis {d})"));
                }
                let (first, len) = slice_indices(src.shape[d], a, b, s);
                if len > 0 {
                    v.offset += first * src.strides[d];
                }
                v.shape.push(len);
                // Saturating: the product only overflows when at most one element is selected,
                // and then the stride is never multiplied by a non-zero index.
                v.strides.push(src.strides[d].saturating_mul(s));
                d += 1;
            }
        }
    }
    Ok(v)
}

/// Python's `slice(start, stop, step).indices(n)` for a dimension of `n` elements: the first index
/// and the number of elements selected (bounds clipped, negative values count from the end).
/// `step` must not be 0.
pub fn slice_indices(n: i64, start: Option<i64>, stop: Option<i64>, step: i64) -> (i64, i64) {
    // In i128: `x + n`, `end - first + step` and `-step` may leave i64 for extreme values.
    let (n, step) = (n as i128, step as i128);
    let (lower, upper) = if step > 0 { (0, n) } else { (-1, n - 1) };
    let clamp = |x: Option<i64>, default: i128| match x.map(i128::from) {
        None => default,
        Some(x) if x < 0 => (x + n).max(lower),
        Some(x) => x.min(upper),
    };
    let first = clamp(start, if step > 0 { lower } else { upper });
    let end = clamp(stop, if step > 0 { upper } else { lower });
    let len = if step > 0 { (end - first + step - 1).div_euclid(step) } else { (first - end - step - 1).div_euclid(-step) };
    // Both lie in -1 ..= n, so they fit in i64 again.
    (first as i64, len.max(0) as i64)
}

/// `src` with permuted axes: axis `i` of the result is axis `perm[i]` of `src` (same elements).
pub fn transpose(src: &View, perm: &[usize]) -> View {
    let shape = perm.iter().map(|&a| src.shape[a]).collect();
    let strides = perm.iter().map(|&a| src.strides[a]).collect();
    View { base: src.base.clone(), dtype: src.dtype, offset: src.offset, shape, strides }
}

/// The main diagonal of a 2-d `src`: `min(d0, d1)` elements `src[i, i]` (stride `s0 + s1`).
pub fn diagonal(src: &View) -> Result<View, String> {
    let [d0, d1] = src.shape[..] else {
        return Err(format!("diagonal needs a 2-d array, got shape {}", shape_str(&src.shape)));
    };
    Ok(View { base: src.base.clone(), dtype: src.dtype, offset: src.offset, shape: vec![d0.min(d1)], strides: vec![src.strides[0] + src.strides[1]] })
}

/// `src` broadcast to `shape` (NumPy rules; broadcast dimensions get stride 0).
pub fn broadcast(src: &View, shape: &[i64]) -> Result<View, String> {
    let (r, k) = (src.rank(), shape.len());
    let fail = || format!("operands could not be broadcast together: shape {} does not broadcast to {}", shape_str(&src.shape), shape_str(shape));
    if r > k {
        return Err(fail());
    }
    if checked_len(shape).is_none() {
        return Err(format!("cannot broadcast to shape {}: its element count overflows a 64-bit size", shape_str(shape)));
    }
    let mut strides = vec![0; k];
    for j in 0..k {
        if j < k - r {
            continue;
        }
        let i = j - (k - r);
        if src.shape[i] == shape[j] {
            strides[j] = src.strides[i];
        } else if src.shape[i] != 1 {
            return Err(fail());
        }
    }
    Ok(View { base: src.base.clone(), dtype: src.dtype, offset: src.offset, shape: shape.to_vec(), strides })
}

fn float_bin(op: BinFn, x: f64, y: f64) -> Result<f64, Scalar> {
    Ok(match op {
        BinFn::Add => x + y,
        BinFn::Sub => x - y,
        BinFn::Mul => x * y,
        BinFn::Div => x / y,
        BinFn::Rem => x % y,
        BinFn::Pow => x.powf(y),
        BinFn::Minimum => if x.is_nan() || y.is_nan() { f64::NAN } else { x.min(y) },
        BinFn::Maximum => if x.is_nan() || y.is_nan() { f64::NAN } else { x.max(y) },
        BinFn::Eq => return Err(Scalar::Bool(x == y)),
        BinFn::Ne => return Err(Scalar::Bool(x != y)),
        BinFn::Lt => return Err(Scalar::Bool(x < y)),
        BinFn::Le => return Err(Scalar::Bool(x <= y)),
        BinFn::Gt => return Err(Scalar::Bool(x > y)),
        BinFn::Ge => return Err(Scalar::Bool(x >= y)),
        BinFn::And | BinFn::Or => return Err(Scalar::Bool(false)),
    })
}

/// Integer power with wrapping (exponentiation by squaring over the whole i64 exponent, as the
/// kernels' `ipowi`); a negative exponent gives 0 except for bases 1 and -1 (NumPy raises).
fn ipow(x: i64, y: i64) -> i64 {
    if y < 0 {
        return match x {
            1 => 1,
            -1 => if y % 2 == 0 { 1 } else { -1 },
            _ => 0,
        };
    }
    let (mut base, mut e, mut acc) = (x, y as u64, 1i64);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        e >>= 1;
    }
    acc
}

/// Scalar binary operation on two scalars of the same dtype (the lowering inserts the casts).
pub fn scalar_binary(op: BinFn, a: Scalar, b: Scalar) -> Result<Scalar, String> {
    use Scalar::*;
    Ok(match (a, b) {
        (F64(x), F64(y)) => float_bin(op, x, y).map(F64).unwrap_or_else(|s| s),
        (F32(x), F32(y)) => float_bin(op, x as f64, y as f64).map(|v| F32(v as f32)).unwrap_or_else(|s| s),
        (I64(x), I64(y)) => match op {
            BinFn::Add => I64(x.wrapping_add(y)),
            BinFn::Sub => I64(x.wrapping_sub(y)),
            BinFn::Mul => I64(x.wrapping_mul(y)),
            BinFn::Div => F64(x as f64 / y as f64),
            BinFn::Rem => I64(if y == 0 { 0 } else { x.wrapping_rem(y) }),
            BinFn::Pow => I64(ipow(x, y)),
            BinFn::Minimum => I64(x.min(y)),
            BinFn::Maximum => I64(x.max(y)),
            BinFn::Eq => Bool(x == y),
            BinFn::Ne => Bool(x != y),
            BinFn::Lt => Bool(x < y),
            BinFn::Le => Bool(x <= y),
            BinFn::Gt => Bool(x > y),
            BinFn::Ge => Bool(x >= y),
            BinFn::And => I64(x & y),
            BinFn::Or => I64(x | y),
        },
        (Bool(x), Bool(y)) => match op {
            BinFn::And => Bool(x & y),
            BinFn::Or => Bool(x | y),
            BinFn::Eq => Bool(x == y),
            BinFn::Ne => Bool(x != y),
            BinFn::Lt => Bool(!x & y),
            BinFn::Le => Bool(x <= y),
            BinFn::Gt => Bool(x & !y),
            BinFn::Ge => Bool(x >= y),
            _ => return scalar_binary(op, I64(x as i64), I64(y as i64)),
        },
        (a, b) => return Err(format!("internal error: scalar operands of different dtypes ({:?}, {:?})", a.dtype(), b.dtype())),
    })
}

/// Scalar unary function (`Neg` on floats; integer negation is lowered as `0 - x`).
pub fn scalar_unary(op: UnFn, a: Scalar) -> Scalar {
    let f = |x: f64| -> f64 {
        match op {
            UnFn::Neg => -x,
            UnFn::Abs => x.abs(),
            UnFn::Sqrt => x.sqrt(),
            UnFn::Exp => x.exp(),
            UnFn::Log => x.ln(),
            UnFn::Sin => x.sin(),
            UnFn::Cos => x.cos(),
            UnFn::Tanh => x.tanh(),
            UnFn::Ceil => x.ceil(),
            UnFn::Not => x,
        }
    };
    match a {
        Scalar::F64(x) => Scalar::F64(f(x)),
        Scalar::F32(x) => Scalar::F32(f(x as f64) as f32),
        Scalar::I64(x) => match op {
            UnFn::Abs => Scalar::I64(x.wrapping_abs()),
            UnFn::Neg => Scalar::I64(x.wrapping_neg()),
            UnFn::Ceil => a,
            _ => Scalar::F64(f(x as f64)),
        },
        Scalar::Bool(b) => match op {
            UnFn::Not => Scalar::Bool(!b),
            _ => a,
        },
    }
}
