//! Runs the generated parser and turns its errors into [`Diagnostic`]s.

use crate::ast::Program;
use crate::diag::Diagnostic;
use crate::lexer::{LexError, Lexer, Tok};
use crate::parser::ProgramParser;
use lalrpop_util::ParseError;
use std::cell::Cell;

/// Parses `src` (and resolves the named constants, [`crate::constants`]); on a syntax error, or nesting deeper than [`MAX_NESTING`](crate::nesting::MAX_NESTING)
/// (E0104), returns `None` and the diagnostic(s).
pub fn parse_program(src: &str) -> (Option<Program>, Vec<Diagnostic>) {
    let ids = Cell::new(0u32);
    let parser = ProgramParser::new();
    let nested = crate::nested::Table::default();
    match parser.parse(&ids, &nested, Lexer::new(src)) {
        Ok(mut p) => match crate::nesting::check_nesting(&p) {
            None => {
                let diags = crate::nested::lift(&mut p, nested);
                if !diags.is_empty() {
                    return (None, diags);
                }
                // After the nesting check: the walks recurse.
                crate::lambda::module_lambdas(&mut p);
                if let Err(error) = crate::syntax::module_globals(&mut p) {
                    return (None, vec![to_diag(ParseError::User { error }, src)]);
                }
                let mut diags = crate::py_refused::none_defaults(&p);
                diags.extend(crate::py_refused::axis_parameters(&mut p));
                if !diags.is_empty() {
                    return (None, diags);
                }
                let mut diags = crate::slice_objects::slice_objects(&mut p);
                diags.extend(crate::call_of_call::bound(&mut p));
                if !diags.is_empty() {
                    return (None, diags);
                }
                crate::apply_along_axis::apply_along_axis(&mut p);
                crate::key_extrema::key_extrema(&mut p);
                let diags = crate::lambda::lambdas(&mut p);
                if !diags.is_empty() {
                    return (None, diags);
                }
                let diags = crate::py_calls::python_calls(&mut p);
                if !diags.is_empty() {
                    return (None, diags);
                }
                let diags = crate::tuple_loops::tuple_loops(&mut p);
                if !diags.is_empty() {
                    return (None, diags);
                }
                crate::loop_vars::loop_vars(&mut p);
                crate::function_scope::function_scope(&mut p);
                crate::py_lists::appended_lists(&mut p);
                crate::grown_lists::grown_lists(&mut p);
                crate::py_lists::python_builtins(&mut p);
                crate::py_lists::range_values(&mut p);
                let diags = crate::comprehension::comprehensions(&mut p);
                if !diags.is_empty() {
                    return (None, diags);
                }
                p.num_exprs = crate::syntax::dense_ids(&mut p.functions, p.num_exprs);
                let errors = crate::random_api::desugar(&mut p);
                if !errors.is_empty() {
                    return (None, errors);
                }
                let errors = crate::matrix_power::run_time_powers(&mut p);
                if !errors.is_empty() {
                    return (None, errors);
                }
                crate::out_args::out_args(&mut p);
                crate::writes::writes(&mut p);
                crate::syntax::python_assignments(&mut p);
                let errors = crate::tuple_names::tuple_names(&mut p);
                if !errors.is_empty() {
                    return (None, errors);
                }
                let errors = crate::star_args::star_args(&mut p);
                if !errors.is_empty() {
                    return (None, errors);
                }
                let errors = crate::view_writes::reshape_writes(&p);
                if !errors.is_empty() {
                    return (None, errors);
                }
                crate::tuple_returns::tuple_returns(&mut p);
                crate::loop_returns::loop_returns(&mut p);
                crate::constants::resolve_constants(&mut p);
                crate::syntax::bare_calls(&mut p);
                let errors = crate::list_ops::list_arithmetic(&mut p);
                if !errors.is_empty() {
                    return (None, errors);
                }
                crate::list_index::list_index(&mut p);
                crate::py_lists::python_lists(&mut p);
                (Some(p), Vec::new())
            }
            Some(d) => {
                crate::nesting::dismantle(p);
                (None, vec![d])
            }
        },
        Err(e) => (None, vec![to_diag(e, src)]),
    }
}

/// The diagnostic of an error found while rewriting the parsed program ([`LexError`]).
pub(crate) fn user_error(error: LexError) -> Diagnostic {
    to_diag(ParseError::User { error }, "")
}

/// Pretty list of the expected terminals (`)`, `;`, identifier, ...).
fn expected_list(expected: &[String]) -> String {
    let mut names: Vec<String> = expected
        .iter()
        .map(|e| {
            let t = e.trim_matches('"');
            match t {
                "identifier" | "integer" | "float" => t.to_string(),
                // The eleven dtype names, one entry (they come in a row: `dedup` merges them).
                _ if crate::ast::DType::from_name(t).is_some() => "a dtype (`f64`, `i32`, `u8`, ...)".to_string(),
                _ => format!("`{}`", t.replace("\\\"", "\"")),
            }
        })
        .collect();
    names.dedup();
    match names.len() {
        0 => "nothing".to_string(),
        1 => names.remove(0),
        n if n > 12 => format!("one of {}, ...", names[..12].join(", ")),
        _ => {
            let last = names.pop().unwrap_or_default();
            format!("one of {} or {}", names.join(", "), last)
        }
    }
}

fn to_diag(e: ParseError<usize, Tok, LexError>, src: &str) -> Diagnostic {
    match e {
        ParseError::InvalidToken { location } => {
            Diagnostic::error("E0001", "invalid token", location..location + 1, "not a token")
        }
        ParseError::UnrecognizedEof { location, expected } => {
            let loc = location.min(src.len());
            let mut d = Diagnostic::error(
                "E0102",
                format!("unexpected end of file, expected {}", expected_list(&expected)),
                loc..loc,
                "the file ends here",
            );
            if expected.iter().any(|e| e == "\"}\"") {
                d = d.with_help("a block `{ ... }` is not closed: add the missing `}`");
            }
            d
        }
        ParseError::UnrecognizedToken { token: (l, t, r), expected } => {
            let mut d = Diagnostic::error(
                "E0101",
                format!("unexpected {t}, expected {}", expected_list(&expected)),
                l..r,
                format!("expected {}", expected_list(&expected)),
            );
            // A `;` missing at the end of a line: point at where it belongs.
            let prev_end = src.get(..l.min(src.len())).map(|b| b.trim_end().len()).unwrap_or(0);
            let newline_between = src.get(prev_end..l.min(src.len())).is_some_and(|g| g.contains('\n'));
            if expected.iter().any(|e| e == "\";\"") && newline_between && prev_end > 0 {
                d = d.with_label(prev_end..prev_end, "`;` missing here?").with_help("statements end with `;`");
            }
            // `counts = {};`, `d = {"a": 1}`: a `{` where a value belongs.
            if t.to_string() == "`{`" && expected.iter().any(|e| e == "\"(\"") {
                d = d.with_help(
                    "`{` opens a block; Python's dict and set literals are not in arrayc: count values with \
                     `np.unique(x, return_counts=True)` or `np.bincount(x)`, look values up in an array indexed \
                     by the key (`table[k]`), and test membership with `np.isin(x, values)`",
                );
            }
            d
        }
        ParseError::ExtraToken { token: (l, t, r) } => {
            Diagnostic::error("E0103", format!("unexpected {t} after the end of the program"), l..r, "extra token")
        }
        ParseError::User { error } => match error {
            LexError::Invalid { text, span } => {
                let d = Diagnostic::error(
                    "E0001",
                    format!("invalid character `{}`", text.escape_debug()),
                    span,
                    "not part of any token",
                );
                if text.starts_with(['"', '\'']) {
                    // A string literal that does not end on its line (the lexer's `Tok::Str`).
                    d.with_help(
                        "a string literal ends on its line with the quote it starts with, and has no escapes: \
                         `mode=\"same\"`, `'say \"hi\"'`",
                    )
                } else {
                    d
                }
            }
            LexError::Attribute { name, span } => Diagnostic::error(
                "E0003",
                format!("arrays have no attribute `{name}` in arrayc"),
                span,
                "unknown attribute",
            )
            .with_help(
                "the attributes are `x.T`, `x.shape[k]`, `x.ndim`, `x.size`, `x.itemsize`, `x.nbytes`, `x.flat` (read: `ravel(x)`) and `x.dtype` (as `dtype=x.dtype`, `x.dtype == np.float32`, `x.dtype.kind`, `x.dtype.itemsize`); \
                 methods are called `x.sum()`; \
                 NumPy's ufunc methods are `np.add.reduce(x)` or `add.reduce(x)`",
            ),
            LexError::TupleLength { targets, values, span } => Diagnostic::error(
                "E0106",
                format!("{targets} targets but {values} values in a tuple assignment"),
                span,
                format!("{values} values"),
            )
            .with_note("Python raises ValueError: the counts must be equal"),
            LexError::NotATarget { declare, span } => {
                let (what, fix) = if declare {
                    ("`let a = b = e;` declares names", "declare each name: `let a = e; let b = a;`")
                } else {
                    (
                        "the targets of `a = b = e;` are names or subscripts `x[i]`",
                        "assign the value to a name first: `let t = e; p[i][j] = t; q = t;`",
                    )
                };
                Diagnostic::error(
                    "E0107",
                    format!("not a target of a chained assignment: {what}"),
                    span,
                    "not a target",
                )
                .with_help(fix)
            }
            LexError::UfuncMethod { ufunc, method, span } => Diagnostic::error(
                "E0108",
                format!("NumPy's `{ufunc}.{method}` is not in arrayc"),
                span,
                "no such ufunc method",
            )
            .with_help(
                "arrayc has `add.reduce` (`sum(x, axis=0)`), `multiply.reduce` (`prod`), `maximum.reduce` (`max`), \
                 `minimum.reduce` (`min`), `logical_and.reduce` (`all`), `logical_or.reduce` (`any`), \
                 `add.accumulate` (`cumsum`), `multiply.accumulate` (`cumprod`), `maximum.accumulate`, \
                 `minimum.accumulate`, `add.at` (`add_at`) and every binary ufunc's `outer(a, b)`: \
                 write the reduction as a loop or with these",
            ),
            LexError::NotARange { span } => {
                Diagnostic::error("E0105", "`range(...)` takes 1 to 3 positional arguments", span, "not a range")
                    .with_help("write `for i in 0..n`, `for i in range(n)`, `range(a, b)` or `range(a, b, step)`")
            }
            LexError::ForTargets { names, span } => Diagnostic::error(
                "E0110",
                format!("a `for` loop with {names} names iterates `enumerate(x)` or `zip(x, y, ..)`"),
                span,
                format!("{names} names for this"),
            )
            .with_help(format!(
                "write `for k, v in enumerate(x)` (two names), `for a, b in zip(x, y)` (one name per array), or \
                 `for v in x` and index the row `v[k]`; here {names} names"
            )),
            LexError::BareName { name, span } => Diagnostic::error(
                "E0112",
                format!("`{name};` is no statement: a name alone does nothing"),
                span,
                "a name alone",
            )
            .with_help(format!(
                "Python's `pass` is `pass;`; to give the value back write `return {name};`, to print it `print({name});`"
            )),
            LexError::Print { message, help, span } => {
                Diagnostic::error("E0119", message, span, "here").with_help(help)
            }
            LexError::ViewWrite { message, help, span } => {
                Diagnostic::error("E0328", message, span, "written through").with_help(help)
            }
            LexError::CallOfCall { message, help, span } => crate::call_of_call::diagnostic(message, help, span),
            LexError::Starred { message, help, span } => {
                Diagnostic::error("E0327", message, span, "a starred target").with_help(help)
            }
            LexError::IsNone { negated, span } => crate::py_refused::is_none_diagnostic(negated, span),
            LexError::MathKeyword { func, keyword, span } => Diagnostic::error(
                "E0502",
                format!("`{func}` has no keyword argument `{keyword}` in arrayc"),
                span,
                "a keyword argument",
            )
            .with_help(
                "pass Python's `math` functions their arguments by position; for `math.prod(t, start=s)` \
                 write `s * math.prod(t)`",
            ),
            LexError::MathMissing { name, span } => Diagnostic::error(
                "E0330",
                format!("Python's `math.{name}` is not in arrayc"),
                span,
                "a function of Python's `math`",
            )
            .with_help(crate::math_more::missing_help(&name)),
            LexError::Module { message, help, span } => {
                Diagnostic::error("E0113", message, span, "at module level").with_help(help)
            }
            LexError::IntOverflow { text, span } => Diagnostic::error(
                "E0002",
                format!("integer literal `{text}` is too large for i64"),
                span,
                "out of range",
            )
            .with_help("use a float literal (`1e19`) or a smaller value"),
        },
    }
}
