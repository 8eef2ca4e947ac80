//! Where the GPU target finds NVIDIA's libdevice (`nvvm/libdevice/libdevice.10.bc` in a CUDA
//! toolkit directory), which `crate::ptx` links for the math functions that NVPTX has no
//! instruction for (`sin`, `tanh`, `**` of floats, ...).
//!
//! The places, in order ([`search`]):
//! 1. `$ARRAYC_CUDA_PATH`, `$CUDA_PATH`, `$CUDA_HOME` (the user's choice first);
//! 2. the usual toolkit directories: `/usr/local/cuda`, `/usr/local/cuda-<version>` (newest
//!    version first), `/usr/lib/cuda`, `/opt/cuda`;
//! 3. the `nvidia/cuda_nvcc` directory of the `nvidia-cuda-nvcc-cu12` Python wheel, as the Python
//!    interpreter `$PYTHON` (default `python3`, looked up on `PATH`) reports it: the interpreter
//!    and default of `scripts/setup.sh`, which installs that wheel, so that `arrayc emit
//!    --stage=ptx` works right after set-up with no variable set. Python is asked only when the
//!    places before have no libdevice, once per interpreter and process.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// The environment variable naming a CUDA toolkit directory (one with `nvvm/libdevice/libdevice.10.bc`;
/// the `nvidia/cuda_nvcc` directory of the `nvidia-cuda-nvcc-cu12` Python wheel is one).
pub const CUDA_PATH_VAR: &str = "ARRAYC_CUDA_PATH";

/// The variables naming a toolkit directory, in the order they are looked at.
pub const TOOLKIT_VARS: [&str; 3] = [CUDA_PATH_VAR, "CUDA_PATH", "CUDA_HOME"];

/// The variable naming the Python interpreter whose `nvidia-cuda-nvcc-cu12` wheel is looked at
/// (as in `scripts/setup.sh` and the Makefile).
pub const PYTHON_VAR: &str = "PYTHON";

/// The interpreter when `$PYTHON` is not set: `scripts/setup.sh`'s default (`PYTHON="${PYTHON:-python3}"`;
/// `tests/examples/test_gpu.py` checks that the two agree).
pub const DEFAULT_PYTHON: &str = "python3";

/// libdevice, relative to a CUDA toolkit directory.
pub const LIBDEVICE: &str = "nvvm/libdevice/libdevice.10.bc";

/// The Python wheel that has libdevice (and ptxas), and which `scripts/setup.sh` installs.
pub const WHEEL: &str = "nvidia-cuda-nvcc-cu12";

/// What the interpreter runs: the directories of the package `nvidia.cuda_nvcc` (a namespace
/// package: `__path__`, no `__file__`), one a line; nothing when it is not installed.
const PYTHON_QUERY: &str =
    "try:\n    import nvidia.cuda_nvcc as m\nexcept ImportError:\n    pass\nelse:\n    print(*m.__path__, sep='\\n')\n";

/// The CUDA toolkit whose libdevice the PTX links: the first place of [`search`] (with the
/// process's environment) that has [`LIBDEVICE`], or `None`.
pub fn cuda_toolkit() -> Option<PathBuf> {
    search(&|v| std::env::var_os(v), &system_dirs()).ok()
}

/// [`cuda_toolkit`], or, when no place has libdevice, every place looked at with why it did not
/// qualify (one line each, for [`crate::jit::JitError::NoLibdevice`]).
pub fn cuda_toolkit_or_places() -> Result<PathBuf, Vec<String>> {
    search(&|v| std::env::var_os(v), &system_dirs())
}

/// The usual toolkit directories, in the order they are looked at: `/usr/local/cuda`, then each
/// `/usr/local/cuda-<version>` that exists (newest version first), `/usr/lib/cuda`, `/opt/cuda`.
pub fn system_dirs() -> Vec<PathBuf> {
    let entries = std::fs::read_dir("/usr/local").into_iter().flatten().filter_map(|e| e.ok());
    let versioned = newest_first(entries.filter_map(|e| Some((e.file_name().into_string().ok()?, e.path()))));
    std::iter::once(PathBuf::from("/usr/local/cuda"))
        .chain(versioned)
        .chain(["/usr/lib/cuda", "/opt/cuda"].map(PathBuf::from))
        .collect()
}

/// Of directory entries `(name, path)`, the paths of those named `cuda-<version>` (numbers and
/// dots), newest version first.
fn newest_first(entries: impl Iterator<Item = (String, PathBuf)>) -> Vec<PathBuf> {
    let mut versioned: Vec<(Vec<u64>, PathBuf)> = entries
        .filter_map(|(name, path)| {
            let version = name.strip_prefix("cuda-")?;
            Some((version.split('.').map(|p| p.parse().ok()).collect::<Option<Vec<u64>>>()?, path))
        })
        .collect();
    versioned.sort_by(|a, b| b.0.cmp(&a.0));
    versioned.into_iter().map(|(_, p)| p).collect()
}

/// Whether `dir` has libdevice, or why not (for the list of places looked at).
fn has_libdevice(dir: &Path) -> Result<(), &'static str> {
    if dir.join(LIBDEVICE).is_file() {
        Ok(())
    } else if dir.is_dir() {
        Err("no nvvm/libdevice/libdevice.10.bc there")
    } else {
        Err("no such directory")
    }
}

/// The first directory with libdevice among [`TOOLKIT_VARS`] (values read through `var`), `dirs`
/// (normally [`system_dirs`]) and the wheel of the interpreter `$PYTHON` or [`DEFAULT_PYTHON`]
/// (`var("PYTHON")`; asked only when the others fail).
///
/// Errors: no place has libdevice; then every place looked at, one line each, saying what was
/// found there.
pub fn search(var: &dyn Fn(&str) -> Option<OsString>, dirs: &[PathBuf]) -> Result<PathBuf, Vec<String>> {
    let mut places = vec![];
    for name in TOOLKIT_VARS {
        match var(name).filter(|v| !v.is_empty()) {
            None => places.push(format!("${name}: not set")),
            Some(v) => {
                let dir = PathBuf::from(v);
                match has_libdevice(&dir) {
                    Ok(()) => return Ok(dir),
                    Err(why) => places.push(format!("${name} = {}: {why}", dir.display())),
                }
            }
        }
    }
    let no_versions = !dirs.iter().any(|d| d.to_string_lossy().starts_with("/usr/local/cuda-"));
    for dir in dirs {
        match has_libdevice(dir) {
            Ok(()) => return Ok(dir.clone()),
            Err(why) => places.push(format!("{}: {why}", dir.display())),
        }
        if no_versions && dir == Path::new("/usr/local/cuda") {
            places.push("/usr/local/cuda-<version>: none".into());
        }
    }
    let (python, how) = match var(PYTHON_VAR).filter(|v| !v.is_empty()) {
        Some(p) => (p, format!("${PYTHON_VAR}")),
        None => (OsString::from(DEFAULT_PYTHON), format!("${PYTHON_VAR} not set")),
    };
    let label = format!("the {WHEEL} wheel of `{}` ({how})", python.to_string_lossy());
    match wheel_dirs(&python) {
        Err(why) => places.push(format!("{label}: {why}")),
        Ok(found) if found.is_empty() => places.push(format!("{label}: not installed")),
        Ok(found) => {
            for dir in found {
                match has_libdevice(&dir) {
                    Ok(()) => return Ok(dir),
                    Err(why) => places.push(format!("{label}: {}: {why}", dir.display())),
                }
            }
        }
    }
    Err(places)
}

/// What an interpreter said about the wheel ([`wheel_dirs`]).
type WheelAnswer = Result<Vec<PathBuf>, String>;

/// The directories of the package `nvidia.cuda_nvcc` in the interpreter `python` (empty when not
/// installed), asked once per interpreter and process.
///
/// Errors: the interpreter cannot be started, or fails (its message's last line).
fn wheel_dirs(python: &OsStr) -> WheelAnswer {
    static ANSWERS: OnceLock<Mutex<HashMap<OsString, WheelAnswer>>> = OnceLock::new();
    let answers = ANSWERS.get_or_init(Default::default);
    if let Some(a) = answers.lock().unwrap_or_else(|e| e.into_inner()).get(python) {
        return a.clone();
    }
    let answer = ask_python(python);
    answers.lock().unwrap_or_else(|e| e.into_inner()).insert(python.to_owned(), answer.clone());
    answer
}

/// Runs [`PYTHON_QUERY`] with `python` (see [`wheel_dirs`]).
fn ask_python(python: &OsStr) -> WheelAnswer {
    let out =
        Command::new(python).args(["-c", PYTHON_QUERY]).stdin(Stdio::null()).output().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => "not found (no such file, or not on PATH)".to_string(),
            _ => format!("could not be started: {e}"),
        })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no message");
        return Err(format!("the interpreter failed ({}): {last}", out.status));
    }
    Ok(String::from_utf8_lossy(&out.stdout).lines().filter(|l| !l.trim().is_empty()).map(PathBuf::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory with an (empty) libdevice file.
    fn toolkit() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("nvvm/libdevice")).unwrap();
        std::fs::write(dir.path().join(LIBDEVICE), b"").unwrap();
        dir
    }

    fn env(pairs: &[(&str, &OsStr)]) -> impl Fn(&str) -> Option<OsString> {
        let map: HashMap<String, OsString> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_os_string())).collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn a_variable_comes_first_and_a_directory_without_libdevice_is_passed_over() {
        let (first, second) = (toolkit(), toolkit());
        let empty = tempfile::tempdir().unwrap();
        let var = env(&[
            ("ARRAYC_CUDA_PATH", empty.path().as_os_str()),
            ("CUDA_PATH", first.path().as_os_str()),
            ("CUDA_HOME", second.path().as_os_str()),
        ]);
        assert_eq!(search(&var, &[]), Ok(first.path().to_path_buf()));
        let var = env(&[]);
        assert_eq!(search(&var, &[empty.path().into(), second.path().into()]), Ok(second.path().to_path_buf()));
    }

    #[cfg(unix)]
    #[test]
    fn the_wheel_is_found_through_the_interpreter_in_python() {
        use std::os::unix::fs::PermissionsExt;
        let wheel = toolkit();
        let bin = tempfile::tempdir().unwrap();
        // A stand-in interpreter that answers the query as Python would with the wheel installed.
        let python = bin.path().join("fake-python");
        std::fs::write(&python, format!("#!/bin/sh\necho '{}'\n", wheel.path().display())).unwrap();
        std::fs::set_permissions(&python, std::fs::Permissions::from_mode(0o755)).unwrap();
        let var = env(&[("PYTHON", python.as_os_str())]);
        assert_eq!(search(&var, &[]), Ok(wheel.path().to_path_buf()));
    }

    #[test]
    fn without_libdevice_every_place_is_listed() {
        if Path::new("/usr/local/cuda").join(LIBDEVICE).is_file() {
            eprintln!("SKIPPED without_libdevice_every_place_is_listed: /usr/local/cuda has libdevice here");
            return;
        }
        let nowhere = tempfile::tempdir().unwrap();
        let python = nowhere.path().join("no-python");
        let var = env(&[("CUDA_HOME", nowhere.path().as_os_str()), ("PYTHON", python.as_os_str())]);
        let places = search(&var, &[PathBuf::from("/usr/local/cuda"), PathBuf::from("/nonexistent/cuda")]).unwrap_err();
        let text = places.join("\n");
        assert!(text.contains("$ARRAYC_CUDA_PATH: not set") && text.contains("$CUDA_PATH: not set"), "{text}");
        assert!(text.contains(&format!("$CUDA_HOME = {}: no nvvm/libdevice", nowhere.path().display())), "{text}");
        assert!(text.contains("/nonexistent/cuda: no such directory"), "{text}");
        assert!(text.contains("/usr/local/cuda-<version>: none"), "{text}");
        assert!(text.contains(&format!("wheel of `{}` ($PYTHON): not found", python.display())), "{text}");
        assert_eq!(places.len(), 7, "{text}");
    }

    #[test]
    fn versioned_toolkits_come_newest_first() {
        let names = ["cuda-12.4", "cuda", "cuda-11.8", "cuda-12.10", "cuda-x", "bin"];
        let got = newest_first(names.iter().map(|n| (n.to_string(), PathBuf::from(format!("/usr/local/{n}")))));
        let want: Vec<PathBuf> =
            ["cuda-12.10", "cuda-12.4", "cuda-11.8"].iter().map(|n| PathBuf::from(format!("/usr/local/{n}"))).collect();
        assert_eq!(got, want);
        let dirs = system_dirs();
        assert_eq!(dirs[0], PathBuf::from("/usr/local/cuda"));
        assert_eq!(dirs[dirs.len() - 2..], [PathBuf::from("/usr/lib/cuda"), PathBuf::from("/opt/cuda")]);
    }
}
