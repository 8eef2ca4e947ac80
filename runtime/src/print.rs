//! NumPy-compatible text formatting for `print`.
//!
//! [`format_view`] follows NumPy 2's `str(array)` (`numpy.array2string` with the default options:
//! `precision=8`, `floatmode='maxprec'`, `linewidth=75`, `threshold=1000`, `edgeitems=3`, sign `'-'`):
//!
//! * integers are right-aligned to a common width; booleans print as ` True` / `False`;
//! * floats use the shortest representation that round-trips (at most 8 fractional digits, rounded
//!   beyond that), in fixed notation with a common number of decimals (padded with spaces), e.g.
//!   `[0.  0.5 1. ]`, or in scientific notation when the largest non-zero magnitude is `>= 1e8`, the
//!   smallest is `< 1e-4`, or their ratio exceeds `1e3`, e.g. `[1.e-05 1.e+00]`; `nan`/`inf` are
//!   right-aligned in the column;
//! * n-d arrays nest brackets, with one newline between rows and more between blocks, indented by one
//!   space per level; rows longer than 75 characters wrap;
//! * arrays of more than 1000 elements are summarised: on each axis longer than 6 only the first and
//!   last 3 entries are shown, with `...` between them;
//! * empty arrays print as `[]`, 0-d arrays as their scalar ([`format_scalar`]).
//!
//! [`format_scalar`] follows Python's `repr` of a float (`0.1`, `1.0`, `1e-10`, `1e+16`), `True` /
//! `False` for booleans and plain decimal integers.

use crate::array::{Scalar, View};
use arrayc_core::DType;

const LINE_WIDTH: usize = 75;
const THRESHOLD: i64 = 1000;
const EDGE_ITEMS: i64 = 3;
const PRECISION: usize = 8;

/// Shortest round-trip decimal digits of `|x|` (finite) and the decimal exponent of the first digit:
/// `|x| = d0.d1d2... * 10^exp`. Uses the value's own precision (f32 values get f32-shortest digits).
fn shortest(x: Scalar) -> (String, i32) {
    let s = match x {
        Scalar::F32(v) => format!("{:e}", v.abs()),
        other => format!("{:e}", other.as_f64().abs()),
    };
    split_sci(&s)
}

/// Splits Rust's `{:e}` output (`d.ddde-5`, `de3`) into digits and exponent.
fn split_sci(s: &str) -> (String, i32) {
    let (mant, exp) = s.split_once('e').expect("exponent in {:e} output");
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    (digits, exp.parse().expect("integer exponent"))
}

fn is_negative(x: Scalar) -> bool {
    match x {
        Scalar::F32(v) => v.is_sign_negative(),
        other => other.as_f64().is_sign_negative(),
    }
}

/// Fixed notation, shortest unique digits but at most `precision` fractional digits (rounded exactly
/// beyond that), trailing zeros trimmed (NumPy `dragon4_positional(unique=True, trim='.')`).
/// Returns (integer part with sign, fractional digits).
fn positional(x: Scalar, precision: usize) -> (String, String) {
    let (d, e) = shortest(x);
    let n = d.len() as i32;
    let frac_len = (n - 1 - e).max(0) as usize;
    let (mut ip, fp) = if d == "0" {
        ("0".to_string(), String::new())
    } else if frac_len > precision {
        let s = match x {
            Scalar::F32(v) => format!("{:.*}", precision, v.abs()),
            other => format!("{:.*}", precision, other.as_f64().abs()),
        };
        let (i, f) = s.split_once('.').unwrap_or((&s, ""));
        (i.to_string(), f.trim_end_matches('0').to_string())
    } else if e >= 0 {
        let e = e as usize;
        if d.len() > e + 1 {
            (d[..e + 1].to_string(), d[e + 1..].to_string())
        } else {
            (format!("{}{}", d, "0".repeat(e + 1 - d.len())), String::new())
        }
    } else {
        ("0".to_string(), format!("{}{}", "0".repeat((-e - 1) as usize), d))
    };
    if is_negative(x) {
        ip.insert(0, '-');
    }
    (ip, fp)
}

/// Scientific notation, shortest unique digits but at most `precision` fractional digits, trailing
/// zeros trimmed (NumPy `dragon4_scientific(unique=True, trim='.')`).
/// Returns (integer digit with sign, fractional digits, exponent).
fn scientific(x: Scalar, precision: usize) -> (String, String, i32) {
    let (mut d, mut e) = shortest(x);
    if d.len() > precision + 1 {
        let s = match x {
            Scalar::F32(v) => format!("{:.*e}", precision, v.abs()),
            other => format!("{:.*e}", precision, other.as_f64().abs()),
        };
        (d, e) = split_sci(&s);
        let t = d.trim_end_matches('0').len().max(1);
        d.truncate(t);
    }
    let mut ip = d[..1].to_string();
    if is_negative(x) {
        ip.insert(0, '-');
    }
    (ip, d[1..].to_string(), e)
}

fn exp_string(e: i32, digits: usize) -> String {
    format!("e{}{:0w$}", if e < 0 { '-' } else { '+' }, e.unsigned_abs(), w = digits)
}

fn nonfinite_str(v: f64) -> &'static str {
    if v.is_nan() {
        "nan"
    } else if v < 0.0 {
        "-inf"
    } else {
        "inf"
    }
}

/// Formats a scalar: floats like Python's `repr` (shortest round-trip digits, fixed notation for
/// `1e-4 <= |x| < 1e16` with at least one decimal, otherwise `1e-05` / `1.5e+16` style; `nan`, `inf`,
/// `-inf`), `f32` with its own shortest digits, booleans `True` / `False`, integers in decimal.
pub fn format_scalar(s: Scalar) -> String {
    match s {
        Scalar::Bool(b) => if b { "True" } else { "False" }.to_string(),
        Scalar::U64(v) => v.to_string(),
        Scalar::F64(_) | Scalar::F32(_) => {
            let v = s.as_f64();
            if !v.is_finite() {
                return nonfinite_str(v).to_string();
            }
            let (d, e) = shortest(s);
            let sign = if is_negative(s) { "-" } else { "" };
            if d != "0" && !(-4..16).contains(&e) {
                let frac = if d.len() > 1 { format!(".{}", &d[1..]) } else { String::new() };
                format!("{sign}{}{frac}{}", &d[..1], exp_string(e, 2))
            } else {
                let (ip, fp) = positional(s, usize::MAX);
                format!("{ip}.{}", if fp.is_empty() { "0" } else { &fp })
            }
        }
        // The other integers, all within i64.
        s => s.as_i64().to_string(),
    }
}

/// How to format each element of one array (NumPy's `_get_format_function`).
enum ElemFormat {
    Bool,
    Int { width: usize },
    Float(FloatFormat),
}

struct FloatFormat {
    exp_format: bool,
    pad_left: usize,
    pad_right: usize,
    /// Fractional digits in scientific mode (all values padded with zeros to it).
    precision: usize,
    /// Exponent digits in scientific mode.
    exp_size: usize,
}

impl FloatFormat {
    /// NumPy's `FloatingFormat.fillFormat` for `floatmode='maxprec'`, `sign='-'`.
    fn new(data: &[Scalar], is_f32: bool) -> FloatFormat {
        let finite: Vec<Scalar> = data.iter().copied().filter(|s| s.as_f64().is_finite()).collect();
        let mut exp_format = false;
        let nz: Vec<f64> = finite.iter().map(|s| s.as_f64().abs()).filter(|&v| v != 0.0).collect();
        if !nz.is_empty() {
            let max = nz.iter().copied().fold(f64::MIN, f64::max);
            let min = nz.iter().copied().fold(f64::MAX, f64::min);
            exp_format = if is_f32 {
                // NumPy compares in float32 here (Python floats are weak scalars).
                let (max, min) = (max as f32, min as f32);
                max >= 1e8f32 || min < 1e-4f32 || max / min > 1000f32
            } else {
                max >= 1e8 || min < 1e-4 || max / min > 1000.0
            };
        }
        let mut f = FloatFormat { exp_format, pad_left: 0, pad_right: 0, precision: 0, exp_size: 0 };
        if finite.is_empty() {
            f.exp_format = false;
        } else if exp_format {
            let parts: Vec<_> = finite.iter().map(|&x| scientific(x, PRECISION)).collect();
            let max_exp_digits = parts.iter().map(|p| p.2.unsigned_abs().to_string().len()).max().unwrap_or(1);
            f.exp_size = max_exp_digits.max(2);
            f.precision = parts.iter().map(|p| p.1.len()).max().unwrap_or(0);
            f.pad_left = parts.iter().map(|p| p.0.len()).max().unwrap_or(0);
            f.pad_right = f.exp_size + 2 + f.precision;
        } else {
            let parts: Vec<_> = finite.iter().map(|&x| positional(x, PRECISION)).collect();
            f.pad_left = parts.iter().map(|p| p.0.len()).max().unwrap_or(0);
            f.pad_right = parts.iter().map(|p| p.1.len()).max().unwrap_or(0);
        }
        if finite.len() != data.len() {
            let neginf = data.iter().any(|s| s.as_f64() == f64::NEG_INFINITY) as usize;
            let offset = f.pad_right + 1;
            f.pad_left = f.pad_left.max(3usize.saturating_sub(offset)).max((3 + neginf).saturating_sub(offset));
        }
        f
    }

    fn format(&self, x: Scalar) -> String {
        let v = x.as_f64();
        if !v.is_finite() {
            let ret = nonfinite_str(v);
            let width = self.pad_left + self.pad_right + 1;
            return format!("{ret:>width$}");
        }
        if self.exp_format {
            let (ip, mut fp, e) = scientific(x, PRECISION);
            while fp.len() < self.precision {
                fp.push('0');
            }
            format!("{ip:>w$}.{fp}{}", exp_string(e, self.exp_size), w = self.pad_left)
        } else {
            let (ip, fp) = positional(x, PRECISION);
            format!("{ip:>w$}.{fp:<r$}", w = self.pad_left, r = self.pad_right)
        }
    }
}

impl ElemFormat {
    fn new(dtype: DType, data: &[Scalar]) -> ElemFormat {
        match dtype {
            DType::Bool => ElemFormat::Bool,
            d if d.is_int() => {
                let width = data.iter().map(|s| format_scalar(*s).len()).max().unwrap_or(0);
                ElemFormat::Int { width }
            }
            _ => ElemFormat::Float(FloatFormat::new(data, dtype == DType::F32)),
        }
    }

    fn format(&self, x: Scalar) -> String {
        match self {
            ElemFormat::Bool => if matches!(x, Scalar::Bool(true)) { " True" } else { "False" }.to_string(),
            ElemFormat::Int { width } => format!("{:>w$}", format_scalar(x), w = *width),
            ElemFormat::Float(f) => f.format(x),
        }
    }
}

/// NumPy's `_extendLine`: appends `word` to `line`, first wrapping the line into `s` if it would
/// exceed `width` (unless the line holds only the indent).
fn extend_line(s: &mut String, line: &mut String, word: &str, width: usize, indent: &str) {
    let needs_wrap = line.len() + word.len() > width && line.len() > indent.len();
    if needs_wrap {
        s.push_str(line.trim_end());
        s.push('\n');
        line.clear();
        line.push_str(indent);
    }
    line.push_str(word);
}

struct Printer<'a> {
    view: &'a View,
    fmt: ElemFormat,
    summarize: bool,
}

impl Printer<'_> {
    /// NumPy's `_formatArray.recurser`.
    fn recurse(&self, idx: &mut Vec<i64>, hanging: &str, width: usize) -> String {
        let axis = idx.len();
        let axes_left = self.view.rank() - axis;
        if axes_left == 0 {
            return self.fmt.format(self.view.read_at(self.view.element_offset(idx)));
        }
        let next_hanging = format!("{hanging} ");
        let next_width = width.saturating_sub(1);
        let n = self.view.shape[axis];
        let show_summary = self.summarize && 2 * EDGE_ITEMS < n;
        let (leading, trailing) = if show_summary { (EDGE_ITEMS, EDGE_ITEMS) } else { (0, n) };
        let mut child = |i: i64| {
            idx.push(i);
            let r = self.recurse(idx, &next_hanging, next_width);
            idx.pop();
            r
        };
        let mut s = String::new();
        if axes_left == 1 {
            let elem_width = width.saturating_sub(1);
            let mut line = hanging.to_string();
            for i in 0..leading {
                let w = child(i);
                extend_line(&mut s, &mut line, &w, elem_width, hanging);
                line.push(' ');
            }
            if show_summary {
                extend_line(&mut s, &mut line, "...", elem_width, hanging);
                line.push(' ');
            }
            for i in (2..=trailing).rev() {
                let w = child(n - i);
                extend_line(&mut s, &mut line, &w, elem_width, hanging);
                line.push(' ');
            }
            let w = child(n - 1);
            extend_line(&mut s, &mut line, &w, elem_width, hanging);
            s.push_str(&line);
        } else {
            let line_sep = "\n".repeat(axes_left - 1);
            for i in 0..leading {
                let nested = child(i);
                s.push_str(hanging);
                s.push_str(&nested);
                s.push_str(&line_sep);
            }
            if show_summary {
                s.push_str(hanging);
                s.push_str("...");
                s.push_str(&line_sep);
            }
            for i in (2..=trailing).rev() {
                let nested = child(n - i);
                s.push_str(hanging);
                s.push_str(&nested);
                s.push_str(&line_sep);
            }
            let nested = child(n - 1);
            s.push_str(hanging);
            s.push_str(&nested);
        }
        format!("[{}]", &s[hanging.len()..])
    }
}

/// The indices shown along an axis of length `n`.
fn shown_indices(n: i64, summarize: bool) -> Vec<i64> {
    if summarize && n > 2 * EDGE_ITEMS {
        (0..EDGE_ITEMS).chain(n - EDGE_ITEMS..n).collect()
    } else {
        (0..n).collect()
    }
}

/// Formats an array like NumPy's `str(array)` / `print(array)` (see the module docs). 0-d arrays
/// format as their scalar, empty arrays as `[]`. Multi-line for n-d arrays; no trailing newline.
pub fn format_view(view: &View) -> String {
    if view.rank() == 0 {
        return format_scalar(view.read_at(view.offset));
    }
    if view.is_empty() {
        return "[]".to_string();
    }
    let summarize = view.len() > THRESHOLD;
    // The elements that will be shown (NumPy builds the format from these only).
    let axes: Vec<Vec<i64>> = view.shape.iter().map(|&n| shown_indices(n, summarize)).collect();
    let mut data = Vec::new();
    let mut pos = vec![0usize; axes.len()];
    'outer: loop {
        let idx: Vec<i64> = pos.iter().zip(&axes).map(|(&p, a)| a[p]).collect();
        data.push(view.read_at(view.element_offset(&idx)));
        let mut d = axes.len();
        loop {
            if d == 0 {
                break 'outer;
            }
            d -= 1;
            pos[d] += 1;
            if pos[d] < axes[d].len() {
                break;
            }
            pos[d] = 0;
        }
    }
    let printer = Printer { view, fmt: ElemFormat::new(view.dtype, &data), summarize };
    printer.recurse(&mut Vec::new(), " ", LINE_WIDTH)
}
