//! The results of a run: printed NumPy-style, and written as `.npy` files, all or nothing (used by
//! `arrayc run` and by executables from `arrayc build`).

use crate::{remove_stale_results, UserError};
use arrayc_runtime::array::View;
use arrayc_runtime::value::{KernelLauncher, RtValue};
use arrayc_runtime::{npy, print};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Makes the host copies of the `results`' arrays current (the SYNC of the results: `launcher`'s
/// kernels may have written them in memory of their own). Errors: a failed copy.
pub fn sync_results(results: &[RtValue], launcher: &dyn KernelLauncher) -> Result<(), UserError> {
    for v in results.iter().filter_map(RtValue::view) {
        launcher.host_read(v).map_err(|e| UserError(format!("error: {e}")))?;
    }
    Ok(())
}

/// Prints `results` to stdout: one alone as it is, several as `result <i>: ...`. A closed stdout
/// (`... | head`) is not an error of the program: printing stops.
pub fn print_results(results: &[RtValue]) {
    let mut stdout = std::io::stdout().lock();
    for (i, r) in results.iter().enumerate() {
        let text = match r {
            RtValue::Scalar(s) => print::format_scalar(*s),
            RtValue::View(v) => print::format_view(v),
        };
        let line = if results.len() == 1 { format!("{text}\n") } else { format!("result {i}: {text}\n") };
        if stdout.write_all(line.as_bytes()).is_err() {
            break;
        }
    }
}

/// Writes result `i` to `dir/result_<i>.npy` (scalars as 0-d arrays), creating `dir`: all the files
/// or none (`npy::write_npy_all`), and no result file of an earlier run left beside them.
/// Errors: the directory or a file cannot be written; the message names it.
pub fn write_results(results: &[RtValue], dir: &Path) -> Result<(), UserError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| UserError(format!("error: cannot create output directory `{}`: {e}", dir.display())))?;
    let mut views = Vec::with_capacity(results.len());
    for (i, r) in results.iter().enumerate() {
        let path = dir.join(format!("result_{i}.npy"));
        let v = match r {
            RtValue::Scalar(s) => npy::scalar_view(&path, *s),
            RtValue::View(v) => Ok(v.clone()),
        };
        views.push((path, v.map_err(|e| UserError(format!("error: {e}")))?));
    }
    let items: Vec<(PathBuf, &View)> = views.iter().map(|(p, v)| (p.clone(), v)).collect();
    npy::write_npy_all(&items).map_err(|e| UserError(format!("error: {e}")))?;
    remove_stale_results(dir, results.len())
}
