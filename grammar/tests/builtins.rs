//! The builtin table (`arrayc_grammar::builtin`): its consistency, `docs/language.md`'s table of
//! builtin functions against it, and the checker's one resolution of every call.

use arrayc_grammar::ast::{Expr, ExprKind, Program, Stmt};
use arrayc_grammar::builtin::{docs_table, Builtin, Callee, DOCS, TABLE};
use arrayc_grammar::check_keeping_errors;
use arrayc_grammar::{frontend, parse, Checked};
use std::collections::HashSet;

/// `docs/language.md`'s table of builtin functions is exactly [`docs_table`]: the rows of
/// [`DOCS`], so the documentation, the checker and the language server's hover list the same
/// builtins with the same text.
#[test]
fn docs_language_md_lists_exactly_the_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/language.md");
    let doc = std::fs::read_to_string(path).expect("docs/language.md is readable");
    let section = doc.split("## Builtin functions\n").nth(1).expect("docs/language.md has `## Builtin functions`");
    let table: String = section.lines().take_while(|l| l.starts_with('|')).map(|l| format!("{l}\n")).collect();
    let want = docs_table();
    assert!(
        table == want,
        "docs/language.md's table of builtin functions differs from arrayc_grammar::builtin::DOCS \
         (edit DOCS and paste this table under `## Builtin functions`):\n{want}"
    );
}

/// Every builtin is documented, each row names the builtins it documents, and no builtin is
/// listed twice in a row.
#[test]
fn every_builtin_has_a_documentation_row_that_names_it() {
    for b in Builtin::all() {
        assert!(DOCS.iter().any(|r| r.builtins.contains(&b)), "`{}` has no row in DOCS", b.name());
        assert!(b.doc().starts_with("builtin `"), "{}", b.doc());
    }
    for r in DOCS {
        let words: HashSet<&str> = r.calls.split(|c: char| !(c.is_alphanumeric() || c == '_')).collect();
        let mut seen = HashSet::new();
        for b in r.builtins {
            // A module's function (`linalg.norm`) and an operator's name (`shape==`) are named whole.
            let whole = !b.name().chars().all(|c| c.is_alphanumeric() || c == '_');
            let named = words.contains(b.name()) || whole && r.calls.replace(' ', "").contains(b.name());
            assert!(named, "the row `{}` does not name `{}`", r.calls, b.name());
            assert!(seen.insert(*b), "`{}` listed twice in `{}`", b.name(), r.calls);
        }
    }
}

/// Each row of the table is its builtin's, names are distinct and resolve to their builtin, and
/// the parser's spellings of `x.T` and `a @ b` resolve to `transpose` and `dot`.
#[test]
fn names_resolve_to_their_row() {
    let mut names = HashSet::new();
    for (i, r) in TABLE.iter().enumerate() {
        assert_eq!(r.builtin as usize, i);
        assert_eq!(r.builtin.row().name, r.name);
        assert!(names.insert(r.name), "`{}` twice", r.name);
        assert_eq!(Builtin::from_name(r.name), Some(r.builtin));
        assert!(r.arity.0 <= r.arity.1 && !r.usage.is_empty());
    }
    assert_eq!(Builtin::from_name(".T"), Some(Builtin::Transpose));
    assert_eq!(Builtin::from_name("@"), Some(Builtin::Dot));
    assert_eq!(Builtin::from_name("heat"), None);
    let casts: Vec<_> = Builtin::all().filter_map(Builtin::cast_dtype).map(|d| d.name()).collect();
    assert_eq!(casts, arrayc_core::DType::ALL.map(|d| d.name()));
}

/// Every call expression of `c` with its callee, outer calls before their arguments.
fn calls(c: &Checked) -> Vec<(String, Option<Callee>)> {
    fn expr(c: &Checked, e: &Expr, out: &mut Vec<(String, Option<Callee>)>) {
        match &e.kind {
            ExprKind::Call { func, args, kwargs } => {
                out.push((func.name.clone(), c.callee(e.id)));
                args.iter().chain(kwargs.iter().map(|(_, v)| v)).for_each(|a| expr(c, a, out));
            }
            ExprKind::Binary(_, a, b) => {
                expr(c, a, out);
                expr(c, b, out);
            }
            ExprKind::Unary(_, a) | ExprKind::Subscript { base: a, .. } => expr(c, a, out),
            _ => {}
        }
    }
    let Program { functions, .. } = &c.program;
    let mut out = vec![];
    for f in functions {
        for s in &f.body.stmts {
            match s {
                Stmt::Let { value, .. } | Stmt::Expr(value) => expr(c, value, &mut out),
                Stmt::Return { values, .. } => values.iter().for_each(|v| expr(c, v, &mut out)),
                _ => {}
            }
        }
    }
    out
}

/// The checker resolves each call once: builtins by name or operator, user functions to their
/// index (the first of duplicates), unknown names to nothing.
#[test]
fn the_checker_records_what_each_call_calls() {
    let (c, diags) = frontend(
        "fn g(m: f64[2, 2]) -> f64[2, 2] { return m.T @ m; }\n\
         fn main() -> f64 {\n    let a = g(zeros(2, 2));\n    add_at(a, arange(2), 1.0);\n    return sum(a, axis=0)[0];\n}\n",
    );
    let c = c.unwrap_or_else(|| panic!("{diags:?}"));
    let b = |b| Some(Callee::Builtin(b));
    let want = [
        ("@", b(Builtin::Dot)),
        (".T", b(Builtin::Transpose)),
        ("g", Some(Callee::User(0))),
        ("zeros", b(Builtin::Zeros)),
        ("add_at", b(Builtin::AddAt)),
        ("arange", b(Builtin::Arange)),
        ("sum", b(Builtin::Sum)),
    ];
    let got = calls(&c);
    assert_eq!(got.iter().map(|(n, c)| (n.as_str(), *c)).collect::<Vec<_>>(), want);
    let (program, _) = parse("fn main() -> f64 { return nope(1.0); }");
    let (c, diags) = check_keeping_errors(program.expect("it parses"));
    assert!(diags.iter().any(|d| d.code == "E0202"));
    assert_eq!(calls(&c), [("nope".to_string(), None)]);
}

/// A function of the program shadows the builtin of its name, as in Python (`docs/language.md`):
/// every builtin's name may name a function, a bare call of it calls the function (its own
/// arguments, no positional `axis`), and NumPy's qualified spellings (`np.sum`, `x.sum()`,
/// `add.reduce`, `x.ndim`, `x.shape[k]`) still call the builtin, in the checker as in
/// everything that reads its resolution (the lowering, the language server). `range`, the
/// syntax of `for` loops, stays E0203.
#[test]
fn a_function_of_the_program_shadows_the_builtin_of_its_name() {
    for b in Builtin::all() {
        let src = format!("fn {0}(x: f64[N]) -> f64[N] {{ return x; }}\nfn main() -> f64 {{ return 1.0; }}", b.name());
        let (program, diags) = parse(&src);
        let Some(program) = program else {
            // `f64`, `f32`, `i64`, `bool` are type keywords, and a module's function
            // (`linalg.norm`) is no name: no function can take them.
            assert!(
                b.cast_dtype().is_some() || !b.name().chars().all(|c| c.is_alphanumeric() || c == '_'),
                "{}: {diags:?}",
                b.name()
            );
            continue;
        };
        let (_, diags) = check_keeping_errors(program);
        assert!(diags.is_empty(), "{}: {diags:?}", b.name());
    }
    let src = "fn sum(x: f64[N], k: i64) -> f64[N] { return x * f64(k); }\n\
               fn main() -> f64 {\n    let a = sum(ones(3), 2);\n    let s = np.sum(a, 0) + a.sum();\n    \
               return s + add.reduce(a) + f64(a.ndim + a.shape[0]);\n}";
    let (c, diags) = frontend(src);
    let c = c.unwrap_or_else(|| panic!("{diags:?}"));
    let b = |b| Some(Callee::Builtin(b));
    let got = calls(&c);
    let want = [
        ("f64", b(Builtin::F64)),
        ("sum", Some(Callee::User(0))),
        ("ones", b(Builtin::Ones)),
        ("np.sum", b(Builtin::Sum)),
        (".sum", b(Builtin::Sum)),
        ("np.sum", b(Builtin::Sum)),
        ("f64", b(Builtin::F64)),
        ("np.ndim", b(Builtin::Ndim)),
        ("np.size", b(Builtin::Size)),
    ];
    assert_eq!(got.iter().map(|(n, c)| (n.as_str(), *c)).collect::<Vec<_>>(), want);
    // It checks: `np.sum(a, 0)` took `0` as its `axis=` (one argument more than the builtin
    // takes), and the program's `sum(ones(3), 2)` kept its `2` (no `axis=` for the function).
    let (c, diags) = frontend("fn range(n: i64) -> i64 { return n; }\nfn main() -> f64 { return 1.0; }");
    let e = diags.iter().find(|d| d.code == "E0203").unwrap_or_else(|| panic!("{diags:?}"));
    assert!(c.is_none() && e.message.contains("`range`"), "{}", e.message);
}
