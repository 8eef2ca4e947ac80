//! The op table: the one place that says, for every elementwise function of the `arr` dialect
//! ([`BinFn`], [`UnFn`]) and every dtype conversion, how it is written in MLIR's `arith` and `math`
//! dialects for each operand dtype, and which NumPy function gives its semantics.
//!
//! Readers: the printer (host scalar code as `arith`/`math` operations), the importer (the reverse
//! mapping, [`binary_of_mlir`], [`unary_of_mlir`]), and kernel code generation (the operation to build
//! for one dtype, where a function is a single MLIR operation). The `arr` operation name of each
//! function is the enum's own `name()` (`arrayc_core::ops`), and the scalar semantics the host runs is
//! `arrayc_core::semantics` (NumPy's, with the exceptions documented there); the end-to-end test
//! `tests/examples/test_ops.py` runs every function on every dtype through the host and the kernel path
//! and compares both with NumPy.
//!
//! A [`Spelling::Lowered`] entry is a function with no single MLIR operation of the same semantics
//! (NumPy's `%` takes the sign of the divisor and `x % 0 == 0` for integers; `arith.remsi` does
//! neither): the printer still writes the nearest operation so that the text round-trips through the
//! importer, and code generation emits the documented sequence instead.

use arrayc_core::{BinFn, DType, UnFn};

/// How one function is written in MLIR for one operand dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// One operation with these semantics, e.g. `arith.addf`.
    Op(&'static str),
    /// `arith.cmpf` with a predicate: its keyword and MLIR's `CmpFPredicate` code.
    CmpF(&'static str, i64),
    /// `arith.cmpi` with a predicate: its keyword and MLIR's `CmpIPredicate` code.
    CmpI(&'static str, i64),
    /// No single operation has the semantics: code generation emits a sequence; the printer writes
    /// the named operation, which the importer maps back to the function.
    Lowered(&'static str),
    /// The function is not defined on this dtype: the front end converts first (bool arithmetic is
    /// computed in `i64`, float functions of an integer in `f64`, `~` only exists on bool).
    Undefined,
}

impl Spelling {
    /// The MLIR operation name (`arith.cmpf` for a float comparison), if any.
    pub fn op_name(self) -> Option<&'static str> {
        match self {
            Spelling::Op(n) | Spelling::Lowered(n) => Some(n),
            Spelling::CmpF(..) => Some("arith.cmpf"),
            Spelling::CmpI(..) => Some("arith.cmpi"),
            Spelling::Undefined => None,
        }
    }
}

/// One row of the table: a function, the NumPy function it follows, and its spelling for float
/// (`f64`, `f32`), signed integer (`i64` to `i8`), unsigned integer (`u64` to `u8`: `divui`, `remui`,
/// `shrui`, `minui`, comparisons `ult`...) and bool (`i1`, compared as unsigned) operands.
#[derive(Clone, Copy, Debug)]
pub struct OpRow<F> {
    pub func: F,
    /// The NumPy ufunc with the same semantics, e.g. `"remainder"` (`numpy.remainder`).
    pub numpy: &'static str,
    pub float: Spelling,
    pub int: Spelling,
    pub uint: Spelling,
    pub bool: Spelling,
}

impl<F> OpRow<F> {
    /// The spelling for operands of dtype `dt`.
    pub fn spelling(&self, dt: DType) -> Spelling {
        match dt {
            DType::Bool => self.bool,
            d if d.is_float() => self.float,
            d if d.is_unsigned() => self.uint,
            _ => self.int,
        }
    }
}

use Spelling::{CmpF, CmpI, Lowered, Op, Undefined};

const fn row<F>(
    func: F,
    numpy: &'static str,
    float: Spelling,
    int: Spelling,
    uint: Spelling,
    bool: Spelling,
) -> OpRow<F> {
    OpRow { func, numpy, float, int, uint, bool }
}

/// Every binary function (arity 2). Comparison predicates are MLIR's `CmpFPredicate` (ordered, except
/// `!=`, which is unordered: NaN != NaN is true as in NumPy) and `CmpIPredicate` (signed for `i64`,
/// unsigned for bool, where `true` is 1).
pub const BINARY: [OpRow<BinFn>; 22] = [
    row(BinFn::Add, "add", Op("arith.addf"), Op("arith.addi"), Op("arith.addi"), Undefined),
    row(BinFn::Sub, "subtract", Op("arith.subf"), Op("arith.subi"), Op("arith.subi"), Undefined),
    row(BinFn::Mul, "multiply", Op("arith.mulf"), Op("arith.muli"), Op("arith.muli"), Undefined),
    row(BinFn::Div, "divide", Op("arith.divf"), Undefined, Undefined, Undefined),
    row(BinFn::Rem, "remainder", Lowered("arith.remf"), Lowered("arith.remsi"), Lowered("arith.remui"), Undefined),
    row(BinFn::Pow, "power", Op("math.powf"), Lowered("math.ipowi"), Lowered("math.ipowi"), Undefined),
    row(BinFn::Minimum, "minimum", Op("arith.minimumf"), Op("arith.minsi"), Op("arith.minui"), Op("arith.minui")),
    row(BinFn::Maximum, "maximum", Op("arith.maximumf"), Op("arith.maxsi"), Op("arith.maxui"), Op("arith.maxui")),
    row(BinFn::Eq, "equal", CmpF("oeq", 1), CmpI("eq", 0), CmpI("eq", 0), CmpI("eq", 0)),
    row(BinFn::Ne, "not_equal", CmpF("une", 13), CmpI("ne", 1), CmpI("ne", 1), CmpI("ne", 1)),
    row(BinFn::Lt, "less", CmpF("olt", 4), CmpI("slt", 2), CmpI("ult", 6), CmpI("ult", 6)),
    row(BinFn::Le, "less_equal", CmpF("ole", 5), CmpI("sle", 3), CmpI("ule", 7), CmpI("ule", 7)),
    row(BinFn::Gt, "greater", CmpF("ogt", 2), CmpI("sgt", 4), CmpI("ugt", 8), CmpI("ugt", 8)),
    row(BinFn::Ge, "greater_equal", CmpF("oge", 3), CmpI("sge", 5), CmpI("uge", 9), CmpI("uge", 9)),
    // `&`, `|`, `^`, `~`: bitwise on integers, which on bools is the logical operation.
    row(BinFn::And, "bitwise_and", Undefined, Op("arith.andi"), Op("arith.andi"), Op("arith.andi")),
    row(BinFn::Or, "bitwise_or", Undefined, Op("arith.ori"), Op("arith.ori"), Op("arith.ori")),
    row(BinFn::Arctan2, "arctan2", Op("math.atan2"), Undefined, Undefined, Undefined),
    row(BinFn::Copysign, "copysign", Op("math.copysign"), Undefined, Undefined, Undefined),
    // Host code computes a float `//` as a sequence of the operations above (the front end's
    // `numpy_floor_div`); kernels compute it directly.
    row(BinFn::FloorDiv, "floor_divide", Undefined, Lowered("arith.floordivsi"), Lowered("arith.divui"), Undefined),
    row(BinFn::Xor, "bitwise_xor", Undefined, Op("arith.xori"), Op("arith.xori"), Op("arith.xori")),
    row(BinFn::Shl, "left_shift", Undefined, Lowered("arith.shli"), Lowered("arith.shli"), Undefined),
    row(BinFn::Shr, "right_shift", Undefined, Lowered("arith.shrsi"), Lowered("arith.shrui"), Undefined),
];

/// Every unary function (arity 1). Integer negation is `0 - x` and `~` is `x xor true` in host code;
/// float functions of an integer are computed in `f64`.
pub const UNARY: [OpRow<UnFn>; 27] = [
    row(UnFn::Neg, "negative", Op("arith.negf"), Lowered("arith.subi"), Lowered("arith.subi"), Undefined),
    row(UnFn::Not, "invert", Undefined, Lowered("arith.xori"), Lowered("arith.xori"), Lowered("arith.xori")),
    row(UnFn::Abs, "absolute", Op("math.absf"), Op("math.absi"), Lowered("math.absi"), Undefined),
    row(UnFn::Sqrt, "sqrt", Op("math.sqrt"), Undefined, Undefined, Undefined),
    row(UnFn::Exp, "exp", Op("math.exp"), Undefined, Undefined, Undefined),
    row(UnFn::Log, "log", Op("math.log"), Undefined, Undefined, Undefined),
    row(UnFn::Sin, "sin", Op("math.sin"), Undefined, Undefined, Undefined),
    row(UnFn::Cos, "cos", Op("math.cos"), Undefined, Undefined, Undefined),
    row(UnFn::Tanh, "tanh", Op("math.tanh"), Undefined, Undefined, Undefined),
    row(UnFn::Ceil, "ceil", Op("math.ceil"), Undefined, Undefined, Undefined),
    row(UnFn::Tan, "tan", Op("math.tan"), Undefined, Undefined, Undefined),
    row(UnFn::Arcsin, "arcsin", Op("math.asin"), Undefined, Undefined, Undefined),
    row(UnFn::Arccos, "arccos", Op("math.acos"), Undefined, Undefined, Undefined),
    row(UnFn::Arctan, "arctan", Op("math.atan"), Undefined, Undefined, Undefined),
    row(UnFn::Sinh, "sinh", Op("math.sinh"), Undefined, Undefined, Undefined),
    row(UnFn::Cosh, "cosh", Op("math.cosh"), Undefined, Undefined, Undefined),
    row(UnFn::Arcsinh, "arcsinh", Op("math.asinh"), Undefined, Undefined, Undefined),
    row(UnFn::Arccosh, "arccosh", Op("math.acosh"), Undefined, Undefined, Undefined),
    row(UnFn::Arctanh, "arctanh", Op("math.atanh"), Undefined, Undefined, Undefined),
    row(UnFn::Exp2, "exp2", Op("math.exp2"), Undefined, Undefined, Undefined),
    row(UnFn::Expm1, "expm1", Op("math.expm1"), Undefined, Undefined, Undefined),
    row(UnFn::Log2, "log2", Op("math.log2"), Undefined, Undefined, Undefined),
    row(UnFn::Log10, "log10", Op("math.log10"), Undefined, Undefined, Undefined),
    row(UnFn::Log1p, "log1p", Op("math.log1p"), Undefined, Undefined, Undefined),
    row(UnFn::Floor, "floor", Op("math.floor"), Undefined, Undefined, Undefined),
    row(UnFn::Trunc, "trunc", Op("math.trunc"), Undefined, Undefined, Undefined),
    row(UnFn::Rint, "rint", Op("math.roundeven"), Undefined, Undefined, Undefined),
];

/// The row of a binary function.
pub fn binary(f: BinFn) -> &'static OpRow<BinFn> {
    BINARY.iter().find(|r| r.func == f).expect("every BinFn has a row in the op table")
}

/// The row of a unary function.
pub fn unary(f: UnFn) -> &'static OpRow<UnFn> {
    UNARY.iter().find(|r| r.func == f).expect("every UnFn has a row in the op table")
}

/// The binary function an MLIR operation spells: `name` is the operation, `predicate` the `predicate`
/// attribute of `arith.cmpf`/`arith.cmpi`. `None` for anything else.
pub fn binary_of_mlir(name: &str, predicate: Option<i64>) -> Option<BinFn> {
    BINARY.iter().find_map(|r| {
        let spells = |s: Spelling| match (s, predicate) {
            (CmpF(_, p), Some(q)) => name == "arith.cmpf" && p == q,
            (CmpI(_, p), Some(q)) => name == "arith.cmpi" && p == q,
            (Op(n) | Lowered(n), None) => n == name,
            _ => false,
        };
        [r.float, r.int, r.uint, r.bool].into_iter().any(spells).then_some(r.func)
    })
}

/// The unary function an MLIR operation spells, among those the printer writes as one unary
/// operation (`Lowered` rows are written as binary operations and are not matched here).
pub fn unary_of_mlir(name: &str) -> Option<UnFn> {
    UNARY.iter().find_map(|r| {
        [r.float, r.int, r.uint, r.bool].iter().any(|s| matches!(s, Op(n) if *n == name)).then_some(r.func)
    })
}

/// The conversion operation between two dtypes (NumPy's `astype`: float to int truncates toward
/// zero; a value to bool is `!= 0`, which code generation builds as a comparison).
pub fn cast(from: DType, to: DType) -> &'static str {
    use DType::*;
    match (from, to) {
        (Bool, t) if t.is_int() => "arith.extui",
        (Bool, F64 | F32) => "arith.uitofp",
        // Integer to integer: zero- (unsigned) or sign-extend a narrower one, keep the low bits of
        // a wider one; `u64` and `i64` share their bits.
        (f, t) if f.is_int() && t.is_int() => match f.bits().cmp(&t.bits()) {
            std::cmp::Ordering::Less if f.is_unsigned() => "arith.extui",
            std::cmp::Ordering::Less => "arith.extsi",
            std::cmp::Ordering::Greater => "arith.trunci",
            std::cmp::Ordering::Equal => "arith.bitcast",
        },
        (f, F64 | F32) if f.is_unsigned() => "arith.uitofp",
        (f, F64 | F32) if f.is_int() => "arith.sitofp",
        // Code generation converts a float to an unsigned integer as NumPy does (through `i32`
        // or with the 2^63 offset, `Scalar::as_u8`/`as_u64`), not with `fptoui`'s poison.
        (F64 | F32, t) if t.is_unsigned() => "arith.fptoui",
        (F64 | F32, t) if t.is_int() => "arith.fptosi",
        (F32, F64) => "arith.extf",
        (F64, F32) => "arith.truncf",
        _ => "arith.bitcast",
    }
}

/// Whether `name` is a conversion operation [`cast`] writes (for the importer).
pub fn is_cast(name: &str) -> bool {
    DType::ALL.iter().any(|&from| DType::ALL.iter().any(|&to| cast(from, to) == name))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every spelling maps back to its function for every dtype it is defined on, so printed host
    /// code round-trips through the importer.
    #[test]
    fn spellings_round_trip() {
        for r in BINARY {
            for dt in DType::ALL {
                let back = match r.spelling(dt) {
                    CmpF(_, p) => binary_of_mlir("arith.cmpf", Some(p)),
                    CmpI(_, p) => binary_of_mlir("arith.cmpi", Some(p)),
                    Op(n) | Lowered(n) => binary_of_mlir(n, None),
                    Undefined => continue,
                };
                assert_eq!(back, Some(r.func), "{:?} on {dt:?}", r.func);
            }
        }
        for r in UNARY {
            for s in [r.float, r.int, r.uint, r.bool] {
                if let Op(n) = s {
                    assert_eq!(unary_of_mlir(n), Some(r.func), "{n}");
                }
            }
        }
    }
}
