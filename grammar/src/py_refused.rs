//! Python idioms around `None` and run-time axes that arrayc refuses, each with its own error that
//! names arrayc's way (`docs/language.md`, "Functions"):
//!
//! - Python's identity test with `None`, `x is None`, `x is not None`: E0210 ([`is_none`], read by
//!   the lexer). arrayc has `None` only as `newaxis` and as an argument left out.
//! - a parameter whose default is `None` (`w: f64[N] = None`): E0211 ([`none_defaults`]).
//! - `axis=` given by a parameter of the function (`sum(x, axis=axis)` in `fn f(x: .., axis: i64 =
//!   0)`) to a builtin: E0212 ([`axis_parameters`]); arrayc's axes are literals (a result's rank
//!   depends on them).
//! - a call of one of Python's builtins that arrayc has not (`sorted(x)`, `list(x)`, `map(f, x)`):
//!   the unknown-function error E0202 with the arrayc way ([`PYTHON_BUILTINS`]).

use crate::ast::{ExprKind, Program, Span};
use crate::diag::Diagnostic;
use std::collections::HashSet;

/// Python's builtins that arrayc has not, each with the help of the unknown-function error (E0202)
/// of a bare call of it: the NumPy or arrayc spelling that does the same on arrays.
pub const PYTHON_BUILTINS: &[(&str, &str)] = &[
    (
        "sorted",
        "Python's `sorted(x)` is a list; NumPy's `np.sort(x)` gives the same values as an array (NaN sorted last), `np.sort(x)[::-1]` for `reverse=True`",
    ),
    (
        "list",
        "arrayc has no Python lists as values: the list of an array's items is the array itself (`x`, or `x.copy()`), `np.array([e for v in x])` of a comprehension, `np.arange(a, b)` for `list(range(a, b))`",
    ),
    ("tuple", "arrayc has no tuples as values: the tuple of an array's items is the array itself (`x`, or `x.copy()`)"),
    (
        "map",
        "write the function on the whole array (arithmetic, `np.where` and the ufuncs are elementwise), or a list comprehension `np.array([f(v) for v in x])`",
    ),
    ("filter", "NumPy's boolean indexing `x[x > 0]` (or `np.array([v for v in x if c])`)"),
    (
        "reversed",
        "`reversed(range(..))` and `reversed(x)` are iterated by a `for` or a comprehension; as an array, `x[::-1]` (a view) or `np.flip(x, axis=0)`",
    ),
    ("enumerate", "`enumerate(x)` is iterated by a `for` or a comprehension: `for i, v in enumerate(x) { .. }`"),
    ("zip", "`zip(x, y)` is iterated by a `for` or a comprehension: `for a, b in zip(x, y) { .. }`"),
    ("dict", "arrayc has no dicts: an array indexed by integer keys, or `np.unique(keys, return_counts=True)` for counts"),
    ("set", "arrayc has no sets: `np.unique(x)` (sorted distinct values), `np.isin(a, b)` for membership"),
    (
        "isinstance",
        "arrayc's types are known when it compiles: a function's parameters are typed (`x: f64[N]`); compare dtypes with `x.dtype == np.float64`",
    ),
    ("str", "arrayc's text is `print`'s: an f-string `print(f\"{x:.3f}\")`"),
];

/// After the name `is`, the text `rest` of the source: `None` or `not None` (Python's identity
/// test with `None`), as `(negated, bytes up to the end of None)`; else `None` (a variable `is`).
pub fn is_none(rest: &str) -> Option<(bool, usize)> {
    let word = |s: &str, w: &str| -> Option<usize> {
        let t = s.trim_start();
        let skipped = s.len() - t.len();
        let after = t.strip_prefix(w)?;
        let ends = !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        (skipped > 0 && ends).then_some(skipped + w.len())
    };
    if let Some(n) = word(rest, "None") {
        return Some((false, n));
    }
    let k = word(rest, "not")?;
    word(&rest[k..], "None").map(|n| (true, k + n))
}

/// E0210, the diagnostic of [`LexError::IsNone`].
pub fn is_none_diagnostic(negated: bool, span: Span) -> Diagnostic {
    let op = if negated { "is not None" } else { "is None" };
    Diagnostic::error("E0210", format!("Python's test `x {op}` is not in arrayc"), span, format!("`{op}`")).with_help(
        "arrayc has `None` only as a new axis (`x[:, None]`) and as a NumPy argument left out: no value is ever \
         None. Give the parameter a value meaning \"absent\" (`k: i64 = -1` and `if k < 0`, `w: f64[N]` and \
         `np.ones(n)` at the call), or write one function for each case",
    )
}

/// E0211 for every parameter of `program` whose default is `None`.
pub fn none_defaults(program: &Program) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for f in &program.functions {
        for p in &f.params {
            let Some(d) = &p.default else { continue };
            if matches!(d.kind, ExprKind::NoneLit) {
                diags.push(
                    Diagnostic::error(
                        "E0211",
                        format!("the parameter `{}` has the default `None`, which arrayc does not have", p.name.name),
                        d.span.clone(),
                        "`None` as a default",
                    )
                    .with_help(format!(
                        "arrayc has `None` only as a new axis and as a NumPy argument left out: give `{}` a default \
                         value of its type meaning \"absent\" (`-1`, `0.0`), or leave the default out and pass it \
                         at every call (an array: `np.ones(n)`), or write one function with and one without it",
                        p.name.name
                    )),
                );
            }
        }
    }
    diags
}

/// E0212 for every `axis=` given by a parameter of its function to a call of anything but one of
/// the program's functions.
pub fn axis_parameters(program: &mut Program) -> Vec<Diagnostic> {
    let own: HashSet<String> = program.functions.iter().map(|f| f.name.name.clone()).collect();
    let mut diags = Vec::new();
    for f in &mut program.functions {
        let params: HashSet<String> = f.params.iter().map(|p| p.name.name.clone()).collect();
        let fname = f.name.name.clone();
        f.for_each_expr_mut(&mut |e| {
            let ExprKind::Call { func, kwargs, .. } = &e.kind else { return };
            // `x.shape[k]` keeps its own error (E0503).
            if own.contains(&func.name) || matches!(func.name.as_str(), "size" | ".shape") {
                return;
            }
            for (k, v) in kwargs {
                let ExprKind::Var(p) = &v.kind else { continue };
                if k.name == "axis" && params.contains(&p.name) {
                    let callee = func.name.trim_start_matches('.').trim_start_matches(crate::builtin::QUALIFIED);
                    diags.push(
                        Diagnostic::error(
                            "E0212",
                            format!("`axis={}` is a parameter of `{fname}`: arrayc's axes are integer literals", p.name),
                            v.span.clone(),
                            "an axis known only at run time",
                        )
                        .with_note("the rank and shape of the result depend on the axis, and arrayc fixes them when it compiles")
                        .with_help(format!(
                            "write the axis as a literal, `{callee}(x, axis=0)`, and one function per axis \
                             (`fn {fname}_rows(..)`, `fn {fname}_cols(..)`), or compute it at the call: `x.{callee}(axis=0)`"
                        )),
                    );
                }
            }
        });
    }
    diags
}
