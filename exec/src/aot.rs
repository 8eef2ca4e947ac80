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

/// A compiled program, as an executable carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Program {
    /// The host functions (and the kernel functions, whose bodies the executor never runs).
    pub module: Module,
    /// The function the executable runs.
    pub entry: String,
    /// The launch plan of each linked kernel, in the order of the executable's kernel table.
    pub plans: Vec<LaunchPlan>,
}

impl Program {
    /// The payload bytes: [`MAGIC`], then the postcard encoding.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(postcard::to_stdvec(self).expect("a program always serialises"));
        out
    }

    /// Reads a payload made by [`Program::encode`]. Errors: not a payload of this arrayc, or damaged.
    pub fn decode(bytes: &[u8]) -> Result<Program, String> {
        let body = bytes.strip_prefix(MAGIC.as_slice()).ok_or("not a program of this version of arrayc")?;
        postcard::from_bytes(body).map_err(|e| format!("the embedded program is damaged ({e})"))
    }
}
