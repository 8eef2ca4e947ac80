//! `print` as Python takes it: f-strings (PEP 498, `f"x = {x:.3f}"`: literal text and replacement
//! fields, each an expression and an optional format spec), Python's two other ways to format an
//! argument, `"%.3f" % v` and `"{:.3f}".format(v)`, made f-strings ([`formatted`]), and the
//! keywords `sep=`, `end=` and `flush=`. An f-string is a value only as an argument of `print` (the checker refuses it
//! elsewhere, E0317); its fields' format specs are Python's mini-language
//! (`arrayc_core::format_spec`), checked against each value's dtype by the checker and applied by
//! `arr.print` at run time.

use crate::ast::{BinOp, Expr, ExprKind, FPart, Ident, Span, Stmt};
use crate::lexer::{unescape, LexError, Lexer};
use crate::parser::ExprParser;
use crate::syntax::{fresh_copy, mk};
use arrayc_core::format_spec::FormatSpec;
use lalrpop_util::ParseError;
use std::cell::Cell;

fn error(message: impl Into<String>, help: impl Into<String>, span: Span) -> LexError {
    LexError::Print { message: message.into(), help: help.into(), span }
}

/// The length in bytes of the quoted part of an f-string at the start of `rest` (which starts
/// with its opening quote: `"`, `'`, `"""` or `'''`), up to and including the closing quote;
/// `None` when it is not closed (on its line, for a one-quote string). A backslash escapes the
/// character after it unless the string is `raw` (`rf"..."`).
pub fn scan_fstring(rest: &str, raw: bool) -> Option<usize> {
    let quote = if rest.starts_with("\"\"\"") || rest.starts_with("'''") { &rest[..3] } else { &rest[..1] };
    let bytes = rest.as_bytes();
    let mut i = quote.len();
    while i < bytes.len() {
        // Bytes, not `rest[i..]`: an escape may skip into the middle of a multi-byte character.
        if bytes[i..].starts_with(quote.as_bytes()) {
            return Some(i + quote.len());
        }
        match bytes[i] {
            b'\n' if quote.len() == 1 => return None,
            b'\\' if !raw => i += 2,
            _ => i += 1,
        }
    }
    None
}

/// The f-string `text` (its whole source: prefix, quotes and body), which starts at byte `at` of
/// the file, as an [`ExprKind::FString`] expression. Errors (E0119): a lone `}`, an unclosed
/// `{`, an empty or unparsable field, a conversion (`!r`, `!s`, `!a`), Python's `{x=}`, a
/// nested field in a format spec, a format spec outside Python's mini-language.
pub fn fstring(ids: &Cell<u32>, text: &str, at: usize) -> Result<Expr, LexError> {
    let prefix = text.find(['"', '\'']).unwrap_or(0);
    let raw = text[..prefix].to_ascii_lowercase().contains('r');
    let q = if text[prefix..].starts_with("\"\"\"") || text[prefix..].starts_with("'''") { 3 } else { 1 };
    let body = &text[prefix + q..text.len() - q];
    let base = at + prefix + q;
    let whole = at..at + text.len();
    let mut parts = Vec::new();
    let mut lit = String::new();
    let flush = |lit: &mut String, parts: &mut Vec<FPart>, end: usize| -> Result<(), LexError> {
        if !lit.is_empty() {
            let t = if raw { Some(lit.clone()) } else { unescape(lit) };
            let t = t.ok_or_else(|| {
                error("a `\\x` or `\\u` escape without its hex digits", "write `\\x41` or `\\u00e9`", base..base + end)
            })?;
            parts.push(FPart::Text(t));
            lit.clear();
        }
        Ok(())
    };
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' if b.get(i + 1) == Some(&b'{') => {
                lit.push('{');
                i += 2;
            }
            b'}' if b.get(i + 1) == Some(&b'}') => {
                lit.push('}');
                i += 2;
            }
            b'}' => {
                return Err(error(
                    "f-string: single '}' is not allowed",
                    "write `}}` for a `}` in the text",
                    base + i..base + i + 1,
                ))
            }
            b'{' => {
                flush(&mut lit, &mut parts, i)?;
                let end = field_end(body, i + 1).ok_or_else(|| {
                    error(
                        "f-string: expecting '}'",
                        "close the field with `}` (write `{{` for a `{` in the text)",
                        whole.clone(),
                    )
                })?;
                parts.push(field(ids, body, i + 1, end.0, end.1, base)?);
                i = end.0 + 1;
            }
            b'\\' if !raw && i + 1 < b.len() => {
                lit.push_str(&body[i..i + 2]);
                i += 2;
            }
            _ => {
                let c = body[i..].chars().next().unwrap_or(' ');
                lit.push(c);
                i += c.len_utf8();
            }
        }
    }
    flush(&mut lit, &mut parts, b.len())?;
    Ok(mk(ids, ExprKind::FString(parts), whole))
}

/// The end of the field that starts at byte `start` of `body` (the index of its closing `}`)
/// and where its format spec starts (the index of the `:`, if any): both at bracket depth 0,
/// outside string literals. `None` when the field is not closed.
fn field_end(body: &str, start: usize) -> Option<(usize, Option<usize>)> {
    let b = body.as_bytes();
    let (mut depth, mut quote, mut colon) = (0usize, None::<u8>, None);
    let mut i = start;
    while i < b.len() {
        let c = b[i];
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(c),
            (None, b'(' | b'[' | b'{') => depth += 1,
            (None, b')' | b']') => depth = depth.saturating_sub(1),
            (None, b'}') if depth == 0 => return Some((i, colon)),
            (None, b'}') => depth -= 1,
            (None, b':') if depth == 0 && colon.is_none() => colon = Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The field `body[start..end]` (between its braces; a format spec after `colon`), at file
/// offset `base` of `body`.
fn field(
    ids: &Cell<u32>,
    body: &str,
    start: usize,
    end: usize,
    colon: Option<usize>,
    base: usize,
) -> Result<FPart, LexError> {
    let expr_end = colon.unwrap_or(end);
    let src = &body[start..expr_end];
    let span = base + start..base + expr_end;
    let trimmed = src.trim_end();
    if trimmed.trim_start().is_empty() {
        return Err(error("f-string: empty expression not allowed", "put a value between the braces: `{x}`", span));
    }
    let conv = conversion(trimmed);
    if let Some(bang) = conv.filter(|&b| trimmed[b + 1..].trim() != "s") {
        let conv = &trimmed[bang..];
        return Err(error(
            format!("the conversion `{conv}` of an f-string field is not in arrayc"),
            "leave it out (`!s` is the one conversion arrayc has): a field prints as Python's `format(value, spec)`",
            base + start + bang..base + expr_end,
        ));
    }
    let before_eq = trimmed.strip_suffix('=').map(|t| t.chars().last());
    let self_doc = before_eq.is_some_and(|c| !matches!(c, Some('=' | '<' | '>' | '!')));
    if self_doc {
        return Err(error(
            "Python's self-documenting field `{x=}` is not in arrayc",
            format!(
                "write the name as text: `{}={{{}}}`",
                trimmed.trim_end_matches('=').trim(),
                trimmed.trim_end_matches('=').trim()
            ),
            span,
        ));
    }
    let src = match conv {
        Some(bang) => &src[..bang],
        None => src,
    };
    let value =
        ExprParser::new().parse(ids, &crate::nested::Table::default(), Lexer::at(src, base + start)).map_err(|e| {
            match e {
                ParseError::User { error } => error,
                _ => error(
                    format!("`{}` in this f-string field is not an arrayc expression", src.trim()),
                    "a field holds one expression, optionally followed by `:` and a format spec (`{x:.3f}`)",
                    span.clone(),
                ),
            }
        })?;
    let (spec, spec_span) = match colon {
        Some(c) => (&body[c + 1..end], base + c + 1..base + end),
        None => ("", base + end..base + end),
    };
    if spec.contains(['{', '}']) {
        return Err(error(
            "a field inside a format spec (`{x:{w}.{p}f}`) is not in arrayc",
            "write the width and precision as numbers: `{x:10.3f}`",
            spec_span,
        ));
    }
    let spec = if conv.is_some() { format!("!s{spec}") } else { spec.to_string() };
    FormatSpec::parse(&spec).map_err(|m| {
        error(
            m,
            "Python's format spec: `[[fill]align][sign][z][#][0][width][,|_][.precision][type]`",
            spec_span.clone(),
        )
    })?;
    Ok(FPart::Field { value, spec, spec_span })
}

/// Where a conversion `!r`, `!s` or `!a` starts at the end of a field's expression, if it has
/// one (`!=` is a comparison).
fn conversion(src: &str) -> Option<usize> {
    let bang = src.rfind('!')?;
    matches!(src[bang + 1..].trim(), "r" | "s" | "a").then_some(bang)
}

/// `print(args, sep=..., end=..., flush=...)`: positional arguments first (Python's
/// SyntaxError otherwise), `sep` and `end` string literals (or `None`, the default), `flush`
/// a bool literal (output is flushed at every `print` anyway). Errors (E0119): another keyword
/// (`file=`), a keyword twice, a value that is not a literal.
pub fn print_stmt(ids: &Cell<u32>, all: Vec<(Option<Ident>, Expr)>, span: Span) -> Result<Stmt, LexError> {
    let (mut sep, mut end) = (" ".to_string(), "\n".to_string());
    let mut seen: Vec<String> = Vec::new();
    let mut args = Vec::new();
    for (key, value) in all {
        let Some(key) = key else {
            if !seen.is_empty() {
                return Err(error(
                    "positional argument follows keyword argument",
                    "put `print`'s values first and `sep=`, `end=` last",
                    value.span,
                ));
            }
            args.push(formatted(ids, value)?);
            continue;
        };
        if seen.contains(&key.name) {
            return Err(error(format!("keyword argument repeated: {}", key.name), "give each keyword once", key.span));
        }
        seen.push(key.name.clone());
        let text = match (&value.kind, key.name.as_str()) {
            (ExprKind::Str(s), "sep" | "end") => Some(s.clone()),
            (ExprKind::NoneLit, "sep" | "end" | "flush") | (ExprKind::Bool(_), "flush") => None,
            (_, "sep" | "end" | "flush") => {
                return Err(error(
                    format!("`print`'s `{}=` takes a literal here", key.name),
                    "write a string literal for `sep=` and `end=` (`end=\"\"`), `True` or `False` for `flush=`",
                    value.span,
                ))
            }
            (_, other) => {
                return Err(error(
                    format!("print() got an unexpected keyword argument '{other}'"),
                    "arrayc's `print` writes to standard output and takes `sep=`, `end=` and `flush=`",
                    key.span,
                ))
            }
        };
        match (key.name.as_str(), text) {
            ("sep", Some(t)) => sep = t,
            ("end", Some(t)) => end = t,
            _ => {}
        }
    }
    Ok(Stmt::Print { args, sep, end, span })
}

/// Ends the literal text `lit` gathered so far (if any) as a piece of `parts`.
fn push_text(parts: &mut Vec<FPart>, lit: &mut String) {
    if !lit.is_empty() {
        parts.push(FPart::Text(std::mem::take(lit)));
    }
}

/// A `print` argument `"fmt" % values` (printf-style) or `"fmt".format(args)` as the f-string
/// Python prints for it; any other argument as it is. Errors (E0119): Python's TypeError and
/// ValueError cases (too few or too many values, mixed field numbering, an index out of range),
/// and what arrayc does not take (`%r`, `%c`, `%(name)s`, `*` widths, conversions, attribute or
/// index lookups in a field name).
fn formatted(ids: &Cell<u32>, e: Expr) -> Result<Expr, LexError> {
    match e.kind {
        ExprKind::Binary(BinOp::Rem, fmt, values) if matches!(fmt.kind, ExprKind::Str(_)) => {
            let ExprKind::Str(text) = fmt.kind else { unreachable!("matched above") };
            if crate::syntax::shape_base(&values).is_some() {
                return Err(error(
                    "a shape on the right of `%` (Python unpacks its elements as the values)",
                    "write the elements: `\"%d x %d\" % (x.shape[0], x.shape[1])`, or an f-string `f\"{x.shape}\"`",
                    values.span,
                ));
            }
            let values = match values.kind {
                ExprKind::Tuple(items) => items,
                _ => vec![*values],
            };
            let parts = percent_format(ids, &text, values, &fmt.span)?;
            Ok(Expr { id: e.id, kind: ExprKind::FString(parts), span: e.span })
        }
        ExprKind::Call { func, mut args, kwargs }
            if func.name == ".format" && args.first().is_some_and(|a| matches!(a.kind, ExprKind::Str(_))) =>
        {
            let fmt = args.remove(0);
            let ExprKind::Str(text) = &fmt.kind else { unreachable!("matched above") };
            let parts = str_format(ids, text, args, kwargs, &fmt.span)?;
            Ok(Expr { id: e.id, kind: ExprKind::FString(parts), span: e.span })
        }
        kind => Ok(Expr { kind, ..e }),
    }
}

/// Python's `text % values` (printf-style, <https://docs.python.org/3/library/stdtypes.html#printf-style-string-formatting>)
/// as f-string pieces: `%[flags][width][.precision]type` is the field `{v:spec}` of the same
/// text (flags `-` `<` align, `0`, `+`, space, `#`); `d i u x X o` convert the value with
/// `int()` first, as Python's do; `s` is the value's `str`; `%%` a `%`.
fn percent_format(ids: &Cell<u32>, text: &str, values: Vec<Expr>, at: &Span) -> Result<Vec<FPart>, LexError> {
    let bad = |m: String, help: &str| error(m, help, at.clone());
    let n = values.len();
    let mut values = values.into_iter();
    let mut parts = Vec::new();
    let mut lit = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            lit.push(c);
            continue;
        }
        let mut flags = String::new();
        while let Some(&f @ ('-' | '0' | '+' | ' ' | '#')) = chars.peek() {
            flags.push(f);
            chars.next();
        }
        let mut width = String::new();
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            width.push(d);
            chars.next();
        }
        let mut precision = String::new();
        if chars.peek() == Some(&'.') {
            chars.next();
            precision.push('.');
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                precision.push(d);
                chars.next();
            }
        }
        let ty = chars
            .next()
            .ok_or_else(|| bad("incomplete format".into(), "end the conversion with its type: `%d`, `%.3f`, `%s`"))?;
        if ty == '%' && flags.is_empty() && width.is_empty() && precision.is_empty() {
            lit.push('%');
            continue;
        }
        let spec_ty =
            match ty {
                'd' | 'i' | 'u' => "d".to_string(),
                'x' | 'X' | 'o' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G' => ty.to_string(),
                's' => "s".to_string(),
                _ => return Err(bad(
                    format!("the conversion `%{flags}{width}{precision}{ty}` is not in arrayc"),
                    "use `%d`, `%x`, `%o`, `%e`, `%f`, `%g` or `%s` (with flags, width and precision), or an f-string",
                )),
            };
        let value = values
            .next()
            .ok_or_else(|| bad("not enough arguments for format string".into(), "give one value per conversion"))?;
        let value = if spec_ty == "d" || matches!(ty, 'x' | 'X' | 'o') {
            let span = value.span.clone();
            mk(
                ids,
                ExprKind::Call {
                    func: Ident { name: "int".to_string(), span: span.clone() },
                    args: vec![value],
                    kwargs: vec![],
                },
                span,
            )
        } else {
            value
        };
        let align = if flags.contains('-') { "<" } else { "" };
        let sign = if flags.contains('+') {
            "+"
        } else if flags.contains(' ') {
            " "
        } else {
            ""
        };
        let alt = if flags.contains('#') { "#" } else { "" };
        let zero = if flags.contains('0') && !flags.contains('-') { "0" } else { "" };
        let spec = if ty == 's' {
            // Python's `%s`: the value's `str`, right-aligned unless `-`.
            let side = match (width.is_empty(), align.is_empty()) {
                (true, _) => "",
                (false, true) => ">",
                (false, false) => "<",
            };
            format!("!s{side}{width}{precision}")
        } else {
            format!("{align}{sign}{alt}{zero}{width}{precision}{spec_ty}")
        };
        FormatSpec::parse(&spec).map_err(|m| bad(m, "a printf-style conversion: `%[flags][width][.precision]type`"))?;
        push_text(&mut parts, &mut lit);
        parts.push(FPart::Field { value, spec, spec_span: at.clone() });
    }
    if values.next().is_some() {
        let used = parts.iter().filter(|p| p.value().is_some()).count();
        return Err(bad(
            "not all arguments converted during string formatting".into(),
            &format!("the string has {used} conversions for {n} values"),
        ));
    }
    push_text(&mut parts, &mut lit);
    Ok(parts)
}

/// Python's `text.format(args, key=value)` (<https://docs.python.org/3/library/string.html#formatstrings>)
/// as f-string pieces: `{}` (automatic numbering), `{0}`, `{name}`, each with an optional `:spec`;
/// `{{` and `}}` braces. A value used by two fields is evaluated for each.
fn str_format(
    ids: &Cell<u32>,
    text: &str,
    args: Vec<Expr>,
    kwargs: Vec<(Ident, Expr)>,
    at: &Span,
) -> Result<Vec<FPart>, LexError> {
    let bad = |m: String, help: &str| error(m, help, at.clone());
    let mut parts = Vec::new();
    let mut lit = String::new();
    let (mut auto, mut manual) = (0usize, false);
    let mut rest = text;
    while let Some(i) = rest.find(['{', '}']) {
        lit.push_str(&rest[..i]);
        let (brace, after) = (rest.as_bytes()[i], &rest[i + 1..]);
        if after.as_bytes().first() == Some(&brace) {
            lit.push(brace as char);
            rest = &after[1..];
            continue;
        }
        if brace == b'}' {
            return Err(bad("Single '}' encountered in format string".into(), "write `}}` for a `}` in the text"));
        }
        let end = after
            .find('}')
            .ok_or_else(|| bad("expected '}' before end of string".into(), "close the field with `}`"))?;
        let field = &after[..end];
        rest = &after[end + 1..];
        let (name, spec) = field.split_once(':').unwrap_or((field, ""));
        let (name, conv) = match name.strip_suffix("!s") {
            Some(n) => (n, "!s"),
            None => (name, ""),
        };
        if name.contains(['!', '.', '[', '{']) || spec.contains('{') {
            return Err(bad(
                format!("the field `{{{field}}}` is not in arrayc"),
                "a field is `{}`, `{0}` or `{name}` with an optional `:spec`; no conversions, lookups or nested fields",
            ));
        }
        let value = if name.is_empty() {
            if manual {
                return Err(bad(
                    "cannot switch from manual field specification to automatic field numbering".into(),
                    "number every field or none",
                ));
            }
            auto += 1;
            args.get(auto - 1)
        } else if let Ok(k) = name.parse::<usize>() {
            if auto > 0 {
                return Err(bad(
                    "cannot switch from automatic field numbering to manual field specification".into(),
                    "number every field or none",
                ));
            }
            manual = true;
            args.get(k)
        } else {
            kwargs.iter().find(|(key, _)| key.name == name).map(|(_, v)| v)
        };
        let value = value.ok_or_else(|| {
            bad(
                format!("Replacement index {name:?} out of range for positional args tuple"),
                "give a value for every field",
            )
        })?;
        let spec = format!("{conv}{spec}");
        FormatSpec::parse(&spec).map_err(|m| {
            bad(m, "Python's format spec: `[[fill]align][sign][z][#][0][width][,|_][.precision][type]`")
        })?;
        push_text(&mut parts, &mut lit);
        parts.push(FPart::Field { value: fresh_copy(ids, value), spec, spec_span: at.clone() });
    }
    lit.push_str(rest);
    push_text(&mut parts, &mut lit);
    Ok(parts)
}

/// The array or scalar `x` of a `print` argument or f-string field `x.dtype`, which prints as
/// NumPy's name of the dtype (`float64`); `None` for any other expression.
pub fn printed_dtype(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Call { func, args, kwargs } if func.name == ".dtype" && args.len() == 1 && kwargs.is_empty() => {
            args.first()
        }
        _ => None,
    }
}
