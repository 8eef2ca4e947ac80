//! Round trip of the MLIR printer and importer: every example program, lowered and taken through
//! each pass, prints to text that imports back into a module printing to the same text (up to SSA
//! value names, which MLIR does not keep).

use arrayc_codegen::{import::import_module, mlir};
use arrayc_dialect::{ir::Module, print};
use arrayc_passes::wsp::Budget;
use arrayc_passes::wsp_fusion::FusionOptions;
use arrayc_tools::pipeline::PassOptions;
use arrayc_tools::{choose_entry, given_arguments, pipeline, specialization};
use std::path::{Path, PathBuf};

/// Renames every `%name` to `%v<k>`, k counting first appearances within each function.
fn normalize(text: &str) -> String {
    let mut out = String::new();
    let mut names: std::collections::HashMap<String, usize> = Default::default();
    for line in text.lines() {
        if line.trim_start().starts_with("func.func") {
            names.clear();
        }
        let mut chars = line.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            let mut end = i + 1;
            while let Some(&(j, d)) = chars.peek() {
                if d.is_ascii_alphanumeric() || d == '_' {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let n = names.len();
            let k = *names.entry(line[i + 1..end].to_string()).or_insert(n);
            out.push_str(&format!("%v{k}"));
        }
        out.push('\n');
    }
    out
}

/// Panics with the first line where `a` and `b` differ.
fn assert_same(a: &str, b: &str, what: &str) {
    if a == b {
        return;
    }
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let i = (0..la.len().max(lb.len())).find(|&i| la.get(i) != lb.get(i)).unwrap_or(0);
    panic!(
        "{what}: line {}:\n  before: {}\n  after:  {}",
        i + 1,
        la.get(i).unwrap_or(&"<end>"),
        lb.get(i).unwrap_or(&"<end>")
    );
}

fn examples() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut files = vec![];
    for dir in [root.clone(), root.join("features")] {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "arr") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 5, "examples not found");
    files
}

/// Every example lowered to `arr`, with its name and its entry function (the one `arrayc run`
/// picks, else the first host function).
fn lowered_examples() -> Vec<(String, Module, String)> {
    examples()
        .into_iter()
        .map(|path| {
            let src = std::fs::read_to_string(&path).unwrap();
            let name = path.display().to_string();
            let m = pipeline::lower_source(&src, &name).unwrap_or_else(|e| panic!("{name}: {}", e.0));
            let entry = choose_entry(&m, None)
                .unwrap_or_else(|_| m.funcs.iter().find(|f| !f.kernel).map(|f| f.name.clone()).unwrap());
            (name, m, entry)
        })
        .collect()
}

/// The module as MLIR text that parses (kernels get their `func.return`).
fn print_module(m: &Module) -> String {
    print::print_module(m)
}

/// The options `arrayc run` uses without `--arg`: the default search, specialized to the entry's
/// default arguments.
/// The fusion options of `arrayc run` for `entry` with its default arguments, except that the
/// search budget counts only nodes (the driver's 1000000), not milliseconds: a loaded machine must
/// not change which partition these tests see.
fn run_options(m: &Module, entry: &str) -> PassOptions {
    let given = given_arguments(m, entry, &[]).unwrap();
    let d = FusionOptions::default();
    let fusion = FusionOptions {
        specialize: vec![specialization(entry, &given)],
        decisions: None,
        budget: Budget { max_ms: None, ..d.budget },
        ..d
    };
    PassOptions { fusion, verify_each: true, device: false, distribute: false }
}

fn round_trip(m: &Module, what: &str) {
    let ctx = mlir::new_context().unwrap();
    let text = print_module(m);
    let back =
        import_module(&ctx, &text, &m.source_name).unwrap_or_else(|e| panic!("{what}: import failed: {e}\n{text}"));
    assert_eq!(back.funcs.len(), m.funcs.len());
    for (a, b) in m.funcs.iter().zip(&back.funcs) {
        assert_eq!(a.kernel, b.kernel, "{what}: kernel flag of {}", a.name);
        assert_eq!(a.results, b.results, "{what}: results of {}", a.name);
        assert_eq!(a.params.len(), b.params.len(), "{what}: params of {}", a.name);
    }
    let text2 = print_module(&back);
    assert_same(&normalize(&text), &normalize(&text2), &format!("{what}: round trip changed the module"));
    // A second cycle is an exact fixpoint (names are then the importer's own).
    let again = import_module(&ctx, &text2, &m.source_name).unwrap();
    assert_same(&print_module(&again), &text2, &format!("{what}: second round trip differs"));
}

#[test]
fn examples_round_trip_at_every_stage() {
    for (name, mut m, entry) in lowered_examples() {
        round_trip(&m, &format!("{name} after lower-ast"));
        for pass in ["insert-del-sync", "wsp-fusion", "outline-kernels"] {
            pipeline::run_pass(&mut m, pass, &entry).unwrap();
            round_trip(&m, &format!("{name} after {pass}"));
        }
    }
}

#[test]
fn examples_print_as_valid_mlir() {
    let mut bad = vec![];
    for (name, m, _) in lowered_examples() {
        let ctx = mlir::new_context().unwrap();
        if let Err(e) = mlir::parse_and_verify(&ctx, &print_module(&m)) {
            bad.push(format!("{name}: {e}"));
        };
    }
    assert!(bad.is_empty(), "printed modules that MLIR rejects:\n{}", bad.join("\n"));
}

#[test]
fn passes_after_import_match_passes_before_print() {
    // Running the passes on an imported module gives the same text as running them directly
    // (the partitions are proven optimal, hence deterministic; see the next test).
    for (name, m, entry) in lowered_examples() {
        let ctx = mlir::new_context().unwrap();
        let mut direct = m.clone();
        let mut imported = import_module(&ctx, &print_module(&m), &m.source_name).unwrap();
        let opts = run_options(&m, &entry);
        for pass in ["insert-del-sync", "wsp-fusion", "outline-kernels"] {
            pipeline::run_pass_with(&mut direct, pass, &entry, &opts).unwrap();
            pipeline::run_pass_with(&mut imported, pass, &entry, &opts).unwrap();
        }
        assert_same(&normalize(&print_module(&direct)), &normalize(&print_module(&imported)), &name);
    }
}

#[test]
fn import_reports_unsupported_ops_and_parse_errors() {
    let ctx = mlir::new_context().unwrap();
    let bad = "module {\n  func.func @f(%a: memref<?xf64>) -> () {\n    %c = arith.constant 0 : index\n    %x = memref.load %a[%c] : memref<?xf64>\n    func.return\n  }\n}\n";
    let e = import_module(&ctx, bad, "t.mlir").unwrap_err().to_string();
    assert!(e.contains("arith.constant") || e.contains("memref.load") || e.contains("index"), "{e}");
    let e = import_module(&ctx, "module { func.func @f( }", "t.mlir").unwrap_err().to_string();
    assert!(e.contains("could not parse"), "{e}");
}

/// Attributes that melior or MLIR once crashed on are import errors: an empty `kind` (a panic in
/// melior's `StringRef::as_str`), an `index` dense array (a segmentation fault in MLIR's parser, so
/// refused before it runs), and empty strings elsewhere (an assertion's message, a location's file).
#[test]
fn hostile_attributes_are_import_errors() {
    let ctx = mlir::new_context().unwrap();
    let src = "fn main() -> f64 {\n    let a = zeros(8);\n    let b = a[1:3];\n    return sum(b);\n}\n";
    let m = pipeline::lower_source(src, "v.arr").unwrap();
    let text = print_module(&m);
    assert!(text.contains("kind = \"sum\"") && text.contains("array<i64: 11>"), "{text}");
    let e = import_module(&ctx, &text.replace("kind = \"sum\"", "kind = \"\""), "t.mlir").unwrap_err().to_string();
    assert!(e.contains("unsupported operation `arr.reduce`: `kind` must be"), "{e}");
    for elem in ["index", "!t"] {
        let bad = text.replace("array<i64: 11>", &format!("array<{elem}: 11>"));
        let e = import_module(&ctx, &bad, "t.mlir").unwrap_err().to_string();
        assert!(e.contains(&format!("a dense array of `{elem}` elements")), "{e}");
    }
    let empty_loc = text.replace("loc(\"v.arr\":3:5)", "loc(\"\":3:5)");
    assert!(import_module(&ctx, &empty_loc, "t.mlir").is_ok());
    let assert_text = "module {\n  func.func @main() -> () {\n    %0 = arith.constant true\n    cf.assert %0, \"\"\n    func.return\n  }\n}\n";
    let m = import_module(&ctx, assert_text, "t.mlir").unwrap();
    assert!(print_module(&m).contains("cf.assert"), "{}", print_module(&m));
}

#[test]
fn fused_modules_independent_of_thread_count() {
    // The optimal search runs on rayon; the partition it proves optimal must not depend on how
    // many threads raced for it (equal-cost partitions are common in these programs). Every
    // region of every example is proven under the options `arrayc run` uses.
    for (name, m, entry) in lowered_examples() {
        let opts = run_options(&m, &entry);
        let mut seen: Option<String> = None;
        for threads in [1, 2, 3, 4, 8, 8, 8, 8] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let mut m = m.clone();
            let reports = pool.install(|| {
                pipeline::run_pass(&mut m, "insert-del-sync", &entry).unwrap();
                let reports = pipeline::run_pass_with(&mut m, "wsp-fusion", &entry, &opts).unwrap();
                pipeline::run_pass_with(&mut m, "outline-kernels", &entry, &opts).unwrap();
                reports
            });
            assert!(reports.iter().all(|r| r.optimal_proven), "{name}: search not proven");
            let text = print_module(&m);
            match &seen {
                None => seen = Some(text),
                Some(t) => assert_same(t, &text, &format!("{name} on {threads} threads")),
            }
        }
    }
}
