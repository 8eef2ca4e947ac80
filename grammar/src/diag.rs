//! Project-owned diagnostics, rendered with `ariadne`.
//!
//! Every diagnostic has a stable code (see `grammar/ERRORS.md` for the table), a severity, a
//! message, a primary [`Label`] (byte span + message), optional secondary labels, notes and a
//! suggested fix (`help`).

use crate::ast::Span;
use ariadne::{CharSet, Config, IndexType, Report, ReportKind, Source};

/// How serious a diagnostic is. Errors stop compilation; warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

/// A byte span of the source with a message shown next to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// One compiler message about the source file.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// Stable code like `"E0101"` (table in `grammar/ERRORS.md`).
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    /// Where the problem is.
    pub primary: Label,
    /// Related places (e.g. the earlier definition of a duplicate).
    pub secondary: Vec<Label>,
    pub notes: Vec<String>,
    /// A suggested fix.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error with code `code`, message `message`, primary label at `span`.
    pub fn error(code: &'static str, message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            primary: Label { span, message: label.into() },
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// A warning (same shape as [`Diagnostic::error`]).
    pub fn warning(code: &'static str, message: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, message, span, label) }
    }

    /// Adds a secondary label.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label { span, message: message.into() });
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Sets the suggested fix.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The primary span's 1-based (line, column) in `source`.
    pub fn line_col(&self, source: &str) -> (usize, usize) {
        line_col(source, self.primary.span.start)
    }

    /// Renders the diagnostic as text with source excerpts (ariadne). `color = false` gives plain
    /// text without ANSI escapes (used by tests and lit). Spans outside `source` are clamped.
    /// When a labelled line is longer than [`MAX_EXCERPT_LINE`] bytes (generated code), the
    /// excerpt would be that long too: the diagnostic is rendered without excerpts instead.
    pub fn render(&self, file_name: &str, source: &str, color: bool) -> String {
        let long_line = |off: usize| {
            let off = off.min(source.len());
            let start = source[..off].rfind('\n').map_or(0, |i| i + 1);
            let end = source[off..].find('\n').map_or(source.len(), |i| off + i);
            end - start > MAX_EXCERPT_LINE
        };
        if std::iter::once(&self.primary).chain(&self.secondary).any(|l| long_line(l.span.start)) {
            return self.render_without_excerpts(file_name, source);
        }
        let clamp = |s: &Span| -> Span {
            let mut a = s.start.min(source.len());
            let mut b = s.end.min(source.len()).max(a);
            while a > 0 && !source.is_char_boundary(a) {
                a -= 1;
            }
            while b < source.len() && !source.is_char_boundary(b) {
                b += 1;
            }
            a..b
        };
        let kind = match self.severity {
            Severity::Error => ReportKind::Error,
            Severity::Warning => ReportKind::Warning,
        };
        let config = Config::default().with_color(color).with_index_type(IndexType::Byte).with_char_set(if color {
            CharSet::Unicode
        } else {
            CharSet::Ascii
        });
        let id = file_name.to_string();
        let primary = clamp(&self.primary.span);
        let mut b = Report::build(kind, (id.clone(), primary.clone()))
            .with_config(config)
            .with_code(self.code)
            .with_message(&self.message)
            .with_label(ariadne::Label::new((id.clone(), primary)).with_message(&self.primary.message).with_order(0));
        for (i, l) in self.secondary.iter().enumerate() {
            b = b.with_label(
                ariadne::Label::new((id.clone(), clamp(&l.span))).with_message(&l.message).with_order(i as i32 + 1),
            );
        }
        for n in &self.notes {
            b = b.with_note(n);
        }
        if let Some(h) = &self.help {
            b = b.with_help(h);
        }
        let mut out = Vec::new();
        let res = b.finish().write((id, Source::from(source)), &mut out);
        let mut s = String::from_utf8_lossy(&out).into_owned();
        if res.is_err() || s.is_empty() {
            let (l, c) = self.line_col(source);
            s = format!("error[{}]: {} at {file_name}:{l}:{c}\n", self.code, self.message);
        }
        s
    }
}

/// Lines longer than this many bytes are not quoted in rendered diagnostics.
pub const MAX_EXCERPT_LINE: usize = 400;

impl Diagnostic {
    /// The diagnostic as plain lines with `file:line:col` positions and no source excerpts.
    fn render_without_excerpts(&self, file_name: &str, source: &str) -> String {
        let kind = match self.severity {
            Severity::Error => "Error",
            Severity::Warning => "Warning",
        };
        let (l, c) = self.line_col(source);
        let mut s =
            format!("[{}] {kind}: {}\n  at {file_name}:{l}:{c}: {}\n", self.code, self.message, self.primary.message);
        for lab in &self.secondary {
            let (l, c) = line_col(source, lab.span.start);
            s += &format!("  at {file_name}:{l}:{c}: {}\n", lab.message);
        }
        for n in &self.notes {
            s += &format!("  Note: {n}\n");
        }
        if let Some(h) = &self.help {
            s += &format!("  Help: {h}\n");
        }
        s
    }
}

/// The start offsets of the lines of one source, for [`line_col`] lookups in `O(log lines)` plus the
/// length of the line, where [`line_col`] scans from the start of the file (the lowering asks once
/// per operation: a scan each time made it quadratic in the file's length).
#[derive(Clone, Debug)]
pub struct LineIndex<'s> {
    source: &'s str,
    /// Byte offset of the first character of each line.
    starts: Vec<usize>,
}

impl<'s> LineIndex<'s> {
    /// The source text of `span` (empty when it is not a range of the source).
    pub fn text(&self, span: &std::ops::Range<usize>) -> &'s str {
        self.source.get(span.clone()).unwrap_or("")
    }

    /// Indexes the lines of `source`.
    pub fn new(source: &'s str) -> Self {
        let starts = std::iter::once(0).chain(source.match_indices('\n').map(|(i, _)| i + 1)).collect();
        LineIndex { source, starts }
    }
    /// The same as [`line_col`]`(source, byte_offset)`.
    pub fn line_col(&self, byte_offset: usize) -> (usize, usize) {
        let mut off = byte_offset.min(self.source.len());
        while off > 0 && !self.source.is_char_boundary(off) {
            off -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= off);
        let col = self.source[self.starts[line - 1]..off].chars().count() + 1;
        (line, col)
    }
}

/// 1-based `(line, column)` of a byte offset in `source`; the column counts characters.
/// Offsets past the end give the position just after the last character.
pub fn line_col(source: &str, byte_offset: usize) -> (usize, usize) {
    let mut off = byte_offset.min(source.len());
    while off > 0 && !source.is_char_boundary(off) {
        off -= 1;
    }
    let before = &source[..off];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let col = source[line_start..off].chars().count() + 1;
    (line, col)
}
