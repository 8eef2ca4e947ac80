//! Element types.

/// Element types of arrays and scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DType {
    F64,
    F32,
    I64,
    Bool,
}

impl DType {
    /// The spelling in source (`f64`, `f32`, `i64`, `bool`).
    pub fn name(self) -> &'static str {
        match self {
            DType::F64 => "f64",
            DType::F32 => "f32",
            DType::I64 => "i64",
            DType::Bool => "bool",
        }
    }
    /// Size of one element in bytes (NumPy's itemsize; bool is one byte).
    pub fn size_bytes(self) -> usize {
        match self {
            DType::F64 | DType::I64 => 8,
            DType::F32 => 4,
            DType::Bool => 1,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, DType::F64 | DType::F32)
    }
    /// NumPy's promotion of two (non-literal) dtypes: `f64 > f32 > i64 > bool`, except that `f32`
    /// with `i64` gives `f64`.
    pub fn promote(self, other: DType) -> DType {
        use DType::*;
        match (self, other) {
            (F64, _) | (_, F64) | (F32, I64) | (I64, F32) => F64,
            (F32, _) | (_, F32) => F32,
            (I64, _) | (_, I64) => I64,
            _ => Bool,
        }
    }
}
