//! The `logos` lexer, adapted as an external lexer for the lalrpop parser.
//!
//! [`Lexer`] yields `Result<(start, Tok, end), LexError>` with byte offsets; invalid characters and
//! out-of-range integer literals become [`LexError`]s (turned into diagnostics by [`crate::parse`]),
//! never panics.

use crate::ast::Span;
use logos::Logos;
use std::fmt;

/// One token of the arrayc language.
#[derive(Logos, Clone, Debug, PartialEq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip r"#[^\n]*")]
pub enum Tok {
    #[token("fn")]
    Fn,
    #[token("let")]
    Let,
    #[token("return")]
    Return,
    #[token("for")]
    For,
    #[token("in")]
    In,
    #[token("while")]
    While,
    /// `break` and `continue` (statements of `for` and `while` loops).
    #[token("break")]
    Break,
    #[token("continue")]
    Continue,
    #[token("if")]
    If,
    #[token("else")]
    Else,
    /// `elif`, Python's spelling of `else if`.
    #[token("elif")]
    Elif,
    /// `and`, `or` and `not`: Python's boolean operators on bool scalars, short-circuiting.
    #[token("and")]
    KwAnd,
    #[token("or")]
    KwOr,
    #[token("not")]
    KwNot,
    /// `lambda`, Python's anonymous function (`crate::lambda`).
    #[token("lambda")]
    Lambda,
    #[token("print")]
    Print,
    /// `assert cond;`, `assert cond, "message";` (Python's).
    #[token("assert")]
    Assert,
    /// `true`, also in Python's spelling `True`.
    #[token("true")]
    #[token("True")]
    True,
    /// `false`, also in Python's spelling `False`.
    #[token("false")]
    #[token("False")]
    False,
    /// `newaxis`, and NumPy's spellings of it: `np.newaxis`, `numpy.newaxis` and `None` (which
    /// arrayc has only in this meaning).
    #[token("newaxis")]
    #[token("np.newaxis")]
    #[token("numpy.newaxis")]
    #[token("None")]
    NewAxis,
    #[token("f64")]
    TF64,
    #[token("f32")]
    TF32,
    #[token("i64")]
    TI64,
    #[token("i32")]
    TI32,
    #[token("i16")]
    TI16,
    #[token("i8")]
    TI8,
    #[token("u64")]
    TU64,
    #[token("u32")]
    TU32,
    #[token("u16")]
    TU16,
    #[token("u8")]
    TU8,
    #[token("bool")]
    TBool,

    #[regex(r"[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice().to_string())]
    Ident(String),
    /// A string literal, `"same"` or `'same'` (one line, Python's backslash escapes: [`unescape`]):
    /// its text without the quotes; or Python's triple-quoted string, `"""..."""` or `'''...'''`
    /// (any lines, no escapes), a docstring. arrayc has strings only as keyword arguments' values
    /// (`syntax::keyword_value`), `print`'s arguments and statements of their own (a docstring,
    /// which does nothing).
    #[regex(r#""([^"\\\n]|\\[^\n])*"|'([^'\\\n]|\\[^\n])*'"#, |lex| { let s = lex.slice(); unescape(&s[1..s.len() - 1]) })]
    #[regex(r#""""([^"]|"[^"]|""[^"])*""""#, |lex| { let s = lex.slice(); s[3..s.len() - 3].to_string() })]
    #[regex(r#"'''([^']|'[^']|''[^'])*'''"#, |lex| { let s = lex.slice(); s[3..s.len() - 3].to_string() })]
    Str(String),
    /// Python's f-string, `f"..."` (prefixes `f`, `rf`, `fr` in any case): its whole source text,
    /// prefix and quotes included, which [`crate::print_stmt::fstring`] takes apart.
    FStr(String),
    /// Integer literal, as Python writes them: decimal, `0x1F`, `0o17`, `0b101`, with `_` between
    /// digits (`1_000_000`); `None` when it does not fit an `i64` (reported by the parser front).
    #[regex(r"[0-9](_?[0-9])*", |lex| int_literal(lex.slice()))]
    #[regex(r"0[xX](_?[0-9a-fA-F])+", |lex| int_literal(lex.slice()))]
    #[regex(r"0[oO](_?[0-7])+", |lex| int_literal(lex.slice()))]
    #[regex(r"0[bB](_?[01])+", |lex| int_literal(lex.slice()))]
    Int(Option<i64>),
    #[regex(r"[0-9](_?[0-9])*\.[0-9](_?[0-9])*([eE][+-]?[0-9](_?[0-9])*)?", |lex| float_literal(lex.slice()))]
    #[regex(r"\.[0-9](_?[0-9])*([eE][+-]?[0-9](_?[0-9])*)?", |lex| float_literal(lex.slice()))]
    #[regex(r"[0-9](_?[0-9])*[eE][+-]?[0-9](_?[0-9])*", |lex| float_literal(lex.slice()))]
    #[regex(r"[0-9](_?[0-9])*\.[eE][+-]?[0-9](_?[0-9])*", |lex| float_literal(lex.slice()))]
    /// Float literal: `1.5`, `.5`, `1e3`, `2.5e-3`, `9.e3`, `1_000.5`, and `9.` (Python's, made
    /// from an integer followed by a `.` by [`Lexer`], since a regex cannot tell it from the range
    /// `9..n`).
    Float(f64),

    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token("=")]
    Assign,
    #[token("==")]
    EqEq,
    #[token("!=")]
    Ne,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("**")]
    StarStar,
    #[token("/")]
    Slash,
    #[token("//")]
    SlashSlash,
    #[token("^")]
    Caret,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("%")]
    Percent,
    #[token("@")]
    At,
    #[token("?")]
    Question,
    #[token("~")]
    Tilde,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("+=")]
    PlusEq,
    #[token("-=")]
    MinusEq,
    #[token("*=")]
    StarEq,
    #[token("/=")]
    SlashEq,
    #[token("//=")]
    SlashSlashEq,
    #[token("**=")]
    StarStarEq,
    #[token("%=")]
    PercentEq,
    #[token("^=")]
    CaretEq,
    #[token("<<=")]
    ShlEq,
    #[token(">>=")]
    ShrEq,
    #[token("&=")]
    AmpEq,
    #[token("|=")]
    PipeEq,
    #[token("->")]
    Arrow,
    #[token("..")]
    DotDot,
    #[token("...")]
    Ellipsis,
    /// `.T`, the transpose suffix (`x.T` is `transpose(x)`).
    #[token(".T")]
    DotT,
    /// `.` before an attribute or a method name (`x.shape[0]`, `x.sum()`).
    #[token(".")]
    Dot,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "identifier `{s}`"),
            Tok::Str(s) => write!(f, "string \"{s}\""),
            Tok::FStr(s) => write!(f, "f-string {s}"),
            Tok::Int(Some(v)) => write!(f, "integer `{v}`"),
            Tok::Int(None) => write!(f, "integer literal"),
            Tok::Float(v) => write!(f, "float `{v}`"),
            other => write!(f, "`{}`", other.spelling()),
        }
    }
}

impl Tok {
    /// The source spelling of a fixed token (empty for identifiers and literals).
    pub fn spelling(&self) -> &'static str {
        use Tok::*;
        match self {
            Fn => "fn",
            Let => "let",
            Return => "return",
            For => "for",
            In => "in",
            While => "while",
            Break => "break",
            Continue => "continue",
            If => "if",
            Else => "else",
            Elif => "elif",
            KwAnd => "and",
            KwOr => "or",
            KwNot => "not",
            Lambda => "lambda",
            Print => "print",
            Assert => "assert",
            True => "true",
            False => "false",
            NewAxis => "newaxis",
            TF64 => "f64",
            TF32 => "f32",
            TI64 => "i64",
            TI32 => "i32",
            TI16 => "i16",
            TI8 => "i8",
            TU64 => "u64",
            TU32 => "u32",
            TU16 => "u16",
            TU8 => "u8",
            TBool => "bool",
            Ident(_) | Int(_) | Float(_) | Str(_) | FStr(_) => "",
            LParen => "(",
            RParen => ")",
            LBracket => "[",
            RBracket => "]",
            LBrace => "{",
            RBrace => "}",
            Comma => ",",
            Semi => ";",
            Colon => ":",
            Assign => "=",
            EqEq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            Plus => "+",
            Minus => "-",
            Star => "*",
            StarStar => "**",
            Slash => "/",
            SlashSlash => "//",
            Caret => "^",
            Shl => "<<",
            Shr => ">>",
            Percent => "%",
            At => "@",
            Question => "?",
            Tilde => "~",
            Amp => "&",
            Pipe => "|",
            PlusEq => "+=",
            MinusEq => "-=",
            StarEq => "*=",
            SlashEq => "/=",
            SlashSlashEq => "//=",
            StarStarEq => "**=",
            PercentEq => "%=",
            CaretEq => "^=",
            ShlEq => "<<=",
            ShrEq => ">>=",
            AmpEq => "&=",
            PipeEq => "|=",
            Arrow => "->",
            DotDot => "..",
            Ellipsis => "...",
            DotT => ".T",
            Dot => ".",
        }
    }
}

/// A lexical error: the offending text and where it is.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LexError {
    /// A character (or sequence) that starts no token.
    #[error("invalid token `{text}`")]
    Invalid { text: String, span: Span },
    /// An integer literal that does not fit in an `i64`.
    #[error("integer literal `{text}` does not fit in i64")]
    IntOverflow { text: String, span: Span },
    /// An attribute `x.name` that arrayc does not have (reported by the parser; see
    /// [`crate::methods`]).
    #[error("arrays have no attribute `{name}` in arrayc")]
    Attribute { name: String, span: Span },
    /// A `for` loop over `range(...)` with other than 1 to 3 positional arguments (reported by
    /// the parser).
    #[error("`range(...)` takes 1 to 3 positional arguments")]
    NotARange { span: Span },
    /// `for a, b in it` over anything but `enumerate(x)` (two names) or `zip(x, y, ..)` (a name per
    /// array), reported by the parser (`syntax::for_in_tuple`).
    #[error("`for` with {names} names iterates `enumerate(x)` or `zip(x, y, ..)`")]
    ForTargets { names: usize, span: Span },
    /// A write through a method's result whose view-or-copy arrayc cannot match with NumPy's
    /// (`crate::view_writes`).
    #[error("{message}")]
    ViewWrite { message: String, help: String, span: Span },
    /// A tuple assignment with two starred targets, `*a, *b = t` (Python's SyntaxError; reported
    /// by the parser, `crate::starred_targets`).
    #[error("{message}")]
    Starred { message: String, help: String, span: Span },
    /// A tuple assignment with a tuple of another length than its targets' (reported by the
    /// parser).
    #[error("{targets} targets, {values} values")]
    TupleLength { targets: usize, values: usize, span: Span },
    /// A target of a chained assignment `a = b = e;` that is neither a name nor a name's subscript
    /// (`declare`: of `let a = b = e;`, whose targets are names; reported by the parser).
    #[error("a chained assignment's targets are names or subscripts")]
    NotATarget { declare: bool, span: Span },
    /// A NumPy ufunc method that arrayc does not have, `ufunc.method(...)` (reported by the
    /// parser; see `syntax::ufunc_method`).
    #[error("NumPy's `{ufunc}.{method}` is not in arrayc")]
    UfuncMethod { ufunc: String, method: String, span: Span },
    /// A statement of a name alone other than Python's `pass` (`x;`), reported by the parser
    /// (`syntax::bare_name`).
    #[error("`{name};` is no statement")]
    BareName { name: String, span: Span },
    /// A module-level statement arrayc does not take, or a use of a module-level constant it
    /// cannot give Python's meaning (`syntax::module`).
    #[error("{message}")]
    Module { message: String, help: String, span: Span },
    /// A keyword argument of Python's `math.f(..)`, whose functions arrayc takes by position
    /// (reported by the parser; `syntax::method_call`): never dropped, which would change the value.
    #[error("`{func}` has no keyword argument `{keyword}` in arrayc")]
    MathKeyword { func: String, keyword: String, span: Span },
    /// A function of Python's `math` module that arrayc has not, or a call of one of its functions
    /// with another number of arguments (E0330; `crate::math_more::missing_help`).
    #[error("Python's `math.{name}` is not in arrayc")]
    MathMissing { name: String, span: Span },
    /// A `print` arrayc cannot take: an f-string `f"..."` it cannot parse (unterminated, a field
    /// that is no expression, a conversion `!r`, a nested field in a format spec, ...) or a keyword
    /// argument other than `sep`, `end`, `flush` ([`crate::print_stmt`]); `message` and `help`
    /// say which.
    #[error("{message}")]
    Print { message: String, help: String, span: Span },
    /// Python's identity test with `None`, `x is None`, `x is not None` (`crate::py_refused`).
    #[error("Python's `is None` is not in arrayc")]
    IsNone { negated: bool, span: Span },
    /// A call of a call arrayc cannot do, `f(a)(b)` (`crate::call_of_call`, E0215); `message`
    /// and `help` say which.
    #[error("{message}")]
    CallOfCall { message: String, help: String, span: Span },
}

impl LexError {
    /// Where the error is in the source (bytes).
    pub fn span(&self) -> Span {
        match self {
            LexError::Invalid { span, .. }
            | LexError::IntOverflow { span, .. }
            | LexError::Attribute { span, .. }
            | LexError::NotARange { span }
            | LexError::ForTargets { span, .. }
            | LexError::TupleLength { span, .. }
            | LexError::NotATarget { span, .. }
            | LexError::UfuncMethod { span, .. }
            | LexError::BareName { span, .. }
            | LexError::Module { span, .. }
            | LexError::MathKeyword { span, .. }
            | LexError::MathMissing { span, .. }
            | LexError::Print { span, .. }
            | LexError::Starred { span, .. }
            | LexError::ViewWrite { span, .. }
            | LexError::IsNone { span, .. }
            | LexError::CallOfCall { span, .. } => span.clone(),
        }
    }
}

/// lalrpop-compatible token stream over a source string.
pub struct Lexer<'s> {
    inner: logos::Lexer<'s, Tok>,
    /// Added to every span: where `src` starts in the file (an f-string field's expression).
    offset: usize,
}

impl<'s> Lexer<'s> {
    pub fn new(src: &'s str) -> Self {
        Lexer { inner: Tok::lexer(src), offset: 0 }
    }

    /// The tokens of `src`, a piece of a file that starts at byte `offset` of it.
    pub fn at(src: &'s str, offset: usize) -> Self {
        Lexer { inner: Tok::lexer(src), offset }
    }
}

/// The text of a one-line string literal's body with Python's backslash escapes resolved: `\\`,
/// `\'`, `\"`, `\n`, `\t`, `\r`, `\a`, `\b`, `\f`, `\v`, `\0`, `\xhh`, `\uXXXX`; any other
/// backslash stays, with the character after it (Python's rule for unknown escapes). `None` for
/// a `\x` or `\u` escape without its hex digits or not a character.
pub fn unescape(body: &str) -> Option<String> {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let hex = |n: usize, chars: &mut std::iter::Peekable<std::str::Chars>| -> Option<char> {
            let digits: String = (0..n).filter_map(|_| chars.next()).collect();
            let v = u32::from_str_radix(&digits, 16).ok().filter(|_| digits.len() == n)?;
            char::from_u32(v)
        };
        match e {
            '\\' | '\'' | '"' => out.push(e),
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            '0' if !chars.peek().is_some_and(|d| d.is_ascii_digit()) => out.push('\0'),
            'x' => out.push(hex(2, &mut chars)?),
            'u' => out.push(hex(4, &mut chars)?),
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    Some(out)
}

/// The value of an integer literal as Python reads it (`1_000`, `0xFF`, `0o17`, `0b101`); `None`
/// beyond `i64`.
fn int_literal(text: &str) -> Option<i64> {
    let digits = text.replace('_', "");
    let radix = match digits.get(..2).map(str::to_ascii_lowercase).as_deref() {
        Some("0x") => 16,
        Some("0o") => 8,
        Some("0b") => 2,
        _ => return digits.parse().ok(),
    };
    i64::from_str_radix(&digits[2..], radix).ok()
}

/// The value of a float literal as Python reads it (`1_000.5`).
fn float_literal(text: &str) -> Option<f64> {
    text.replace('_', "").parse().ok()
}

/// A token with its byte span, as lalrpop expects: `(start, token, end)`.
pub type Spanned = Result<(usize, Tok, usize), LexError>;

impl Iterator for Lexer<'_> {
    type Item = Spanned;
    fn next(&mut self) -> Option<Spanned> {
        let mut tok = self.inner.next()?;
        let mut span = self.inner.span();
        let mut text = self.inner.slice().to_string();
        // `9.`: an integer, then a `.` that starts neither `..` (a range) nor an attribute.
        if let Ok(Tok::Int(_)) = tok {
            let rest = self.inner.remainder().as_bytes();
            if rest.first() == Some(&b'.')
                && !rest.get(1).is_some_and(|&c| c == b'.' || c == b'_' || c.is_ascii_alphabetic())
            {
                self.inner.bump(1);
                span.end += 1;
                text.push('.');
                tok = Ok(Tok::Float(float_literal(&text).unwrap_or(f64::INFINITY)));
            }
        }
        if let Ok(Tok::Ident(prefix)) = &tok {
            // Python's f-string: the prefix, then the string right after it.
            let quoted = self.inner.remainder().starts_with(['"', '\'']);
            if quoted && matches!(prefix.to_ascii_lowercase().as_str(), "f" | "rf" | "fr") {
                let raw = prefix.to_ascii_lowercase().contains('r');
                let (o, start) = (self.offset, span.start);
                return Some(match crate::print_stmt::scan_fstring(self.inner.remainder(), raw) {
                    Some(len) => {
                        self.inner.bump(len);
                        let end = self.inner.span().end;
                        Ok((o + start, Tok::FStr(self.inner.source()[start..end].to_string()), o + end))
                    }
                    None => {
                        let end = start
                            + prefix.len()
                            + self.inner.remainder().find('\n').unwrap_or(self.inner.remainder().len());
                        Err(LexError::Print {
                            message: "an unterminated f-string".to_string(),
                            help: "close the f-string with the quote it opened with, on the same line".to_string(),
                            span: o + start..o + end,
                        })
                    }
                });
            }
        }
        let o = self.offset;
        if matches!(&tok, Ok(Tok::Ident(name)) if name == "is") {
            if let Some((negated, len)) = crate::py_refused::is_none(self.inner.remainder()) {
                self.inner.bump(len);
                return Some(Err(LexError::IsNone { negated, span: o + span.start..o + self.inner.span().end }));
            }
        }
        Some(match tok {
            // `0x` without digits: Python's "invalid hexadecimal literal".
            Ok(Tok::Int(None)) if text.len() == 2 && text.starts_with('0') => {
                Err(LexError::Invalid { text, span: o + span.start..o + span.end })
            }
            Ok(Tok::Int(None)) => Err(LexError::IntOverflow { text, span: o + span.start..o + span.end }),
            Ok(t) => Ok((o + span.start, t, o + span.end)),
            Err(()) => Err(LexError::Invalid { text, span: o + span.start..o + span.end }),
        })
    }
}
