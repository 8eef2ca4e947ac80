//! Code-lens commands: `arrayc fuse-report` and `arrayc run` of one function on the editor's text,
//! as a subprocess of the driver with a wall-clock limit and `--max-memory`, killed when the
//! document changes or the server stops.

use crate::RunSettings;
use lsp_types::{MessageType, ShowMessageParams};
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Which driver command a lens runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RunKind {
    FuseReport,
    Run,
}

/// One code-lens command.
pub struct Run {
    pub kind: RunKind,
    /// The `arrayc` executable.
    pub driver: PathBuf,
    /// The document's file name (the text is written to a temporary file of that name).
    pub file: String,
    pub text: String,
    pub function: String,
    pub settings: RunSettings,
    /// Distinguishes the temporary directories of runs.
    pub run_id: u64,
}

/// The most output shown in a message.
const MAX_OUTPUT_CHARS: usize = 4000;

/// Why a code-lens run gave no output of the driver's: shown to the user as the run's output.
#[derive(Debug, thiserror::Error)]
enum RunError {
    /// A file or process operation failed (what was being done, and the OS error).
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// The document changed while the driver ran.
    #[error("cancelled: the document changed")]
    Cancelled,
    /// The driver ran past the time limit (`arrayc.run.timeoutMs` in the client's settings).
    #[error("stopped after the time limit of {0:?}")]
    TimeLimit(Duration),
}

/// Runs `job`, polling `cancelled`; returns the command's answer (`{"ok", "output"}`) and the
/// message for the user.
pub fn execute(job: &Run, cancelled: &dyn Fn() -> bool) -> (serde_json::Value, ShowMessageParams) {
    let what = match job.kind {
        RunKind::FuseReport => format!("fuse-report of `{}`", job.function),
        RunKind::Run => format!("run of `{}` with its defaults", job.function),
    };
    let (ok, output) = match run(job, cancelled) {
        Ok((ok, out)) => (ok, out),
        Err(e) => (false, e.to_string()),
    };
    let output = if output.chars().count() > MAX_OUTPUT_CHARS {
        output.chars().take(MAX_OUTPUT_CHARS).collect::<String>() + "\n[output cut]"
    } else {
        output
    };
    let message = ShowMessageParams {
        typ: if ok { MessageType::INFO } else { MessageType::ERROR },
        message: format!("{what}{}:\n{}", if ok { "" } else { " failed" }, output.trim_end()),
    };
    (serde_json::json!({ "ok": ok, "output": output }), message)
}

/// Writes the text to a fresh temporary directory and runs the driver on it. `Ok((success,
/// output))` when the driver ran (its stdout then stderr); `Err` when it could not, timed out or
/// was cancelled.
fn run(job: &Run, cancelled: &dyn Fn() -> bool) -> Result<(bool, String), RunError> {
    let dir = std::env::temp_dir().join(format!("arrayc-lsp-{}-{}", std::process::id(), job.run_id));
    std::fs::create_dir_all(&dir).map_err(|e| RunError::Io(format!("cannot create `{}`", dir.display()), e))?;
    let result = run_in(job, &dir, cancelled);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn run_in(job: &Run, dir: &std::path::Path, cancelled: &dyn Fn() -> bool) -> Result<(bool, String), RunError> {
    let file = dir.join(&job.file);
    std::fs::write(&file, &job.text).map_err(|e| RunError::Io(format!("cannot write `{}`", file.display()), e))?;
    let sub = match job.kind {
        RunKind::FuseReport => "fuse-report",
        RunKind::Run => "run",
    };
    let mut child = Command::new(&job.driver)
        .arg("--max-memory")
        .arg(&job.settings.max_memory)
        .arg(sub)
        .arg("--entry")
        .arg(&job.function)
        .arg(&file)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| RunError::Io(format!("cannot start `{}`", job.driver.display()), e))?;
    let drain = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut buf);
            }
            String::from_utf8_lossy(&buf).into_owned()
        })
    };
    let out = drain(child.stdout.take().map(|r| Box::new(r) as Box<dyn Read + Send>));
    let err = drain(child.stderr.take().map(|r| Box::new(r) as Box<dyn Read + Send>));
    let limit = Duration::from_millis(job.settings.timeout_ms);
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Ok(status),
            Ok(None) if cancelled() => break Err(RunError::Cancelled),
            Ok(None) if start.elapsed() > limit => break Err(RunError::TimeLimit(limit)),
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => break Err(RunError::Io("cannot wait for the driver".into(), e)),
        }
    };
    if status.is_err() {
        let _ = child.kill();
        let _ = child.wait();
    }
    let text = out.join().unwrap_or_default() + &err.join().unwrap_or_default();
    let status = status?;
    Ok((status.success(), text.replace(&format!("{}/", dir.display()), "")))
}
