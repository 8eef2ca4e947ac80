//! Document text and LSP positions: LSP counts columns in UTF-16 code units, the front end spans
//! in bytes. [`LineMap`] converts between the two in `O(log lines + line length)`; [`apply_change`]
//! applies a full or incremental `didChange` edit.

use arrayc_grammar::ast::Span;
use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

/// The start offsets of the lines of one text, for conversions between byte offsets and LSP
/// positions (line, UTF-16 column). Positions past the end of a line or of the text are clamped.
pub struct LineMap {
    /// Byte offset of the first character of each line.
    starts: Vec<usize>,
    /// Whether each line is ASCII, where UTF-16 columns are byte columns (so that positions on
    /// long lines, such as a whole program on one line, take constant time).
    ascii: Vec<bool>,
}

impl LineMap {
    /// Indexes the lines of `text`.
    pub fn new(text: &str) -> Self {
        let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let ends = starts.iter().skip(1).copied().chain(std::iter::once(text.len()));
        let ascii = starts.iter().zip(ends).map(|(&a, b)| text.as_bytes()[a..b].is_ascii()).collect();
        LineMap { starts, ascii }
    }

    /// The LSP position of byte offset `offset` of `text` (clamped to the text and moved back to a
    /// character boundary).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut off = offset.min(text.len());
        while !text.is_char_boundary(off) {
            off -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= off) - 1;
        let col: usize = if self.ascii[line] {
            off - self.starts[line]
        } else {
            text[self.starts[line]..off].chars().map(char::len_utf16).sum()
        };
        Position::new(line as u32, col as u32)
    }

    /// The byte offset of LSP position `p` in `text`. A line past the end gives the end of the
    /// text; a column past the end of its line gives the end of the line (before its newline); a
    /// column inside a surrogate pair gives the start of that character.
    pub fn offset(&self, text: &str, p: Position) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else { return text.len() };
        let end = self.starts.get(p.line as usize + 1).map_or(text.len(), |&next| next - 1);
        if self.ascii[p.line as usize] {
            return (start + p.character as usize).min(end);
        }
        let mut units = 0usize;
        for (i, c) in text[start..end].char_indices() {
            units += c.len_utf16();
            if units > p.character as usize {
                return start + i;
            }
        }
        end
    }

    /// The LSP range of byte span `span` of `text`.
    pub fn range(&self, text: &str, span: &Span) -> Range {
        Range::new(self.position(text, span.start), self.position(text, span.end.max(span.start)))
    }
}

/// Applies one `didChange` content change to `text`: the whole text when it has no range, else
/// the replacement of its range (clamped to the text, as [`LineMap::offset`] clamps).
pub fn apply_change(text: &mut String, change: TextDocumentContentChangeEvent) {
    match change.range {
        None => *text = change.text,
        Some(r) => {
            let lines = LineMap::new(text);
            let start = lines.offset(text, r.start);
            let end = lines.offset(text, r.end).max(start);
            text.replace_range(start..end, &change.text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(range: Option<(u32, u32, u32, u32)>, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range.map(|(a, b, c, d)| Range::new(Position::new(a, b), Position::new(c, d))),
            range_length: None,
            text: text.into(),
        }
    }

    /// Columns count UTF-16 code units: `é` is one unit in two bytes, `𝑥` two units in four bytes.
    #[test]
    fn utf16_positions_round_trip() {
        let text = "a é 𝑥 b\nsecond\n";
        let m = LineMap::new(text);
        let b = text.find('b').unwrap();
        assert_eq!(m.position(text, b), Position::new(0, 7));
        assert_eq!(m.offset(text, Position::new(0, 7)), b);
        // Inside the surrogate pair of `𝑥`: its start.
        assert_eq!(m.offset(text, Position::new(0, 5)), text.find('𝑥').unwrap());
        // Clamping: past the end of a line, past the last line, inside a UTF-8 sequence.
        assert_eq!(m.offset(text, Position::new(0, 99)), text.find('\n').unwrap());
        assert_eq!(m.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(m.position(text, text.find('é').unwrap() + 1), Position::new(0, 2));
        assert_eq!(m.position(text, text.len() + 5), Position::new(2, 0));
    }

    /// Incremental edits replace exactly their range; a change without a range replaces everything.
    #[test]
    fn incremental_and_full_changes() {
        let mut t = String::from("let x = 1;\nlet é = 2;\n");
        apply_change(&mut t, change(Some((1, 4, 1, 5)), "y"));
        assert_eq!(t, "let x = 1;\nlet y = 2;\n");
        apply_change(&mut t, change(Some((0, 10, 1, 0)), " "));
        assert_eq!(t, "let x = 1; let y = 2;\n");
        apply_change(&mut t, change(Some((5, 0, 3, 0)), "!"));
        assert_eq!(t, "let x = 1; let y = 2;\n!");
        apply_change(&mut t, change(None, "fn main() {}"));
        assert_eq!(t, "fn main() {}");
    }
}
