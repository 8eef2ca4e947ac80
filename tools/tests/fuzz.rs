//! Mutation fuzzing of every entry point that reads user input, in process: the front end, the
//! lowering + fusion + kernel code generation of programs that pass the checker, the MLIR importer
//! with the passes after it, the `.npy` reader, and the language server's document analysis with
//! every request on it and its message framing. (`cargo fuzz` needs a nightly toolchain; this
//! runs on stable, seeded, so every failure replays.)
//!
//! Each input is a seed (the repository's programs, their `arr` MLIR, `.npy` files written here)
//! changed by one to four byte- or line-level mutations. An entry point may reject an input with
//! an error; it must not panic. Before each input runs, it is written to
//! `target/fuzz-last-input.<target>`, so an abort that takes the process down (a C++ assertion in
//! MLIR, a stack overflow) leaves its reproducer behind.
//!
//! * `cargo test --release -p arrayc-tools --test fuzz` (part of `make test`): the checked-in
//!   crashers of `tests/fuzz/crashers/<target>/`, then a short run (`ARRAYC_FUZZ_ITERS`, default
//!   150 inputs per target, seed `ARRAYC_FUZZ_SEED`, default 1).
//! * `make fuzz`: the long run (10^4 inputs per target by default, with a figure line per
//!   target: inputs, rejected, panics, slowest input).
//!
//! A panic fails the test and writes the input to `target/fuzz-crashers/<target>/`; once fixed,
//! move it to `tests/fuzz/crashers/<target>/` so that it is replayed on every run.

use arrayc_codegen::kernel_codegen;
use arrayc_codegen::{import, mlir};
use arrayc_dialect::print;
use arrayc_lsp::{analysis::Analysis, features, transport};
use arrayc_passes::wsp::Budget;
use arrayc_passes::wsp_fusion::FusionOptions;
use arrayc_runtime::npy;
use arrayc_tools::pipeline::PassOptions;
use arrayc_tools::{choose_entry, given_arguments, pipeline, specialization};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// SplitMix64: a small, seedable generator, so a seed and an iteration number replay an input.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Bytes that matter to the language and to MLIR text, for insertions.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ";",
    ":",
    "=",
    "+",
    "-",
    "*",
    "/",
    "**",
    "%",
    "<",
    ">=",
    "==",
    "!=",
    "&",
    "|",
    "~",
    "..",
    "...",
    "::",
    "::-1",
    "newaxis",
    "fn ",
    "let ",
    "return ",
    "for ",
    "while ",
    "break;",
    "continue;",
    "if ",
    "else ",
    "elif ",
    " and ",
    " or ",
    "not ",
    "True",
    " **= ",
    "enumerate(",
    "assert ",
    "mode=\"same\"",
    "print(\"x\", ",
    "\"",
    "zip(",
    ", ",
    "in ",
    "print(",
    "sum(",
    "axis=",
    "dtype=",
    "zeros(",
    "ones(",
    "arange(",
    "0",
    "1",
    "-1",
    "2",
    "1e308",
    "nan",
    "inf",
    "9223372036854775807",
    "-9223372036854775808",
    "f64",
    "i64",
    "bool",
    "f32",
    "[N]",
    "[N, M]",
    "%",
    "\"arr.",
    "memref<?x",
    "?x",
    "strided<[?], offset: ?>",
    "i1",
    "index",
    // Attribute forms that melior or MLIR's parser crashed on (issue 34): empty strings, dense
    // arrays of `index` (or of an alias that may be `index`).
    "\"\"",
    " = \"\"",
    "array<index: ",
    "array<i64: ",
    "array<i32: 1, 2>",
    "array<!t: ",
    "!t = index\n",
    "loc(\"\":1:1)",
    "\n",
    "\u{e9}",
    "\0",
    "\u{feff}",
];

fn mutate(rng: &mut Rng, input: &[u8], seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(8) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                v.splice(at..at, t.iter().copied());
            }
            2 if !v.is_empty() => {
                let end = (at + 1 + rng.below(16)).min(v.len());
                v.drain(at.min(end)..end);
            }
            3 => {
                // Splice in a piece of another seed.
                let s = &seeds[rng.below(seeds.len())];
                let a = rng.below(s.len() + 1);
                let b = (a + rng.below(64)).min(s.len());
                v.splice(at..at, s[a..b].iter().copied());
            }
            4 => {
                // Delete or duplicate a whole line.
                let lines: Vec<&[u8]> = v.split(|&c| c == b'\n').collect();
                let i = rng.below(lines.len());
                let mut out: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
                if rng.below(2) == 0 {
                    out.remove(i);
                } else {
                    let l = out[i].clone();
                    out.insert(rng.below(out.len() + 1), l);
                }
                v = out.join(&b'\n');
            }
            5 if !v.is_empty() => {
                // Replace a digit run with an extreme number.
                let i = rng.below(v.len());
                if v[i].is_ascii_digit() {
                    let end = (i..v.len()).find(|&j| !v[j].is_ascii_digit()).unwrap_or(v.len());
                    let n = ["0", "1", "7", "4611686018427387904", "99999999999999999999", "-3"][rng.below(6)];
                    v.splice(i..end, n.bytes());
                }
            }
            6 if v.len() > 1 => {
                let (i, j) = (rng.below(v.len()), rng.below(v.len()));
                v.swap(i, j);
            }
            _ => v.truncate(at),
        }
    }
    v
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == ext)).collect())
        .unwrap_or_default();
    out.sort();
    out
}

fn program_seeds() -> Vec<Vec<u8>> {
    let r = repo();
    let dirs = ["examples", "examples/features", "benchmarks/programs", "grammar/tests/malformed", "lit-tests"];
    let seeds: Vec<Vec<u8>> =
        dirs.iter().flat_map(|d| files(&r.join(d), "arr")).map(|p| std::fs::read(p).unwrap()).collect();
    assert!(seeds.len() >= 40, "expected the repository's programs as seeds, found {}", seeds.len());
    seeds
}

/// The `arr` MLIR of every seed program that lowers (what `arrayc emit --stage=arr` prints).
fn mlir_seeds(programs: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut out = vec![];
    for p in programs {
        let Ok(src) = std::str::from_utf8(p) else { continue };
        if let Ok(mut m) = pipeline::lower_source(src, "seed.arr") {
            if let Ok(entry) = choose_entry(&m, None) {
                if pipeline::run_pass(&mut m, "insert-del-sync", &entry).is_ok() {
                    out.push(print::print_module(&m).into_bytes());
                }
            }
        }
    }
    assert!(out.len() >= 20, "expected MLIR seeds, found {}", out.len());
    out
}

fn npy_seeds(dir: &Path) -> Vec<Vec<u8>> {
    use arrayc_core::DType;
    use arrayc_runtime::array::View;
    let mut out = vec![];
    for (i, (d, shape)) in [
        (DType::F64, vec![3]),
        (DType::I64, vec![2, 3]),
        (DType::Bool, vec![4]),
        (DType::F32, vec![]),
        (DType::F64, vec![0, 2]),
    ]
    .into_iter()
    .enumerate()
    {
        let p = dir.join(format!("seed{i}.npy"));
        npy::write_npy(&p, &View::zeros(d, &shape).unwrap()).unwrap();
        out.push(std::fs::read(&p).unwrap());
    }
    out
}

/// One entry point: runs `input`, returning whether it was accepted. Errors are fine; panics are
/// what the fuzzer looks for.
type Target<'a> = Box<dyn FnMut(&[u8]) -> bool + 'a>;

fn frontend_target() -> Target<'static> {
    Box::new(|input: &[u8]| {
        let Ok(src) = std::str::from_utf8(input) else { return false };
        let (checked, diags) = arrayc_grammar::frontend(src);
        for d in &diags {
            let _ = d.render("fuzz.arr", src, false);
        }
        checked.is_some()
    })
}

/// Lowering, `insert-del-sync`, fusion with the arguments' defaults (a small budget), outlining,
/// `dce` and the kernels' MLIR: everything `arrayc run` does before the JIT.
fn pipeline_target() -> Target<'static> {
    Box::new(|input: &[u8]| {
        let Ok(src) = std::str::from_utf8(input) else { return false };
        let Ok(mut m) = pipeline::lower_source(src, "fuzz.arr") else { return false };
        let Ok(entry) = choose_entry(&m, None) else { return false };
        let Ok(given) = given_arguments(&m, &entry, &[]) else { return false };
        let fusion = FusionOptions {
            budget: Budget { max_nodes: Some(20_000), max_ms: Some(200) },
            specialize: vec![specialization(&entry, &given)],
            decisions: None,
            ..FusionOptions::default()
        };
        let opts = PassOptions { fusion, verify_each: false, device: false, distribute: false };
        if pipeline::to_kernels(&mut m, &entry, &opts).is_err() {
            return false;
        }
        kernel_codegen::kernels_module_mlir(&m).is_ok()
    })
}

fn mlir_target(ctx: &melior::Context) -> Target<'_> {
    Box::new(move |input: &[u8]| {
        let Ok(text) = std::str::from_utf8(input) else { return false };
        let Ok(mut m) = import::import_module(ctx, text, "fuzz.mlir") else { return false };
        let Ok(entry) = choose_entry(&m, None) else { return false };
        ["insert-del-sync", "wsp-fusion", "outline-kernels", "dce"]
            .iter()
            .all(|p| pipeline::run_pass(&mut m, p, &entry).is_ok())
    })
}

fn npy_target(dir: &Path) -> Target<'_> {
    let path = dir.join("input.npy");
    Box::new(move |input: &[u8]| {
        std::fs::write(&path, input).unwrap();
        npy::read_npy(&path).is_ok()
    })
}

/// What the language server does with a document (`arrayc lsp`): the analysis, with the
/// lowering's diagnostics, as the front-end worker runs it on each version (text decoded lossily,
/// as the transport decodes it), then every request on it at positions spread over the text.
fn lsp_target() -> Target<'static> {
    Box::new(|input: &[u8]| {
        use arrayc_lsp::Compiler;
        let text: std::sync::Arc<str> = String::from_utf8_lossy(input).into();
        let a =
            Analysis::new(1, text.clone(), |c, src| arrayc_tools::editor::Driver.lowering_diagnostics(c, src, "f.arr"));
        let uri: lsp_types::Uri = "file:///fuzz/f.arr".parse().unwrap();
        let _ = features::diagnostics(&a, &uri);
        let _ = features::document_symbols(&a);
        let _ = features::code_lenses(&a, &uri);
        let end = a.lines.position(&text, text.len() + 1);
        let _ = features::inlay_hints(&a, lsp_types::Range::new(lsp_types::Position::new(0, 0), end), None);
        for k in 0..=16 {
            let p = a.lines.position(&text, text.len() * k / 16);
            let _ = features::hover(&a, p);
            let _ = features::definition(&a, &uri, p);
            let _ = features::references(&a, &uri, p, true);
        }
        a.clean
    })
}

/// The server's stdio framing on a byte stream; accepted when a message came through.
fn lsp_wire_target() -> Target<'static> {
    Box::new(|input: &[u8]| {
        let (to_server, from_client) = crossbeam_channel::unbounded();
        transport::read_loop(input, to_server);
        from_client.try_iter().count() > 0
    })
}

/// Byte streams of LSP messages (initialize, didOpen of a seed program, a hover, a change).
fn lsp_wire_seeds(programs: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let frame = |v: serde_json::Value| {
        let body = v.to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    };
    programs
        .iter()
        .take(8)
        .map(|p| {
            let text = String::from_utf8_lossy(p);
            let doc = serde_json::json!({"uri": "file:///f.arr", "languageId": "arrayc", "version": 1, "text": text});
            let at = serde_json::json!({"textDocument": {"uri": "file:///f.arr"}, "position": {"line": 1, "character": 2}});
            [
                frame(serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})),
                frame(serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": doc}})),
                frame(serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": at})),
            ]
            .concat()
        })
        .collect()
}

/// Figures of one target's run.
#[derive(Default, Debug)]
struct Figures {
    inputs: usize,
    accepted: usize,
    panics: Vec<PathBuf>,
    slowest: Duration,
}

/// Runs `target` on the checked-in crashers of `name`, then on `iters` mutated seeds.
fn fuzz(name: &str, mut target: Target, seeds: &[Vec<u8>], iters: usize, seed: u64) -> Figures {
    let r = repo();
    let last = r.join("target").join(format!("fuzz-last-input.{name}"));
    let crash_dir = r.join("target/fuzz-crashers").join(name);
    let corpus: Vec<Vec<u8>> = std::fs::read_dir(r.join("tests/fuzz/crashers").join(name))
        .map(|d| d.flatten().map(|e| std::fs::read(e.path()).unwrap()).collect())
        .unwrap_or_default();
    let mut rng = Rng(seed ^ name.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64)));
    let mut f = Figures::default();
    let inputs = corpus.into_iter().map(Some).chain((0..iters).map(|_| None));
    for given in inputs {
        let input = given.unwrap_or_else(|| {
            let s = &seeds[rng.below(seeds.len())];
            mutate(&mut rng, s, seeds)
        });
        std::fs::write(&last, &input).unwrap();
        let t0 = Instant::now();
        match catch_unwind(AssertUnwindSafe(|| target(&input))) {
            Ok(accepted) => f.accepted += accepted as usize,
            Err(_) => {
                std::fs::create_dir_all(&crash_dir).unwrap();
                let p = crash_dir.join(format!("crash-{}", f.inputs));
                std::fs::write(&p, &input).unwrap();
                f.panics.push(p);
            }
        }
        f.slowest = f.slowest.max(t0.elapsed());
        f.inputs += 1;
    }
    eprintln!(
        "fuzz {name:<9} inputs {:>6}  accepted {:>6}  rejected {:>6}  panics {:>3}  slowest {:>8.1} ms",
        f.inputs,
        f.accepted,
        f.inputs - f.accepted - f.panics.len(),
        f.panics.len(),
        f.slowest.as_secs_f64() * 1e3
    );
    f
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// All the entry points, one after another (one MLIR context; the figures go to stderr), on a
/// thread with the drivers' stack, as `arrayc` runs them.
#[test]
fn no_input_panics_any_entry_point() {
    arrayc_tools::on_driver_stack(run_all_targets).unwrap();
}

fn run_all_targets() {
    let iters = env_usize("ARRAYC_FUZZ_ITERS", 150);
    let seed = env_usize("ARRAYC_FUZZ_SEED", 1) as u64;
    let tmp = std::env::temp_dir().join(format!("arrayc-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let programs = program_seeds();
    let ctx = mlir::new_context().unwrap();
    let mlir_in = mlir_seeds(&programs);
    let npys = npy_seeds(&tmp);
    let results = [
        ("frontend", fuzz("frontend", frontend_target(), &programs, iters, seed)),
        ("pipeline", fuzz("pipeline", pipeline_target(), &programs, iters, seed)),
        ("mlir", fuzz("mlir", mlir_target(&ctx), &mlir_in, iters, seed)),
        ("npy", fuzz("npy", npy_target(&tmp), &npys, iters, seed)),
        ("lsp", fuzz("lsp", lsp_target(), &programs, iters, seed)),
        ("lsp-wire", fuzz("lsp-wire", lsp_wire_target(), &lsp_wire_seeds(&programs), iters, seed)),
    ];
    let _ = std::fs::remove_dir_all(&tmp);
    let panics: Vec<String> =
        results.iter().flat_map(|(n, f)| f.panics.iter().map(move |p| format!("{n}: {}", p.display()))).collect();
    assert!(
        panics.is_empty(),
        "inputs that panicked (replay one by copying it into tests/fuzz/crashers/<target>/):\n{}",
        panics.join("\n")
    );
    // The mutations must leave enough inputs valid to reach the later phases.
    for (n, f) in &results {
        assert!(f.accepted > 0, "{n}: no mutated input was accepted; the fuzzer only exercises error paths");
    }
}
