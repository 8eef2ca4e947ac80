//! Python's format specification mini-language (`format(value, spec)`, the part after `:` in an
//! f-string field, <https://docs.python.org/3/library/string.html#formatspec>) for arrayc's
//! scalars: parsed and checked against a dtype at compile time ([`FormatSpec::parse`],
//! [`FormatSpec::check`]), applied at run time ([`FormatSpec::apply`]). NumPy's scalars format
//! as Python's: floats (`f64`, and `f32` converted to `f64`, as `np.float32.__format__` does) as
//! `float`, integers as `int`, booleans as `int` (0 or 1) under a non-empty spec.
//!
//! Supported: `[[fill]align][sign]["z"]["#"]["0"][width][grouping]["." precision][type]` with
//! align `< > ^ =`, sign `+ - space`, grouping `,` or `_`, and the types `e E f F g G %` and none
//! for floats, `b d o x X` and none (and the float types, which convert) for integers. Python's
//! `c` and `n` types are refused by [`FormatSpec::check`].
//!
//! A spec that starts with `!s` is Python's `!s` conversion (`f"{x!s:>8}"`, and what `"%8s" % x`
//! does): the value's `str` (as `print` writes it), then formatted as a string: fill, align (left
//! by default), width and precision (the first characters), no sign, `#`, `0` or grouping.

use crate::{DType, Scalar};

/// Where padding goes when the text is shorter than the width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Align {
    Left,
    Right,
    Center,
    /// Between the sign (and `0x`-style prefix) and the digits.
    AfterSign,
}

/// A parsed format spec (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatSpec {
    fill: Option<char>,
    align: Option<Align>,
    /// `+`, ` `, or `-` (the default).
    sign: char,
    /// `z`: a negative zero (after rounding) prints as a positive one.
    no_neg_zero: bool,
    /// `#`: the alternate form.
    alternate: bool,
    /// `0` before the width.
    zero: bool,
    /// Minimum width, in characters.
    width: usize,
    /// `,` or `_` between groups of digits.
    grouping: Option<char>,
    /// Digits after the point (`f`, `e`, `%`) or significant digits (`g`, none).
    precision: Option<usize>,
    ty: Option<char>,
    /// `!s`: format the value's `str` as a string.
    str_conv: bool,
    /// The spec as written (for messages).
    text: String,
}

const FLOAT_TYPES: &str = "eEfFgG%";
const INT_TYPES: &str = "bdoxX";

impl FormatSpec {
    /// Parses `spec` (Python's syntax). Errors: Python's `ValueError` text for a spec that is not
    /// in the mini-language (`Invalid format specifier ...`).
    pub fn parse(full: &str) -> Result<FormatSpec, String> {
        let (str_conv, spec) = match full.strip_prefix("!s") {
            Some(rest) => (true, rest),
            None => (false, full),
        };
        let invalid = || format!("Invalid format specifier '{spec}'");
        let chars: Vec<char> = spec.chars().collect();
        let mut i = 0;
        let align_of = |c: char| match c {
            '<' => Some(Align::Left),
            '>' => Some(Align::Right),
            '^' => Some(Align::Center),
            '=' => Some(Align::AfterSign),
            _ => None,
        };
        let (mut fill, mut align) = (None, None);
        if chars.len() >= 2 && align_of(chars[1]).is_some() {
            (fill, align) = (Some(chars[0]), align_of(chars[1]));
            i = 2;
        } else if let Some(a) = chars.first().and_then(|&c| align_of(c)) {
            align = Some(a);
            i = 1;
        }
        let mut sign = '-';
        if let Some(&c @ ('+' | '-' | ' ')) = chars.get(i) {
            sign = c;
            i += 1;
        }
        let flag = |i: &mut usize, f: char| -> bool {
            let there = chars.get(*i) == Some(&f);
            *i += there as usize;
            there
        };
        let no_neg_zero = flag(&mut i, 'z');
        let alternate = flag(&mut i, '#');
        let zero = flag(&mut i, '0');
        let digits = |i: &mut usize| -> Option<usize> {
            let start = *i;
            while chars.get(*i).is_some_and(|c| c.is_ascii_digit()) {
                *i += 1;
            }
            (*i > start).then(|| chars[start..*i].iter().collect::<String>().parse().unwrap_or(usize::MAX))
        };
        let width = digits(&mut i).unwrap_or(0);
        let grouping = match chars.get(i) {
            Some(&c @ (',' | '_')) => {
                i += 1;
                Some(c)
            }
            _ => None,
        };
        let mut precision = None;
        if flag(&mut i, '.') {
            precision = Some(digits(&mut i).ok_or_else(|| "Format specifier missing precision".to_string())?);
        }
        let ty = chars.get(i).copied();
        if i + ty.is_some() as usize != chars.len() || ty.is_some_and(|c| !c.is_ascii_alphabetic() && c != '%') {
            return Err(invalid());
        }
        if width > 10_000 || precision.is_some_and(|p| p > 10_000) {
            return Err(format!("the width or precision of '{spec}' is over 10000"));
        }
        Ok(FormatSpec {
            fill,
            align,
            sign,
            no_neg_zero,
            alternate,
            zero,
            width,
            grouping,
            precision,
            ty,
            str_conv,
            text: full.to_string(),
        })
    }

    /// Whether the spec is empty (`f"{x}"`: Python's `format(x, "")`, the value's `str` but for
    /// `f32`, whose text is that of the `f64` it converts to).
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Checks that a scalar of `dtype` can be formatted with this spec. Errors: Python's
    /// `ValueError` text where Python raises one, or what arrayc does not support (`c`, `n`).
    pub fn check(&self, dtype: DType) -> Result<(), String> {
        if self.str_conv {
            return self.check_str();
        }
        let float = dtype.is_float();
        let (ty, spec) = (self.ty, &self.text);
        let kind = if float { "float" } else { "int" };
        match ty {
            Some(c @ ('c' | 'n')) => {
                return Err(format!("the format type '{c}' (in '{spec}') is not in arrayc: use 'd' or 'g'"))
            }
            Some(c) if !FLOAT_TYPES.contains(c) && (float || !INT_TYPES.contains(c)) => {
                return Err(format!("Unknown format code '{c}' for object of type '{kind}'"))
            }
            _ => {}
        }
        let int_format = !float && ty.is_none_or(|c| INT_TYPES.contains(c));
        if int_format && self.precision.is_some() {
            return Err("Precision not allowed in integer format specifier".to_string());
        }
        if int_format && self.no_neg_zero {
            return Err("Negative zero coercion (z) not allowed in integer format specifier".to_string());
        }
        if let (Some(','), Some(c @ ('b' | 'o' | 'x' | 'X'))) = (self.grouping, ty) {
            return Err(format!("Cannot specify ',' with '{c}'."));
        }
        Ok(())
    }

    /// Checks a `!s` spec as Python's string format spec.
    fn check_str(&self) -> Result<(), String> {
        let what = "in string format specifier";
        match () {
            _ if self.ty.is_some_and(|c| c != 's') => {
                Err(format!("Unknown format code '{}' for object of type 'str'", self.ty.unwrap_or('s')))
            }
            _ if self.sign != '-' => Err(format!("Sign not allowed {what}")),
            _ if self.alternate => Err(format!("Alternate form (#) not allowed {what}")),
            _ if self.no_neg_zero => Err(format!("Negative zero coercion (z) not allowed {what}")),
            _ if self.align == Some(Align::AfterSign) => Err(format!("'=' alignment not allowed {what}")),
            _ if self.grouping.is_some() => Err(format!("Cannot specify '{}' with 's'.", self.grouping.unwrap_or(','))),
            _ => Ok(()),
        }
    }

    /// Whether the spec takes an array: empty, or `!s` alone (NumPy's `str` of the array).
    pub fn takes_arrays(&self) -> bool {
        self.text.is_empty() || self.text == "!s"
    }

    /// Formats `s` (a spec [`FormatSpec::check`]ed for its dtype) as Python's `format(s, spec)`.
    /// `plain` is the value's `str` for an empty spec and the float repr of the no-type,
    /// no-precision case (`arrayc_runtime::print::format_scalar` of the `f64` value).
    pub fn apply(&self, s: Scalar, plain: &dyn Fn(Scalar) -> String) -> String {
        if self.str_conv {
            return self.pad_str(&plain(s));
        }
        if self.is_empty() {
            return match s {
                Scalar::F32(v) => plain(Scalar::F64(v as f64)),
                _ => plain(s),
            };
        }
        let float_ty = self.ty.is_some_and(|c| FLOAT_TYPES.contains(c));
        let (negative, prefix, body) = match s {
            Scalar::F64(_) | Scalar::F32(_) => self.float_body(s.as_f64(), plain),
            _ if float_ty => self.float_body(s.as_f64(), plain),
            Scalar::U64(v) => self.int_body(false, v as u128),
            Scalar::Bool(b) => self.int_body(false, b as u128),
            s => self.int_body(s.as_i64() < 0, s.as_i64().unsigned_abs() as u128),
        };
        let sign = match (negative, self.sign) {
            (true, _) => "-",
            (false, '+') => "+",
            (false, ' ') => " ",
            _ => "",
        };
        self.pad(sign, prefix, body)
    }

    /// Sign, prefix (`0x`, ...) and digits of an integer's magnitude `v`.
    fn int_body(&self, negative: bool, v: u128) -> (bool, &'static str, String) {
        let (digits, prefix, group) = match self.ty {
            Some('b') => (format!("{v:b}"), "0b", 4),
            Some('o') => (format!("{v:o}"), "0o", 4),
            Some('x') => (format!("{v:x}"), "0x", 4),
            Some('X') => (format!("{v:X}"), "0X", 4),
            _ => (v.to_string(), "", 3),
        };
        let prefix = if self.alternate { prefix } else { "" };
        let extra = prefix.len() + self.sign_width(negative);
        (negative, prefix, self.group(&digits, group, extra))
    }

    /// Sign and text of a float's magnitude (`v` any `f64`).
    fn float_body(&self, v: f64, plain: &dyn Fn(Scalar) -> String) -> (bool, &'static str, String) {
        let upper = self.ty.is_some_and(|c| c.is_ascii_uppercase());
        let mut negative = v.is_sign_negative() && !v.is_nan();
        let a = v.abs();
        let mut text = if !a.is_finite() {
            let t = if a.is_nan() { "nan" } else { "inf" };
            let t = if upper { t.to_uppercase() } else { t.to_string() };
            if self.ty == Some('%') {
                t + "%"
            } else {
                t
            }
        } else {
            match (self.ty, self.precision) {
                (Some('f' | 'F'), p) => self.fixed(a, p.unwrap_or(6)),
                (Some('%'), p) => self.fixed(a * 100.0, p.unwrap_or(6)) + "%",
                (Some('e' | 'E'), p) => self.sci(a, p.unwrap_or(6), upper),
                (Some('g' | 'G'), p) => self.general(a, p.unwrap_or(6).max(1), upper, false),
                (_, Some(p)) => self.general(a, p.max(1), false, true),
                (_, None) => plain(Scalar::F64(a)),
            }
        };
        if negative && self.no_neg_zero && a.is_finite() && text.bytes().all(|c| !(b'1'..=b'9').contains(&c)) {
            negative = false;
        }
        if a.is_finite() {
            let int_end = text.find(['.', 'e', 'E', '%']).unwrap_or(text.len());
            let extra = self.sign_width(negative) + text[int_end..].chars().count();
            let grouped = self.group(&text[..int_end], 3, extra);
            text = grouped + &text[int_end..];
        }
        (negative, "", text)
    }

    /// `a` (finite, not negative) with `p` digits after the point.
    fn fixed(&self, a: f64, p: usize) -> String {
        let s = format!("{a:.p$}");
        if self.alternate && p == 0 {
            s + "."
        } else {
            s
        }
    }

    /// `a` (finite, not negative) as `d.ddde+XX` with `p` digits after the point.
    fn sci(&self, a: f64, p: usize, upper: bool) -> String {
        let s = format!("{a:.p$e}");
        let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let point = if self.alternate && p == 0 { "." } else { "" };
        let e = if upper { 'E' } else { 'e' };
        format!("{mant}{point}{e}{}{:02}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs())
    }

    /// Python's `g` with `p >= 1` significant digits; `none_type`: the no-type form with a
    /// precision (scientific from an exponent of `p - 1`, at least one digit after the point).
    fn general(&self, a: f64, p: usize, upper: bool, none_type: bool) -> String {
        let exp = if a == 0.0 {
            0
        } else {
            let s = format!("{a:.prec$e}", prec = p - 1);
            s.split_once('e').and_then(|(_, e)| e.parse::<i64>().ok()).unwrap_or(0)
        };
        let limit = if none_type { p as i64 - 1 } else { p as i64 };
        let keep_zeros = self.alternate;
        if (-4..limit).contains(&exp) {
            let mut s = format!("{a:.prec$}", prec = (p as i64 - 1 - exp) as usize);
            if !keep_zeros && s.contains('.') {
                s = s.trim_end_matches('0').trim_end_matches('.').to_string();
            }
            if none_type && !s.contains('.') {
                s.push_str(".0");
            } else if keep_zeros && !s.contains('.') {
                s.push('.');
            }
            s
        } else {
            let s = self.sci(a, p - 1, upper);
            if keep_zeros {
                return s;
            }
            let (mant, rest) = s.split_at(s.find(['e', 'E']).unwrap_or(s.len()));
            let mant = if mant.contains('.') { mant.trim_end_matches('0').trim_end_matches('.') } else { mant };
            format!("{mant}{rest}")
        }
    }

    /// `digits` with the grouping separator every `every` digits from the right; where the
    /// spec pads with zeros after the sign, leading zeros are added (and grouped, as Python's)
    /// until the text with `extra` more characters fills the width.
    fn group(&self, digits: &str, every: usize, extra: usize) -> String {
        let zero_pad = self.zero_fill() && self.align.is_none_or(|a| a == Align::AfterSign);
        let sep = match self.grouping {
            Some(sep) => sep,
            None => return digits.to_string(),
        };
        let mut d = digits.to_string();
        loop {
            let n = d.len();
            let mut out = String::with_capacity(n + n / every);
            for (k, c) in d.chars().enumerate() {
                if k > 0 && (n - k).is_multiple_of(every) {
                    out.push(sep);
                }
                out.push(c);
            }
            if !zero_pad || out.chars().count() + extra >= self.width {
                return out;
            }
            d.insert(0, '0');
        }
    }

    /// Characters the sign takes (0 or 1).
    fn sign_width(&self, negative: bool) -> usize {
        (negative || self.sign != '-') as usize
    }

    fn zero_fill(&self) -> bool {
        self.zero && self.fill.is_none()
    }

    /// A string `t` (a `!s` conversion's) cut to the precision and padded to the width, on the
    /// left by default.
    pub fn pad_str(&self, t: &str) -> String {
        let t: String = match self.precision {
            Some(p) => t.chars().take(p).collect(),
            None => t.to_string(),
        };
        let n = self.width.saturating_sub(t.chars().count());
        let run = |k: usize| self.fill.unwrap_or(' ').to_string().repeat(k);
        match self.align {
            Some(Align::Right) => format!("{}{t}", run(n)),
            Some(Align::Center) => format!("{}{t}{}", run(n / 2), run(n - n / 2)),
            _ => format!("{t}{}", run(n)),
        }
    }

    /// Pads `sign + prefix + body` to the width.
    fn pad(&self, sign: &str, prefix: &str, body: String) -> String {
        let len = sign.chars().count() + prefix.len() + body.chars().count();
        if len >= self.width {
            return format!("{sign}{prefix}{body}");
        }
        let fill = self.fill.unwrap_or(if self.zero { '0' } else { ' ' });
        let align = self.align.unwrap_or(if self.zero { Align::AfterSign } else { Align::Right });
        let n = self.width - len;
        let run = |k: usize| fill.to_string().repeat(k);
        match align {
            Align::Left => format!("{sign}{prefix}{body}{}", run(n)),
            Align::Right => format!("{}{sign}{prefix}{body}", run(n)),
            Align::Center => format!("{}{sign}{prefix}{body}{}", run(n / 2), run(n - n / 2)),
            Align::AfterSign => format!("{sign}{prefix}{}{body}", run(n)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `str` of a scalar as `print` writes it (the runtime's `format_scalar`, for these values).
    fn plain(s: Scalar) -> String {
        match s {
            Scalar::Bool(b) => if b { "True" } else { "False" }.to_string(),
            _ => format!("{:?}", s.as_f64()),
        }
    }

    /// Expected texts are Python 3.11's `format(value, spec)` (run by hand; the pytest suite
    /// `test_fstrings.py` compares many more with Python itself).
    #[test]
    fn formats_as_python() {
        let cases: &[(Scalar, &str, &str)] = &[
            (Scalar::F64(1234567.891), ",.2f", "1,234,567.89"),
            (Scalar::F64(1234.5), ".4", "1.234e+03"),
            (Scalar::F64(123.0), ".4", "123.0"),
            (Scalar::F64(1.0), ".0", "1e+00"),
            (Scalar::F64(3.0), "#g", "3.00000"),
            (Scalar::F64(-0.0), "z.1f", "0.0"),
            (Scalar::F64(0.1), "%", "10.000000%"),
            (Scalar::F64(f64::NAN), "F", "NAN"),
            (Scalar::I64(-42), "=9", "-      42"),
            (Scalar::I64(42), "*^9", "***42****"),
            (Scalar::I64(255), "#x", "0xff"),
            (Scalar::I64(255), "_b", "1111_1111"),
            (Scalar::I64(1234), "09,", "0,001,234"),
            (Scalar::I64(5), "e", "5.000000e+00"),
            (Scalar::Bool(true), ">6", "     1"),
            (Scalar::Bool(true), "!s>6", "  True"),
            (Scalar::F64(1.5), "!s^7.2", "  1.   "),
        ];
        for &(v, spec, want) in cases {
            let f = FormatSpec::parse(spec).unwrap();
            f.check(v.dtype()).unwrap();
            assert_eq!(f.apply(v, &plain), want, "format({v:?}, {spec:?})");
        }
    }

    #[test]
    fn refuses_as_python() {
        let check = |spec: &str, dt| FormatSpec::parse(spec).and_then(|f| f.check(dt));
        assert_eq!(check("d", DType::F64).unwrap_err(), "Unknown format code 'd' for object of type 'float'");
        assert_eq!(check(".2d", DType::I64).unwrap_err(), "Precision not allowed in integer format specifier");
        assert_eq!(check(",x", DType::I64).unwrap_err(), "Cannot specify ',' with 'x'.");
        assert!(check("10.2fx", DType::F64).unwrap_err().starts_with("Invalid format specifier"));
    }
}
