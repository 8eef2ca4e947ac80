//! The program an ahead-of-time executable (`arrayc build`) carries: its host functions, its entry
//! function and the launch plan of every kernel, serialised with `postcard` into the executable's
//! data. The kernels' code is linked in beside it (the executable's table of packed entries, in the
//! order of [`Program::plans`]).

use arrayc_core::ir::Module;
use arrayc_runtime::launch::LaunchPlan;
use serde::{Deserialize, Serialize};

/// The first bytes of a payload: what it is, and the layout version of [`Program`]. An executable
/// is built and run with the same arrayc, so a mismatch means a damaged file.
const MAGIC: &[u8; 12] = b"arrayc-aot-1";

/// A fingerprint of the source of the types a payload serialises (the IR, the operation enums, the
/// launch plans and this file), FNV-1a at compile time. `arrayc build` writes it after [`MAGIC`];
/// the runtime library (`libarrayc_aot.a`, linked into the executable) compares it with its own, so
/// an executable linked against a runtime library of another arrayc build is reported as such, not
/// as damaged or misread.
const SCHEMA: u64 = {
    const fn fnv1a(bytes: &[u8], mut h: u64) -> u64 {
        let mut i = 0;
        while i < bytes.len() {
            h ^= bytes[i] as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
            i += 1;
        }
        h
    }
    let mut h = 0xcbf2_9ce4_8422_2325;
    h = fnv1a(include_bytes!("../../core/src/ir.rs"), h);
    h = fnv1a(include_bytes!("../../core/src/ops.rs"), h);
    h = fnv1a(include_bytes!("../../runtime/src/launch.rs"), h);
    fnv1a(include_bytes!("aot.rs"), h)
};

/// A compiled program, as an executable carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Program {
    /// The host functions (and the kernel functions, whose bodies the executor never runs).
    pub module: Module,
    /// The function the executable runs.
    pub entry: String,
    /// The launch plan of each linked kernel, in the order of the executable's kernel table.
    pub plans: Vec<LaunchPlan>,
    /// Per parameter of the entry, what the partition was specialised to (`arrayc build --arg`):
    /// every run must pass exactly that ([`Program::check_fixed`]); empty or `None`: anything.
    pub fixed: Vec<Option<Fixed>>,
    /// Copies of the entry partitioned under assumptions about its arguments
    /// (`arrayc_passes::wsp_fusion::versions`, `--generic` executables): the run calls the first
    /// whose assumption the arguments satisfy ([`Program::entry_for`]), else [`Program::entry`].
    pub versions: Vec<Version>,
}

/// A copy of the entry function whose partition assumes `when` of the arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Version {
    /// The host function (same parameters and results as the entry).
    pub func: String,
    /// Per parameter of the entry, what the partition assumes (`None`: nothing).
    pub when: Vec<Option<Fixed>>,
}

impl Version {
    /// The function to run for the entry's arguments `args`: the first of `versions` whose
    /// assumptions all hold, else `entry`.
    pub fn choose<'a>(versions: &'a [Version], entry: &'a str, args: &[arrayc_runtime::value::RtValue]) -> &'a str {
        versions
            .iter()
            .find(|v| v.when.iter().zip(args).all(|(w, a)| w.as_ref().is_none_or(|w| w.holds(a))))
            .map_or(entry, |v| &v.func)
    }
}

/// A parameter value an executable's partition assumes: a scalar's value, or the shape of an array
/// that is a whole contiguous base array (as a `.npy` argument is).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Fixed {
    Scalar(arrayc_core::Scalar),
    Shape(Vec<i64>),
    /// An i64 scalar equal to `residue` modulo `modulus` (a [`Version`]'s assumption only).
    Residue {
        modulus: i64,
        residue: i64,
    },
}

impl Fixed {
    /// Whether the argument `arg` satisfies this assumption.
    pub fn holds(&self, arg: &arrayc_runtime::value::RtValue) -> bool {
        use arrayc_runtime::value::RtValue;
        match (self, arg) {
            (Fixed::Scalar(want), RtValue::Scalar(got)) => want.to_bits() == got.cast(want.dtype()).to_bits(),
            (Fixed::Shape(want), RtValue::View(v)) => {
                &v.shape == want
                    && v.offset == 0
                    && v.strides == arrayc_core::shape::row_major_strides(&v.shape)
                    && v.len() as usize * v.dtype.size_bytes() == v.base.len_bytes()
            }
            (Fixed::Residue { modulus, residue }, RtValue::Scalar(arrayc_core::Scalar::I64(x))) => {
                *modulus > 0 && x.rem_euclid(*modulus) == *residue
            }
            _ => false,
        }
    }
}

impl Program {
    /// The payload bytes: [`MAGIC`], [`SCHEMA`] (8 bytes, little-endian), then the postcard
    /// encoding.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(SCHEMA.to_le_bytes());
        out.extend(postcard::to_stdvec(self).expect("a program always serialises"));
        out
    }

    /// Checks the entry's arguments `args` against [`Program::fixed`]. Errors: the first argument
    /// that differs, with the value the executable was built for and the fix.
    pub fn check_fixed(&self, args: &[arrayc_runtime::value::RtValue]) -> Result<(), crate::UserError> {
        let f = self.module.func(&self.entry).ok_or_else(|| crate::UserError("error: no entry function".into()))?;
        for ((fixed, arg), name) in self.fixed.iter().zip(args).zip(&f.param_names) {
            if !fixed.as_ref().is_none_or(|f| f.holds(arg)) {
                let built = match fixed {
                    Some(Fixed::Scalar(s)) => format!("{name}={}", arrayc_runtime::print::format_scalar(*s)),
                    Some(Fixed::Shape(sh)) => format!("{name} of shape {sh:?}"),
                    Some(Fixed::Residue { modulus, residue }) => format!("{name} % {modulus} == {residue}"),
                    None => unreachable!("a free parameter always matches"),
                };
                return Err(crate::UserError(format!(
                    "error: this executable was built for {built} (`arrayc build --arg`), and its kernels assume it; \
                     pass that, or build again without --arg {name} (or with the new value)"
                )));
            }
        }
        Ok(())
    }

    /// The function to run for the entry's arguments `args`: the first [`Program::versions`] whose
    /// assumptions all hold, else the entry.
    pub fn entry_for(&self, args: &[arrayc_runtime::value::RtValue]) -> &str {
        Version::choose(&self.versions, &self.entry, args)
    }

    /// Reads a payload made by [`Program::encode`]. Errors: not a payload of this arrayc; written by
    /// an arrayc build other than this runtime library's; damaged.
    pub fn decode(bytes: &[u8]) -> Result<Program, ProgramError> {
        let body = bytes.strip_prefix(MAGIC.as_slice()).ok_or(ProgramError::Foreign)?;
        let (schema, body) = body.split_at_checked(8).ok_or(ProgramError::Truncated)?;
        if schema != SCHEMA.to_le_bytes() {
            return Err(ProgramError::OtherBuild);
        }
        postcard::from_bytes(body).map_err(|e| ProgramError::Damaged(e.to_string()))
    }
}

/// Why an executable's or library's embedded program cannot be read ([`Program::decode`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    #[error("not a program of this version of arrayc")]
    Foreign,
    #[error("the embedded program is truncated")]
    Truncated,
    #[error(
        "its program was written by another build of arrayc than its runtime library (libarrayc_aot.a beside \
         arrayc, or $ARRAYC_AOT_LIB): build both from one source (`make build`), then run `arrayc build` again"
    )]
    OtherBuild,
    /// The payload does not deserialise (postcard's words).
    #[error("the embedded program is damaged ({0})")]
    Damaged(String),
}

/// The dtype codes of the C interface of a library from `arrayc build --lib`
/// (`arrayc_value.dtype`), with each dtype's C element type and NumPy dtype: the one table the
/// library, its generated C header and its generated Python module share.
pub const DTYPE_CODES: [(arrayc_core::DType, i32, &str, &str); 11] = [
    (arrayc_core::DType::F64, 0, "double", "float64"),
    (arrayc_core::DType::F32, 1, "float", "float32"),
    (arrayc_core::DType::I64, 2, "int64_t", "int64"),
    (arrayc_core::DType::Bool, 3, "_Bool", "bool_"),
    (arrayc_core::DType::I32, 4, "int32_t", "int32"),
    (arrayc_core::DType::U8, 5, "uint8_t", "uint8"),
    (arrayc_core::DType::U64, 6, "uint64_t", "uint64"),
    (arrayc_core::DType::I16, 7, "int16_t", "int16"),
    (arrayc_core::DType::I8, 8, "int8_t", "int8"),
    (arrayc_core::DType::U32, 9, "uint32_t", "uint32"),
    (arrayc_core::DType::U16, 10, "uint16_t", "uint16"),
];

/// The code of dtype `d` in [`DTYPE_CODES`].
pub fn dtype_code(d: arrayc_core::DType) -> i32 {
    DTYPE_CODES.iter().find(|c| c.0 == d).map(|c| c.1).expect("every dtype has a code")
}

/// The dtype of code `code` in [`DTYPE_CODES`], if any.
pub fn dtype_of_code(code: i32) -> Option<arrayc_core::DType> {
    DTYPE_CODES.iter().find(|c| c.1 == code).map(|c| c.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program() -> Program {
        Program { module: Module::default(), entry: "main".into(), plans: vec![], fixed: vec![], versions: vec![] }
    }

    #[test]
    fn payloads_round_trip_and_name_a_runtime_of_another_build() {
        let bytes = program().encode();
        assert_eq!(Program::decode(&bytes).unwrap(), program());
        let mut other = bytes.clone();
        other[MAGIC.len()] ^= 1; // the schema fingerprint of another build
        assert!(Program::decode(&other).unwrap_err().to_string().contains("another build of arrayc"));
        assert!(Program::decode(&bytes[..MAGIC.len() + 3]).unwrap_err().to_string().contains("truncated"));
        assert!(Program::decode(b"arrayc-aot-0").unwrap_err().to_string().contains("not a program"));
        let mut damaged = bytes;
        damaged.truncate(MAGIC.len() + 8 + 1);
        assert!(Program::decode(&damaged).unwrap_err().to_string().contains("damaged"));
    }
}
