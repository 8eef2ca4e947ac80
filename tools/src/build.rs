//! `arrayc build FILE [--entry NAME] -o OUT`: an ahead-of-time executable.
//!
//! The program is compiled as for `arrayc run` (front end, passes, kernels to object code through
//! the same MLIR pipeline at O3), and linked with the system's C compiler driver (`$CC`, else `cc`)
//! into one executable from three parts:
//! * the kernels' object code (`jit::object_code`), whose packed entries `_mlir_<name>` are global
//!   symbols;
//! * a generated C file holding the program (`arrayc_exec::aot::Program`: host functions, entry,
//!   launch plans, serialised) as a byte array, and the table of the kernels' packed entries;
//! * `libarrayc_aot.a` (crate `arrayc-aot`): `main`, the host executor and the CPU launcher.
//!
//! Host code runs on the executor, as in `arrayc run` (the design's choice, `ARCHITECTURE.md`):
//! the executable needs neither MLIR nor LLVM and starts in a few milliseconds. The partition is
//! chosen without argument values (`--generic`): the executable takes its arguments at run time.

use crate::pipeline;
use crate::{choose_entry, read_source, FuseArgs, UserError};
use arrayc_exec::aot::Program;
use arrayc_passes::jit;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variable naming the run-time archive `libarrayc_aot.a` (default: beside the
/// `arrayc` executable, where `cargo build --release` puts both).
pub const AOT_LIB_VAR: &str = "ARRAYC_AOT_LIB";

/// The libraries the run-time archive needs (rustc's `--print native-static-libs` for it).
const NATIVE_LIBS: [&str; 7] = ["-ldl", "-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-lc"];

/// Builds the executable `out` from `file`'s function `entry` (see the module docs). `out` appears
/// complete or not at all.
///
/// Errors: the program does not compile; the run-time archive or the C compiler is missing; linking
/// fails. Each message names the fix.
pub fn build(file: &Path, entry: Option<&str>, out: &Path, fuse: &FuseArgs) -> Result<(), UserError> {
    let src = read_source(file)?;
    let mut m = pipeline::lower_source(&src, &file.display().to_string())?;
    let entry = choose_entry(&m, entry)?;
    let generic = FuseArgs { generic: true, ..fuse.clone() };
    pipeline::to_kernels(&mut m, &entry, &generic.options(&entry, &[]))?;
    let (object, plans) = jit::object_code(&m).map_err(|e| UserError(format!("internal error: {e}")))?;
    let names: Vec<String> = plans.iter().map(|p| p.name.clone()).collect();
    if let Some(bad) = names.iter().find(|n| !is_c_identifier(n)) {
        return Err(UserError(format!("internal error: kernel name `{bad}` is not a C identifier")));
    }
    let payload = Program { module: m, entry, plans }.encode();
    let lib = aot_library()?;
    let dir = tempfile::tempdir().map_err(|e| UserError(format!("error: cannot create a temporary directory: {e}")))?;
    let (kernels_o, glue_c) = (dir.path().join("kernels.o"), dir.path().join("program.c"));
    std::fs::write(&kernels_o, object)
        .map_err(|e| UserError(format!("error: cannot write `{}`: {e}", kernels_o.display())))?;
    std::fs::write(&glue_c, glue(&names, &payload))
        .map_err(|e| UserError(format!("error: cannot write `{}`: {e}", glue_c.display())))?;
    // Linked beside `out` under a temporary name, then renamed: `out` is complete or absent.
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let tmp = tempfile::Builder::new()
        .prefix(".arrayc-build-")
        .tempfile_in(parent)
        .map_err(|e| UserError(format!("error: cannot write in `{}`: {e}", parent.display())))?
        .into_temp_path();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let output = Command::new(&cc)
        .arg("-O1")
        .arg("-o")
        .arg(&tmp)
        .arg(&glue_c)
        .arg(&kernels_o)
        .arg(&lib)
        .args(NATIVE_LIBS)
        .output()
        .map_err(|e| {
            UserError(format!("error: cannot run the C compiler `{cc}` to link: {e}; install one (apt-get install build-essential) or set CC"))
        })?;
    if !output.status.success() {
        return Err(UserError(format!(
            "error: linking with `{cc}` failed:\n{}",
            String::from_utf8_lossy(&output.stderr).trim_end()
        )));
    }
    // The temporary file was created private (0600); an executable is rwxr-xr-x like the linker's.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| UserError(format!("error: cannot make `{}` executable: {e}", tmp.display())))?;
    tmp.persist(out).map_err(|e| UserError(format!("error: cannot write `{}`: {e}", out.display())))?;
    Ok(())
}

/// `libarrayc_aot.a`: `$ARRAYC_AOT_LIB`, else beside the running `arrayc`.
fn aot_library() -> Result<PathBuf, UserError> {
    let path = match std::env::var_os(AOT_LIB_VAR) {
        Some(p) => PathBuf::from(p),
        None => std::env::current_exe()
            .map_err(|e| UserError(format!("error: cannot locate the arrayc executable: {e}")))?
            .with_file_name("libarrayc_aot.a"),
    };
    if path.is_file() {
        Ok(path)
    } else {
        Err(UserError(format!(
            "error: the run-time library of executables, `{}`, does not exist; build it with `cargo build --release -p arrayc-aot` (`make build` does) or point {AOT_LIB_VAR} at it",
            path.display()
        )))
    }
}

fn is_c_identifier(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f == '_' || f.is_ascii_alphabetic()) && c.all(|x| x == '_' || x.is_ascii_alphanumeric())
}

/// The C file that gives `libarrayc_aot.a` its program (`arrayc_payload`, `arrayc_payload_len`) and
/// the kernels' packed entries (`arrayc_kernels`, `arrayc_kernel_count`, in the order of `names`).
fn glue(names: &[String], payload: &[u8]) -> String {
    let mut c =
        String::from("/* Generated by `arrayc build`: the program and its kernel table. */\n#include <stddef.h>\n");
    for n in names {
        let _ = writeln!(c, "extern void _mlir_{n}(void **);");
    }
    let table = if names.is_empty() {
        "0".to_string()
    } else {
        names.iter().map(|n| format!("_mlir_{n}")).collect::<Vec<_>>().join(", ")
    };
    let _ = writeln!(c, "void (*const arrayc_kernels[])(void **) = {{ {table} }};");
    let _ = writeln!(c, "const size_t arrayc_kernel_count = {};", names.len());
    c.push_str("const unsigned char arrayc_payload[] = {");
    for (i, b) in payload.iter().enumerate() {
        if i % 24 == 0 {
            c.push('\n');
        }
        let _ = write!(c, "{b},");
    }
    c.push_str("\n};\nconst size_t arrayc_payload_len = sizeof arrayc_payload;\n");
    c
}
