//! MLIR text that MLIR's own parser would crash on instead of diagnosing, found before MLIR sees
//! it (the parser of MLIR 22 is not hardened against hostile input; `arrayc-opt` must never crash).
//!
//! Known forms: a dense array attribute of `index` elements (`array<index: 1>`): MLIR's parser asks
//! `index` for its bit width, which only integer and float types have, and reads invalid memory. An
//! element type written as an alias or a dialect type (`array<!t: 1>`) might name `index` too, so it
//! is refused as well; arrayc writes dense arrays of `i64` only.

/// A dense array whose element type MLIR's parser cannot read ([`check_text`]): its line (1-based)
/// and element type as written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "line {line}: a dense array of `{elem}` elements (`array<{elem}: ...>`), which MLIR cannot read; dense \
     arrays hold integers or floats, such as `array<i64: ...>`"
)]
pub struct UnreadableArray {
    pub line: usize,
    pub elem: String,
}

/// Scans `text` as MLIR tokens (skipping string literals and `//` comments) for the forms above;
/// returns a message naming the line and the fix for the first one found.
pub fn check_text(text: &str) -> Result<(), UnreadableArray> {
    let b = text.as_bytes();
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let ident = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'-');
    // Skips white space and comments from `i`.
    let skip = |mut i: usize| loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b[i..].starts_with(b"//") {
            i = b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |n| i + n);
        } else {
            return i;
        }
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            // A string literal: up to the next unescaped quote (or the end of the line).
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if b[i..].starts_with(b"//") {
            i = skip(i);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            // A bare identifier or keyword; one preceded by a sigil (`%array`, `@array`, `#array`,
            // `!array`, `^array`) is a name, not the `array` keyword.
            let start = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            let named = start > 0 && matches!(b[start - 1], b'%' | b'@' | b'#' | b'!' | b'^');
            if !named && &b[start..i] == b"array" {
                let lt = skip(i);
                if b.get(lt) == Some(&b'<') {
                    let t = skip(lt + 1);
                    // The element type: a bare identifier, or a `!` name (an alias or dialect type).
                    let in_type = |k: usize| ident(b[k]) || (k == t && b[k] == b'!');
                    let end = (t..b.len()).find(|&k| !in_type(k)).unwrap_or(b.len());
                    let elem = &text[t..end];
                    if elem == "index" || elem.starts_with('!') {
                        return Err(UnreadableArray { line: line_of(start), elem: elem.to_string() });
                    }
                }
            }
        } else {
            i += 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::check_text;

    /// `array<index: ...>` and `array<!alias: ...>` are refused wherever they appear as attributes
    /// (with comments and white space between the tokens); names, strings and comments that spell
    /// them are not, nor other element types.
    #[test]
    fn dense_arrays_of_index_are_refused() {
        for bad in [
            "{index = array<index: 11>}",
            "{index = array < index : 11 >}",
            "{index = array // c\n < // d\n index: 1>}",
            "#a = array<index: 1>",
            "!t = index\n{i = array<!t: 1>}",
            "{i = array<index>}",
        ] {
            let e = check_text(bad).expect_err(bad).to_string();
            assert!(e.contains("array<") && e.contains("i64"), "{e}");
        }
        assert!(check_text("\n\n{index = array<index: 1>}").unwrap_err().to_string().starts_with("line 3:"));
        for good in [
            "{index = array<i64: 11>}",
            "{index = array<i32: 11>, x = array<f64: 1.0>, y = array<i1: true>}",
            "cf.assert %0, \"array<index: 1>\"",
            "cf.assert %0, \"a \\\" array<index: 1>\"",
            "// array<index: 1>\n",
            "%array = foo\n@array<index",
            "func.func @f(%arr: index) -> index",
            "arr.array<index",
            "",
            "array",
            "array <",
            "\"unterminated",
        ] {
            assert_eq!(check_text(good), Ok(()), "{good}");
        }
    }
}
