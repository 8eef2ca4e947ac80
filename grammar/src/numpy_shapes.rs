//! NumPy's everyday shape and indexing idioms (issue 31): the one reading of their arguments that
//! the checker (`check/numpy_shapes.rs`) and the lowering (`passes/src/lower_ast/numpy_shapes.rs`)
//! share: `transpose`'s axes, `rot90`'s turn, `pad`'s `mode=`, `meshgrid`'s `indexing=`.

use crate::ast::{Expr, ExprKind, Ident};
use crate::check::literal_int;

/// The axes of `transpose(x, ...)` as written after `x` (`args`, the positional arguments after
/// `x`; `axes`, the keyword's value): one tuple `(2, 0, 1)`, or the method's separate integers
/// `x.transpose(2, 0, 1)`; `Ok(None)` when none are given (the axes reversed); `Err(e)` for the
/// expression that is not integer literals.
pub fn transpose_axes<'a>(args: &'a [Expr], axes: Option<&'a Expr>) -> Result<Option<Vec<i64>>, &'a Expr> {
    let tuple = |e: &'a Expr| -> Result<Vec<i64>, &'a Expr> {
        match &e.kind {
            ExprKind::Tuple(items) | ExprKind::List(items) => items.iter().map(|i| literal_int(i).ok_or(i)).collect(),
            _ => literal_int(e).map(|k| vec![k]).ok_or(e),
        }
    };
    match (args, axes) {
        ([], None) => Ok(None),
        ([], Some(a)) | ([a], None) => tuple(a).map(Some),
        (_, Some(a)) => Err(a),
        (many, None) => many.iter().map(|i| literal_int(i).ok_or(i)).collect::<Result<_, _>>().map(Some),
    }
}

/// Whether axes `axes` (each in `-r..r`) are a permutation of the `r` axes; the permutation with
/// negative axes counted from the end, else `None`.
pub fn permutation(axes: &[i64], r: usize) -> Option<Vec<usize>> {
    if axes.len() != r || axes.iter().any(|&a| a < -(r as i64) || a >= r as i64) {
        return None;
    }
    let perm: Vec<usize> = axes.iter().map(|a| a.rem_euclid(r as i64) as usize).collect();
    let mut seen = vec![false; r];
    for &p in &perm {
        if std::mem::replace(&mut seen[p], true) {
            return None;
        }
    }
    Some(perm)
}

/// `rot90(x, k, axes)`'s arguments as written: `k` (positional or `k=`) and `axes` (positional or
/// `axes=`), each when given.
pub fn rot90_args<'a>(args: &'a [Expr], kwargs: &'a [(Ident, Expr)]) -> (Option<&'a Expr>, Option<&'a Expr>) {
    let kw = |name: &str| kwargs.iter().find(|(k, _)| k.name == name).map(|(_, v)| v);
    (args.get(1).or(kw("k")), args.get(2).or(kw("axes")))
}

/// NumPy's `rot90` as a view: the axes of `x` to flip (`arr.view` with step -1), then whether to
/// swap axes `a` and `b` (`arr.transpose`), for `k` quarter turns from axis `a` towards axis `b`
/// (`k` any integer, taken mod 4: `k = 1` flips `b` and swaps; 2 flips both; 3 flips `a` and swaps).
pub fn rot90_plan(k: i64, a: usize, b: usize) -> (Vec<usize>, bool) {
    match k.rem_euclid(4) {
        0 => (vec![], false),
        1 => (vec![b], true),
        2 => (vec![a, b], false),
        _ => (vec![a], true),
    }
}

/// `pad`'s `mode=` (NumPy's strings): how the padding is filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadMode {
    /// `constant` (the default): `constant_values`.
    Constant,
    /// `edge`: the edge value of each axis repeated.
    Edge,
    /// `wrap`: the array repeated periodically.
    Wrap,
    /// `reflect`: mirrored about the edge values (which are not repeated).
    Reflect,
    /// `symmetric`: mirrored along the edges (the edge values repeated).
    Symmetric,
}

/// The mode that `pad`'s `mode=` value `e` names, else `None`.
pub fn pad_mode(e: &Expr) -> Option<PadMode> {
    match &e.kind {
        ExprKind::Var(id) => match id.name.as_str() {
            "constant" => Some(PadMode::Constant),
            "edge" => Some(PadMode::Edge),
            "wrap" => Some(PadMode::Wrap),
            "reflect" => Some(PadMode::Reflect),
            "symmetric" => Some(PadMode::Symmetric),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `meshgrid`'s `indexing=` value `e` is `ij` (`Some(true)`) or `xy` (`Some(false)`, the
/// default), else `None`.
pub fn meshgrid_ij(e: &Expr) -> Option<bool> {
    match &e.kind {
        ExprKind::Var(id) if id.name == "ij" => Some(true),
        ExprKind::Var(id) if id.name == "xy" => Some(false),
        _ => None,
    }
}

/// NumPy's `tile(x, reps)` of a tuple of repetitions: `x`'s shape and `reps` brought to one
/// length by prepending 1s to the shorter (`one` and `rep_one`, each side's 1), so that result
/// axis `a` is `shape[a] * reps[a]`. The checker (sizes) and the lowering (run-time sizes) both
/// align them with this one rule.
pub fn tile_axes<S: Clone, R: Clone>(shape: Vec<S>, reps: Vec<R>, one: S, rep_one: R) -> (Vec<S>, Vec<R>) {
    fn pad<T: Clone>(v: Vec<T>, one: T, r: usize) -> Vec<T> {
        std::iter::repeat_n(one, r - v.len()).chain(v).collect()
    }
    let r = shape.len().max(reps.len());
    (pad(shape, one, r), pad(reps, rep_one, r))
}
