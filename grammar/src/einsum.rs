//! NumPy's `einsum` subscripts (`"ij,jk->ik"`, `"ii"`, `"...ij->...ji"`): the one parser of them,
//! which the checker (`check/numpy_more.rs`, the result type and the errors) and the lowering
//! (`passes/src/lower_ast/numpy_more.rs`, views, one product and one sum) both use, so that the
//! two read a subscripts string alike.
//!
//! The rules are NumPy's (`numpy/_core/src/multiarray/einsum.c.src`, `parse_operand_subscripts`
//! and `parse_output_subscripts`): one comma-separated term per operand, each a letter per axis
//! (spaces ignored), at most one `...` standing for the axes no letter names (aligned from the
//! right across operands, as broadcasting aligns them); an explicit output after `->` names each
//! of its letters once, each a letter of some operand; the implicit output (no `->`) is the
//! `...` axes, then the letters that appear exactly once, in ASCII order (`'B'` before `'a'`). A
//! letter repeated within one term takes that operand's diagonal; a letter missing from the
//! output is summed over.

use crate::ast::{Expr, ExprKind};
use crate::check::literal_int;
use crate::types::Size;

/// One axis label: a letter (its ASCII code), or axis `k` of the broadcast `...` axes
/// ([`ELLIPSIS`]` + k`, `k` counted from the first of them).
pub type AxisLabel = u32;

/// The label of the first `...` axis ([`AxisLabel`]); letters are below it.
pub const ELLIPSIS: AxisLabel = 256;

/// A parsed subscripts string for operands of known ranks: a label per axis of each operand and
/// of the output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Einsum {
    /// Per operand, the label of each of its axes (the `...` expanded), in axis order.
    pub inputs: Vec<Vec<AxisLabel>>,
    /// The label of each output axis, in order (no label twice).
    pub output: Vec<AxisLabel>,
}

/// Why a subscripts string does not fit its operands: NumPy's ValueError text, and whether it is
/// a wrong number of operands (the checker's E0501, else E0503).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EinsumError {
    /// The message, NumPy's words.
    pub message: String,
    /// Whether the count of terms differs from the count of operands.
    pub operand_count: bool,
}

fn error(message: impl Into<String>) -> EinsumError {
    EinsumError { message: message.into(), operand_count: false }
}

/// The letters of one term and where its `...` stands (the count of letters before it).
struct Term {
    letters: Vec<AxisLabel>,
    ellipsis: Option<usize>,
}

/// One term (`what` names it in errors: "operand 0", "the output").
fn term(text: &str, what: &str) -> Result<Term, EinsumError> {
    let mut letters = vec![];
    let mut ellipsis = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' => {}
            '.' => {
                let dots = chars.next() == Some('.') && chars.next() == Some('.');
                if !dots || ellipsis.is_some() {
                    return Err(error(format!(
                        "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in {what}"
                    )));
                }
                ellipsis = Some(letters.len());
            }
            c if c.is_ascii_alphabetic() => letters.push(c as AxisLabel),
            c => {
                return Err(error(format!(
                    "invalid subscript '{c}' in einstein sum subscripts string, subscripts must be letters"
                )))
            }
        }
    }
    Ok(Term { letters, ellipsis })
}

/// A label as NumPy writes it in messages (`'i'`, or `'...'` for a broadcast axis).
pub fn label_name(l: AxisLabel) -> String {
    match char::from_u32(l).filter(|_| l < ELLIPSIS) {
        Some(c) => format!("'{c}'"),
        None => "'...'".to_string(),
    }
}

/// Parses `subscripts` for operands of `ranks`: a label per axis of each operand and of the
/// output, or NumPy's error. Sizes are not looked at ([`Einsum::label_sizes`] pairs them).
pub fn parse(subscripts: &str, ranks: &[usize]) -> Result<Einsum, EinsumError> {
    let (lhs, rhs) = match subscripts.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (subscripts, None),
    };
    if lhs.contains(['-', '>']) || rhs.is_some_and(|r| r.contains(['-', '>'])) {
        return Err(error("einstein sum subscript string does not contain proper '->' output specified"));
    }
    let terms: Vec<&str> = lhs.split(',').collect();
    if terms.len() != ranks.len() {
        // (NumPy's own words here are inverted, "fewer operands provided" for too many.)
        return Err(EinsumError {
            message: format!(
                "the subscripts string has {} comma-separated terms, one per operand, but {} operands were given",
                terms.len(),
                ranks.len()
            ),
            operand_count: true,
        });
    }
    let terms: Vec<Term> =
        terms.iter().enumerate().map(|(k, t)| term(t, &format!("operand {k}"))).collect::<Result<_, _>>()?;
    // The count of `...` axes of each operand, and of the broadcast `...` (the most).
    let mut dots = vec![];
    for (k, (t, &r)) in terms.iter().zip(ranks).enumerate() {
        if t.letters.len() > r {
            return Err(error(format!("einstein sum subscripts string contains too many subscripts for operand {k}")));
        }
        match t.ellipsis {
            Some(_) => dots.push(r - t.letters.len()),
            None if t.letters.len() < r => {
                return Err(error(
                    "operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis \
                     provided to broadcast the extra dimensions.",
                ))
            }
            None => dots.push(0),
        }
    }
    let most = dots.iter().copied().max().unwrap_or(0);
    let inputs: Vec<Vec<AxisLabel>> = terms
        .iter()
        .zip(&dots)
        .map(|(t, &e)| {
            let at = t.ellipsis.unwrap_or(t.letters.len());
            let broadcast = (most - e..most).map(|k| ELLIPSIS + k as AxisLabel);
            t.letters[..at].iter().copied().chain(broadcast).chain(t.letters[at..].iter().copied()).collect()
        })
        .collect();
    let dotted: Vec<AxisLabel> = (0..most).map(|k| ELLIPSIS + k as AxisLabel).collect();
    let output = match rhs {
        None => {
            let mut once: Vec<AxisLabel> = terms
                .iter()
                .flat_map(|t| t.letters.iter().copied())
                .filter(|l| terms.iter().map(|t| t.letters.iter().filter(|m| *m == l).count()).sum::<usize>() == 1)
                .collect();
            once.sort_unstable();
            dotted.into_iter().chain(once).collect()
        }
        Some(r) => {
            let t = term(r, "the output")?;
            for (i, l) in t.letters.iter().enumerate() {
                if t.letters[..i].contains(l) {
                    return Err(error(format!(
                        "einstein sum subscripts string includes output subscript {} multiple times",
                        label_name(*l)
                    )));
                }
                if !terms.iter().any(|u| u.letters.contains(l)) {
                    return Err(error(format!(
                        "einstein sum subscripts string included output subscript {} which never appeared in an input",
                        label_name(*l)
                    )));
                }
            }
            if t.ellipsis.is_none() && most > 0 {
                return Err(error(
                    "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis \
                     provided to broadcast the extra dimensions.",
                ));
            }
            let at = t.ellipsis.unwrap_or(t.letters.len());
            t.letters[..at].iter().copied().chain(dotted).chain(t.letters[at..].iter().copied()).collect()
        }
    };
    Ok(Einsum { inputs, output })
}

/// How [`Einsum::matmul`] computes an einsum as one matrix product `a @ b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Matmul {
    /// Whether the product's left operand is the second operand (`'jk,ij->ik'`).
    pub swap: bool,
    /// Whether the left operand is read transposed (`'ji,jk->ik'`).
    pub transpose_lhs: bool,
    /// Whether the right operand is read transposed (`'ij,kj->ik'`).
    pub transpose_rhs: bool,
}

impl Einsum {
    /// The labels summed over: those of the operands not in the output, in the order they
    /// first appear.
    pub fn contracted(&self) -> Vec<AxisLabel> {
        let mut out: Vec<AxisLabel> = vec![];
        for l in self.inputs.iter().flatten() {
            if !self.output.contains(l) && !out.contains(l) {
                out.push(*l);
            }
        }
        out
    }

    /// Every label once: the output's, then the contracted ones ([`Einsum::contracted`]); the
    /// axes of the product the lowering forms before summing its trailing axes.
    pub fn all_labels(&self) -> Vec<AxisLabel> {
        self.output.iter().copied().chain(self.contracted()).collect()
    }

    /// Whether it is exactly one 2-d matrix product of its two operands, the output possibly
    /// transposed (`'ij,jk->ik'`, `'ij,kj->ki'`, `'ij,jk'`): two 2-d operands of distinct labels
    /// that share one, which is summed, and an output of the other two. Then `Some`: which
    /// operand comes first and which are read transposed, so that `a @ b` is the output.
    pub fn matmul(&self) -> Option<Matmul> {
        let [a, b] = self.inputs.as_slice() else { return None };
        let distinct = |v: &[AxisLabel]| v.len() == 2 && v[0] != v[1];
        if !distinct(a) || !distinct(b) || self.output.len() != 2 || self.contracted().len() != 1 {
            return None;
        }
        let k = self.contracted()[0];
        let &[i, j] = self.output.as_slice() else { return None };
        // The operand holding the output's first label is the product's left one.
        let (lhs, rhs, swap) = if a.contains(&i) && b.contains(&j) {
            (a, b, false)
        } else if b.contains(&i) && a.contains(&j) {
            (b, a, true)
        } else {
            return None;
        };
        if !lhs.contains(&k) || !rhs.contains(&k) {
            return None;
        }
        Some(Matmul { swap, transpose_lhs: lhs[0] == k, transpose_rhs: rhs[1] == k })
    }
}

/// Two sizes of one label that cannot go together ([`Einsum::label_sizes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeConflict {
    /// The label.
    pub label: AxisLabel,
    /// The operand of the first size and of the second (the same for a diagonal).
    pub operands: (usize, usize),
    /// The two sizes.
    pub sizes: (i64, i64),
}

impl SizeConflict {
    /// NumPy's message for it.
    pub fn message(&self) -> String {
        let (l, (p, q), (m, n)) = (label_name(self.label), self.operands, self.sizes);
        if p == q {
            format!("dimensions in operand {p} for collapsing index {l} don't match ({m} != {n})")
        } else {
            format!("operands could not be broadcast together: index {l} has size {m} in operand {p} and {n} in operand {q}")
        }
    }
}

impl Einsum {
    /// The size of each label ([`Einsum::all_labels`]' order), from the operands' `shapes`: the
    /// sizes of one label must be equal, or 1 across operands (broadcast, as NumPy's); `None`
    /// where two of them are different symbols (decided at run time). Sizes known to differ are a
    /// [`SizeConflict`].
    pub fn label_sizes(&self, shapes: &[Vec<Size>]) -> Result<Vec<Option<Size>>, SizeConflict> {
        let mut out = vec![];
        for l in self.all_labels() {
            let mut size: Option<(usize, Size)> = None;
            let mut symbolic_clash = false;
            for (k, (labels, shape)) in self.inputs.iter().zip(shapes).enumerate() {
                for (_, z) in labels.iter().zip(shape).filter(|(m, _)| **m == l) {
                    let Some((p, prev)) = &size else {
                        size = Some((k, z.clone()));
                        continue;
                    };
                    let diagonal = *p == k;
                    match (prev.as_const(), z.as_const()) {
                        (Some(m), Some(n)) if m != n && (diagonal || (m != 1 && n != 1)) => {
                            return Err(SizeConflict { label: l, operands: (*p, k), sizes: (m, n) })
                        }
                        (Some(1), _) if !diagonal => size = Some((k, z.clone())),
                        (_, Some(1)) => {}
                        _ if prev != z => symbolic_clash = true,
                        _ => {}
                    }
                }
            }
            out.push(if symbolic_clash { None } else { size.map(|(_, z)| z) });
        }
        Ok(out)
    }

    /// Why arrayc cannot compute it although NumPy can: a letter repeated in an operand that is
    /// not 2-d, or three times (arrayc takes diagonals of matrices only); `None` when it can.
    pub fn unsupported(&self) -> Option<String> {
        for (k, labels) in self.inputs.iter().enumerate() {
            let repeated = labels.iter().enumerate().any(|(i, l)| labels[..i].contains(l));
            if repeated && (labels.len() != 2) {
                let text: String =
                    labels.iter().map(|&l| char::from_u32(l).filter(|_| l < ELLIPSIS).unwrap_or('.')).collect();
                return Some(format!(
                    "a letter repeated in operand {k} (`{text}`), a {}-d array: arrayc takes the diagonal of 2-d \
                     operands only",
                    labels.len()
                ));
            }
        }
        None
    }
}

/// NumPy's `tensordot(a, b, axes)` of operands of ranks `ra` and `rb` as an einsum: `axes` is
/// `None` (NumPy's default, 2), an integer literal `n` (the last `n` axes of `a` with the first
/// `n` of `b`, in order) or a pair of axes of `a` and of `b` (each an integer literal or a tuple
/// or list of them, negative from the end), summed pairwise. The output is `a`'s other axes, then
/// `b`'s, in order. Errors: NumPy's words (an axis out of range, twice, pairs of other lengths),
/// or a message naming the forms when `axes` is none of them.
pub fn tensordot(axes: Option<&Expr>, ra: usize, rb: usize) -> Result<Einsum, EinsumError> {
    let ints = |e: &Expr| -> Option<Vec<i64>> {
        match &e.kind {
            ExprKind::Tuple(items) | ExprKind::List(items) => items.iter().map(literal_int).collect(),
            _ => literal_int(e).map(|k| vec![k]),
        }
    };
    let forms = "`axes=` of `tensordot` must be an integer literal or a pair of axes of `a` and `b` \
                 (integer literals or tuples of them): `axes=2`, `axes=(1, 0)`, `axes=((1, 2), (0, 1))`";
    let last_first = |n: i64| -> Result<(Vec<i64>, Vec<i64>), EinsumError> {
        if n > ra.min(rb) as i64 {
            return Err(error(format!(
                "`axes={n}` sums the last {n} axes of `a` with the first {n} of `b`, but they are {ra}-d and {rb}-d"
            )));
        }
        Ok(((ra as i64 - n..ra as i64).collect(), (0..n).collect()))
    };
    let (xa, xb): (Vec<i64>, Vec<i64>) = match axes.map(|e| &e.kind) {
        None => last_first(2)?,
        Some(ExprKind::Tuple(pair) | ExprKind::List(pair)) if pair.len() == 2 => {
            match (ints(&pair[0]), ints(&pair[1])) {
                (Some(a), Some(b)) => (a, b),
                _ => return Err(error(forms)),
            }
        }
        Some(_) => match axes.and_then(literal_int) {
            Some(n) if n < 0 => {
                return Err(error(format!("`axes={n}`: the number of axes summed must not be negative")))
            }
            Some(n) => last_first(n)?,
            None => return Err(error(forms)),
        },
    };
    if xa.len() != xb.len() {
        return Err(error(format!("shape-mismatch for sum: {} axes of `a` paired with {} of `b`", xa.len(), xb.len())));
    }
    let norm = |axes: &[i64], r: usize, which: &str| -> Result<Vec<usize>, EinsumError> {
        let mut out: Vec<usize> = vec![];
        for &k in axes {
            let a = if k < 0 { k + r as i64 } else { k };
            if !(0..r as i64).contains(&a) {
                return Err(error(format!("axis {k} is out of bounds for `{which}`, an array of dimension {r}")));
            }
            if out.contains(&(a as usize)) {
                return Err(error(format!("axis {k} of `{which}` is summed twice")));
            }
            out.push(a as usize);
        }
        Ok(out)
    };
    let (xa, xb) = (norm(&xa, ra, "a")?, norm(&xb, rb, "b")?);
    if ra + rb - xa.len() > 52 {
        return Err(error("tensordot of more than 52 axes"));
    }
    let letter = |k: usize| AxisLabel::from(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[k]);
    let la: Vec<AxisLabel> = (0..ra).map(letter).collect();
    let mut next = ra;
    let lb: Vec<AxisLabel> = (0..rb)
        .map(|k| match xb.iter().position(|&b| b == k) {
            Some(p) => la[xa[p]],
            None => {
                next += 1;
                letter(next - 1)
            }
        })
        .collect();
    let free_b = lb.iter().copied().filter(|l| !la.contains(l));
    let output = (0..ra).filter(|k| !xa.contains(k)).map(|k| la[k]).chain(free_b).collect();
    Ok(Einsum { inputs: vec![la, lb], output })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(s: &str) -> Vec<AxisLabel> {
        s.chars().map(|c| c as AxisLabel).collect()
    }

    #[test]
    fn explicit_and_implicit_outputs_are_numpys() {
        let e = parse("ij,jk->ik", &[2, 2]).unwrap();
        assert_eq!((e.inputs.clone(), e.output.clone()), (vec![l("ij"), l("jk")], l("ik")));
        assert_eq!(e.contracted(), l("j"));
        assert_eq!(parse("ij,jk", &[2, 2]).unwrap().output, l("ik"));
        assert_eq!(parse("ba", &[2]).unwrap().output, l("ab"));
        assert_eq!(parse("aB", &[2]).unwrap().output, l("Ba"));
        assert_eq!(parse("ii", &[2]).unwrap().output, l(""));
        assert_eq!(parse("i j", &[2]).unwrap().output, l("ij"));
    }

    #[test]
    fn ellipses_align_from_the_right() {
        let e = parse("...ij,...jk", &[3, 2]).unwrap();
        assert_eq!(e.inputs, vec![vec![ELLIPSIS, 'i' as u32, 'j' as u32], l("jk")]);
        assert_eq!(e.output, vec![ELLIPSIS, 'i' as u32, 'k' as u32]);
        let e = parse("i...->...", &[3]).unwrap();
        assert_eq!(e.output, vec![ELLIPSIS, ELLIPSIS + 1]);
    }

    #[test]
    fn malformed_subscripts_are_numpys_errors() {
        for (s, ranks, words) in [
            ("ij,jk->ikk", &[2, 2][..], "multiple times"),
            ("ij,jk", &[2, 2, 2], "2 comma-separated terms, one per operand, but 3"),
            ("ij", &[2, 2], "1 comma-separated terms, one per operand, but 2"),
            ("ij->q", &[2], "never appeared"),
            ("i1", &[2], "must be letters"),
            ("..i", &[2], "not part of an ellipsis"),
            ("ijk", &[2], "too many subscripts"),
            ("i", &[2], "more dimensions than subscripts"),
            ("i-j", &[2], "proper '->'"),
            ("...i,i->i", &[2, 1], "output has more dimensions"),
        ] {
            let err = parse(s, ranks).unwrap_err();
            assert!(err.message.contains(words), "{s}: {}", err.message);
        }
    }

    #[test]
    fn matrix_products_are_recognised_with_their_transposes() {
        let m = |s: &str| parse(s, &[2, 2]).unwrap().matmul();
        let plain = Matmul { swap: false, transpose_lhs: false, transpose_rhs: false };
        assert_eq!(m("ij,jk->ik"), Some(plain));
        assert_eq!(m("ij,jk"), Some(plain));
        assert_eq!(m("ij,kj->ik"), Some(Matmul { transpose_rhs: true, ..plain }));
        assert_eq!(m("ji,jk->ik"), Some(Matmul { transpose_lhs: true, ..plain }));
        assert_eq!(m("ij,jk->ki"), Some(Matmul { swap: true, transpose_lhs: true, transpose_rhs: true }));
        assert_eq!(m("ij,ij->ij"), None);
        assert_eq!(m("ij,jk->"), None);
        assert_eq!(m("ii,ik->ik"), None);
    }

    #[test]
    fn tensordot_axes_are_numpys() {
        let e = tensordot(None, 3, 3).unwrap();
        assert_eq!((e.inputs, e.output), (vec![l("abc"), l("bcd")], l("ad")));
        let e = tensordot(None, 2, 2).unwrap();
        assert_eq!((e.inputs, e.output), (vec![l("ab"), l("ab")], l("")));
        assert!(tensordot(None, 1, 2).unwrap_err().message.contains("1-d and 2-d"));
    }
}
