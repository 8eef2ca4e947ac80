//! Calls of builtins in the language server: hover and navigation follow the checker's
//! resolution of each call (`arrayc_grammar::builtin`), the one the lowering follows.

use arrayc_lsp::analysis::Analysis;
use arrayc_lsp::features::{definition, hover};
use lsp_types::{HoverContents, Position, Uri};

/// The analysis of `text`, without the stages after the checker.
fn analyse(text: &str) -> Analysis {
    Analysis::new(0, text.into(), |_, _| vec![])
}

/// The hover text at the first occurrence of `needle` in the analysed text.
fn hover_text(a: &Analysis, needle: &str) -> String {
    let pos = position(a, needle);
    match hover(a, pos).map(|h| h.contents) {
        Some(HoverContents::Markup(m)) => m.value,
        other => panic!("no markdown hover at `{needle}`: {other:?}"),
    }
}

fn position(a: &Analysis, needle: &str) -> Position {
    let off = a.text.find(needle).unwrap_or_else(|| panic!("`{needle}` is in the text"));
    a.lines.position(&a.text, off)
}

/// A function of the program shadows the builtin of its name, as the checker resolves it (and
/// the lowering follows): hover on the bare call `sum(..)` shows the program's function and go to
/// definition finds it; `np.sum(..)` and the method `x.sum()` still show the builtin.
#[test]
fn a_function_of_the_program_shadows_the_builtin_in_hover_and_definition() {
    let a = analyse(
        "fn sum(x: f64[N]) -> f64[N] { return x; }\n\
         fn main() -> f64 {\n    let y = sum(zeros(3));\n    return np.sum(y) + y.sum();\n}\n",
    );
    assert!(a.clean, "{:?}", a.diagnostics);
    let h = hover_text(&a, "sum(zeros");
    assert!(h.contains("fn sum(x: f64[N]) -> f64[N]") && !h.starts_with("builtin"), "{h}");
    let uri: Uri = "file:///t.arr".parse().expect("a URI");
    let def = definition(&a, &uri, position(&a, "sum(zeros")).expect("the program's `sum`");
    assert_eq!(def.range.start, Position { line: 0, character: 3 });
    for builtin in ["sum(y)", "sum();"] {
        let h = hover_text(&a, builtin);
        assert!(h.starts_with("builtin `sum prod min max mean (x)`"), "{builtin}: {h}");
        assert_eq!(definition(&a, &uri, position(&a, builtin)), None, "{builtin}");
    }
}

/// Hover on every spelling of a builtin call shows its documentation: a name, `x.T` (transpose)
/// and `a @ b` (dot); a user function's call shows its signature.
#[test]
fn hover_on_builtin_calls_shows_their_documentation() {
    let a = analyse(
        "fn f(m: f64[2, 3]) -> f64[3, 3] { return m.T @ m; }\n\
         fn main() -> f64 {\n    let t = f(ones(2, 3));\n    return f64(sum(t));\n}\n",
    );
    assert!(a.clean, "{:?}", a.diagnostics);
    let t = hover_text(&a, "T @ m");
    assert!(t.starts_with("builtin `transpose(x)`, `x.T`") && t.contains("here: `f64[3, 2]`"), "{t}");
    let d = hover_text(&a, "@");
    assert!(d.starts_with("builtin `dot(a, b)`, `a @ b`") && d.contains("here: `f64[3, 3]`"), "{d}");
    let ones = hover_text(&a, "ones(");
    assert!(ones.starts_with("builtin `zeros(d0, d1, ..., dtype=f64)`, `ones(...)`"), "{ones}");
    // The cast's own row, not `zeros`'s (whose `dtype=f64` names it too).
    let cast = hover_text(&a, "f64(sum");
    assert!(
        cast.starts_with("builtin `f64(x) f32(x) i64(x) i32(x) i16(x) i8(x) u64(x) u32(x) u16(x) u8(x) bool(x)`"),
        "{cast}"
    );
    let f = hover_text(&a, "f(ones");
    assert!(f.contains("fn f(m: f64[2, 3]) -> f64[3, 3]"), "{f}");
}
