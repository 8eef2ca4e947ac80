//! Element types: the one place that knows each dtype's name, size, kind and promotion.

/// Element types of arrays and scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DType {
    F64,
    F32,
    I64,
    /// NumPy's `int32` (two's complement, wrapping as NumPy's arithmetic does).
    I32,
    /// NumPy's `int16` (two's complement, wrapping).
    I16,
    /// NumPy's `int8` (two's complement, wrapping).
    I8,
    /// NumPy's `uint64` (wrapping modulo 2^64; division, shifts and comparisons unsigned).
    U64,
    /// NumPy's `uint32` (wrapping modulo 2^32; unsigned division, shifts and comparisons).
    U32,
    /// NumPy's `uint16` (wrapping modulo 2^16; unsigned division, shifts and comparisons).
    U16,
    /// NumPy's `uint8` (wrapping modulo 2^8; division, shifts and comparisons unsigned).
    U8,
    Bool,
}

impl DType {
    /// Every dtype, in the order of the documentation's dtype table.
    pub const ALL: [DType; 11] = [
        DType::F64,
        DType::F32,
        DType::I64,
        DType::I32,
        DType::I16,
        DType::I8,
        DType::U64,
        DType::U32,
        DType::U16,
        DType::U8,
        DType::Bool,
    ];

    /// The spelling in source (`f64`, `f32`, `i64`, `i32`, `i16`, `i8`, `u64`, `u32`, `u16`,
    /// `u8`, `bool`).
    pub fn name(self) -> &'static str {
        match self {
            DType::F64 => "f64",
            DType::F32 => "f32",
            DType::I64 => "i64",
            DType::I32 => "i32",
            DType::I16 => "i16",
            DType::I8 => "i8",
            DType::U64 => "u64",
            DType::U32 => "u32",
            DType::U16 => "u16",
            DType::U8 => "u8",
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
            DType::I16 => "int16",
            DType::I8 => "int8",
            DType::U64 => "uint64",
            DType::U32 => "uint32",
            DType::U16 => "uint16",
            DType::U8 => "uint8",
            DType::Bool => "bool",
        }
    }
    /// The dtype NumPy names `name`: the inverse of [`DType::numpy_name`], and NumPy 2's aliases
    /// of these on Linux x86-64 (`bool_`; `int_`, `intp`, `longlong` are `int64`; `uint`,
    /// `uintp`, `ulonglong` `uint64`; `intc` `int32`; `ubyte` `uint8`; `double` `float64`;
    /// `single` `float32`; `long` and `ulong` as NumPy 2 names them; `intc` `int32`, `uintc`
    /// `uint32`, `short` `int16`, `ushort` `uint16`, `byte` `int8`, `ubyte` `uint8`).
    pub fn from_numpy_name(name: &str) -> Option<DType> {
        let name = match name {
            "bool_" => "bool",
            "int_" | "intp" | "long" | "longlong" => "int64",
            "uint" | "uintp" | "ulong" | "ulonglong" => "uint64",
            "intc" => "int32",
            "uintc" => "uint32",
            "short" => "int16",
            "ushort" => "uint16",
            "byte" => "int8",
            "ubyte" => "uint8",
            "double" => "float64",
            "single" => "float32",
            _ => name,
        };
        DType::ALL.into_iter().find(|d| d.numpy_name() == name)
    }
    /// The dtype a string spells as `np.dtype(text)` reads it: a NumPy name ([`DType::from_numpy_name`]),
    /// Python's `"int"`, `"float"`, `"bool"`, or an array-protocol code with an optional native or
    /// "not applicable" byte order (`"f8"`, `"<f4"`, `"i8"`, `"i4"`, `"i2"`, `"i1"`, `"u8"` is
    /// `uint64`, `"u4"`, `"u2"`, `"u1"` `uint8`, `"b1"`, `"?"`) or a one-character code (`"d"`,
    /// `"f"`, `"q"`, `"l"`, `"i"`, `"h"`, `"b"` `int8`, `"Q"`, `"L"`, `"I"`, `"H"`, `"B"`). `None` for anything else (a big-endian `">f8"` too).
    pub fn from_numpy_string(text: &str) -> Option<DType> {
        let code = text.strip_prefix(['<', '=', '|']).unwrap_or(text);
        let d = match code {
            "int" => DType::I64,
            "float" => DType::F64,
            "bool" => DType::Bool,
            "f8" | "d" => DType::F64,
            "f4" | "f" => DType::F32,
            "i8" | "q" | "l" => DType::I64,
            "i4" | "i" => DType::I32,
            "i2" | "h" => DType::I16,
            "i1" | "b" => DType::I8,
            "u8" | "Q" | "L" => DType::U64,
            "u4" | "I" => DType::U32,
            "u2" | "H" => DType::U16,
            "u1" | "B" => DType::U8,
            "b1" | "?" => DType::Bool,
            _ if code.len() == text.len() => return DType::from_numpy_name(text),
            _ => return None,
        };
        Some(d)
    }
    /// Whether `name` names one of NumPy's dtypes that arrayc has not, as NumPy's module names it
    /// (`np.float16`): half and extended precision, complex numbers, strings, objects and dates.
    pub fn numpy_lacks_name(name: &str) -> bool {
        const NAMES: &[&str] = &[
            "float16",
            "half",
            "longdouble",
            "float128",
            "complex64",
            "complex128",
            "complex256",
            "csingle",
            "cdouble",
            "clongdouble",
            "complex",
            "object_",
            "str_",
            "bytes_",
            "void",
            "datetime64",
            "timedelta64",
        ];
        NAMES.contains(&name)
    }
    /// Whether the string `text` spells, as `np.dtype(text)` reads it, one of NumPy's dtypes that
    /// arrayc has not: a name of [`DType::numpy_lacks_name`], an array-protocol code (`"f2"`,
    /// `"c16"`, ...), or a big-endian spelling of any dtype (`">f8"`).
    pub fn numpy_lacks(text: &str) -> bool {
        const CODES: &[&str] = &["f2", "f16", "c8", "c16", "e", "g", "F", "D", "G", "O", "U", "S", "M8", "m8"];
        let code = text.strip_prefix(['<', '>', '=', '|']).unwrap_or(text);
        DType::numpy_lacks_name(code)
            || CODES.contains(&code)
            || text.starts_with('>') && DType::from_numpy_string(&text[1..]).is_some()
    }
    /// NumPy's `dtype.kind`: `'f'` (float), `'i'` (signed integer), `'u'` (unsigned integer) or
    /// `'b'` (bool); with [`DType::size_bytes`] the `.npy` header's type string (`<i2`).
    pub fn kind(self) -> char {
        match self {
            _ if self.is_float() => 'f',
            _ if self.is_unsigned() => 'u',
            _ if self.is_int() => 'i',
            _ => 'b',
        }
    }
    /// Size of one element in bytes (NumPy's itemsize; bool is one byte).
    pub fn size_bytes(self) -> usize {
        match self {
            DType::F64 | DType::I64 | DType::U64 => 8,
            DType::F32 | DType::I32 | DType::U32 => 4,
            DType::I16 | DType::U16 => 2,
            DType::I8 | DType::U8 | DType::Bool => 1,
        }
    }
    /// Width in bits of the value (bool: 1, as MLIR's `i1`).
    pub fn bits(self) -> u32 {
        match self {
            DType::Bool => 1,
            d => 8 * d.size_bytes() as u32,
        }
    }
    /// Whether it is a floating-point dtype.
    pub fn is_float(self) -> bool {
        matches!(self, DType::F64 | DType::F32)
    }
    /// Whether it is an integer dtype, signed or unsigned (not bool, not a float).
    pub fn is_int(self) -> bool {
        match self {
            DType::I64 | DType::I32 | DType::I16 | DType::I8 => true,
            DType::U64 | DType::U32 | DType::U16 | DType::U8 => true,
            DType::F64 | DType::F32 | DType::Bool => false,
        }
    }
    /// Whether it is an unsigned integer dtype (`u8`, `u16`, `u32`, `u64`): its division, remainder, shifts,
    /// comparisons, min/max and conversions are the unsigned ones (`arith.divui`, `cmpi ult`, ...).
    pub fn is_unsigned(self) -> bool {
        matches!(self, DType::U64 | DType::U32 | DType::U16 | DType::U8)
    }
    /// The smallest and largest value of an integer dtype (`None` for floats and bool).
    pub fn int_range(self) -> Option<(i128, i128)> {
        self.is_int().then(|| {
            if self.is_unsigned() {
                (0, (1i128 << self.bits()) - 1)
            } else {
                let b = self.bits() - 1;
                (-(1i128 << b), (1i128 << b) - 1)
            }
        })
    }
    /// NumPy's promotion of two (non-literal) dtypes (`np.result_type`): of two integers of one
    /// signedness the wider; of a signed and an unsigned one the signed if it is wider, else the
    /// signed dtype twice the unsigned's width, which for `u64` does not exist and gives `f64`
    /// (`u8` with `i32` is `i32`, `u8` with `i8` is `i16`, `u32` with `i32` is `i64`, `u64` with
    /// `i64` is `f64`); a float with an integer the float if it is wider than the integer (its
    /// mantissa holds the integer's values), else `f64` (`f32` with `i16` is `f32`, with `i32` or
    /// `i64` `f64`); a float with a float the wider; `bool` with anything the other.
    pub fn promote(self, other: DType) -> DType {
        use DType::*;
        match (self, other) {
            (Bool, d) | (d, Bool) => d,
            (a, b) if a.is_int() && b.is_int() && a.is_unsigned() != b.is_unsigned() => {
                let (s, u) = if a.is_unsigned() { (b, a) } else { (a, b) };
                match (s.size_bytes() > u.size_bytes(), u) {
                    (true, _) => s,
                    (false, U8) => I16,
                    (false, U16) => I32,
                    (false, U32) => I64,
                    (false, _) => F64,
                }
            }
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
    /// and signed integers narrower than the default integer `i64` (the platform's C `long`) are
    /// upcast to `i64`, unsigned ones to `u64` (C's `unsigned long`); floats keep their dtype.
    pub fn sum_dtype(self) -> DType {
        match self {
            DType::Bool | DType::I8 | DType::I16 | DType::I32 | DType::I64 => DType::I64,
            DType::U8 | DType::U16 | DType::U32 | DType::U64 => DType::U64,
            DType::F64 | DType::F32 => self,
        }
    }
    /// The float dtype NumPy's float ufuncs (`sqrt`, `exp`, `sin`, `arctan2`, `hypot`, ...)
    /// compute and give for this dtype: floats keep theirs, `i16` and `u16` give `f32` (their
    /// values fit its mantissa), the other integers and bool `f64`. NumPy gives `float16` for
    /// `i8`, `u8` and bool, a dtype arrayc has not: `f64` there (documented). True division and
    /// `mean` give `f64` for every integer (NumPy's `int16 / int16` is `float64`), not this.
    pub fn ufunc_float(self) -> DType {
        match self {
            DType::F64 | DType::F32 => self,
            DType::I16 | DType::U16 => DType::F32,
            _ => DType::F64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DType::{self, *};

    /// `np.result_type` of every pair (NumPy 2), and symmetry. The table is NumPy's: printed by
    /// `python3 -c "import numpy as np; [print(a, b, np.result_type(a, b)) for a in T for b in T]"`.
    #[test]
    fn promotion_is_numpys() {
        let table = [
            (F64, F32, F64),
            (F64, I64, F64),
            (F64, I32, F64),
            (F64, I16, F64),
            (F64, I8, F64),
            (F64, U64, F64),
            (F64, U32, F64),
            (F64, U16, F64),
            (F64, U8, F64),
            (F64, Bool, F64),
            (F32, I64, F64),
            (F32, I32, F64),
            (F32, I16, F32),
            (F32, I8, F32),
            (F32, U64, F64),
            (F32, U32, F64),
            (F32, U16, F32),
            (F32, U8, F32),
            (F32, Bool, F32),
            (I64, I32, I64),
            (I64, I16, I64),
            (I64, I8, I64),
            (I64, U64, F64),
            (I64, U32, I64),
            (I64, U16, I64),
            (I64, U8, I64),
            (I64, Bool, I64),
            (I32, I16, I32),
            (I32, I8, I32),
            (I32, U64, F64),
            (I32, U32, I64),
            (I32, U16, I32),
            (I32, U8, I32),
            (I32, Bool, I32),
            (I16, I8, I16),
            (I16, U64, F64),
            (I16, U32, I64),
            (I16, U16, I32),
            (I16, U8, I16),
            (I16, Bool, I16),
            (I8, U64, F64),
            (I8, U32, I64),
            (I8, U16, I32),
            (I8, U8, I16),
            (I8, Bool, I8),
            (U64, U32, U64),
            (U64, U16, U64),
            (U64, U8, U64),
            (U64, Bool, U64),
            (U32, U16, U32),
            (U32, U8, U32),
            (U32, Bool, U32),
            (U16, U8, U16),
            (U16, Bool, U16),
            (U8, Bool, U8),
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
        assert_eq!(U8.int_range(), Some((0, 255)));
        assert_eq!(U64.int_range(), Some((0, u64::MAX as i128)));
        assert_eq!((U8.sum_dtype(), U64.sum_dtype(), I32.sum_dtype()), (U64, U64, I64));
        assert_eq!((I8.int_range(), U16.int_range()), (Some((-128, 127)), Some((0, 65535))));
        assert_eq!((I16.sum_dtype(), U32.sum_dtype()), (I64, U64));
        // `np.sqrt(np.ones(1, t)).dtype` (NumPy's `float16` of `int8`, `uint8` and `bool` is `f64`).
        let floats = [(F32, F32), (I16, F32), (U16, F32), (I32, F64), (U32, F64), (I8, F64), (U8, F64), (Bool, F64)];
        for (d, f) in floats {
            assert_eq!(d.ufunc_float(), f, "{d:?}");
        }
    }

    /// `np.dtype(text)` of NumPy 2 on Linux x86-64, printed by `python3 -c "import numpy as np;
    /// print(np.dtype('u8'), np.dtype(np.intp), ...)"`; `"u8"` is NumPy's `uint64`, not arrayc's `u8`.
    #[test]
    fn numpy_strings_and_aliases() {
        let strings = [("u8", U64), ("<f8", F64), ("f4", F32), ("i8", I64), ("=i4", I32), ("|u1", U8), ("?", Bool)];
        for (text, d) in strings.into_iter().chain([("d", F64), ("B", U8), ("float32", F32), ("int", I64)]) {
            assert_eq!(DType::from_numpy_string(text), Some(d), "{text}");
        }
        let aliases = [("int_", I64), ("intp", I64), ("uint", U64), ("uintp", U64), ("double", F64), ("single", F32)];
        for (name, d) in aliases.into_iter().chain([("intc", I32), ("ubyte", U8), ("bool_", Bool)]) {
            assert_eq!(DType::from_numpy_name(name), Some(d), "{name}");
        }
        assert_eq!(DType::from_numpy_string(">f8"), None);
        for (text, d) in [("i2", I16), ("b", I8), ("H", U16), ("<u4", U32), ("ushort", U16), ("byte", I8)] {
            assert_eq!(DType::from_numpy_string(text), Some(d), "{text}");
        }
        for name in ["f2", ">f8", "complex128", "float16"] {
            assert!(DType::numpy_lacks(name) && DType::from_numpy_string(name).is_none(), "{name}");
        }
        assert!(!DType::numpy_lacks("float64") && !DType::numpy_lacks("x"));
        assert!(DType::numpy_lacks("e") && !DType::numpy_lacks_name("e") && DType::numpy_lacks_name("half"));
        assert!(!DType::numpy_lacks("int8") && !DType::numpy_lacks("b"));
    }
}
