//! The server: the main loop, the front-end worker, the lowering worker and the fusion worker (see
//! the crate docs for who does what).
//!
//! The main loop owns the documents: it applies `didOpen`/`didChange`/`didClose`, records each
//! document's latest version in [`Versions`] (which every background job checks to know it is
//! stale), and hands analyses and requests to the front-end worker in arrival order. It never runs
//! the front end or the fusion pass itself.

use crate::analysis::Analysis;
use crate::features;
use crate::runs::{self, RunKind};
use crate::text::apply_change;
use crate::transport::INVALID_REQUEST;
use crate::{log, Compiler, FusionRegion, Options, Settings};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeLensOptions, ExecuteCommandOptions, HoverProviderCapability, InitializeParams, OneOf, PublishDiagnosticsParams,
    ServerCapabilities, ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The latest version of every open document (absent once closed), shared by all threads: a
/// background job whose version is no longer the latest is stale.
#[derive(Clone, Default)]
pub(crate) struct Versions(Arc<Mutex<HashMap<Uri, i32>>>);

impl Versions {
    fn set(&self, uri: &Uri, v: Option<i32>) {
        let mut m = self.0.lock().unwrap_or_else(|p| p.into_inner());
        match v {
            Some(v) => m.insert(uri.clone(), v),
            None => m.remove(uri),
        };
    }
    /// Whether `version` is still the latest version of `uri`.
    pub(crate) fn is_current(&self, uri: &Uri, version: i32) -> bool {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).get(uri) == Some(&version)
    }
    /// Runs `f` if `version` is the latest version of `uri`, with no new version set meanwhile (so a
    /// publication made in `f` never comes after one of a newer version or of the close); returns
    /// whether it ran.
    fn while_current(&self, uri: &Uri, version: i32, f: impl FnOnce()) -> bool {
        let m = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let current = m.get(uri) == Some(&version);
        if current {
            f();
        }
        current
    }
}

/// The fusion pass's result for one version of a document under one settings generation.
struct FusionResult {
    version: i32,
    generation: u64,
    regions: Vec<FusionRegion>,
}

/// What the workers share.
struct Shared {
    client: Sender<Message>,
    versions: Versions,
    settings: Mutex<Settings>,
    /// Bumped when the settings change; fusion results of older generations are stale.
    generation: AtomicU64,
    fusion: Mutex<HashMap<Uri, FusionResult>>,
    /// Whether the client accepts `workspace/inlayHint/refresh`.
    refresh_hints: bool,
    compiler: Option<Arc<dyn Compiler>>,
}

impl Shared {
    fn send(&self, m: impl Into<Message>) {
        let _ = self.client.send(m.into());
    }
    fn settings(&self) -> Settings {
        self.settings.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// A job for the front-end worker.
enum Job {
    Analyze {
        uri: Uri,
        version: i32,
        text: Arc<str>,
    },
    Close(Uri),
    Request(Request),
    /// The settings changed: run the fusion pass again on every document.
    Refuse,
}

/// A job for the lowering worker and the fusion worker.
struct FusionJob {
    uri: Uri,
    analysis: Arc<Analysis>,
}

/// Runs the server on `connection` until the client sends `exit` or the connection closes.
/// Errors: the worker threads could not be started.
pub fn run(connection: Connection, options: Options) -> Result<(), String> {
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::INCREMENTAL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(false) }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![features::CMD_FUSE_REPORT.into(), features::CMD_RUN.into()],
            ..Default::default()
        }),
        ..Default::default()
    };
    let init = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": ServerInfo { name: "arrayc-lsp".into(), version: Some(env!("CARGO_PKG_VERSION").into()) },
    });
    let Some((id, params)) = wait_for_initialize(&connection) else { return Ok(()) };
    let _ = connection.sender.send(Response::new_ok(id, init).into());
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_else(|e| {
        log(&format!("unreadable initialize parameters ({e}); assuming a minimal client"));
        InitializeParams::default()
    });
    let refresh_hints = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.inlay_hint.as_ref())
        .and_then(|h| h.refresh_support)
        .unwrap_or(false);
    let shared = Arc::new(Shared {
        client: connection.sender.clone(),
        versions: Versions::default(),
        settings: Mutex::new(params.initialization_options.as_ref().map(Settings::from_json).unwrap_or_default()),
        generation: AtomicU64::new(0),
        fusion: Mutex::new(HashMap::new()),
        refresh_hints,
        compiler: options.compiler,
    });
    let (to_frontend, frontend_jobs) = crossbeam_channel::unbounded::<Job>();
    let (to_lowering, lowering_jobs) = crossbeam_channel::unbounded::<FusionJob>();
    let (to_fusion, fusion_jobs) = crossbeam_channel::unbounded::<FusionJob>();
    let spawn = |name: &str, f: Box<dyn FnOnce() + Send>| {
        std::thread::Builder::new()
            .name(name.into())
            .stack_size(options.stack_bytes)
            .spawn(f)
            .map_err(|e| e.to_string())
    };
    let s = shared.clone();
    let fusion = to_fusion.clone();
    let frontend = spawn("lsp-frontend", Box::new(move || frontend_worker(&s, frontend_jobs, to_lowering, fusion)))?;
    let s = shared.clone();
    // Detached, as the fusion worker: a lowering still running at exit is no longer wanted.
    spawn("lsp-lowering", Box::new(move || lowering_worker(&s, lowering_jobs, to_fusion)))?;
    let s = shared.clone();
    // Detached: the fusion worker is not waited for at exit (see below).
    spawn("lsp-fusion", Box::new(move || fusion_worker(&s, fusion_jobs)))?;
    let stopping = Arc::new(AtomicBool::new(false));
    let mut docs: HashMap<Uri, (String, i32)> = HashMap::new();
    let mut run_id = 0u64;
    for msg in &connection.receiver {
        match msg {
            Message::Request(r) => {
                if r.method == req::Shutdown::METHOD {
                    stopping.store(true, Ordering::SeqCst);
                    shared.send(Response::new_ok(r.id, ()));
                } else if r.method == req::ExecuteCommand::METHOD {
                    run_id += 1;
                    execute_command(&shared, &docs, r, options.driver.clone(), stopping.clone(), run_id);
                } else {
                    let _ = to_frontend.send(Job::Request(r));
                }
            }
            Message::Notification(n) if n.method == note::Exit::METHOD => break,
            Message::Notification(n) => {
                let outcome = catch_unwind(AssertUnwindSafe(|| notification(&shared, &mut docs, &to_frontend, n)));
                if let Err(p) = outcome {
                    log(&format!("internal error handling a notification: {}", panic_text(&p)));
                }
            }
            Message::Response(_) => {} // answers to our refresh requests
        }
    }
    stopping.store(true, Ordering::SeqCst);
    drop(to_frontend);
    // The front-end worker answers what is queued and ends. The fusion worker is not waited for:
    // the fusion pass of a huge region can take long, and its result is no longer wanted.
    let _ = frontend.join();
    Ok(())
}

/// Waits for the `initialize` request: earlier requests are answered with "server not initialized",
/// anything else is ignored. `None` when the client exits or the connection closes first.
/// (`lsp-server`'s own handshake also requires `initialized` as the very next message and gives up
/// otherwise; here `initialized` is an ordinary notification.)
fn wait_for_initialize(connection: &Connection) -> Option<(RequestId, serde_json::Value)> {
    for msg in &connection.receiver {
        match msg {
            Message::Request(r) if r.method == req::Initialize::METHOD => return Some((r.id, r.params)),
            Message::Request(r) => {
                let e = Response::new_err(r.id, ErrorCode::ServerNotInitialized as i32, "not initialized yet".into());
                let _ = connection.sender.send(e.into());
            }
            Message::Notification(n) if n.method == note::Exit::METHOD => return None,
            _ => {}
        }
    }
    None
}

/// Applies a notification: document changes go to the front-end worker as new versions.
fn notification(shared: &Shared, docs: &mut HashMap<Uri, (String, i32)>, to_frontend: &Sender<Job>, n: Notification) {
    let method = n.method.clone();
    let analyze = |uri: &Uri, text: &str, version: i32| {
        shared.versions.set(uri, Some(version));
        let _ = to_frontend.send(Job::Analyze { uri: uri.clone(), version, text: Arc::from(text) });
    };
    match method.as_str() {
        note::DidOpenTextDocument::METHOD => {
            let Ok(p) = n.extract::<lsp_types::DidOpenTextDocumentParams>(&method) else { return bad_params(&method) };
            let d = p.text_document;
            analyze(&d.uri, &d.text, d.version);
            docs.insert(d.uri, (d.text, d.version));
        }
        note::DidChangeTextDocument::METHOD => {
            let Ok(p) = n.extract::<lsp_types::DidChangeTextDocumentParams>(&method) else {
                return bad_params(&method);
            };
            let uri = p.text_document.uri;
            let Some((text, version)) = docs.get_mut(&uri) else {
                return log(&format!("didChange for a document that is not open: {}", uri.as_str()));
            };
            for c in p.content_changes {
                apply_change(text, c);
            }
            *version = p.text_document.version;
            analyze(&uri, text, *version);
        }
        note::DidCloseTextDocument::METHOD => {
            let Ok(p) = n.extract::<lsp_types::DidCloseTextDocumentParams>(&method) else { return bad_params(&method) };
            let uri = p.text_document.uri;
            docs.remove(&uri);
            shared.versions.set(&uri, None);
            let _ = to_frontend.send(Job::Close(uri));
        }
        note::DidChangeConfiguration::METHOD => {
            let Ok(p) = n.extract::<lsp_types::DidChangeConfigurationParams>(&method) else {
                return bad_params(&method);
            };
            let new = Settings::from_json(&p.settings);
            let mut current = shared.settings.lock().unwrap_or_else(|p| p.into_inner());
            if *current != new {
                *current = new;
                shared.generation.fetch_add(1, Ordering::SeqCst);
                let _ = to_frontend.send(Job::Refuse);
            }
        }
        INVALID_REQUEST => {
            let id = n.params.get("id").cloned().and_then(|id| serde_json::from_value::<RequestId>(id).ok());
            let message = n.params.get("message").and_then(|m| m.as_str()).unwrap_or("invalid request").to_string();
            if let Some(id) = id {
                shared.send(Response::new_err(id, ErrorCode::InvalidRequest as i32, message));
            }
        }
        _ => {} // initialized, $/cancelRequest, $/setTrace, ...: nothing to do
    }
}

fn bad_params(method: &str) {
    log(&format!("ignored `{method}` with unreadable parameters"));
}

/// The front-end worker: analyses documents with the parser and the checker and answers requests,
/// in arrival order. A document the checker rejects gets its diagnostics at once; one it accepts
/// goes to the lowering worker, which publishes them with the lowering's (the lowering of a long
/// document takes seconds, and requests must not wait for it).
fn frontend_worker(shared: &Shared, jobs: Receiver<Job>, to_lowering: Sender<FusionJob>, to_fusion: Sender<FusionJob>) {
    let mut analyses: HashMap<Uri, Arc<Analysis>> = HashMap::new();
    for job in jobs {
        match job {
            Job::Analyze { uri, version, text } => {
                // A newer version is queued behind this one: skip straight to it.
                if !shared.versions.is_current(&uri, version) {
                    continue;
                }
                let outcome = catch_unwind(AssertUnwindSafe(|| Analysis::front_end(version, text)));
                let a = match outcome {
                    Ok(a) => Arc::new(a),
                    Err(p) => {
                        log(&format!("internal error analysing {}: {}", uri.as_str(), panic_text(&p)));
                        continue;
                    }
                };
                if a.clean && shared.compiler.is_some() {
                    let _ = to_lowering.send(FusionJob { uri: uri.clone(), analysis: a.clone() });
                } else {
                    publish(shared, &uri, &a, &[]);
                }
                analyses.insert(uri, a);
            }
            Job::Close(uri) => {
                analyses.remove(&uri);
                shared.fusion.lock().unwrap_or_else(|p| p.into_inner()).remove(&uri);
                shared.send(Notification::new(
                    note::PublishDiagnostics::METHOD.into(),
                    PublishDiagnosticsParams { uri, diagnostics: vec![], version: None },
                ));
            }
            Job::Refuse => {
                for (uri, a) in &analyses {
                    if a.clean && shared.compiler.is_some() {
                        let _ = to_fusion.send(FusionJob { uri: uri.clone(), analysis: a.clone() });
                    }
                }
            }
            Job::Request(r) => {
                let (id, method) = (r.id.clone(), r.method.clone());
                shared.send(guarded(id, &method, || request(shared, &analyses, r)));
            }
        }
    }
}

/// Publishes the diagnostics of analysis `a` of `uri`, followed by `more` (the lowering's).
fn publish(shared: &Shared, uri: &Uri, a: &Analysis, more: &[arrayc_grammar::Diagnostic]) {
    shared.send(Notification::new(
        note::PublishDiagnostics::METHOD.into(),
        PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics: features::diagnostics_with(a, uri, more),
            version: Some(a.version),
        },
    ));
}

/// The lowering worker: runs the lowering on the latest checked version of each document, publishes
/// its diagnostics with the checker's (as `arrayc check` reports them) and queues the fusion pass.
/// Versions that are stale before it starts are skipped, and a result that went stale meanwhile is
/// dropped, so a long document being edited costs one lowering at a time.
fn lowering_worker(shared: &Shared, jobs: Receiver<FusionJob>, to_fusion: Sender<FusionJob>) {
    while let Ok(first) = jobs.recv() {
        let mut latest = vec![first];
        for j in jobs.try_iter() {
            match latest.iter_mut().find(|l| l.uri == j.uri) {
                Some(l) => *l = j,
                None => latest.push(j),
            }
        }
        for FusionJob { uri, analysis: a } in latest {
            let (Some(k), Some(c)) = (&shared.compiler, &a.checked) else { continue };
            if !shared.versions.is_current(&uri, a.version) {
                continue;
            }
            let file = file_name(&uri);
            let more =
                catch_unwind(AssertUnwindSafe(|| k.lowering_diagnostics(c, &a.text, &file))).unwrap_or_else(|p| {
                    log(&format!("internal error in the lowering of {}: {}", uri.as_str(), panic_text(&p)));
                    vec![]
                });
            if shared.versions.while_current(&uri, a.version, || publish(shared, &uri, &a, &more)) {
                let _ = to_fusion.send(FusionJob { uri, analysis: a });
            }
        }
    }
}

/// The response `answer` computes for request `id`, or, when it panics, an internal error (logged).
fn guarded(id: RequestId, method: &str, answer: impl FnOnce() -> Response) -> Response {
    catch_unwind(AssertUnwindSafe(answer)).unwrap_or_else(|p| {
        let msg = format!("internal error in `{method}`: {}", panic_text(&p));
        log(&msg);
        Response::new_err(id, ErrorCode::InternalError as i32, msg)
    })
}

/// Answers one request from the analyses.
fn request(shared: &Shared, analyses: &HashMap<Uri, Arc<Analysis>>, r: Request) -> Response {
    fn params<P: serde::de::DeserializeOwned>(r: &Request) -> Result<P, Response> {
        serde_json::from_value(r.params.clone()).map_err(|e| {
            Response::new_err(r.id.clone(), ErrorCode::InvalidParams as i32, format!("invalid parameters: {e}"))
        })
    }
    let doc = |uri: &Uri| analyses.get(uri).cloned();
    let ok = |v: serde_json::Value| Response::new_ok(r.id.clone(), v);
    macro_rules! handle {
        ($p:ty, |$x:ident| $body:expr) => {
            match params::<$p>(&r) {
                Ok($x) => ok(serde_json::to_value($body).unwrap_or_default()),
                Err(e) => e,
            }
        };
    }
    match r.method.as_str() {
        req::HoverRequest::METHOD => handle!(lsp_types::HoverParams, |p| {
            let t = p.text_document_position_params;
            doc(&t.text_document.uri).and_then(|a| features::hover(&a, t.position))
        }),
        req::GotoDefinition::METHOD => handle!(lsp_types::GotoDefinitionParams, |p| {
            let t = p.text_document_position_params;
            doc(&t.text_document.uri).and_then(|a| features::definition(&a, &t.text_document.uri, t.position))
        }),
        req::References::METHOD => handle!(lsp_types::ReferenceParams, |p| {
            let t = p.text_document_position;
            doc(&t.text_document.uri)
                .map(|a| features::references(&a, &t.text_document.uri, t.position, p.context.include_declaration))
        }),
        req::DocumentSymbolRequest::METHOD => handle!(lsp_types::DocumentSymbolParams, |p| {
            doc(&p.text_document.uri).map(|a| features::document_symbols(&a))
        }),
        req::InlayHintRequest::METHOD => handle!(lsp_types::InlayHintParams, |p| {
            let uri = p.text_document.uri;
            doc(&uri).map(|a| {
                let fusion = shared.fusion.lock().unwrap_or_else(|p| p.into_inner());
                let generation = shared.generation.load(Ordering::SeqCst);
                let regions = fusion
                    .get(&uri)
                    .filter(|f| f.version == a.version && f.generation == generation)
                    .map(|f| &f.regions[..]);
                features::inlay_hints(&a, p.range, regions)
            })
        }),
        req::CodeLensRequest::METHOD => handle!(lsp_types::CodeLensParams, |p| {
            doc(&p.text_document.uri).map(|a| features::code_lenses(&a, &p.text_document.uri))
        }),
        _ => {
            Response::new_err(r.id.clone(), ErrorCode::MethodNotFound as i32, format!("unknown request `{}`", r.method))
        }
    }
}

/// How long the fusion worker waits for a newer version before it starts (typing produces bursts).
const FUSION_DEBOUNCE: Duration = Duration::from_millis(100);

/// The fusion worker: runs the fusion pass on the latest checked version of each document, then
/// asks the client to fetch the inlay hints again. Versions that went stale before or while the
/// pass ran are dropped.
fn fusion_worker(shared: &Shared, jobs: Receiver<FusionJob>) {
    let mut pending: HashMap<Uri, Arc<Analysis>> = HashMap::new();
    let mut refresh_id = 0u64;
    loop {
        let first = if pending.is_empty() {
            match jobs.recv() {
                Ok(j) => Some(j),
                Err(_) => return,
            }
        } else {
            match jobs.recv_timeout(FUSION_DEBOUNCE) {
                Ok(j) => Some(j),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        };
        if let Some(j) = first {
            pending.insert(j.uri, j.analysis);
            continue;
        }
        for (uri, a) in pending.drain() {
            let generation = shared.generation.load(Ordering::SeqCst);
            let stale = || {
                !shared.versions.is_current(&uri, a.version) || shared.generation.load(Ordering::SeqCst) != generation
            };
            let (Some(compiler), Some(checked)) = (&shared.compiler, a.checked.as_ref().filter(|_| a.clean)) else {
                continue;
            };
            if stale() {
                continue;
            }
            let settings = shared.settings().fusion;
            let file = file_name(&uri);
            let outcome =
                catch_unwind(AssertUnwindSafe(|| compiler.fusion(checked, &a.text, &file, &settings, &stale)));
            let regions = match outcome {
                Ok(Ok(r)) => r,
                Ok(Err(msg)) => {
                    log(&format!("fusion hints for {}: {msg}", uri.as_str()));
                    vec![]
                }
                Err(p) => {
                    log(&format!("internal error in the fusion pass on {}: {}", uri.as_str(), panic_text(&p)));
                    vec![]
                }
            };
            if stale() {
                continue;
            }
            let result = FusionResult { version: a.version, generation, regions };
            shared.fusion.lock().unwrap_or_else(|p| p.into_inner()).insert(uri, result);
            if shared.refresh_hints {
                refresh_id += 1;
                let id = RequestId::from(format!("arrayc-refresh-{refresh_id}"));
                shared.send(Request::new(id, req::InlayHintRefreshRequest::METHOD.into(), ()));
            }
        }
    }
}

/// Starts a code-lens command in the background; its answer (and a message) come when it ends.
fn execute_command(
    shared: &Arc<Shared>,
    docs: &HashMap<Uri, (String, i32)>,
    r: Request,
    driver: Option<std::path::PathBuf>,
    stopping: Arc<AtomicBool>,
    run_id: u64,
) {
    let fail = |msg: String| Response::new_err(r.id.clone(), ErrorCode::InvalidParams as i32, msg);
    let p: lsp_types::ExecuteCommandParams = match serde_json::from_value(r.params.clone()) {
        Ok(p) => p,
        Err(e) => return shared.send(fail(format!("invalid parameters: {e}"))),
    };
    let kind = match p.command.as_str() {
        features::CMD_FUSE_REPORT => RunKind::FuseReport,
        features::CMD_RUN => RunKind::Run,
        other => return shared.send(fail(format!("unknown command `{other}`"))),
    };
    let arg = |k: usize| p.arguments.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let (Some(uri), Some(function)) = (arg(0).and_then(|u| u.parse::<Uri>().ok()), arg(1)) else {
        return shared.send(fail("expected the arguments [document URI, function name]".into()));
    };
    let Some((text, version)) = docs.get(&uri).cloned() else {
        return shared.send(fail(format!("{} is not open", uri.as_str())));
    };
    let Some(driver) = driver else {
        return shared.send(fail("this server has no arrayc driver to run".into()));
    };
    let shared = shared.clone();
    let job =
        runs::Run { kind, driver, file: file_name(&uri), text, function, settings: shared.settings().run, run_id };
    let spawned = std::thread::Builder::new().name("lsp-run".into()).spawn(move || {
        let cancelled = || stopping.load(Ordering::SeqCst) || !shared.versions.is_current(&uri, version);
        let (response, message) = runs::execute(&job, &cancelled);
        shared.send(Notification::new(note::ShowMessage::METHOD.into(), message));
        shared.send(Response::new_ok(r.id, response));
    });
    if let Err(e) = spawned {
        log(&format!("cannot start a run: {e}"));
    }
}

/// The last path segment of a `file:` URI, percent-decoded (the driver chooses the entry function
/// by the file's name).
fn file_name(uri: &Uri) -> String {
    let s = uri.as_str();
    let last = s.rsplit('/').next().unwrap_or(s);
    let bytes = last.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    let name = String::from_utf8_lossy(&out).into_owned();
    if name.is_empty() {
        "untitled.arr".into()
    } else {
        name
    }
}

/// The message of a caught panic.
fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A compiler whose every pass panics: the server logs it and goes on with the front end.
    struct Panicking;

    impl Compiler for Panicking {
        fn lowering_diagnostics(
            &self,
            _: &arrayc_grammar::Checked,
            _: &str,
            _: &str,
        ) -> Vec<arrayc_grammar::Diagnostic> {
            panic!("lowering exploded")
        }
        fn fusion(
            &self,
            _: &arrayc_grammar::Checked,
            _: &str,
            _: &str,
            _: &crate::FusionSettings,
            _: &dyn Fn() -> bool,
        ) -> Result<Vec<FusionRegion>, String> {
            panic!("fusion exploded")
        }
    }

    /// A panic while answering a request is answered with an internal error naming the request.
    #[test]
    fn a_panicking_request_is_answered_with_an_error() {
        let r = guarded(RequestId::from(7), "textDocument/hover", || panic!("boom"));
        let e = r.response_result.expect_err("an error response");
        assert_eq!((r.id, e.code), (RequestId::from(7), ErrorCode::InternalError as i32));
        assert!(e.message.contains("textDocument/hover") && e.message.contains("boom"), "{}", e.message);
    }

    /// Panics in the compiler behind the server (lowering, fusion pass) leave the server up: the
    /// front end's diagnostics are published and requests are answered.
    #[test]
    fn the_server_survives_a_panicking_compiler() {
        let (server, client) = Connection::memory();
        let options = Options { compiler: Some(Arc::new(Panicking)), driver: None, stack_bytes: 64 << 20 };
        let handle = std::thread::spawn(move || run(server, options));
        let send = |m: Message| client.sender.send(m).unwrap();
        let recv = || client.receiver.recv_timeout(Duration::from_secs(10)).expect("a message from the server");
        let recv_response = |id: i32| loop {
            if let Message::Response(r) = recv() {
                if r.id == RequestId::from(id) {
                    return r;
                }
            }
        };
        send(Request::new(1.into(), "initialize".into(), serde_json::json!({"capabilities": {}})).into());
        assert!(recv_response(1).response_result.is_ok());
        send(Notification::new("initialized".into(), serde_json::json!({})).into());
        let uri = "file:///t/p.arr";
        let text = "fn f(a: f64[4]) -> f64[4] { let b = a * 2.0; return c; }\n";
        let doc = serde_json::json!({"uri": uri, "languageId": "arrayc", "version": 1, "text": text});
        send(Notification::new("textDocument/didOpen".into(), serde_json::json!({"textDocument": doc})).into());
        // The checker's error comes through (the lowering never runs on a rejected program) ...
        let published = loop {
            if let Message::Notification(n) = recv() {
                break n.params;
            }
        };
        assert!(published.to_string().contains("E0201"), "{published}");
        // ... and after the fix the lowering and the fusion pass panic, and the server goes on.
        let fixed = serde_json::json!({"textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": text.replace("return c", "return b")}]});
        send(Notification::new("textDocument/didChange".into(), fixed).into());
        let at = serde_json::json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 33}});
        send(Request::new(2.into(), "textDocument/hover".into(), at).into());
        let hover = recv_response(2).response_result.expect("a hover");
        assert!(hover.to_string().contains("let b: f64[4]"), "{hover}");
        std::thread::sleep(FUSION_DEBOUNCE * 3);
        send(Request::new(3.into(), "shutdown".into(), ()).into());
        recv_response(3);
        send(Notification::new("exit".into(), ()).into());
        handle.join().unwrap().unwrap();
    }
}
