//! arrayc's typed mirror of an `arr` module: host functions (scalar code, `scf` control flow, `arr`
//! array operations) and outlined kernel functions.
//!
//! Passes work on this structure; [`crate::print`] writes it as MLIR text that the real MLIR parser
//! verifies against the IRDL definition in `dialect/arr.irdl.mlir`. Semantics of every operation are
//! in `dialect/README.md`. Array operations follow Bohrium's bytecode (Kristensen et al. 2016,
//! Sec. IV, Fig. 3): destination-passing on views, with explicit `new`, `del` and `sync`.

use arrayc_grammar::ast::DType;

/// An SSA value, dense per function (`0..Func::value_types.len()`).
pub type ValueId = u32;

/// Type of an SSA value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Scalar(DType),
    /// A view of `rank` dimensions (a strided memref in MLIR).
    Array(DType, usize),
}

impl Type {
    pub fn dtype(self) -> DType {
        match self {
            Type::Scalar(d) | Type::Array(d, _) => d,
        }
    }
    pub fn is_array(self) -> bool {
        matches!(self, Type::Array(..))
    }
}

/// A host scalar value (also a literal in [`OpKind::Const`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    F64(f64),
    F32(f32),
    I64(i64),
    Bool(bool),
}

impl Scalar {
    pub fn dtype(self) -> DType {
        match self {
            Scalar::F64(_) => DType::F64,
            Scalar::F32(_) => DType::F32,
            Scalar::I64(_) => DType::I64,
            Scalar::Bool(_) => DType::Bool,
        }
    }
    /// Value as f64 (bool as 0/1).
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::F64(v) => v,
            Scalar::F32(v) => v as f64,
            Scalar::I64(v) => v as f64,
            Scalar::Bool(v) => v as i64 as f64,
        }
    }
    /// Value as i64: floats truncate toward zero, bool is 0/1. A float that is NaN or outside
    /// the i64 range gives `i64::MIN`, as the kernels' `arith.fptosi` does on x86-64 (the
    /// "integer indefinite" of `cvttsd2si`) and as NumPy's `astype(int64)` does there.
    pub fn as_i64(self) -> i64 {
        let float = |v: f64| if v.is_nan() || v >= 9.223_372_036_854_775_808e18 || v < -9.223_372_036_854_775_808e18 { i64::MIN } else { v as i64 };
        match self {
            Scalar::F64(v) => float(v),
            Scalar::F32(v) => float(v as f64),
            Scalar::I64(v) => v,
            Scalar::Bool(v) => v as i64,
        }
    }
    /// Converts to `dtype` with NumPy's `astype` semantics (float to int truncates, nonzero is true).
    pub fn cast(self, dtype: DType) -> Scalar {
        match dtype {
            DType::F64 => Scalar::F64(self.as_f64()),
            DType::F32 => Scalar::F32(self.as_f64() as f32),
            DType::I64 => Scalar::I64(self.as_i64()),
            DType::Bool => Scalar::Bool(match self {
                Scalar::Bool(b) => b,
                Scalar::I64(v) => v != 0,
                s => s.as_f64() != 0.0,
            }),
        }
    }
}

/// Source position of an operation (1-based), printed as an MLIR `loc("file":line:col)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loc {
    pub line: u32,
    pub col: u32,
}

/// Elementwise functions, shared by host scalar arithmetic and array computations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinFn {
    Add,
    Sub,
    Mul,
    /// True division (operands are floats).
    Div,
    /// NumPy remainder: the result has the sign of the divisor; `x % 0` is 0 for integers.
    Rem,
    Pow,
    Minimum,
    Maximum,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinFn {
    /// The `arr` operation name (without the `arr.` prefix).
    pub fn name(self) -> &'static str {
        use BinFn::*;
        match self {
            Add => "add",
            Sub => "sub",
            Mul => "mul",
            Div => "div",
            Rem => "rem",
            Pow => "pow",
            Minimum => "minimum",
            Maximum => "maximum",
            Eq => "eq",
            Ne => "ne",
            Lt => "lt",
            Le => "le",
            Gt => "gt",
            Ge => "ge",
            And => "and",
            Or => "or",
        }
    }
    pub fn is_comparison(self) -> bool {
        use BinFn::*;
        matches!(self, Eq | Ne | Lt | Le | Gt | Ge)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnFn {
    Neg,
    Not,
    Abs,
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    Tanh,
    /// Rounds up to an integral value (same dtype); used for `arange` sizes.
    Ceil,
}

impl UnFn {
    pub fn name(self) -> &'static str {
        use UnFn::*;
        match self {
            Neg => "neg",
            Not => "not",
            Abs => "abs",
            Sqrt => "sqrt",
            Exp => "exp",
            Log => "log",
            Sin => "sin",
            Cos => "cos",
            Tanh => "tanh",
            Ceil => "ceil",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceKind {
    Sum,
    Prod,
    Min,
    Max,
}

impl ReduceKind {
    pub fn name(self) -> &'static str {
        match self {
            ReduceKind::Sum => "sum",
            ReduceKind::Prod => "prod",
            ReduceKind::Min => "min",
            ReduceKind::Max => "max",
        }
    }
}

/// What an array computation does; the output view is always the first operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComputeFn {
    /// `out = value` (broadcast scalar).
    Fill,
    /// `out = in` (in has out's shape; converts dtype).
    Copy,
    /// 1-d `out[i] = start + i * step`.
    Arange,
    /// `out[k] = uniform(seed, k)`, k the row-major position (see `runtime/src/rng.rs`).
    Random,
    /// `out = where(cond, lhs, rhs)`.
    Where,
    Binary(BinFn),
    Unary(UnFn),
    /// Reduction of `in` along `axis` (out has rank-1 dims) or over everything (`None`, out is 0-d).
    Reduce(ReduceKind, Option<usize>),
}

impl ComputeFn {
    /// The `arr` operation name.
    pub fn name(self) -> &'static str {
        match self {
            ComputeFn::Fill => "fill",
            ComputeFn::Copy => "copy",
            ComputeFn::Arange => "arange",
            ComputeFn::Random => "random",
            ComputeFn::Where => "where",
            ComputeFn::Binary(b) => b.name(),
            ComputeFn::Unary(u) => u.name(),
            ComputeFn::Reduce(..) => "reduce",
        }
    }
}

/// One entry of a view's index (NumPy basic indexing), in [`OpKind::View`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexEntry {
    /// `:` (keeps the dimension whole).
    Full,
    /// An integer (one operand) that drops the dimension.
    At,
    /// `newaxis` (no operand, inserts a size-1 dimension with stride 0).
    NewAxis,
    /// `start:stop:step`, each part present (one operand each, in that order) or absent.
    Slice { start: bool, stop: bool, step: bool },
}

impl IndexEntry {
    /// Code in the `index = array<i64: ...>` attribute: 0 full, 1 integer, 2 newaxis,
    /// `8 + start + 2*stop + 4*step` for a slice.
    pub fn code(self) -> i64 {
        match self {
            IndexEntry::Full => 0,
            IndexEntry::At => 1,
            IndexEntry::NewAxis => 2,
            IndexEntry::Slice { start, stop, step } => 8 + start as i64 + 2 * stop as i64 + 4 * step as i64,
        }
    }
    pub fn from_code(c: i64) -> Option<IndexEntry> {
        Some(match c {
            0 => IndexEntry::Full,
            1 => IndexEntry::At,
            2 => IndexEntry::NewAxis,
            8..=15 => IndexEntry::Slice { start: c & 1 != 0, stop: c & 2 != 0, step: c & 4 != 0 },
            _ => return None,
        })
    }
    /// How many i64 operands this entry takes.
    pub fn num_operands(self) -> usize {
        match self {
            IndexEntry::At => 1,
            IndexEntry::Slice { start, stop, step } => start as usize + stop as usize + step as usize,
            _ => 0,
        }
    }
}

/// An operation with its source location.
#[derive(Clone, Debug, PartialEq)]
pub struct Op {
    pub kind: OpKind,
    pub loc: Option<Loc>,
}

/// A sequence of operations (the body of a function, loop or branch) — a straight-line region
/// apart from the nested control flow it contains.
pub type Body = Vec<Op>;

#[derive(Clone, Debug, PartialEq)]
pub enum OpKind {
    /// `arith.constant`
    Const { res: ValueId, value: Scalar },
    /// Scalar binary arithmetic (`arith.*`/`math.*`); operands have the same dtype, except that
    /// comparisons give `bool`.
    Binary { res: ValueId, op: BinFn, lhs: ValueId, rhs: ValueId },
    /// Scalar unary function.
    Unary { res: ValueId, op: UnFn, arg: ValueId },
    /// Scalar conversion to the result's dtype.
    Cast { res: ValueId, arg: ValueId },
    /// `arith.select`
    Select { res: ValueId, cond: ValueId, lhs: ValueId, rhs: ValueId },
    /// `scf.for %iv = lo to hi step 1 iter_args(carried = inits) { body; yield yields }`
    For {
        iv: ValueId,
        lo: ValueId,
        hi: ValueId,
        step: ValueId,
        inits: Vec<ValueId>,
        carried: Vec<ValueId>,
        body: Body,
        yields: Vec<ValueId>,
        results: Vec<ValueId>,
    },
    /// `scf.while`: `before` computes `cond` from `before_args`; if true, `after` runs with
    /// `after_args` bound to the same values and yields the next values.
    While {
        inits: Vec<ValueId>,
        before_args: Vec<ValueId>,
        before: Body,
        cond: ValueId,
        after_args: Vec<ValueId>,
        after: Body,
        yields: Vec<ValueId>,
        results: Vec<ValueId>,
    },
    /// `scf.if`
    If {
        cond: ValueId,
        then_body: Body,
        then_yields: Vec<ValueId>,
        else_body: Body,
        else_yields: Vec<ValueId>,
        results: Vec<ValueId>,
    },
    /// `func.call` of a host function or of an outlined kernel (a kernel launch).
    Call { callee: String, args: Vec<ValueId>, results: Vec<ValueId> },
    /// `func.return`
    Return { values: Vec<ValueId> },
    /// `cf.assert`: a run-time check with a message naming the source line.
    Assert { cond: ValueId, msg: String },
    /// `arr.new`: a fresh base array of the given sizes (row-major).
    New { res: ValueId, sizes: Vec<ValueId> },
    /// `arr.view`: NumPy basic indexing of `src`; `operands` are the i64 operands of the entries in order.
    View { res: ValueId, src: ValueId, index: Vec<IndexEntry>, operands: Vec<ValueId> },
    /// `arr.broadcast`: `src` broadcast to `sizes` (NumPy rules; checked at run time).
    Broadcast { res: ValueId, src: ValueId, sizes: Vec<ValueId> },
    /// `arr.transpose`: `src` with its axes permuted: result axis `i` is source axis `perm[i]`
    /// (NumPy `x.transpose(perm)`; `x.T` reverses the axes). Aliases `src`'s base array.
    Transpose { res: ValueId, src: ValueId, perm: Vec<usize> },
    /// `arr.diagonal`: the main diagonal of a 2-d `src`, a 1-d view of `min(d0, d1)` elements with
    /// stride `s0 + s1` (NumPy `x.diagonal()`, but writable). Aliases `src`'s base array.
    Diagonal { res: ValueId, src: ValueId },
    /// `arr.dim`: size of dimension `axis` of a view.
    Dim { res: ValueId, src: ValueId, axis: usize },
    /// `arr.load`: the host reads the element of a 0-d view.
    Load { res: ValueId, src: ValueId },
    /// `arr.del`: the base array created by `arr.new` is dead from here on (Bohrium's DEL).
    Del { base: ValueId },
    /// `arr.sync`: the host is about to read the base array (Bohrium's SYNC).
    Sync { base: ValueId },
    /// `arr.print` of a scalar or a view, followed by a newline (`newline`) or a space.
    Print { value: ValueId, newline: bool },
    /// An array computation writing `out` (destination-passing).
    Compute { func: ComputeFn, out: ValueId, ins: Vec<ValueId> },
}

impl OpKind {
    /// Nested bodies of control-flow operations.
    pub fn bodies(&self) -> Vec<&Body> {
        match self {
            OpKind::For { body, .. } => vec![body],
            OpKind::While { before, after, .. } => vec![before, after],
            OpKind::If { then_body, else_body, .. } => vec![then_body, else_body],
            _ => vec![],
        }
    }
    pub fn bodies_mut(&mut self) -> Vec<&mut Body> {
        match self {
            OpKind::For { body, .. } => vec![body],
            OpKind::While { before, after, .. } => vec![before, after],
            OpKind::If { then_body, else_body, .. } => vec![then_body, else_body],
            _ => vec![],
        }
    }
    /// `(result, source)` of an operation that makes a view of an existing array without moving data
    /// (`arr.view`, `arr.broadcast`, `arr.transpose`, `arr.diagonal`): the result aliases the
    /// source's base array.
    pub fn view_of(&self) -> Option<(ValueId, ValueId)> {
        match self {
            OpKind::View { res, src, .. } | OpKind::Broadcast { res, src, .. } | OpKind::Transpose { res, src, .. } | OpKind::Diagonal { res, src } => {
                Some((*res, *src))
            }
            _ => None,
        }
    }
    /// Values this operation reads, not counting those read inside nested bodies.
    pub fn operands(&self) -> Vec<ValueId> {
        use OpKind::*;
        match self {
            Const { .. } => vec![],
            Binary { lhs, rhs, .. } => vec![*lhs, *rhs],
            Unary { arg, .. } | Cast { arg, .. } => vec![*arg],
            Select { cond, lhs, rhs, .. } => vec![*cond, *lhs, *rhs],
            For { lo, hi, step, inits, yields, .. } => [vec![*lo, *hi, *step], inits.clone(), yields.clone()].concat(),
            While { inits, cond, yields, .. } => [inits.clone(), vec![*cond], yields.clone()].concat(),
            If { cond, then_yields, else_yields, .. } => [vec![*cond], then_yields.clone(), else_yields.clone()].concat(),
            Call { args, .. } => args.clone(),
            Return { values } => values.clone(),
            Assert { cond, .. } => vec![*cond],
            New { sizes, .. } => sizes.clone(),
            View { src, operands, .. } => [vec![*src], operands.clone()].concat(),
            Broadcast { src, sizes, .. } => [vec![*src], sizes.clone()].concat(),
            Transpose { src, .. } | Diagonal { src, .. } => vec![*src],
            Dim { src, .. } | Load { src, .. } => vec![*src],
            Del { base } | Sync { base } => vec![*base],
            Print { value, .. } => vec![*value],
            Compute { out, ins, .. } => [vec![*out], ins.clone()].concat(),
        }
    }
}

/// A function: a host function, or an outlined kernel (`kernel == true`) whose body holds only array
/// computations on its parameters and which the runtime launches over chunks of its iteration space.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    pub name: String,
    pub params: Vec<ValueId>,
    /// Default values of parameters, by position (`arrayc run` uses them when no `--arg` is given).
    pub param_defaults: Vec<Option<Scalar>>,
    /// Source names of the parameters.
    pub param_names: Vec<String>,
    pub results: Vec<Type>,
    pub body: Body,
    /// Type of every value, indexed by [`ValueId`].
    pub value_types: Vec<Type>,
    /// Optional readable names (source variable names) for printing.
    pub value_names: Vec<Option<String>>,
    pub kernel: bool,
    /// Kernels only: per parameter, the stride (in elements) that the last dimension of the view
    /// passed for it is expected to have, `0` (broadcast) or `1` (contiguous), or `None`; empty when
    /// nothing is expected. Kernel code generation adds a loop nest specialised to these strides, which
    /// LLVM can vectorise, and takes it when a launch's views have them (`arr.inner_strides`).
    pub inner_strides: Vec<Option<i64>>,
}

impl Func {
    pub fn new(name: &str, kernel: bool) -> Func {
        Func {
            name: name.to_string(),
            params: vec![],
            param_defaults: vec![],
            param_names: vec![],
            results: vec![],
            body: vec![],
            value_types: vec![],
            value_names: vec![],
            kernel,
            inner_strides: vec![],
        }
    }
    /// Allocates a new value of type `ty`.
    pub fn new_value(&mut self, ty: Type, name: Option<&str>) -> ValueId {
        self.value_types.push(ty);
        self.value_names.push(name.map(str::to_string));
        (self.value_types.len() - 1) as ValueId
    }
    pub fn ty(&self, v: ValueId) -> Type {
        self.value_types[v as usize]
    }
}

/// A whole program: host functions and kernels.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    /// The source file name, used in locations.
    pub source_name: String,
    pub funcs: Vec<Func>,
}

impl Module {
    pub fn func(&self, name: &str) -> Option<&Func> {
        self.funcs.iter().find(|f| f.name == name)
    }
}
