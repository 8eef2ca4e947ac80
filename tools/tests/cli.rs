//! End-to-end tests of the `arrayc` binary on bad input: every malformed program and every bad
//! invocation gives a clear message (error code or the fix), a non-zero exit, no panic and no
//! partial output file.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The binary, with a compile cache of the test suite's own (one directory under the system's
/// temporary directory, shared by every run of the suite and bounded like any cache), so that tests
/// never read or fill the user's cache. Tests of the cache itself give their own directory.
fn arrayc() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_arrayc"));
    c.env("ARRAYC_CACHE_DIR", std::env::temp_dir().join("arrayc-cli-test-cache"));
    c
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts a clean failure: exit code 1, no panic text, and `needle` in stderr.
fn assert_fails_with(o: &Output, needle: &str, what: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{what}: expected exit 1, got {:?}\nstderr:\n{err}", o.status.code());
    assert!(!err.contains("panicked"), "{what}: panicked:\n{err}");
    assert!(err.contains(needle), "{what}: stderr lacks `{needle}`:\n{err}");
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arrayc-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The front end's malformed inputs (grammar/tests/malformed, each with `# expect: CODE`), through
/// the driver: `arrayc check` and `arrayc run` both report the code and exit 1.
#[test]
fn malformed_programs_give_their_diagnostic() {
    let dir = repo().join("grammar/tests/malformed");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 20, "expected at least 20 malformed inputs, found {}", files.len());
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap();
        let code = src
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .expect("first line `# expect: CODE`")
            .trim()
            .to_string();
        for sub in ["check", "run"] {
            let o = arrayc().arg(sub).arg(&f).output().unwrap();
            assert_fails_with(&o, &code, &format!("{sub} {}", f.display()));
            assert!(stderr(&o).contains(&f.display().to_string()), "diagnostic names the file");
        }
    }
}

fn write_program(dir: &Path, name: &str, src: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, src).unwrap();
    p
}

#[test]
fn runtime_errors_name_the_source_line() {
    let d = temp_dir("runtime");
    let p = write_program(&d, "idx.arr", "fn main(i: i64 = 0) -> f64 {\n    let x = zeros(4);\n    return x[i];\n}\n");
    let o = arrayc().args(["run"]).arg(&p).args(["--arg", "i=7"]).output().unwrap();
    assert_fails_with(&o, "idx.arr:3:5: error: index 7 is out of bounds for axis 0 with size 4", "index out of bounds");
    let ok = arrayc().args(["run"]).arg(&p).args(["--arg", "i=-1"]).output().unwrap();
    assert!(ok.status.success(), "negative index counts from the end: {}", stderr(&ok));

    let p = write_program(&d, "bc.arr", "fn main(n: i64 = 3, m: i64 = 4) -> f64[n] {\n    let a = zeros(n);\n    let b = ones(m);\n    return a + b;\n}\n");
    let o = arrayc().args(["run"]).arg(&p).output().unwrap();
    assert_fails_with(&o, "bc.arr:4:", "broadcast mismatch");
    assert_fails_with(&o, "could not be broadcast", "broadcast mismatch message");
    let ok = arrayc().args(["run"]).arg(&p).args(["--arg", "m=1"]).output().unwrap();
    assert!(ok.status.success(), "size 1 broadcasts: {}", stderr(&ok));

    let p = write_program(&d, "neg.arr", "fn main(n: i64 = -2) -> f64[n] {\n    return zeros(n);\n}\n");
    let o = arrayc().args(["run"]).arg(&p).output().unwrap();
    assert_fails_with(&o, "negative dimension", "negative size");
}

/// Element reads and writes in host loops (which the executor does without making views) keep
/// their bounds checks, messages and lines, and their order: in `x[j] = x[k]` the written element
/// is checked first, as its view comes first.
#[test]
fn host_loop_element_errors_name_the_line() {
    let d = temp_dir("loop-idx");
    let p = write_program(
        &d,
        "loop.arr",
        "fn main(n: i64 = 4, r: i64 = 0) -> f64[4] {\n    let x = zeros(4);\n    for i in 0..n {\n        x[i] = x[i + r] + 1.0;\n    }\n    return x;\n}\n",
    );
    let ok = arrayc().args(["run"]).arg(&p).output().unwrap();
    assert!(ok.status.success(), "in range: {}", stderr(&ok));
    assert_eq!(String::from_utf8_lossy(&ok.stdout), "[1. 1. 1. 1.]\n");
    let wrap = arrayc().args(["run"]).arg(&p).args(["--arg", "r=-4"]).output().unwrap();
    assert!(wrap.status.success(), "x[i - 4] counts from the end: {}", stderr(&wrap));
    let o = arrayc().args(["run"]).arg(&p).args(["--arg", "n=5"]).output().unwrap();
    assert_fails_with(&o, "loop.arr:4:9: error: index 4 is out of bounds for axis 0 with size 4", "write past the end");
    let o = arrayc().args(["run"]).arg(&p).args(["--arg", "r=1"]).output().unwrap();
    assert_fails_with(&o, "loop.arr:4:9: error: index 4 is out of bounds for axis 0 with size 4", "read past the end");
    let o = arrayc().args(["run"]).arg(&p).args(["--arg", "r=-5"]).output().unwrap();
    assert_fails_with(&o, "index -5 is out of bounds for axis 0 with size 4", "read before the start");

    let p = write_program(
        &d,
        "order.arr",
        "fn main(j: i64, k: i64) -> f64[3] {\n    let x = zeros(3);\n    x[j] = x[k];\n    return x;\n}\n",
    );
    let o = arrayc().args(["run"]).arg(&p).args(["--arg", "j=5", "--arg", "k=6"]).output().unwrap();
    assert_fails_with(&o, "order.arr:3:5: error: index 5 is out of bounds", "the written element first");
    let o = arrayc().args(["run"]).arg(&p).args(["--arg", "j=0", "--arg", "k=6"]).output().unwrap();
    assert_fails_with(&o, "order.arr:3:5: error: index 6 is out of bounds", "then the read one");
}

#[test]
fn bad_arguments_and_files() {
    let d = temp_dir("args");
    let p =
        write_program(&d, "sum.arr", "fn total(x: f64[N], scale: f64 = 1.0) -> f64 {\n    return sum(x) * scale;\n}\n");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![], "parameter `x` of `total` has no default"),
        (vec!["--arg".into(), "x=1.0".into()], "pass a file: --arg x=@file.npy"),
        (vec!["--arg".into(), format!("x=@{}", d.join("missing.npy").display())], "missing.npy"),
        (vec!["--arg".into(), "nope=3".into()], "has no parameter `nope`"),
        (vec!["--arg".into(), "scale=abc".into()], "not a valid f64 value"),
        (vec!["--arg".into(), "scale".into()], "NAME=VALUE"),
        (vec!["--entry".into(), "other".into()], "no function `other`"),
    ];
    for (args, needle) in cases {
        let o = arrayc().arg("run").arg(&p).args(&args).output().unwrap();
        assert_fails_with(&o, needle, &format!("run {args:?}"));
    }
    // A file that is not .npy, and one with the wrong dtype (i64 bytes written as a valid .npy by us).
    let garbage = d.join("garbage.npy");
    std::fs::write(&garbage, b"definitely not numpy").unwrap();
    let o = arrayc().arg("run").arg(&p).args(["--arg", &format!("x=@{}", garbage.display())]).output().unwrap();
    assert_fails_with(&o, "not a valid .npy file", "garbage npy");
    let ints = write_program(&d, "ints.arr", "fn main() -> i64[3] {\n    return arange(3);\n}\n");
    let out = d.join("ints-out");
    let o = arrayc().arg("run").arg(&ints).arg("--out").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let o = arrayc()
        .arg("run")
        .arg(&p)
        .args(["--arg", &format!("x=@{}", out.join("result_0.npy").display())])
        .output()
        .unwrap();
    assert_fails_with(&o, "holds a 1-d i64 array but `x` is a 1-d f64 array", "wrong dtype npy");
    // Missing source file.
    let o = arrayc().args(["run", "/nonexistent/prog.arr"]).output().unwrap();
    assert_fails_with(&o, "cannot read `/nonexistent/prog.arr`", "missing source");
}

#[test]
fn failed_runs_write_no_output_files() {
    let d = temp_dir("partial");
    let p = write_program(
        &d,
        "late.arr",
        "fn main(i: i64 = 9) -> (f64[3], f64) {\n    let x = ones(3);\n    return (x, x[i]);\n}\n",
    );
    let out = d.join("out");
    let o = arrayc().arg("run").arg(&p).arg("--out").arg(&out).output().unwrap();
    assert_fails_with(&o, "out of bounds", "late failure");
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none(), "no partial output after a failed run");
    let o = arrayc().arg("run").arg(&p).args(["--arg", "i=1"]).arg("--out").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.join("result_0.npy").exists() && out.join("result_1.npy").exists());
}

#[test]
fn help_lists_the_subcommands_and_flags() {
    let o = arrayc().arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    for word in ["run", "check", "emit", "fuse-report", "lsp", "cache", "arrayc compiles NumPy-style array programs"] {
        assert!(text.contains(word), "--help mentions {word}:\n{text}");
    }
    let o = arrayc().args(["run", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    for flag in ["--entry", "--arg", "--out", "--time", "--no-cache"] {
        assert!(text.contains(flag), "run --help mentions {flag}:\n{text}");
    }
}

/// `arrayc emit --stage=arr examples/synthetic.arr` shows Kristensen et al.'s Fig. 3b: 4 fills
/// creating a, b, d, e (each after its `arr.new`), the 7 computations in order, `del` of a and b
/// after the multiplication, of e and t after the minimum, and `sync d; del d` before the return.
#[test]
fn synthetic_matches_fig3_bytecode() {
    let o = arrayc().args(["emit", "--stage=arr"]).arg(repo().join("examples/synthetic.arr")).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    // Only the entry function `synthetic` (the first func in the file).
    let body = text.split("func.func @synthetic_nonzero").next().unwrap();
    let ops: Vec<String> = body
        .lines()
        .filter_map(|l| {
            l.split('"').nth(1).filter(|n| n.starts_with("arr.")).map(|n| {
                let operands = l.split("\"(").nth(1).and_then(|r| r.split(')').next()).unwrap_or("");
                let bases: Vec<&str> =
                    operands.split(", ").map(|v| v.trim_start_matches('%').split('_').next().unwrap_or("")).collect();
                format!("{} {}", &n[4..], bases.join(","))
            })
        })
        .filter(|s| !s.starts_with("view") && !s.starts_with("dim") && !s.starts_with("broadcast"))
        .collect();
    let expected = [
        "new 0",
        "fill a,2",
        "new 3",
        "fill b,5",
        "new 6",
        "fill d,8",
        "new 9",
        "fill e,11",
        "add a,a,15",
        "copy 18,22",
        "add b,b,28",
        "copy 31,35",
        "new 42",
        "mul t,a,b",
        "del a",
        "del b",
        "maximum 47,t,51",
        "minimum 55,t,59",
        "del e",
        "del t",
        "sync d",
        "del d",
    ];
    let simplified: Vec<String> = ops.iter().map(|s| s.to_string()).collect();
    let kinds: Vec<&str> = simplified.iter().map(|s| s.split(' ').next().unwrap()).collect();
    let exp_kinds: Vec<&str> = expected.iter().map(|s| s.split(' ').next().unwrap()).collect();
    assert_eq!(kinds, exp_kinds, "operation sequence:\n{}", simplified.join("\n"));
    let count = |k: &str| kinds.iter().filter(|x| **x == k).count();
    assert_eq!(count("fill"), 4);
    assert_eq!(count("del"), 5);
    assert_eq!(count("sync"), 1);
    assert_eq!(count("add") + count("copy") + count("mul") + count("maximum") + count("minimum"), 7);
    // The named arrays each op touches (views print as numbered values; a/b/d/e/t are named).
    for (got, want) in simplified.iter().zip(expected) {
        let named = |s: &str| {
            s.split(' ')
                .nth(1)
                .unwrap_or("")
                .split(',')
                .filter(|x| ["a", "b", "d", "e", "t"].contains(x))
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(named(got), named(want), "{got} vs {want}");
    }
}

fn fuse_report_json(file: &Path, extra: &[&str]) -> serde_json::Value {
    let o = arrayc().args(["fuse-report", "--format", "json"]).arg(file).args(extra).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("fuse-report --format json prints JSON")
}

/// A distributed run's partition is the same on every rank: each rank compiles the program, and
/// the ranks' collectives follow the kernels. So `--distributed` ignores the time budget (which
/// depends on the machine's load) and the search stops at its node budget, here with a time budget
/// of 1 ms that stops the same search without `--distributed` after a few hundred nodes.
#[test]
fn distributed_partitions_ignore_the_time_budget() {
    let file = repo().join("examples/features/broadcast.arr");
    let args = [
        "--entry",
        "broadcast",
        "--arg",
        "n=6",
        "--arg",
        "m=1",
        "--fuse-budget-ms",
        "1",
        "--fuse-budget-nodes",
        "20000",
    ];
    // The text report's "N search nodes" of its one region.
    let nodes = |extra: &[&str]| -> u64 {
        let o = arrayc().arg("fuse-report").arg(&file).args(args).args(extra).output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        let before = text.split(" search nodes").next().expect("a search-nodes count");
        before.rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("no node count in {text}"))
    };
    assert!(nodes(&["--distributed"]) >= 20000);
    assert!(nodes(&[]) < 20000);
}

/// Kristensen et al. Fig. 3 through the real pipeline: singleton cost 94 and optimal cost 38
/// elements (the paper's numbers), optimality proven; the JSON interface has every documented field.
#[test]
fn fuse_report_reproduces_fig3_costs() {
    let file = repo().join("examples/synthetic.arr");
    let doc = fuse_report_json(&file, &[]);
    let region = &doc["regions"][0];
    assert_eq!(region["function"], "synthetic");
    assert_eq!(region["cost_singleton"], 94);
    assert_eq!(region["cost"], 38);
    assert_eq!(region["cost_unit"], "elements");
    assert_eq!(region["optimal_proven"], true);
    for key in ["region", "algorithm", "cost_model", "search_nodes", "solve_ms", "blocks", "contracted", "ops"] {
        assert!(!region[key].is_null(), "field {key} missing");
    }
    let ops = region["ops"].as_array().unwrap();
    // 5 new + 4 fill + 7 computations + 5 del + 1 sync, in region order.
    assert_eq!(ops.len(), 22);
    let names: Vec<&str> = ops.iter().map(|o| o["name"].as_str().unwrap()).collect();
    assert_eq!(names.iter().filter(|n| **n == "del").count(), 5);
    assert_eq!(names.iter().filter(|n| **n == "sync").count(), 1);
    // D[1:] as written by the maximum (line 16): base d, offset 1, shape [4], stride 1, all integers.
    let max = ops.iter().find(|o| o["name"] == "maximum").unwrap();
    assert_eq!(max["line"], 16);
    assert_eq!(max["out"][0], serde_json::json!({"base": "d", "offset": 1, "shape": [4], "strides": [1]}));
    // Every op index appears in exactly one block.
    let mut seen: Vec<u64> = region["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| b.as_array().unwrap().iter().map(|x| x.as_u64().unwrap()))
        .collect();
    seen.sort();
    assert_eq!(seen, (0..22).collect::<Vec<u64>>());
    // The other algorithms: never below the optimum, never above singleton.
    for alg in ["singleton", "linear", "greedy", "unintrusive", "optimal-baseline"] {
        let r = &fuse_report_json(&file, &["--fuse", alg])["regions"][0];
        let c = r["cost"].as_u64().unwrap();
        assert!((38..=94).contains(&c), "{alg}: cost {c}");
        if alg == "singleton" {
            assert_eq!(c, 94);
        }
        if alg == "optimal-baseline" {
            assert_eq!(c, 38);
        }
    }
}

/// With sizes bound by --arg, views print as integers; without, as symbolic expressions.
#[test]
fn fuse_report_binds_sizes_from_arguments() {
    let d = temp_dir("report");
    let p = write_program(
        &d,
        "sym.arr",
        "fn main(n: i64 = 8) -> f64 {\n    let x = ones(n);\n    let y = x[1:] * 2.0;\n    return sum(y);\n}\n",
    );
    let bound = fuse_report_json(&p, &["--arg", "n=8"]);
    let ops = bound["regions"][0]["ops"].as_array().unwrap().clone();
    let mul = ops.iter().find(|o| o["name"] == "mul").unwrap();
    assert_eq!(mul["in"][0]["shape"], serde_json::json!([7]));
    assert_eq!(mul["in"][0]["offset"], serde_json::json!(1));
    let text = arrayc().args(["fuse-report"]).arg(&p).output().unwrap();
    assert!(text.status.success());
    assert!(String::from_utf8_lossy(&text.stdout).contains("block 0"));
    let dot = arrayc().args(["fuse-report", "--format", "dot"]).arg(&p).output().unwrap();
    let dot = String::from_utf8_lossy(&dot.stdout);
    assert!(dot.starts_with("digraph fusion {") && dot.contains("subgraph cluster_r0_b0"), "{dot}");
}

/// Shapes of every view of every region of a fuse-report JSON document, as JSON values.
fn view_shapes(doc: &serde_json::Value) -> Vec<serde_json::Value> {
    let mut out = vec![];
    for r in doc["regions"].as_array().unwrap() {
        for op in r["ops"].as_array().unwrap() {
            for key in ["in", "out"] {
                for v in op[key].as_array().unwrap() {
                    out.extend(v["shape"].as_array().unwrap().iter().cloned());
                }
            }
        }
    }
    out
}

/// The partition is chosen for the entry's argument values (defaults or --arg), as Bohrium fuses
/// with concrete shapes: sizes computed through casts, `select`s and float arithmetic (arange,
/// broadcasting) fold to integers, and every region of the broadcasting example is proven
/// optimal. `--generic` keeps them symbolic; a function that the program also calls (here
/// recursively, with other sizes) is never specialized.
#[test]
fn partitions_are_specialized_to_the_arguments() {
    let file = repo().join("examples/features/broadcast.arr");
    // A time budget no loaded machine runs into: the test asserts proofs.
    let special = fuse_report_json(&file, &["--arg", "n=5", "--arg", "m=2", "--fuse-budget-ms", "600000"]);
    let shapes = view_shapes(&special);
    assert!(!shapes.is_empty() && shapes.iter().all(|s| s.is_i64()), "{shapes:?}");
    assert!(shapes.contains(&serde_json::json!(5)) && shapes.contains(&serde_json::json!(2)));
    for r in special["regions"].as_array().unwrap() {
        assert_eq!(r["optimal_proven"], true, "{}", r["region"]);
        assert!(r["cost"].as_u64() < r["cost_singleton"].as_u64());
    }
    let generic = fuse_report_json(&file, &["--arg", "n=5", "--arg", "m=2", "--generic"]);
    assert!(view_shapes(&generic).iter().any(|s| s.is_string()), "--generic keeps symbolic sizes");

    let d = temp_dir("specialize");
    let rec = "fn main(n: i64 = 6) -> f64 {\n    let a = ones(n);\n    let b = a[1:] * 2.0 + a[:-1];\n    let s = sum(b);\n    if n > 2 {\n        s = s + main(n - 1);\n    }\n    return s;\n}\n";
    let p = write_program(&d, "rec.arr", rec);
    let unknown = |p: &Path| {
        let o = arrayc().args(["fuse-report"]).arg(p).output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).contains("sizes unknown at compile time")
    };
    assert!(unknown(&p), "a called entry is not specialized");
    let o = arrayc().args(["run"]).arg(&p).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // NumPy: sum over n = 6..3 of (3 * (n - 1)) = 15 + 12 + 9 + 6 + 3 = 45.
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "45.0");
    let flat = write_program(&d, "flat.arr", &rec.replace("main(n - 1)", "0.0"));
    assert!(!unknown(&flat));
}

/// Kristensen et al. 2016, Fig. 21, as a program (`examples/darte.arr`, lines 9-16 are the eight
/// statements of Fig. 21(a)): bohrium, max-contract and robinson give the loops of Fig. 21(c),
/// `{A} {B, C, D, E} {F, G, H}`, with the temporaries f and g contracted. (Max-locality rates (b)
/// and (c) alike at operation level; `passes/tests/wsp.rs::fig21_darte` shows the tie.)
#[test]
fn fig21_program_gives_the_papers_partition() {
    let file = repo().join("examples/darte.arr");
    for model in ["bohrium", "max-contract", "robinson"] {
        let doc = fuse_report_json(&file, &["--cost", model]);
        let r = &doc["regions"][0];
        let ops = r["ops"].as_array().unwrap();
        let mut groups: Vec<Vec<u64>> = vec![];
        for b in r["blocks"].as_array().unwrap() {
            let mut lines: Vec<u64> = b
                .as_array()
                .unwrap()
                .iter()
                .map(|i| &ops[i.as_u64().unwrap() as usize])
                .filter(|o| !o["out"].as_array().unwrap().is_empty())
                .map(|o| o["line"].as_u64().unwrap())
                .filter(|l| (9..=16).contains(l))
                .collect();
            lines.sort();
            lines.dedup();
            if !lines.is_empty() {
                groups.push(lines);
            }
        }
        groups.sort();
        assert_eq!(groups, vec![vec![9], vec![10, 11, 12, 13], vec![14, 15, 16]], "{model}");
        let contracted: Vec<&str> = r["contracted"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
        assert!(contracted.contains(&"f") && contracted.contains(&"g"), "{model}: {contracted:?}");
    }
}

/// `(bytes, launches)` from the `traffic:` line that `arrayc run --time` prints.
fn traffic(file: &Path, flags: &[&str]) -> (u64, u64) {
    let o = arrayc().arg("run").arg(file).arg("--time").args(flags).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let line = stderr(&o).lines().find(|l| l.starts_with("traffic: ")).map(str::to_string).expect("a traffic line");
    let w: Vec<&str> = line.split_whitespace().collect();
    (w[1].parse().unwrap(), w[4].parse().unwrap())
}

#[test]
fn traffic_counts_the_fused_kernels() {
    let dir = temp_dir("traffic");
    // Leibniz pi: arange, the sign, the division and the sum are one kernel whose arrays are all
    // contracted (it gets a shape parameter): one launch, almost no traffic.
    let (bytes, launches) = traffic(&repo().join("examples/leibnitz_pi.arr"), &["--arg", "n=100000"]);
    assert_eq!(launches, 1);
    assert!(bytes < 64, "{bytes} bytes");
    // A triad on n = 1000 f64 whose inputs are random: fused, only `a` (8000 bytes) is written.
    // Unfused: random b, random c (8000 each), 3 * c (16000), b + (3 * c) (24000).
    let p = write_program(&dir, "triad.arr", "fn triad(n: i64) -> f64 {\n    let b = random(n, seed=1);\n    let c = random(n, seed=2);\n    let a = b + 3.0 * c;\n    return a[0];\n}\n");
    assert_eq!(traffic(&p, &["--arg", "n=1000"]), (8000, 1));
    assert_eq!(traffic(&p, &["--arg", "n=1000", "--fuse", "singleton"]), (56000, 4));
}

// ---------------------------------------------------------------- memory safety (issue 10)

/// Sizes whose element count wraps 64 bits (`n * m` in `View::whole` once wrapped to a 4-element
/// buffer, and reads went past it): a run-time error naming the line, exit 1, never heap contents.
#[test]
fn wrapping_sizes_are_errors_naming_the_line() {
    let dir = temp_dir("wrap");
    let cases = [
        // 2^62 x 4 = 2^64 elements: wrapped to 0.
        (
            "rows.arr",
            "fn main(n: i64 = 4611686018427387904) -> f64 {\n    let a = zeros(n, 4);\n    return a[1, 2];\n}\n",
            ":2:",
            "(4611686018427387904, 4)",
        ),
        // A broadcast to 2^62 x 4 x 4 elements.
        (
            "bcast.arr",
            "fn main(n: i64 = 4611686018427387904) {\n    let a = zeros(4);\n    print(zeros(n, 4, 1) + a);\n}\n",
            ":3:",
            "elements",
        ),
    ];
    for (name, src, line, needle) in cases {
        let f = write_program(&dir, name, src);
        let o = arrayc().arg("run").arg(&f).output().unwrap();
        assert_fails_with(&o, needle, name);
        assert!(stderr(&o).contains(line), "{name}: the error names the line {line}:\n{}", stderr(&o));
        assert!(o.stdout.is_empty(), "{name}: printed {}", String::from_utf8_lossy(&o.stdout));
    }
}

/// An allocation beyond `--max-memory` (default: the machine's memory) is an error naming the
/// line and the flag, not an abort; an 800 GB `zeros` fails the same way under the default.
#[test]
fn allocations_beyond_the_memory_limit_are_errors() {
    let dir = temp_dir("maxmem");
    let f =
        write_program(&dir, "big.arr", "fn main(n: i64 = 1000) -> f64[n] {\n    let a = zeros(n);\n    return a;\n}\n");
    let o = arrayc().args(["run", "--max-memory", "4KiB"]).arg(&f).arg("--arg").arg("n=1000").output().unwrap();
    assert_fails_with(&o, "exceeds the memory limit of 4096 bytes", "8000 bytes under 4KiB");
    assert!(stderr(&o).contains("big.arr:2:") && stderr(&o).contains("--max-memory"), "{}", stderr(&o));
    let o = arrayc().args(["run", "--max-memory", "4KiB"]).arg(&f).arg("--arg").arg("n=100").output().unwrap();
    assert!(o.status.success(), "800 bytes fit in 4KiB: {}", stderr(&o));
    let o = arrayc().arg("run").arg(&f).arg("--arg").arg("n=100000000000").output().unwrap();
    assert_fails_with(&o, "needs 800000000000 bytes", "800 GB under the default limit");
    let o = arrayc().args(["run", "--max-memory", "lots"]).arg(&f).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "a bad --max-memory is a usage error: {}", stderr(&o));
    assert!(stderr(&o).contains("4GiB"), "the message shows the syntax: {}", stderr(&o));
}

/// The first 128 bytes of a version 1.0 `.npy` file with header dictionary `dict` (magic, version,
/// length, the dictionary padded with spaces and ended by a newline), and no data.
fn npy_header(dict: &str) -> Vec<u8> {
    let header = format!("{dict}{}\n", " ".repeat(128 - 10 - dict.len() - 1));
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    bytes
}

/// A 128-byte `.npy` whose header claims shape (10^12,): rejected from the header and the file's
/// length before anything is allocated.
#[test]
fn npy_header_shape_is_checked_against_the_file_length() {
    let dir = temp_dir("npyhuge");
    let bytes = npy_header("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }");
    assert_eq!(bytes.len(), 128);
    let npy = dir.join("huge.npy");
    std::fs::write(&npy, bytes).unwrap();
    let f = write_program(&dir, "s.arr", "fn main(x: f64[N]) -> f64 {\n    return sum(x);\n}\n");
    let o = arrayc().arg("run").arg(&f).arg("--arg").arg(format!("x=@{}", npy.display())).output().unwrap();
    assert_fails_with(&o, "needs 8000000000000 bytes of data but the file has 128 bytes", "huge header");
    assert!(stderr(&o).contains("--arg x"), "the error names the argument: {}", stderr(&o));
}

/// Unbounded recursion is a run-time error at a depth limit, not a stack overflow; deep but
/// bounded recursion (9,000 calls, about twice what the main thread's stack held) runs.
#[test]
fn unbounded_recursion_is_an_error() {
    let dir = temp_dir("recursion");
    let f = write_program(
        &dir,
        "rec.arr",
        "fn f(n: i64) -> i64 {\n    let r = 0;\n    if n > 0 {\n        r = f(n - 1) + 1;\n    }\n    return r;\n}\nfn main(n: i64 = 100000000) -> i64 {\n    return f(n);\n}\n",
    );
    let o = arrayc().arg("run").arg(&f).output().unwrap();
    assert_fails_with(&o, "calls nested deeper than 10000", "unbounded recursion");
    assert!(stderr(&o).contains("rec.arr:4:"), "{}", stderr(&o));
    let o = arrayc().arg("run").arg(&f).args(["--arg", "n=9000"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "9000");
}

/// Deep nesting through the driver: beyond the limit a clean E0104 from `check`, `emit` and `run`
/// (once a stack overflow abort); just below it, the whole pipeline runs (the driver's stack).
#[test]
fn deep_nesting_is_a_diagnostic_and_the_limit_runs() {
    let dir = temp_dir("nesting");
    let calls = |k: usize| {
        format!("fn main(x: f64 = -1.0) -> f64 {{\n    return {}x{};\n}}\n", "abs(".repeat(k), ")".repeat(k))
    };
    let deep = write_program(&dir, "deep.arr", &calls(20_000));
    for sub in [&["check"][..], &["emit", "--stage=ast"], &["run"]] {
        let o = arrayc().args(sub).arg(&deep).output().unwrap();
        assert_fails_with(&o, "E0104", &format!("{sub:?}"));
        assert!(stderr(&o).contains("nesting too deep (limit 1000)"), "{}", stderr(&o));
    }
    let at_limit = write_program(&dir, "limit.arr", &calls(998));
    let o = arrayc().arg("run").arg(&at_limit).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "1.0");
}

// ---------------------------------------------------------------- outputs (issue 10)

fn dir_names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .map(|r| r.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// `--out` is all or nothing: when `result_1` cannot be written, `result_0` is not left behind; a
/// run's directory holds exactly its own results (an earlier run's extra results are removed), and
/// a failed run leaves none.
#[test]
fn outputs_are_all_or_nothing_and_never_stale() {
    let d = temp_dir("allornothing");
    let three = write_program(
        &d,
        "three.arr",
        "fn main(i: i64 = 1) -> (f64[3], f64, i64) {\n    let x = ones(3);\n    return (x, x[i], i);\n}\n",
    );
    let one = write_program(&d, "one.arr", "fn main() -> f64 {\n    return 2.5;\n}\n");
    let out = d.join("out");
    // result_1.npy is a directory: its rename fails after result_0 was renamed into place.
    std::fs::create_dir_all(out.join("result_1.npy")).unwrap();
    let o = arrayc().arg("run").arg(&three).arg("--out").arg(&out).output().unwrap();
    assert_fails_with(&o, "result_1.npy", "unwritable result_1");
    let left = dir_names(&out);
    assert!(
        !left.iter().any(|n| n == "result_0.npy" || n == "result_2.npy" || n.contains(".tmp")),
        "partial outputs: {left:?}"
    );
    std::fs::remove_dir(out.join("result_1.npy")).unwrap();
    let o = arrayc().arg("run").arg(&three).arg("--out").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(dir_names(&out), ["result_0.npy", "result_1.npy", "result_2.npy"]);
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let o = arrayc().arg("run").arg(&one).arg("--out").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        dir_names(&out),
        ["notes.txt", "result_0.npy"],
        "the earlier run's result_1 and result_2 are gone, other files stay"
    );
    let o = arrayc().arg("run").arg(&three).args(["--arg", "i=7"]).arg("--out").arg(&out).output().unwrap();
    assert_fails_with(&o, "out of bounds", "failed run");
    assert_eq!(dir_names(&out), ["notes.txt"], "a failed run leaves no results, not even an earlier run's");
}

#[test]
fn a_parameter_given_twice_is_an_error() {
    let d = temp_dir("dupearg");
    let p = write_program(&d, "p.arr", "fn main(n: i64 = 1) -> i64 {\n    return n;\n}\n");
    let o = arrayc().arg("run").arg(&p).args(["--arg", "n=2", "--arg", "n=3"]).output().unwrap();
    assert_fails_with(&o, "--arg n is given twice", "duplicate --arg");
}

/// SIGINT while a 200 MB result is being written: exit code 130, and neither the temporary file
/// nor any result is left in the directory.
#[test]
fn sigint_while_writing_leaves_no_files() {
    let d = temp_dir("sigint");
    let p = write_program(
        &d,
        "big.arr",
        "fn main(n: i64 = 25000000) -> f64[n] {\n    let x = ones(n);\n    return x;\n}\n",
    );
    let out = d.join("out");
    let mut child = arrayc()
        .arg("run")
        .arg(&p)
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    // Wait until the temporary file exists, i.e. the write has begun.
    while !dir_names(&out).iter().any(|n| n.contains(".tmp")) {
        assert!(child.try_wait().unwrap().is_none(), "arrayc finished before the write could be interrupted");
        assert!(start.elapsed().as_secs() < 120, "the write never began");
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
    // SAFETY: sending a signal to our own child process.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    assert_eq!(dir_names(&out), Vec::<String>::new(), "files left after SIGINT");
}

// ---------------------------------------------------------------- messages with a place (issue 10)

/// Each message names the place and the fix: a byte order mark is accepted; text that is not
/// UTF-8 names line, column and byte offset; a file without functions says so; `arange` with a
/// zero step or a NaN bound is an error (NumPy raises), not an enormous or empty array; an
/// object-dtype `.npy` names its dtype.
#[test]
fn messages_name_the_place_and_the_fix() {
    let d = temp_dir("messages");
    let bom = d.join("bom.arr");
    std::fs::write(&bom, b"\xEF\xBB\xBFfn main() -> f64 {\n    return 1.5;\n}\n").unwrap();
    let o = arrayc().arg("run").arg(&bom).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "1.5");
    let latin = d.join("latin.arr");
    std::fs::write(&latin, b"fn main() -> f64 {\n    return 1.0; # caf\xE9\n}\n").unwrap();
    let o = arrayc().arg("check").arg(&latin).output().unwrap();
    assert_fails_with(
        &o,
        "latin.arr`:2:22: the file is not UTF-8 text (invalid byte 0xe9 at byte offset 40)",
        "latin-1",
    );
    let empty = write_program(&d, "empty.arr", "# nothing yet\n");
    let o = arrayc().arg("run").arg(&empty).output().unwrap();
    assert_fails_with(&o, "defines no function", "no functions");
    let ar = write_program(
        &d,
        "ar.arr",
        "fn main(s: f64 = 0.0, stop: f64 = 10.0) -> i64 {\n    let a = arange(0.0, stop, s);\n    return 1;\n}\n",
    );
    let o = arrayc().arg("run").arg(&ar).output().unwrap();
    assert_fails_with(&o, "ar.arr:2:5: error: arange: the step must not be zero", "zero step");
    let o = arrayc().arg("run").arg(&ar).args(["--arg", "s=1.0", "--arg", "stop=nan"]).output().unwrap();
    assert_fails_with(&o, "arange: cannot compute the length", "NaN stop");
    // The header of `numpy.save(p, numpy.array([None], dtype=object), allow_pickle=True)`.
    let mut bytes = npy_header("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }");
    bytes.extend_from_slice(b"\x80\x04N.");
    let obj = d.join("obj.npy");
    std::fs::write(&obj, bytes).unwrap();
    let f = write_program(&d, "s.arr", "fn main(x: f64[N]) -> f64 {\n    return sum(x);\n}\n");
    let o = arrayc().arg("run").arg(&f).arg("--arg").arg(format!("x=@{}", obj.display())).output().unwrap();
    assert_fails_with(&o, "has dtype '|O', which arrayc does not support", "object dtype");
}

/// `min`/`max` of an empty array, or along an empty axis, is an error as in NumPy (once ±inf);
/// along a non-empty axis of an array with no rows it gives an empty result, as NumPy does.
#[test]
fn min_and_max_of_nothing_are_errors() {
    let d = temp_dir("emptyminmax");
    let p = write_program(&d, "e.arr", "fn main(n: i64 = 0, m: i64 = 3) -> (f64[n], f64) {\n    let x = ones(n, m);\n    let a = min(x, axis=1);\n    let b = max(x);\n    return (a, b);\n}\n");
    let o = arrayc().arg("run").arg(&p).output().unwrap();
    assert_fails_with(
        &o,
        "e.arr:4:5: error: zero-size array to reduction operation maximum which has no identity",
        "max of (0, 3)",
    );
    let o = arrayc().arg("run").arg(&p).args(["--arg", "n=2", "--arg", "m=0"]).output().unwrap();
    assert_fails_with(
        &o,
        "e.arr:3:5: error: zero-size array to reduction operation minimum which has no identity",
        "min along an empty axis",
    );
    let o = arrayc().arg("run").arg(&p).args(["--arg", "n=2"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The CPU time (user and system, of the process alone: robust to other load on the machine) that
/// `arrayc check FILE` takes; the check must succeed.
#[allow(clippy::zombie_processes)] // `wait4` below reaps the child (std's `wait` gives no rusage).
fn check_cpu_seconds(file: &Path) -> f64 {
    let child = arrayc().arg("check").arg(file).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data; `wait4` reaps our own child, which `child` then never waits for.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet reaped; `status` and `usage` are valid for writes.
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "check of {} failed", file.display());
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// `arrayc check` is linear in statements that gather and scatter: four times the statements take
/// about four times the CPU time, at most eight (a ratio, so the machine's speed does not matter;
/// the lowering was quadratic, once 16 times: 8,000 of them took 17 s, 24,000 over two minutes).
#[test]
fn check_is_linear_in_gathers_and_scatters() {
    let d = temp_dir("linearcheck");
    let program = |n: usize| {
        let body = "    a[arange(3)] = a[arange(3)[::-1]] + 1.0;\n".repeat(n);
        let src = format!("fn main() -> f64 {{\n    let a = zeros(8);\n{body}    return sum(a);\n}}\n");
        write_program(&d, &format!("g{n}.arr"), &src)
    };
    let (small, large) = (program(3_000), program(12_000));
    let best = |p: &Path| (0..2).map(|_| check_cpu_seconds(p)).fold(f64::INFINITY, f64::min);
    let (t_small, t_large) = (best(&small), check_cpu_seconds(&large));
    assert!(
        t_large < 8.0 * t_small + 0.2,
        "12,000 statements took {t_large:.2} s of CPU time, 3,000 took {t_small:.2} s: not linear"
    );
}

/// A file with 2,000 definitions of one function: `check` (and `run`) print the first 100 errors
/// in full, then how many more there are; `--error-limit N` changes the limit, 0 shows them all.
/// (Once all 1,999 were printed, about 50,000 lines.)
#[test]
fn the_error_limit_caps_the_diagnostics_printed() {
    let d = temp_dir("errorlimit");
    let p = write_program(&d, "dup.arr", &"fn f() -> f64 {\n    return 1.0;\n}\n".repeat(2000));
    let shown = |o: &Output| stderr(o).matches("[E0203] Error").count();
    let o = arrayc().arg("check").arg(&p).output().unwrap();
    assert_fails_with(
        &o,
        "note: 1899 more errors not shown: the error limit is 100 (`--error-limit N` changes it, 0 shows all)",
        "default limit",
    );
    assert_fails_with(&o, "could not compile `", "default limit");
    assert!(stderr(&o).contains("due to 1999 previous errors"), "{}", stderr(&o));
    assert_eq!(shown(&o), 100);
    assert!(stderr(&o).lines().count() < 2_000, "{} lines", stderr(&o).lines().count());
    let o = arrayc().args(["check", "--error-limit", "3"]).arg(&p).output().unwrap();
    assert_fails_with(&o, "note: 1996 more errors not shown: the error limit is 3", "--error-limit 3");
    assert_eq!(shown(&o), 3);
    let o = arrayc().args(["--error-limit", "0", "run"]).arg(&p).output().unwrap();
    assert_fails_with(&o, "due to 1999 previous errors", "--error-limit 0");
    assert_eq!(shown(&o), 1999);
    assert!(!stderr(&o).contains("not shown"), "--error-limit 0");
    let o = arrayc().args(["check", "--error-limit=-1"]).arg(&p).output().unwrap();
    assert!(!o.status.success() && stderr(&o).contains("--error-limit"), "a negative limit: {}", stderr(&o));
}

/// `bincount` of an index of `i64::MAX`: its size (the largest index plus one) overflows, and the
/// message says so (once: "index out of bounds ... an indexed axis has size 0", from the wrapped
/// size); the index below it is only too large to allocate.
#[test]
fn bincount_of_the_largest_i64_names_the_overflow() {
    let d = temp_dir("bincountmax");
    let src = "fn main(top: i64 = 9223372036854775807) -> i64[?] {\n    let idx = zeros(2, dtype=i64);\n    idx[1] = top;\n    return bincount(idx);\n}\n";
    let p = write_program(&d, "bc.arr", src);
    let o = arrayc().arg("run").arg(&p).output().unwrap();
    assert_fails_with(
        &o,
        "bc.arr:4:5: error: bincount: the largest index is 9223372036854775807; the result's size, the largest index plus one, overflows a 64-bit integer",
        "bincount of i64::MAX",
    );
    let o = arrayc().arg("run").arg(&p).args(["--arg", "top=9223372036854775806"]).output().unwrap();
    assert_fails_with(&o, "bc.arr:4:5: error:", "bincount of i64::MAX - 1");
    assert!(!stderr(&o).contains("overflows"), "{}", stderr(&o));
    let o = arrayc().arg("run").arg(&p).args(["--arg", "top=3"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "[1 0 0 1]");
}

/// A size that differs from the signature names both sizes (once only "the signature says N").
#[test]
fn size_mismatch_names_both_sizes() {
    let d = temp_dir("sizemismatch");
    let p = write_program(&d, "sq.arr", "fn main(a: f64[N, N]) -> f64 {\n    return sum(a);\n}\n");
    let npy = d.join("m23.npy");
    let v = arrayc_runtime::array::View::zeros(arrayc_core::DType::F64, &[2, 3]).unwrap();
    arrayc_runtime::npy::write_npy(&npy, &v).unwrap();
    let o = arrayc().arg("run").arg(&p).arg("--arg").arg(format!("a=@{}", npy.display())).output().unwrap();
    assert_fails_with(
        &o,
        "argument `a` has size 3 in dimension 1, but the signature of `main` says N = 2",
        "2x3 for NxN",
    );
}

/// A function never returns an array of another size than its signature declares: where the checker
/// cannot decide it (`-> f64[m]` returning an `f64[N]`), `return` checks at run time, in the entry
/// and in a called function; matching sizes run.
#[test]
fn result_sizes_are_checked_against_the_signature() {
    let d = temp_dir("resultsize");
    let p = write_program(&d, "r.arr", "fn main(n: i64 = 3, m: i64 = 4) -> f64[m] {\n    return zeros(n);\n}\n");
    let o = arrayc().arg("run").arg(&p).output().unwrap();
    assert_fails_with(&o, "result 0 of `main` has size 3 in dimension 0, but the signature says m = 4", "entry");
    let o = arrayc().arg("run").arg(&p).args(["--arg", "m=3"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let p = write_program(
        &d,
        "c.arr",
        "fn f(a: f64[N], m: i64) -> f64[m, 1] {\n    return a[:, newaxis];\n}\nfn main() -> f64 {\n    let n = 5;\n    return sum(f(zeros(3), n));\n}\n",
    );
    let o = arrayc().arg("run").arg(&p).output().unwrap();
    assert_fails_with(
        &o,
        "c.arr:2:5: error: line 2: result 0 of `f` has size 3 in dimension 0, but the signature says m = 5",
        "callee",
    );
}

/// The one lowering diagnostic a checked program can reach (grammar/ERRORS.md, "Lowering"): a
/// `return` inside a loop of a function whose result has a size `?` (an early `return` in an `if`
/// is Python's, see returns.rs; in a loop where the result's type is written, see
/// `grammar/src/loop_returns.rs`).
#[test]
fn return_inside_a_loop_is_e0905() {
    let d = temp_dir("e0905");
    let p = write_program(
        &d,
        "r.arr",
        "fn main(x: f64 = 1.0) -> f64[?] {\n    for i in range(3) {\n        if x > 0.0 {\n            return zeros(i);\n        }\n    }\n    return zeros(1);\n}\n",
    );
    for sub in ["check", "run"] {
        let o = arrayc().arg(sub).arg(&p).output().unwrap();
        assert_fails_with(&o, "E0905", sub);
        assert!(stderr(&o).contains("r.arr:4:13"), "{}", stderr(&o));
    }
}

// ---------------------------------------------------------------- found by the differential generator

/// A call's result may be its argument: `r = h(a)` aliases `a`, so `r[2:4] += a[3:1:-1]` must read
/// the right-hand side before writing (NumPy: [0, 1, 5, 5, 4, 5]). Fusion once took `r` and `a` for
/// different arrays and contracted the temporary, giving [0, 1, 5, 8, 4, 5].
#[test]
fn a_call_result_aliasing_its_argument_is_not_fused_apart() {
    let d = temp_dir("callalias");
    let p = write_program(
        &d,
        "ca.arr",
        "fn h(x: f64[N]) -> f64[N] {\n    return x;\n}\nfn main(n: i64 = 6) -> f64[n] {\n    let a = arange(n) * 1.0;\n    let r = h(a);\n    r[2:4] += a[3:1:-1];\n    return a;\n}\n",
    );
    for flags in
        [&[][..], &["--fuse", "linear"], &["--fuse", "greedy"], &["--fuse", "optimal-baseline"], &["--generic"]]
    {
        let o = arrayc().arg("run").arg(&p).args(flags).output().unwrap();
        assert!(o.status.success(), "{flags:?}: {}", stderr(&o));
        assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "[0. 1. 5. 5. 4. 5.]", "{flags:?}");
    }
}

/// The `del` of an array that escapes (here `a1`, aliased by the call result `r3`) must follow
/// every use of it, reads included. It was modelled as a `sync` of the shared base, which orders
/// only after writes, so `optimal` under `robinson` put it in a block before the `where` that
/// reads `a1`: "internal error: a view is used after `arr.del`" (found by the differential
/// generator, seed 30217). NumPy: the printed values below.
#[test]
fn the_del_of_an_escaping_array_follows_its_reads() {
    let d = temp_dir("escdel");
    let p = write_program(
        &d,
        "ed.arr",
        "fn h(x: f64[N1, N2]) -> f64[N1, N2] {\n    return x[:, :];\n}\n\nfn main(n1: i64 = 2, n2: i64 = 4) -> (f64[n2, n1], f64) {\n    let a1 = sin(random(n2, n1, seed=10));\n    let r3 = h(a1);\n    let s8 = max(cumsum(r3, axis=0));\n    let m = r3[::-1, 0] > 0.0;\n    a1 = where(m[:, newaxis], r3[::-1] / (abs(a1) + 0.1), 1.0);\n    return (r3, s8 + r3[3, 1]);\n}\n",
    );
    let want = "result 0: [[0.83245754 0.45053816]\n [0.83536534 0.38112647]\n [0.73959654 0.41834761]\n [0.01782286 0.73195166]]\nresult 1: 3.157193922379637\n";
    for cost in ["robinson", "bohrium", "max-contract", "max-locality"] {
        for algo in ["optimal", "greedy", "linear"] {
            let o = arrayc().arg("run").arg(&p).args(["--no-cache", "--fuse", algo, "--cost", cost]).output().unwrap();
            assert!(o.status.success(), "{algo}/{cost}: {}", stderr(&o));
            assert_eq!(String::from_utf8_lossy(&o.stdout), want, "{algo}/{cost}");
        }
    }
}

/// `linspace(a, b, 1)` is `[a]` as in NumPy (once `[nan]`: the step was 0/0 and 0 * inf is NaN).
#[test]
fn linspace_of_one_point_is_its_start() {
    let d = temp_dir("linspace1");
    let p = write_program(&d, "ls.arr", "fn main(a: f64 = 2.0, b: f64 = 5.0) -> (f64[1], f64[3], f64[1]) {\n    return (linspace(a, b, 1), linspace(a, b, 3), linspace(a, a, 1));\n}\n");
    let o = arrayc().arg("run").arg(&p).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "result 0: [2.]\nresult 1: [2.  3.5 5. ]\nresult 2: [2.]\n");
}

/// An array variable rebound in one arm of an `if`/`else` is a result of the branch (NumPy:
/// [5, 5, 5, 5] when the then-arm runs, [8, 3, 3, 3] when the else-arm does). The then-arm's
/// rebinding was dropped when the else-arm did not rebind too: a wrong result, or "used after
/// `arr.del`".
#[test]
fn an_array_rebound_in_one_branch_arm_is_a_branch_result() {
    let d = temp_dir("rebindif");
    let p = write_program(
        &d,
        "ri.arr",
        "fn main(c: i64 = 1) -> f64[4] {\n    let a = ones(4);\n    let b = a * 2.0;\n    if c > 0 {\n        a = b + 1.0;\n    } else {\n        b[0] = 7.0;\n    }\n    return a + b;\n}\n",
    );
    for (c, want) in [("c=1", "[5. 5. 5. 5.]"), ("c=0", "[8. 3. 3. 3.]")] {
        for flags in [&[][..], &["--fuse", "singleton"], &["--fuse", "greedy"]] {
            let o = arrayc().arg("run").arg(&p).args(["--arg", c]).args(flags).output().unwrap();
            assert!(o.status.success(), "{c} {flags:?}: {}", stderr(&o));
            assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), want, "{c} {flags:?}");
        }
    }
}

/// A reduction whose result nothing reads is still computed into an array, not contracted (once
/// "internal error: ... the output %v0 of a reduction must be a kernel parameter").
#[test]
fn a_dead_axis_reduction_compiles() {
    let d = temp_dir("deadreduce");
    let loops = write_program(&d, "l.arr", "fn main(n: i64 = 4) -> f64 {\n    let a = ones(n, n);\n    let r = 0.0;\n    for i in 0..2 {\n        let b = sum(a, axis=0);\n        r += 1.0;\n    }\n    return r;\n}\n");
    let nested = write_program(&d, "n.arr", "fn main(n: i64 = 4) -> f64 {\n    let a = ones(n, n, n);\n    let c = sum(sum(a, axis=0), axis=0);\n    return 1.0;\n}\n");
    for (p, want) in [(&loops, "2.0"), (&nested, "1.0")] {
        for flags in [&[][..], &["--cost", "robinson"], &["--fuse", "greedy"]] {
            let o = arrayc().arg("run").arg(p).args(flags).output().unwrap();
            assert!(o.status.success(), "{} {flags:?}: {}", p.display(), stderr(&o));
            assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), want);
        }
    }
}

/// `arrayc run` with the kernel cache in `cache`, `--time`, the results in `out`: (stdout, stderr).
fn run_cached(file: &Path, cache: &Path, extra: &[&str]) -> (String, String) {
    let o = arrayc().env("ARRAYC_CACHE_DIR", cache).arg("run").arg(file).arg("--time").args(extra).output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{}: {err}", file.display());
    (String::from_utf8_lossy(&o.stdout).into_owned(), err)
}

/// Issue 14: a second run compiles nothing (the object code comes from the cache), gives the same
/// results, and `--no-cache` neither reads nor writes the cache. A truncated, damaged or foreign
/// entry is detected by its checksum, removed and replaced, never loaded. `arrayc cache stats` and
/// `clear` report and empty it.
#[test]
fn the_compile_cache_serves_a_second_run_and_replaces_corrupt_entries() {
    let dir = temp_dir("cache");
    let cache = dir.join("cache");
    let heat = repo().join("examples/heat.arr");
    let (want, err) = run_cached(&heat, &cache, &["--no-cache"]);
    assert!(err.contains("cache: not used (--no-cache)"), "{err}");
    assert!(!cache.exists(), "--no-cache created the cache");
    let (got, err) = run_cached(&heat, &cache, &[]);
    assert!(err.contains("cache: miss") && err.contains("kernel JIT"), "{err}");
    assert!(err.contains("cache: 0 of 2 fusion decisions"), "{err}");
    assert_eq!(got, want);
    let (got, err) = run_cached(&heat, &cache, &[]);
    assert!(err.contains("cache: hit") && err.contains("kernels (from the cache)"), "{err}");
    assert!(err.contains("cache: 2 of 2 fusion decisions (regions) read from the cache"), "{err}");
    assert!(!err.contains("kernel JIT"), "a hit compiled kernels: {err}");
    assert_eq!(got, want);
    // Entries: the kernel groups' object code and the regions' partitions. Every one is damaged the
    // same way, then the run must detect it, give the same results and store every entry again.
    // The entries (the file `usage` beside them records the cache's size).
    let entries: Vec<PathBuf> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "entry"))
        .collect();
    assert!(entries.len() >= 2, "{entries:?}");
    let good: Vec<Vec<u8>> = entries.iter().map(|e| std::fs::read(e).unwrap()).collect();
    type Damage = fn(&[u8]) -> Vec<u8>;
    let damage: [(&str, Damage); 3] = [
        ("truncated", |g| g[..g.len() / 2].to_vec()),
        ("a flipped bit", |g| {
            let mut b = g.to_vec();
            let mid = b.len() * 3 / 4;
            b[mid] ^= 0x10;
            b
        }),
        ("foreign", |_| b"\x7fELF not an arrayc entry".to_vec()),
    ];
    for (what, f) in damage {
        for (e, g) in entries.iter().zip(&good) {
            std::fs::write(e, f(g)).unwrap();
        }
        let (got, err) = run_cached(&heat, &cache, &[]);
        assert!(err.contains("cache: a bad entry was removed and replaced"), "{what}: {err}");
        assert_eq!(got, want, "{what}");
        for (e, g) in entries.iter().zip(&good) {
            // Stored again (not compared byte for byte: a partition records its search time).
            let again = std::fs::read(e).unwrap();
            assert!(again.len() > g.len() / 2 && again != f(g), "{what}: {} is stored again", e.display());
        }
        let (_, err) = run_cached(&heat, &cache, &[]);
        assert!(err.contains("cache: hit"), "{what}: {err}");
    }
    let o = arrayc().env("ARRAYC_CACHE_DIR", &cache).args(["cache", "stats"]).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let n = entries.len();
    assert!(out.contains(&format!("entries: {n}")) && out.contains(&cache.display().to_string()), "{out}");
    let o = arrayc().env("ARRAYC_CACHE_DIR", &cache).args(["cache", "clear"]).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("removed {n} entries")), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 14: the kernel cache is keyed per kernel, so editing one statement recompiles only the
/// kernel it changes, and another fusion configuration reuses the kernels it has in common. The
/// results are NumPy's (`x = np.arange(1000) * 0.5`: `(x*x).sum()`, `(x*x).max()`,
/// `(np.ones(1000) + 3*x).sum()`).
#[test]
fn an_edit_recompiles_only_the_kernels_it_changes() {
    let dir = temp_dir("cache-edit");
    let cache = dir.join("cache");
    let program = |reduce: &str| {
        format!(
            "fn main(n: i64 = 1000) -> (f64, f64) {{\n    let x = arange(n) * 0.5;\n    let s = {reduce}(x * x);\n    \
             let y = ones(n);\n    for i in 0..3 {{\n        y += x;\n    }}\n    return (s, sum(y));\n}}\n"
        )
    };
    let v1 = write_program(&dir, "v1.arr", &program("sum"));
    let v2 = write_program(&dir, "v2.arr", &program("max"));
    let (out, err) = run_cached(&v1, &cache, &[]);
    assert!(err.contains("cache: miss: 4 of 4 kernels compiled"), "{err}");
    assert_eq!(out, "result 0: 83208375.0\nresult 1: 750250.0\n");
    let (out, err) = run_cached(&v2, &cache, &[]);
    assert!(err.contains("cache: miss: 1 of 4 kernels compiled") && err.contains("; 3 read from"), "{err}");
    assert_eq!(out, "result 0: 249500.25\nresult 1: 750250.0\n");
    let (_, err) = run_cached(&v1, &cache, &[]);
    assert!(err.contains("cache: hit") && err.contains("4 kernels read from"), "{err}");
    // Lines that move every statement down change no kernel.
    let moved = write_program(&dir, "v3.arr", &format!("# A comment\n\n{}", program("max")));
    let (out, err) = run_cached(&moved, &cache, &[]);
    assert!(err.contains("cache: hit") && err.contains("4 kernels read from"), "{err}");
    assert_eq!(out, "result 0: 249500.25\nresult 1: 750250.0\n");
    let (out, err) = run_cached(&v1, &cache, &["--fuse", "singleton"]);
    let read: usize =
        err.split("; ").nth(1).and_then(|r| r.split(' ').next()).and_then(|n| n.parse().ok()).unwrap_or(0);
    assert!(err.contains("cache: miss") && read > 0, "singleton fusion shares no kernel: {err}");
    assert_eq!(out, "result 0: 83208375.0\nresult 1: 750250.0\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Concurrent processes compiling the same program into one empty cache all succeed with the same
/// results and leave one whole entry (written to a temporary file, renamed into place); a cache
/// that cannot be written is not an error.
#[test]
fn the_compile_cache_is_safe_for_concurrent_runs_and_optional() {
    let dir = temp_dir("cache-concurrent");
    let cache = dir.join("cache");
    let prog = repo().join("examples/black_scholes.arr");
    let children: Vec<_> = (0..4)
        .map(|_| {
            arrayc()
                .env("ARRAYC_CACHE_DIR", &cache)
                .arg("run")
                .arg(&prog)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outs: Vec<Output> = children.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
    for o in &outs {
        assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
        assert_eq!(o.stdout, outs[0].stdout);
    }
    let names: Vec<String> =
        std::fs::read_dir(&cache).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(
        names.iter().all(|n| n.ends_with(".entry") || n == "usage"),
        "whole entries (and the size record), no temporary files left: {names:?}"
    );
    let (got, err) = run_cached(&prog, &cache, &[]);
    assert!(err.contains("cache: hit"), "{err}");
    assert_eq!(got.as_bytes(), outs[0].stdout);
    // A cache "directory" that is a file: the run compiles, says so under --time, and succeeds.
    let file = dir.join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let (got, err) = run_cached(&prog, &file, &[]);
    assert!(err.contains("could not be stored"), "{err}");
    assert_eq!(got.as_bytes(), outs[0].stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `arrayc build` on bad input or without its run-time archive: a clear error, exit 1, and no
/// executable (not even a partial one).
#[test]
fn build_failures_leave_no_executable() {
    let dir = temp_dir("build");
    let exe = dir.join("prog");
    let bad = dir.join("bad.arr");
    std::fs::write(&bad, "fn main() -> f64 { return undefined_name; }\n").unwrap();
    let heat = repo().join("examples/heat.arr");
    /// The program, extra environment variables, and what the error must say.
    type Case<'a> = (&'a Path, &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case; 3] = [
        (&bad, &[], "E0"),
        (&heat, &[("ARRAYC_AOT_LIB", "/nonexistent/libarrayc_aot.a")], "libarrayc_aot.a"),
        (&heat, &[("CC", "/nonexistent/cc")], "cannot run the C compiler"),
    ];
    for (file, env, needle) in cases {
        let mut c = arrayc();
        c.arg("build").arg(file).arg("-o").arg(&exe);
        for (k, v) in env {
            c.env(k, v);
        }
        let o = c.output().unwrap();
        assert_fails_with(&o, needle, &format!("build {} with {env:?}", file.display()));
        assert!(!exe.exists(), "a failed build left {}", exe.display());
        let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(leftovers.len(), 1, "temporary files left: {leftovers:?}");
    }
}

/// `arrayc build -o PATH` writes only a regular file: never over the program's source (by any path
/// or link), a directory, a path ending in `/`, or a FIFO (as a device node); and the outputs of a
/// `--lib` build (`.so`, `.h`, `.py`) appear together or not at all (issue 34). Each refusal exits 1
/// naming the path, and leaves the directory as it was.
#[test]
fn build_writes_only_regular_files_and_all_outputs_or_none() {
    use std::os::unix::fs::FileTypeExt;
    let dir = temp_dir("build-outputs");
    let text = "fn q(n: i64 = 10) -> f64 { return sum(arange(n) * 1.0); }\n";
    std::fs::write(dir.join("q.arr"), text).unwrap();
    std::fs::write(dir.join("q.py"), text).unwrap(); // a source named like the module
    std::os::unix::fs::symlink("q.arr", dir.join("link")).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    std::fs::create_dir(dir.join("r.py")).unwrap();
    assert!(Command::new("mkfifo").arg(dir.join("fifo")).status().unwrap().success());
    let listing = || {
        let mut v: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    };
    let before = listing();
    let cases: [(&[&str], &str); 8] = [
        (&["q.arr", "-o", "q.arr"], "is the program's source"),
        (&["q.arr", "-o", "link"], "is the program's source"),
        (&["link", "-o", "./q.arr"], "is the program's source"),
        (&["q.arr", "-o", "sub"], "is a directory"),
        (&["q.arr", "-o", "prog/"], "ends with `/`"),
        (&["q.arr", "-o", "fifo"], "not a regular file"),
        (&["--lib", "q.arr", "-o", "libq.so/"], "ends with `/`"),
        (&["--lib", "q.py", "-o", "libq.so"], "is the program's source"),
    ];
    for (args, needle) in cases {
        let o = arrayc().current_dir(&dir).arg("build").args(args).output().unwrap();
        assert_fails_with(&o, needle, &format!("build {args:?}"));
        assert_eq!(listing(), before, "build {args:?} changed the directory");
    }
    // `r.py` is a directory: the module of `libr.so` cannot be written, so nothing is.
    let o = arrayc().current_dir(&dir).args(["build", "--lib", "q.arr", "-o", "libr.so"]).output().unwrap();
    assert_fails_with(&o, "r.py", "build --lib -o libr.so with r.py a directory");
    assert_eq!(listing(), before, "a refused --lib build left files");
    assert_eq!(std::fs::read_to_string(dir.join("q.arr")).unwrap(), text);
    assert_eq!(std::fs::read_to_string(dir.join("q.py")).unwrap(), text);
    assert!(std::fs::symlink_metadata(dir.join("link")).unwrap().file_type().is_symlink());
    assert!(std::fs::metadata(dir.join("fifo")).unwrap().file_type().is_fifo());
    // A failed link leaves none of a library's outputs either.
    let o = arrayc()
        .current_dir(&dir)
        .env("CC", "false")
        .args(["build", "--lib", "q.arr", "-o", "libz.so"])
        .output()
        .unwrap();
    assert_fails_with(&o, "linking", "build --lib with CC=false");
    assert_eq!(listing(), before, "a failed link left files");
    // And a good build writes all three.
    let o = arrayc().current_dir(&dir).args(["build", "--lib", "q.arr", "-o", "libz.so"]).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    for f in ["libz.so", "z.h", "z.py"] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    assert_eq!(listing().len(), before.len() + 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C during `arrayc build --lib` (sent to its process group, as a terminal does, while the
/// outputs are being staged or linked) exits 130 and leaves none of the build's files, not even
/// its temporary ones (issue 34).
#[test]
fn sigint_during_a_build_leaves_no_files() {
    use std::os::unix::process::CommandExt;
    let d = temp_dir("sigint-build");
    let p = write_program(&d, "q.arr", "fn q(x: f64[N]) -> f64 {\n    return sum(x * x);\n}\n");
    let mut child = arrayc()
        .current_dir(&d)
        .args(["build", "--lib", "q.arr", "-o", "libq.so"])
        .process_group(0)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    // Wait until a staged output exists, i.e. the writing has begun.
    while !dir_names(&d).iter().any(|n| n.starts_with(".arrayc-build-")) {
        assert!(child.try_wait().unwrap().is_none(), "arrayc finished before the build could be interrupted");
        assert!(start.elapsed().as_secs() < 120, "the build never began writing");
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
    // SAFETY: sending a signal to the process group of our own child.
    unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status:?}");
    std::thread::sleep(std::time::Duration::from_millis(200));
    let p = p.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(dir_names(&d), vec![p], "files left after SIGINT");
}
