//! Element types: the one place that knows each dtype's name, size, kind and promotion.

/// Element types of arrays and scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DType {
    F64,
    F32,
    I64,
    /// NumPy's `int32` (two's complement, wrapping as NumPy's arithmetic does).
    I32,
    Bool,
}

impl DType {
    /// Every dtype, in the order of the documentation's dtype table.
    pub const ALL: [DType; 5] = [DType::F64, DType::F32, DType::I64, DType::I32, DType::Bool];

    /// The spelling in source (`f64`, `f32`, `i64`, `i32`, `bool`).
    pub fn name(self) -> &'static str {
        match self {
            DType::F64 => "f64",
            DType::F32 => "f32",
            DType::I64 => "i64",
            DType::I32 => "i32",
            DType::Bool => "bool",
        }
    }
    /// The dtype spelled `name` in source, if any (the inverse of [`DType::name`]).
    pub fn from_name(name: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.name() == name)
    }
    /// NumPy's name of the dtype (`np.float64`, ..., `np.bool`), as a NumPy program spells it.
    pub fn numpy_name(self) -> &'static str {
        match self {
            DType::F64 => "float64",
            DType::F32 => "float32",
            DType::I64 => "int64",
            DType::I32 => "int32",
            DType::Bool => "bool",
        }
    }
    /// The dtype NumPy names `name` (the inverse of [`DType::numpy_name`], and `bool_`).
    pub fn from_numpy_name(name: &str) -> Option<DType> {
        let name = if name == "bool_" { "bool" } else { name };
        DType::ALL.into_iter().find(|d| d.numpy_name() == name)
    }
    /// Size of one element in bytes (NumPy's itemsize; bool is one byte).
    pub fn size_bytes(self) -> usize {
        match self {
            DType::F64 | DType::I64 => 8,
            DType::F32 | DType::I32 => 4,
            DType::Bool => 1,
        }
    }
    /// Width in bits of the value (bool: 1, as MLIR's `i1`).
    pub fn bits(self) -> u32 {
        match self {
            DType::Bool => 1,
            d => 8 * d.size_bytes() as u32,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, DType::F64 | DType::F32)
    }
    /// Whether it is an integer dtype (not bool, not a float).
    pub fn is_int(self) -> bool {
        match self {
            DType::I64 | DType::I32 => true,
            DType::F64 | DType::F32 | DType::Bool => false,
        }
    }
    /// The smallest and largest value of an integer dtype (`None` for floats and bool).
    pub fn int_range(self) -> Option<(i128, i128)> {
        self.is_int().then(|| {
            let b = self.bits() - 1;
            (-(1i128 << b), (1i128 << b) - 1)
        })
    }
    /// NumPy's promotion of two (non-literal) dtypes (`np.result_type`): of two integers the
    /// wider; a float with an integer the float if it is wider than the integer (its mantissa
    /// holds the integer's values), else `f64` (`f32` with `i32` or `i64` gives `f64`); a float
    /// with a float the wider; `bool` with anything the other.
    pub fn promote(self, other: DType) -> DType {
        use DType::*;
        match (self, other) {
            (Bool, d) | (d, Bool) => d,
            (a, b) if a.is_float() && b.is_float() || a.is_int() && b.is_int() => {
                if a.size_bytes() >= b.size_bytes() {
                    a
                } else {
                    b
                }
            }
            (a, b) => {
                let (f, i) = if a.is_float() { (a, b) } else { (b, a) };
                if f.size_bytes() > i.size_bytes() {
                    f
                } else {
                    F64
                }
            }
        }
    }
    /// The dtype NumPy's `sum`, `prod`, `cumsum` and `cumprod` give (and accumulate in): bools
    /// and integers narrower than the default integer `i64` (the platform's C `long`) are upcast
    /// to `i64`; floats and `i64` keep their dtype.
    pub fn sum_dtype(self) -> DType {
        match self {
            DType::Bool | DType::I32 | DType::I64 => DType::I64,
            DType::F64 | DType::F32 => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DType::{self, *};

    /// `np.result_type` of every pair (NumPy 2), and symmetry.
    #[test]
    fn promotion_is_numpys() {
        let table = [
            (F64, F32, F64),
            (F64, I64, F64),
            (F64, I32, F64),
            (F64, Bool, F64),
            (F32, I64, F64),
            (F32, I32, F64),
            (F32, Bool, F32),
            (I64, I32, I64),
            (I64, Bool, I64),
            (I32, Bool, I32),
        ];
        for (a, b, r) in table {
            assert_eq!(a.promote(b), r, "{a:?} {b:?}");
            assert_eq!(b.promote(a), r, "{b:?} {a:?}");
        }
        for d in DType::ALL {
            assert_eq!(d.promote(d), d);
            assert_eq!(DType::from_name(d.name()), Some(d));
        }
        assert_eq!(I32.int_range(), Some((i32::MIN as i128, i32::MAX as i128)));
    }
}
