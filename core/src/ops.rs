//! The values and operations the compiler and the runtime share: value types, host scalars, and the
//! operation enums of the `arr` dialect (`dialect/README.md` gives their semantics).

use crate::DType;

/// An SSA value, dense per function (`0..Func::value_types.len()`).
pub type ValueId = u32;

/// Type of an SSA value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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

/// A host scalar value (also the literal of an `arith.constant`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Scalar {
    F64(f64),
    F32(f32),
    I64(i64),
    I32(i32),
    I16(i16),
    I8(i8),
    U64(u64),
    U32(u32),
    U16(u16),
    U8(u8),
    Bool(bool),
}

impl Scalar {
    #[inline]
    pub fn dtype(self) -> DType {
        match self {
            Scalar::F64(_) => DType::F64,
            Scalar::F32(_) => DType::F32,
            Scalar::I64(_) => DType::I64,
            Scalar::I32(_) => DType::I32,
            Scalar::I16(_) => DType::I16,
            Scalar::I8(_) => DType::I8,
            Scalar::U64(_) => DType::U64,
            Scalar::U32(_) => DType::U32,
            Scalar::U16(_) => DType::U16,
            Scalar::U8(_) => DType::U8,
            Scalar::Bool(_) => DType::Bool,
        }
    }
    /// Value as f64 (bool as 0/1).
    #[inline]
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::F64(v) => v,
            Scalar::F32(v) => v as f64,
            Scalar::I64(v) => v as f64,
            Scalar::I32(v) => v.into(),
            Scalar::I16(v) => v.into(),
            Scalar::I8(v) => v.into(),
            Scalar::U64(v) => v as f64,
            Scalar::U32(v) => v.into(),
            Scalar::U16(v) => v.into(),
            Scalar::U8(v) => v.into(),
            Scalar::Bool(v) => v as i64 as f64,
        }
    }
    /// Value as i64: floats truncate toward zero, bool is 0/1. A float that is NaN or outside
    /// the i64 range gives `i64::MIN`, as the kernels' `arith.fptosi` does on x86-64 (the
    /// "integer indefinite" of `cvttsd2si`) and as NumPy's `astype(int64)` does there.
    #[inline]
    pub fn as_i64(self) -> i64 {
        let float = |v: f64| {
            if v.is_nan() || !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&v) {
                i64::MIN
            } else {
                v as i64
            }
        };
        match self {
            Scalar::F64(v) => float(v),
            Scalar::F32(v) => float(v as f64),
            Scalar::I64(v) => v,
            Scalar::I32(v) => v.into(),
            Scalar::I16(v) => v.into(),
            Scalar::I8(v) => v.into(),
            // Wraps, as NumPy's `astype(int64)` of a `uint64`.
            Scalar::U64(v) => v as i64,
            Scalar::U32(v) => v.into(),
            Scalar::U16(v) => v.into(),
            Scalar::U8(v) => v.into(),
            Scalar::Bool(v) => v as i64,
        }
    }
    /// Value as u64 (NumPy's `astype(uint64)`): an integer wraps (a negative one modulo 2^64), a
    /// float below 2^63 converts as to i64 ([`Scalar::as_i64`], then wraps: -1.0 gives 2^64 - 1,
    /// NaN 2^63), and one at or above 2^63 as `x - 2^63` with the top bit set (2^64 and above give
    /// 0): x86-64's conversion sequence for C's `(uint64_t)x`, which NumPy's cast compiles to.
    #[inline]
    pub fn as_u64(self) -> u64 {
        match self {
            Scalar::F64(v) => float_to_unsigned(v, 64),
            Scalar::F32(v) => float_to_unsigned(v.into(), 64),
            Scalar::U64(v) => v,
            s => s.as_i64() as u64,
        }
    }
    /// The low 16 bits of the value as NumPy's `astype` to `int8`, `uint8`, `int16` or `uint16`
    /// gives them (the caller keeps 8 or 16): an integer wraps (keeps its low bits), a float
    /// converts as to i32 ([`Scalar::as_i32`]) and then wraps (-1.0 gives 255 as `uint8`, 300.0
    /// 44, 70000.5 as `int16` 4464, NaN 0): x86-64's `cvttsd2si` for C's `(uint8_t)x`, as NumPy's
    /// cast (values printed by NumPy 2.4).
    #[inline]
    pub fn as_narrow(self) -> u16 {
        match self {
            Scalar::F64(_) | Scalar::F32(_) => self.as_i32() as u16,
            s => s.as_i64() as u16,
        }
    }
    /// Value as u32 (NumPy's `astype(uint32)`): an integer wraps (keeps its low 32 bits), a float
    /// below 2^31 converts as to i32 ([`Scalar::as_i32`], then wraps: -1.0 gives 2^32 - 1, NaN and
    /// -3e9 give 2^31) and one at or above 2^31 as `x - 2^31` to i32 with the top bit set (3e9
    /// gives 3000000000, 5e9 and 2^32 give 0): the values NumPy 2.4 gives on x86-64, the 32-bit
    /// twin of [`Scalar::as_u64`].
    #[inline]
    pub fn as_u32(self) -> u32 {
        match self {
            Scalar::F64(v) => float_to_unsigned(v, 32) as u32,
            Scalar::F32(v) => float_to_unsigned(v.into(), 32) as u32,
            s => s.as_i64() as u32,
        }
    }
    /// Value as i32 (NumPy's `astype(int32)`): an integer wraps (keeps its low 32 bits), a
    /// float truncates toward zero, and a float that is NaN or outside the i32 range gives
    /// `i32::MIN`, as the kernels' `arith.fptosi` to `i32` does on x86-64 (`cvttsd2si`).
    #[inline]
    pub fn as_i32(self) -> i32 {
        let float = |v: f64| {
            if v.is_nan() || !(-2_147_483_648.0..2_147_483_648.0).contains(&v) {
                i32::MIN
            } else {
                v as i32
            }
        };
        match self {
            Scalar::F64(v) => float(v),
            Scalar::F32(v) => float(v as f64),
            s => s.as_i64() as i32,
        }
    }
    /// Converts to `dtype` with NumPy's `astype` semantics (float to int truncates, nonzero is true).
    #[inline]
    pub fn cast(self, dtype: DType) -> Scalar {
        match dtype {
            DType::F64 => Scalar::F64(self.as_f64()),
            DType::F32 => Scalar::F32(self.as_f64() as f32),
            DType::I64 => Scalar::I64(self.as_i64()),
            DType::I32 => Scalar::I32(self.as_i32()),
            DType::I16 => Scalar::I16(self.as_narrow() as i16),
            DType::I8 => Scalar::I8(self.as_narrow() as i8),
            DType::U64 => Scalar::U64(self.as_u64()),
            DType::U32 => Scalar::U32(self.as_u32()),
            DType::U16 => Scalar::U16(self.as_narrow()),
            DType::U8 => Scalar::U8(self.as_narrow() as u8),
            DType::Bool => Scalar::Bool(match self {
                Scalar::Bool(b) => b,
                Scalar::F64(_) | Scalar::F32(_) => self.as_f64() != 0.0,
                s => s.to_bits() != 0,
            }),
        }
    }
    /// `self` wrapped to the integer dtype `d` where it is an `i64` or `u64` (an integer
    /// operation's result computed wide, as [`crate::semantics`] computes `i8` to `u32`); a bool
    /// or float result (a comparison, a true division) as it is.
    #[inline]
    pub fn cast_int(self, d: DType) -> Scalar {
        match self {
            Scalar::I64(_) | Scalar::U64(_) => self.cast(d),
            s => s,
        }
    }
    /// The value's bits in a 64-bit word (an `f32`'s in the low half, a bool as 0 or 1), which
    /// [`Scalar::from_bits`] turns back into the value given its dtype: how the host executor keeps
    /// scalars in registers whose dtypes it knows beforehand.
    #[inline]
    pub fn to_bits(self) -> u64 {
        match self {
            Scalar::F64(v) => v.to_bits(),
            Scalar::F32(v) => u64::from(v.to_bits()),
            Scalar::I64(v) => v as u64,
            Scalar::I32(v) => u64::from(v as u32),
            Scalar::I16(v) => u64::from(v as u16),
            Scalar::I8(v) => u64::from(v as u8),
            Scalar::U64(v) => v,
            Scalar::U32(v) => v.into(),
            Scalar::U16(v) => v.into(),
            Scalar::U8(v) => v.into(),
            Scalar::Bool(v) => u64::from(v),
        }
    }
    /// The scalar of dtype `dtype` whose [`Scalar::to_bits`] is `bits`.
    #[inline]
    pub fn from_bits(dtype: DType, bits: u64) -> Scalar {
        match dtype {
            DType::F64 => Scalar::F64(f64::from_bits(bits)),
            DType::F32 => Scalar::F32(f32::from_bits(bits as u32)),
            DType::I64 => Scalar::I64(bits as i64),
            DType::I32 => Scalar::I32(bits as u32 as i32),
            DType::I16 => Scalar::I16(bits as u16 as i16),
            DType::I8 => Scalar::I8(bits as u8 as i8),
            DType::U64 => Scalar::U64(bits),
            DType::U32 => Scalar::U32(bits as u32),
            DType::U16 => Scalar::U16(bits as u16),
            DType::U8 => Scalar::U8(bits as u8),
            DType::Bool => Scalar::Bool(bits != 0),
        }
    }
}

/// NumPy's cast of the float `v` to the unsigned integer of `bits` (32 or 64) on x86-64
/// ([`Scalar::as_u32`], [`Scalar::as_u64`]; the kernels' `float_to_unsigned` is the same
/// sequence): below `2^(bits-1)` converted as to the signed integer of that width, then wrapped;
/// at or above it as `v - 2^(bits-1)` with the top bit set. The result in the low `bits` bits.
fn float_to_unsigned(v: f64, bits: u32) -> u64 {
    let top = 2f64.powi(bits as i32 - 1);
    let signed = |x: f64| match bits {
        64 => Scalar::F64(x).as_i64() as u64,
        _ => u64::from(Scalar::F64(x).as_i32() as u32),
    };
    if v >= top {
        signed(v - top) ^ (1 << (bits - 1))
    } else {
        signed(v)
    }
}

/// Elementwise functions, shared by host scalar arithmetic and array computations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
    /// NumPy's `arctan2(y, x)`: the angle of the point `(x, y)`, in a float.
    Arctan2,
    /// NumPy's `copysign(x, y)`: `|x|` with the sign of `y`, in a float.
    Copysign,
    /// NumPy's `floor_divide` (`//`): rounds the quotient toward negative infinity, so that
    /// `a == (a // b) * b + a % b`; for integers `x // 0 == 0` and `i64::MIN // -1 == i64::MIN`
    /// (NumPy's results, without its warnings); for floats NumPy's `divmod` quotient.
    FloorDiv,
    /// NumPy's `bitwise_xor` (`^`) on integers; logical xor (`!=`) on bools.
    Xor,
    /// NumPy's `left_shift` (`<<`) on integers: a shift by a count outside `0..64` gives 0.
    Shl,
    /// NumPy's `right_shift` (`>>`) on integers (arithmetic): a shift by a count outside `0..64`
    /// gives the sign (-1 for a negative value, else 0).
    Shr,
}

impl BinFn {
    /// Every binary function, in declaration order.
    pub const ALL: [BinFn; 22] = [
        BinFn::Add,
        BinFn::Sub,
        BinFn::Mul,
        BinFn::Div,
        BinFn::Rem,
        BinFn::Pow,
        BinFn::Minimum,
        BinFn::Maximum,
        BinFn::Eq,
        BinFn::Ne,
        BinFn::Lt,
        BinFn::Le,
        BinFn::Gt,
        BinFn::Ge,
        BinFn::And,
        BinFn::Or,
        BinFn::Arctan2,
        BinFn::Copysign,
        BinFn::FloorDiv,
        BinFn::Xor,
        BinFn::Shl,
        BinFn::Shr,
    ];

    /// Whether the function is computed in a float (`f64` for integer and bool operands): true
    /// division and the float functions.
    pub fn in_float(self) -> bool {
        matches!(self, BinFn::Div | BinFn::Arctan2 | BinFn::Copysign)
    }

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
            Arctan2 => "arctan2",
            Copysign => "copysign",
            FloorDiv => "floordiv",
            Xor => "xor",
            Shl => "shl",
            Shr => "shr",
        }
    }
    /// Whether the function is only defined on integers and bools (`^`, `<<`, `>>`).
    pub fn is_bitwise(self) -> bool {
        matches!(self, BinFn::Xor | BinFn::Shl | BinFn::Shr)
    }
    pub fn is_comparison(self) -> bool {
        use BinFn::*;
        matches!(self, Eq | Ne | Lt | Le | Gt | Ge)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
    /// Rounds up to an integral value (same dtype; NumPy 2's `ceil` keeps integers).
    Ceil,
    /// NumPy's `tan`.
    Tan,
    /// NumPy's `arcsin`.
    Arcsin,
    /// NumPy's `arccos`.
    Arccos,
    /// NumPy's `arctan`.
    Arctan,
    /// NumPy's `sinh`.
    Sinh,
    /// NumPy's `cosh`.
    Cosh,
    /// NumPy's `arcsinh`.
    Arcsinh,
    /// NumPy's `arccosh`.
    Arccosh,
    /// NumPy's `arctanh`.
    Arctanh,
    /// NumPy's `exp2`.
    Exp2,
    /// NumPy's `expm1`.
    Expm1,
    /// NumPy's `log2`.
    Log2,
    /// NumPy's `log10`.
    Log10,
    /// NumPy's `log1p`.
    Log1p,
    /// NumPy's `floor`.
    Floor,
    /// NumPy's `trunc`.
    Trunc,
    /// NumPy's `rint`.
    Rint,
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
            Tan => "tan",
            Arcsin => "arcsin",
            Arccos => "arccos",
            Arctan => "arctan",
            Sinh => "sinh",
            Cosh => "cosh",
            Arcsinh => "arcsinh",
            Arccosh => "arccosh",
            Arctanh => "arctanh",
            Exp2 => "exp2",
            Expm1 => "expm1",
            Log2 => "log2",
            Log10 => "log10",
            Log1p => "log1p",
            Floor => "floor",
            Trunc => "trunc",
            Rint => "rint",
        }
    }

    /// Every unary function, in declaration order.
    pub const ALL: [UnFn; 27] = [
        UnFn::Neg,
        UnFn::Not,
        UnFn::Abs,
        UnFn::Sqrt,
        UnFn::Exp,
        UnFn::Log,
        UnFn::Sin,
        UnFn::Cos,
        UnFn::Tanh,
        UnFn::Ceil,
        UnFn::Tan,
        UnFn::Arcsin,
        UnFn::Arccos,
        UnFn::Arctan,
        UnFn::Sinh,
        UnFn::Cosh,
        UnFn::Arcsinh,
        UnFn::Arccosh,
        UnFn::Arctanh,
        UnFn::Exp2,
        UnFn::Expm1,
        UnFn::Log2,
        UnFn::Log10,
        UnFn::Log1p,
        UnFn::Floor,
        UnFn::Trunc,
        UnFn::Rint,
    ];

    /// Whether the function rounds to an integral value in the operand's dtype, so that it is the
    /// identity on integers and bools (NumPy 2: `floor`, `ceil`, `trunc` keep the dtype).
    pub fn rounds(self) -> bool {
        matches!(self, UnFn::Ceil | UnFn::Floor | UnFn::Trunc)
    }
}

/// What a reduction (`arr.reduce`), a scan (`arr.scan`) or an all-reduce (`arr.allreduce`)
/// combines its elements with. `ArgMin`/`ArgMax` are reductions only: NumPy's `argmin`/`argmax`
/// in one pass, an `i64` output holding the position (along the axis, or row-major over every
/// axis) of the first NaN, else of the first minimum (maximum); see [`arg_key`] for how partial
/// results of chunks are combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ReduceKind {
    Sum,
    Prod,
    Min,
    Max,
    ArgMin,
    ArgMax,
}

impl ReduceKind {
    /// Every kind, in the order the importer tries their names.
    pub const ALL: [ReduceKind; 6] =
        [ReduceKind::Sum, ReduceKind::Prod, ReduceKind::Min, ReduceKind::Max, ReduceKind::ArgMin, ReduceKind::ArgMax];

    /// The kind's name in the `kind` attribute (`arr.reduce {kind = "argmin"}`).
    pub fn name(self) -> &'static str {
        match self {
            ReduceKind::Sum => "sum",
            ReduceKind::Prod => "prod",
            ReduceKind::Min => "min",
            ReduceKind::Max => "max",
            ReduceKind::ArgMin => "argmin",
            ReduceKind::ArgMax => "argmax",
        }
    }

    /// Whether this is an arg-reduction (`ArgMin`, `ArgMax`): its output is a position.
    pub fn is_arg(self) -> bool {
        matches!(self, ReduceKind::ArgMin | ReduceKind::ArgMax)
    }

    /// The value reduction an arg-reduction finds the position of (`Min` for `ArgMin`); `self`
    /// otherwise.
    pub fn value_kind(self) -> ReduceKind {
        match self {
            ReduceKind::ArgMin => ReduceKind::Min,
            ReduceKind::ArgMax => ReduceKind::Max,
            k => k,
        }
    }
}

/// How many `i64` words a chunk's partial result of an arg-reduction takes
/// (`arrayc_runtime::launch`): the position, then the [`arg_key`] of the value there.
pub const ARG_PARTIAL_WORDS: usize = 2;

/// The key of an arg-reduction's value `bits` (the value's bits, zero- or sign-extended to 64 as
/// its dtype `d` is unsigned or signed, a float's IEEE bits; `is_nan` for a NaN float): an `i64`
/// whose signed order is the values' order, with `-0.0` and `0.0` equal and NaN below every other
/// key for `ArgMin` (above for `ArgMax`), so that chunks' partial results combine as the elements
/// do (the later chunk's position wins only with a key strictly better: [`arg_better`]). The
/// kernels compute it once per chunk from their best value (`arrayc_codegen`'s `loops.rs`,
/// `Gen::arg_key`, the same formula).
pub fn arg_key(kind: ReduceKind, d: DType, bits: i64, is_nan: bool) -> i64 {
    if is_nan {
        return if kind == ReduceKind::ArgMax { i64::MAX } else { i64::MIN };
    }
    match d {
        // Monotone: a negative float's magnitude bits are flipped; -0.0 is first made 0.0.
        DType::F64 | DType::F32 => {
            let bits = if d == DType::F32 { (bits as u32 as i32) as i64 } else { bits };
            let bits = if bits == i64::MIN || (d == DType::F32 && bits == i32::MIN as i64) { 0 } else { bits };
            if bits < 0 {
                bits ^ i64::MAX
            } else {
                bits
            }
        }
        // Unsigned 64-bit order as signed order.
        DType::U64 => bits ^ i64::MIN,
        _ => bits,
    }
}

/// Whether a later partial result of key `later` replaces an earlier one of key `earlier` in
/// arg-reduction `kind` ([`arg_key`]): only when strictly better, so the first position wins ties.
pub fn arg_better(kind: ReduceKind, later: i64, earlier: i64) -> bool {
    if kind == ReduceKind::ArgMax {
        later > earlier
    } else {
        later < earlier
    }
}

/// How a scatter ([`ComputeFn::Scatter`]) combines a value with its target element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ScatterKind {
    /// `out[k] = v` (NumPy `out[idx] = v`: of repeated indices, the last write wins).
    Set,
    /// `out[k] += v` (NumPy `np.add.at(out, idx, v)`: every value is added, in order).
    Add,
}

/// What a scatter ([`ComputeFn::Scatter`]) does with an index outside `[-n, n)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ScatterMode {
    /// NumPy's `IndexError`: a kernel fault naming the line.
    Raise,
    /// The element is skipped (JAX's `mode='drop'`); the lowering of a filter (`x[mask]`) scatters
    /// its unselected elements past the end this way. The indices in range must be distinct (a
    /// filter's positions are, and so are those of a masked assignment `x[mask] = v`, which are all
    /// in range): a scatter that drops sets each element at most once, so its iterations may run in
    /// any order ([`ComputeFn::runs_in_order`]).
    Drop,
}

impl ScatterKind {
    pub fn name(self) -> &'static str {
        match self {
            ScatterKind::Set => "set",
            ScatterKind::Add => "add",
        }
    }
}

impl ScatterMode {
    pub fn name(self) -> &'static str {
        match self {
            ScatterMode::Raise => "raise",
            ScatterMode::Drop => "drop",
        }
    }
}

/// What an array computation does; the output view is always the first operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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
    /// Gather along `axis` (NumPy `take(x, idx, axis)`; `x[idx]` is axis 0; `x[i, j]` selects
    /// along axes 0 and 1): inputs `x` (rank `r >= c`, its own shape, not broadcast) and `c >= 1`
    /// index arrays `idx_0 .. idx_{c-1}` (i64, out's shape: the index arrays broadcast together, of
    /// rank `q`, and along `x`'s other axes); `out[p, i, s] = x[p, k_0, .., k_{c-1}, s]` with
    /// `k_t = idx_t[p, i, s]`, where `p` are out's first `axis` axes, `i` the next `q` and `s` the
    /// last `r - c - axis`. A negative `k_t` counts from the end; one outside `[-n, n)` (`n` the size
    /// of `x` along `axis + t`) is a run-time error (a kernel fault).
    Gather(usize),
    Binary(BinFn),
    Unary(UnFn),
    /// Reduction of `in` along `axis` (out has rank-1 dims) or over everything (`None`, out is 0-d).
    Reduce(ReduceKind, Option<usize>),
    /// Scatter along axes `0 .. c` into `out` (rank `r >= c`, its own shape: not the iteration
    /// space's): inputs `c >= 1` index arrays `idx_0 .. idx_{c-1}` (i64), then `v`, each of the
    /// iteration space's shape `q + r - c` (the index arrays broadcast together and along `out`'s
    /// last `r - c` axes) or `v` a scalar; for each position `(i, s)` in row-major order,
    /// `out[k_0, .., k_{c-1}, s] = v[i, s]` ([`ScatterKind::Set`]) or `+= v[i, s]`
    /// ([`ScatterKind::Add`]), `k_t = idx_t[i, s]`, negative counting from the end; an index
    /// outside `[-n, n)` as [`ScatterMode`] says. The whole launch runs in that order (chunks in
    /// order, one GPU thread; [`runs_in_order`](Self::runs_in_order)), so repeated indices give
    /// NumPy's results exactly.
    Scatter(ScatterKind, ScatterMode),
    /// Scan (inclusive running reduction, NumPy's `cumsum`/`cumprod`, `np.add.accumulate`) of `in`
    /// along `axis`: `out[p, j, s] = in[p, 0, s] (+) ... (+) in[p, j, s]`, combined in order
    /// 0, 1, ..., j (so a float scan is bit-identical to NumPy's); `in` and `out` have one shape
    /// (rank at least 1, `axis` below it).
    Scan(ReduceKind, usize),
}

impl ComputeFn {
    /// The position among the inputs of the one that keeps a shape of its own instead of the
    /// iteration space's (neither broadcast to it nor checked against it): a gather's gathered
    /// array, `ins[0]`. `None` for every other function.
    pub fn own_shape_input(self) -> Option<usize> {
        matches!(self, ComputeFn::Gather(_)).then_some(0)
    }

    /// Whether the output keeps a shape of its own instead of the iteration space's (and is written
    /// at computed positions, not at the iteration's): a scatter's target.
    pub fn own_shape_output(self) -> bool {
        matches!(self, ComputeFn::Scatter(..))
    }

    /// The operands of `func(out, ins)` that have the iteration space's shape (or are 0-d and
    /// broadcast): `out` and `ins`, except the one that keeps a shape of its own
    /// ([`own_shape_input`](Self::own_shape_input), [`own_shape_output`](Self::own_shape_output)).
    pub fn space_operands<'a>(self, out: &'a ValueId, ins: &'a [ValueId]) -> impl Iterator<Item = &'a ValueId> {
        let own_in = self.own_shape_input().map(|k| &ins[k]);
        let own_out = self.own_shape_output();
        std::iter::once(out).filter(move |_| !own_out).chain(ins.iter().filter(move |&v| Some(v) != own_in))
    }

    /// Whether a block with this function must run its iteration space in row-major order (a
    /// scatter: repeated indices must resolve as in NumPy). Not a scatter that sets and drops out of
    /// range ([`ScatterMode::Drop`], a filter's): its indices in range are distinct.
    pub fn runs_in_order(self) -> bool {
        matches!(self, ComputeFn::Scatter(kind, mode) if !(kind == ScatterKind::Set && mode == ScatterMode::Drop))
    }

    /// The `arr` operation name.
    pub fn name(self) -> &'static str {
        match self {
            ComputeFn::Fill => "fill",
            ComputeFn::Copy => "copy",
            ComputeFn::Arange => "arange",
            ComputeFn::Random => "random",
            ComputeFn::Where => "where",
            ComputeFn::Gather(_) => "gather",
            ComputeFn::Binary(b) => b.name(),
            ComputeFn::Unary(u) => u.name(),
            ComputeFn::Reduce(..) => "reduce",
            ComputeFn::Scan(..) => "scan",
            ComputeFn::Scatter(..) => "scatter",
        }
    }
}

/// One entry of a view's index (NumPy basic indexing), in an `arr.view`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
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

/// The largest inner size `k`, known when the program is compiled, of a product of matrices that
/// stays the fused kernel ([`matmul_by_library`]): with `k <= 8` a product does at most 16 flops per
/// output element, about as few as an elementwise operation, so it is bound by memory like one, and
/// fusing it with its neighbours (no write and read back of the `n x m` result) beats a library call.
pub const FUSED_MATMUL_MAX_INNER: i64 = 8;

/// The cost model's one decision between the two forms of a matrix product `dot(a, b)` / `a @ b`:
/// whether a product of a `lhs_rank`-d and a `rhs_rank`-d operand of dtype `dtype`, with the inner
/// size `inner` when the program fixes it (a literal size), becomes `arr.matmul` (a library call
/// on materialised operands, [`crate::ir::OpKind::MatMul`]) rather than the fused kernel (a
/// broadcast multiply and a sum along the inner axis, which the WSP pass may fuse with its
/// neighbours).
///
/// True for 2-d × 2-d products of `f64` or `f32` unless `inner` is at most
/// [`FUSED_MATMUL_MAX_INNER`] (an outer product, say). Such a product does `2·n·k·m` flops on
/// `n·k + k·m` inputs: a blocked library kernel (register tiles, cache blocking, packing) runs it
/// several times faster than one loop nest, and fusing the product into its neighbours saves at
/// most one pass over the `n × m` result (the fused kernel's only advantage, `O(n·m)` bytes
/// against `O(n·k·m)` flops), which matters only for a small `k`. The fused kernel stays for 1-d
/// operands (a dot or matrix-vector product reads each input element once, so it is memory-bound
/// and a loop nest runs it at memory speed) and for integer and bool dtypes (BLAS has none). On the
/// GPU targets the pipeline expands every `arr.matmul` back into the fused kernel (pass
/// `expand-matmul`; cuBLAS is not wired in).
pub fn matmul_by_library(dtype: DType, lhs_rank: usize, rhs_rank: usize, inner: Option<i64>) -> bool {
    dtype.is_float() && lhs_rank == 2 && rhs_rank == 2 && inner.is_none_or(|k| k > FUSED_MATMUL_MAX_INNER)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`arg_key`] orders values as their dtype does (checked against Rust's own comparisons of
    /// every pair), with `-0.0 == 0.0` and NaN below (`ArgMin`) or above (`ArgMax`) every value.
    #[test]
    fn arg_keys_order_values() {
        let f64s = [f64::NEG_INFINITY, -1e300, -1.5, -f64::MIN_POSITIVE, -0.0, 0.0, 5e-324, 2.0, 1e300, f64::INFINITY];
        for &a in &f64s {
            for &b in &f64s {
                let key = |x: f64| arg_key(ReduceKind::ArgMin, DType::F64, x.to_bits() as i64, false);
                assert_eq!(key(a).cmp(&key(b)), a.partial_cmp(&b).unwrap(), "{a} against {b}");
                let key32 = |x: f64| arg_key(ReduceKind::ArgMin, DType::F32, (x as f32).to_bits() as i64, false);
                assert_eq!(
                    key32(a).cmp(&key32(b)),
                    (a as f32).partial_cmp(&(b as f32)).unwrap(),
                    "f32 {a} against {b}"
                );
                let nan = arg_key(ReduceKind::ArgMin, DType::F64, f64::NAN.to_bits() as i64, true);
                assert!(nan < key(a) && arg_better(ReduceKind::ArgMin, nan, key(a)));
                let nan = arg_key(ReduceKind::ArgMax, DType::F64, f64::NAN.to_bits() as i64, true);
                assert!(nan > key(a) && arg_better(ReduceKind::ArgMax, nan, key(a)));
            }
        }
        let u64s = [0u64, 1, i64::MAX as u64, 1 << 63, u64::MAX];
        for &a in &u64s {
            for &b in &u64s {
                let key = |x: u64| arg_key(ReduceKind::ArgMax, DType::U64, x as i64, false);
                assert_eq!(key(a).cmp(&key(b)), a.cmp(&b), "{a} against {b}");
            }
        }
        // A tie keeps the earlier position.
        assert!(!arg_better(ReduceKind::ArgMin, 3, 3) && !arg_better(ReduceKind::ArgMax, 3, 3));
    }
}
