//! `arrayc-lsp`: the arrayc language server, started as `arrayc lsp` (LSP over stdio).
//!
//! It publishes the front end's diagnostics as you type (full and incremental sync), answers
//! hover (dtype and symbolic shape, the base a view aliases, builtin documentation), go to
//! definition, references and document symbols, shows the shape of every `let` binding and the
//! fusion pass's partition as inlay hints, and offers "fuse-report" and "run with defaults" code
//! lenses. `docs/editors.md` says how to use it from Neovim, VS Code and Helix.
//!
//! **Why `lsp-server` + `lsp-types`.** They are rust-analyzer's own protocol crates, maintained with
//! it: `lsp-types` has every LSP type with serde, and `lsp-server` is a small synchronous scaffold
//! (messages over crossbeam channels, the initialize handshake) that leaves the dispatch loop and
//! the threading to us. The server's work is CPU-bound and shaped by one rule: the main loop never
//! waits for slow work. Explicit threads and channels say that directly; an async framework
//! (`tower-lsp-server` with tokio) would add a runtime whose executor threads must not run the
//! front end's deep recursions or the fusion pass anyway. We use `lsp-server`'s message types and
//! `Connection` but our own stdio framing ([`transport`]) and handshake, which survive malformed
//! input and out-of-order messages where `lsp-server`'s end the connection.
//!
//! **Threads.** The main loop ([`server`]) owns the documents and applies edits; a front-end
//! worker (on a large stack) analyses each new version with the parser and the checker and answers
//! requests in arrival order, so a request always sees the version sent before it; a lowering
//! worker lowers the latest checked version and publishes its diagnostics (the front-end worker
//! publishes those of a version the checker rejects), skipping and dropping stale versions, so no
//! request waits for a lowering; a fusion worker
//! runs the fusion pass in the background, coalescing versions and discarding stale results;
//! code-lens runs are subprocesses of the driver with a time and memory limit, killed when their
//! document changes. A panic in a request is caught, logged and answered with an error.
//!
//! **No MLIR here.** The crate depends on the front end only. What needs the rest of the compiler
//! (the lowering's diagnostics, the fusion pass) comes through the [`Compiler`] trait, which the
//! `arrayc` driver implements, so this crate and its tests build without linking MLIR.

pub mod analysis;
pub mod features;
mod runs;
pub mod server;
pub mod text;
pub mod transport;

use arrayc_grammar::{Checked, Diagnostic};
use std::path::PathBuf;

/// What the server needs from the compiler beyond the front end (implemented by the driver).
pub trait Compiler: Send + Sync + 'static {
    /// The diagnostics `arrayc check` reports after the checker accepted the program (those of
    /// the lowering). `file` is the document's file name.
    fn lowering_diagnostics(&self, checked: &Checked, source: &str, file: &str) -> Vec<Diagnostic>;

    /// The fusion pass's partition of every region of the program, as `arrayc fuse-report` computes
    /// it (the entry function specialized to its default arguments), with the algorithm and cost
    /// model of `settings`. `cancelled` turns true when the result is no longer wanted; the
    /// implementation may stop early then. Errors are messages for the user.
    fn fusion(
        &self,
        checked: &Checked,
        source: &str,
        file: &str,
        settings: &FusionSettings,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Vec<FusionRegion>, String>;
}

/// The fusion pass's settings (`arrayc.fusion` in the client's settings).
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FusionSettings {
    /// Partition algorithm (`arrayc run --fuse`): `optimal`, `greedy`, `linear`, ...
    pub algorithm: String,
    /// Cost model (`arrayc run --cost`): `bohrium`, `max-contract`, `max-locality`, `robinson`.
    pub cost_model: String,
    /// Time budget per region in milliseconds (`--fuse-budget-ms`).
    pub budget_ms: u64,
}

impl Default for FusionSettings {
    /// The driver's defaults.
    fn default() -> Self {
        FusionSettings { algorithm: "optimal".into(), cost_model: "bohrium".into(), budget_ms: DEFAULT_BUDGET_MS }
    }
}

/// The default of `fusion.budgetMs`, in milliseconds: the driver's `--fuse-budget-ms`
/// (`Budget::DEFAULT_MS` of `arrayc-passes`, which this crate does not link; `tools/src/editor.rs`
/// asserts at compile time that the two agree).
pub const DEFAULT_BUDGET_MS: u64 = 250;

/// Limits of code-lens runs (`arrayc.run` in the client's settings).
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RunSettings {
    /// Wall-clock limit in milliseconds; the run is killed past it.
    pub timeout_ms: u64,
    /// The driver's `--max-memory` (`2GiB`, `500MB`, bytes).
    pub max_memory: String,
}

impl Default for RunSettings {
    fn default() -> Self {
        RunSettings { timeout_ms: 20_000, max_memory: "2GiB".into() }
    }
}

/// All settings, from `initializationOptions` and `workspace/didChangeConfiguration` (either the
/// object itself or wrapped as `{"arrayc": {...}}`).
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    pub fusion: FusionSettings,
    pub run: RunSettings,
}

impl Settings {
    /// Reads settings from a client's JSON; anything unreadable keeps the defaults (and is logged).
    pub fn from_json(v: &serde_json::Value) -> Settings {
        let v = v.get("arrayc").unwrap_or(v);
        if v.is_null() {
            return Settings::default();
        }
        serde_json::from_value(v.clone()).unwrap_or_else(|e| {
            log(&format!("ignored unreadable settings ({e}); using the defaults"));
            Settings::default()
        })
    }
}

/// One region of the fusion pass's partition, reduced to what the editor shows.
#[derive(Clone, Debug, PartialEq)]
pub struct FusionRegion {
    /// Blocks in execution order.
    pub blocks: Vec<FusionBlock>,
}

/// One block of a partition.
#[derive(Clone, Debug, PartialEq)]
pub struct FusionBlock {
    /// The 1-based source lines of its operations.
    pub lines: Vec<u32>,
    /// Whether it computes (a kernel), rather than only allocating, freeing or syncing arrays.
    pub kernel: bool,
    /// The arrays contracted in it (`%N` for temporaries without a name).
    pub contracted: Vec<String>,
}

/// How the server is started.
pub struct Options {
    /// The lowering and the fusion pass; `None` gives front-end diagnostics only and no fusion hints.
    pub compiler: Option<std::sync::Arc<dyn Compiler>>,
    /// The `arrayc` executable that code-lens commands run (`arrayc fuse-report`, `arrayc run`);
    /// `None` answers them with an error.
    pub driver: Option<PathBuf>,
    /// Stack size of the threads that run the front end and the fusion pass (they recurse as deep
    /// as the syntax tree nests: `arrayc_tools::DRIVER_STACK_BYTES`).
    pub stack_bytes: usize,
}

/// Serves one client on stdin/stdout until it exits. Errors: a thread could not be started.
pub fn serve_stdio(options: Options) -> Result<(), String> {
    let (to_server, from_client) = crossbeam_channel::unbounded();
    let (to_client, from_server) = crossbeam_channel::unbounded();
    std::thread::Builder::new()
        .name("lsp-reader".into())
        .spawn(move || transport::read_loop(std::io::stdin().lock(), to_server))
        .map_err(|e| e.to_string())?;
    let (stop, stopped) = crossbeam_channel::bounded(1);
    let writer = std::thread::Builder::new()
        .name("lsp-writer".into())
        .spawn(move || transport::write_loop(std::io::stdout().lock(), from_server, stopped))
        .map_err(|e| e.to_string())?;
    let result = server::run(lsp_server::Connection { sender: to_client, receiver: from_client }, options);
    // Write the answers queued so far, then end (a fusion pass still running is abandoned).
    let _ = stop.send(());
    let _ = writer.join();
    result
}

/// Logs a line to stderr (editors show a server's stderr as its log).
pub fn log(msg: &str) {
    eprintln!("arrayc-lsp: {msg}");
}
