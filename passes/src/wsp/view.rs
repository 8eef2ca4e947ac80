//! View relations used by the dependency and fusibility analysis (Defs. 11-12):
//! [`relation`] classifies two views as disjoint, identical or (partially) overlapping.
//!
//! Exact when offsets/shapes/strides are constant after substituting the region's `bindings`
//! (element enumeration up to [`ENUM_LIMIT`] elements, interval reasoning beyond); conservative
//! (overlap assumed) when symbolic and not provably identical.
use super::region::{View, ViewFacts};
use super::sym::SymExpr;
use arrayc_core::shape::element_range;
use std::collections::HashMap;

/// Views with at most this many elements are compared by enumerating their element sets.
pub const ENUM_LIMIT: i64 = 1 << 14;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// No common element (different bases, or provably disjoint).
    Disjoint,
    /// Same base, offset, shape and strides.
    Identical,
    /// Share (or may share) an element without being identical.
    Overlap,
}

/// A view with every size known: `(offset, shape, strides)`, in elements.
type Concrete = (i64, Vec<i64>, Vec<i64>);

fn concrete(v: &View, b: &HashMap<String, i64>) -> Option<Concrete> {
    let off = v.offset.eval(b)?;
    let sh: Option<Vec<i64>> = v.shape.iter().map(|s| s.eval(b)).collect();
    let st: Option<Vec<i64>> = v.strides.iter().map(|s| s.eval(b)).collect();
    Some((off, sh?, st?))
}

/// The element positions of a (small) view, sorted and without repeats, in i128 so that no sum of
/// offset and strides overflows.
fn elems(off: i64, sh: &[i64], st: &[i64]) -> Vec<i128> {
    let mut out = vec![];
    if sh.iter().any(|&d| d <= 0) {
        return out;
    }
    let mut idx = vec![0i64; sh.len()];
    loop {
        out.push(off as i128 + idx.iter().zip(st).map(|(&i, &s)| i as i128 * s as i128).sum::<i128>());
        let mut d = sh.len();
        loop {
            if d == 0 {
                out.sort_unstable();
                out.dedup();
                return out;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < sh[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

/// The greatest common divisor of `|x|` and `|y|` (`gcd(0, 0) = 0`), saturating at `i64::MAX`.
fn gcd(mut x: i64, mut y: i64) -> i64 {
    while y != 0 {
        (x, y) = (y, x % y);
    }
    x.saturating_abs()
}

/// Are two index sets `{a + g k}` and `{b + g k}` (over integers `k`) apart, given `d = a - b`?
/// For `g >= 2` when `d` is not a multiple of `g`; for `g = 0` (each set a single index) when
/// `d != 0`; never for `g = 1`. Shared by the concrete [`lattice_disjoint`] and the parity proof of
/// [`symbolic_disjoint`].
fn residues_apart(d: i128, g: i64) -> bool {
    match g {
        0 => d != 0,
        1 => false,
        g => d.rem_euclid(g as i128) != 0,
    }
}

/// Do two views lie on disjoint residue classes? Every element of a view is its offset plus a
/// combination of its strides, so with `g` the gcd of all strides of both views (of dimensions with
/// more than one element), the views are disjoint when their offsets differ modulo `g`: the red and
/// black points of a red-black sweep (step-2 slices one element apart), at any size.
fn lattice_disjoint(a: (i64, &[i64], &[i64]), b: (i64, &[i64], &[i64])) -> bool {
    let g = [a, b]
        .iter()
        .flat_map(|(_, sh, st)| sh.iter().zip(st.iter()).filter(|(n, _)| **n > 1).map(|(_, s)| *s))
        .fold(0, gcd);
    g > 1 && residues_apart(a.0 as i128 - b.0 as i128, g)
}

/// [`elems`] of a concrete view `(offset, shape, strides)`, remembered per thread: building a region's
/// graph asks for the same views' relations many times (every pair of operations that touch them).
/// At most [`ELEMS_CACHE_ENTRIES`] views are kept; past that the cache starts over.
fn cached_elems(v: &Concrete) -> std::rc::Rc<Vec<i128>> {
    thread_local! {
        static CACHE: std::cell::RefCell<HashMap<Concrete, std::rc::Rc<Vec<i128>>>> =
            std::cell::RefCell::new(HashMap::new());
    }
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if let Some(e) = c.get(v) {
            return e.clone();
        }
        if c.len() >= ELEMS_CACHE_ENTRIES {
            c.clear();
        }
        let e = std::rc::Rc::new(elems(v.0, &v.1, &v.2));
        c.insert(v.clone(), e.clone());
        e
    })
}

/// The most views whose elements [`cached_elems`] keeps per thread (each at most [`ENUM_LIMIT`]
/// elements of 16 bytes: at most 64 MiB).
const ELEMS_CACHE_ENTRIES: usize = 256;

/// Whether two sorted element lists have no element in common (a merge).
fn sorted_disjoint(a: &[i128], b: &[i128]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return false,
        }
    }
    true
}

/// Are two views with the same `strides` (shapes `sa`, `sb`) disjoint when the second starts `diff`
/// elements after the first? They share an element exactly when `diff = sum_i k_i * strides_i` for
/// index differences `-(sb_i - 1) <= k_i <= sa_i - 1`. A depth-first search over the dimensions,
/// largest stride first, keeps only the `k_i` that leave a remainder the remaining dimensions can
/// still reach; for views whose strides nest (row-major slices with steps) that is at most a few
/// candidates per dimension. `Some(true)`: disjoint; `Some(false)`: they share an element (the
/// search found one: exact); `None` when the search exceeds its node limit.
fn same_strides_disjoint(diff: i64, sa: &[i64], sb: &[i64], strides: &[i64]) -> Option<bool> {
    const NODE_LIMIT: usize = 10_000;
    let mut dims: Vec<(i64, i64, i64)> =
        (0..strides.len()).filter(|&i| sa[i] > 1 || sb[i] > 1).map(|i| (strides[i], -(sb[i] - 1), sa[i] - 1)).collect();
    if sa.iter().chain(sb).any(|&n| n <= 0) {
        return Some(true); // an empty view touches nothing
    }
    dims.sort_by_key(|d| std::cmp::Reverse(d.0.abs()));
    // reach[i]: the largest |sum| the dimensions from i on can make.
    let mut reach = vec![0i64; dims.len() + 1];
    for i in (0..dims.len()).rev() {
        let (s, lo, hi) = dims[i];
        reach[i] = reach[i + 1].saturating_add(s.abs().saturating_mul(lo.abs().max(hi.abs())));
    }
    let mut nodes = 0usize;
    // Some(true): a solution exists; Some(false): none; None: node limit reached.
    fn solve(
        i: usize,
        r: i64,
        dims: &[(i64, i64, i64)],
        reach: &[i64],
        nodes: &mut usize,
        limit: usize,
    ) -> Option<bool> {
        *nodes += 1;
        if *nodes > limit {
            return None;
        }
        if i == dims.len() {
            return Some(r == 0);
        }
        let (s, lo, hi) = dims[i];
        if s == 0 {
            return solve(i + 1, r, dims, reach, nodes, limit);
        }
        // k with |r - k s| <= reach[i + 1]: k in [(r - reach) / s, (r + reach) / s] (s may be negative).
        let (a, b) = ((r as f64 - reach[i + 1] as f64) / s as f64, (r as f64 + reach[i + 1] as f64) / s as f64);
        let (kmin, kmax) = ((a.min(b).ceil() as i64).max(lo), (a.max(b).floor() as i64).min(hi));
        for k in kmin..=kmax {
            // An overflowing remainder: give up (maybe overlapping), as at the node limit.
            let next = k.checked_mul(s).and_then(|ks| r.checked_sub(ks))?;
            match solve(i + 1, next, dims, reach, nodes, limit) {
                Some(false) => {}
                other => return other,
            }
        }
        Some(false)
    }
    solve(0, diff, &dims, &reach, &mut nodes, NODE_LIMIT).map(|shared| !shared)
}

/// The largest number of small values of a view pair's one symbol that [`symbolic_disjoint`]
/// checks one by one, below the value from which its proof holds.
pub const SYMBOLIC_ENUM_VALUES: i64 = 16;

/// Are two symbolic views of one base disjoint for every value of the symbols? `true` only when
/// proven ([`super::prove::Prover`]); `false` means "maybe not".
///
/// Hypotheses: `facts` and that both views exist ([`ViewFacts::valid`]). Under them alone the
/// forms must be the real views ([`ViewFacts::exact_if`]); then an empty form is an empty view,
/// which touches nothing, and under the further hypothesis that every extent is at least 1 the
/// proof needs one of:
/// * *intervals*: with every stride's sign proven, the first element of one view comes after the
///   last of the other (rows `[0, n)` and `[n, 2n)`; `H[0, :]` and `H[1:, 1:-1]`);
/// * *residues*: every stride a constant, and the offsets a constant apart that is not a multiple
///   of the strides' gcd (`x[::2]` and `x[1::2]` of a vector of `2n`);
/// * *columns*: for a modulus `P = q x + c` (a stride `k x + e` with one atom `x`, divided by a
///   common divisor of `k` and `e`: the row length of a row-major base, also where the stride is
///   a step-2 slice's `2 (n + 2)`), every stride of both views is a constant multiple of `P` (rows)
///   or a constant (columns), the offsets' remainders `r` (`off = Q P + r`, `r` free of `x`), plus
///   a whole number of rows and the column dimensions, stay within `[0, P - 1]` in both views.
///   Every element `e` of either view is then `row * P + col` with `col = e mod P`, one way only,
///   so the views are disjoint when their columns are: disjoint intervals (`H[:, 0]`, `H[:, 1]`,
///   `H[:, n + 1]` and `H[1:, 1:-1]` of an `(n+2) x (n+2)` grid) or first columns a constant
///   apart that is not a multiple of the gcd of the column strides (`H[:, 1::2]`, `H[:, 2::2]`);
///   or when their rows are: first rows a constant apart that is not a multiple of the gcd of the
///   row multiples (sor's red and black sub-grids `H[1:-1:2, 1:-1:2]` and `H[2:-1:2, 1:-1:2]`,
///   at every size, odd or even).
///
/// Where the proof fails and the pair has one symbol `s` with a lower bound `lo`, it is retried
/// under `s >= t` for `t` up to `lo + SYMBOLIC_ENUM_VALUES`, and the values `lo .. t` are checked
/// one by one with the concrete [`relation`] (`H[:, 0]` and `H[:, 1]` at `n = -1`: a 1 x 1 grid).
pub fn symbolic_disjoint(a: &View, b: &View, facts: &[SymExpr]) -> bool {
    if a.base != b.base {
        return true;
    }
    let hyps: Vec<SymExpr> = a.facts.valid.iter().chain(&b.facts.valid).chain(facts).cloned().collect();
    let nonempty: Vec<SymExpr> = a.shape.iter().chain(&b.shape).map(|d| d - &SymExpr::constant(1)).collect();
    if decide(a, b, &hyps, &nonempty) {
        return true;
    }
    let mut syms: Vec<String> = [a, b]
        .iter()
        .flat_map(|v| v.shape.iter().chain(&v.strides).chain(std::iter::once(&v.offset)).chain(&v.facts.exact_if))
        .flat_map(|e| e.symbols())
        .collect();
    syms.sort();
    syms.dedup();
    let [s] = syms.as_slice() else { return false };
    let x = SymExpr::sym(s);
    // From the hypotheses alone: below it a view's form may be empty where the view is not.
    let Some(lo) = super::prove::Prover::new(&hyps).lower_bound(&super::sym::Atom::Sym(s.clone())) else {
        return false;
    };
    let at = |v: i64| {
        let b1 = HashMap::from([(s.clone(), v)]);
        let val = |e: &SymExpr| e.eval(&b1);
        // No such pair at this value (a view that cannot exist, or an empty one): nothing to
        // check. (A fact of other symbols cannot be evaluated: left out, which only checks more.)
        if hyps.iter().filter_map(val).any(|h| h < 0) {
            return true;
        }
        // Where the forms are the views, an empty form (an extent <= 0) touches nothing: two
        // empty forms of one place are not "identical" for this purpose (a step slice of a
        // 0 x 0 grid).
        let empty = |v: &View| v.shape.iter().any(|d| val(d).is_some_and(|d| d <= 0));
        a.facts.exact_if.iter().chain(&b.facts.exact_if).all(|g| val(g).is_some_and(|g| g >= 0))
            && (empty(a) || empty(b) || relation(a, b, &b1) == Relation::Disjoint)
    };
    let mut checked = lo;
    for t in lo.saturating_add(1)..=lo.saturating_add(SYMBOLIC_ENUM_VALUES) {
        if !at(checked) {
            return false;
        }
        checked = t;
        let mut h = hyps.clone();
        h.push(&x - &SymExpr::constant(t));
        if decide(a, b, &h, &nonempty) {
            return true;
        }
    }
    false
}

/// [`symbolic_disjoint`]'s proof under `hyps`, without the enumeration: the forms are the views
/// under `hyps` alone (a form may be empty where the view is not), and disjoint where moreover
/// both are `nonempty` (where the forms are the views, an empty form is an empty view).
fn decide(a: &View, b: &View, hyps: &[SymExpr], nonempty: &[SymExpr]) -> bool {
    if !super::prove::Prover::new(hyps).all_nonneg(a.facts.exact_if.iter().chain(&b.facts.exact_if)) {
        return false;
    }
    let all: Vec<SymExpr> = hyps.iter().chain(nonempty).cloned().collect();
    let p = super::prove::Prover::new(&all);
    let one = SymExpr::constant(1);
    let apart = |lo_a: &SymExpr, hi_a: &SymExpr, lo_b: &SymExpr, hi_b: &SymExpr| {
        p.nonneg(&(&(lo_b - hi_a) - &one)) || p.nonneg(&(&(lo_a - hi_b) - &one))
    };
    // The first and last element of a view along the dimensions `dims` (extent, stride) from `start`.
    let span = |start: &SymExpr, dims: &[(SymExpr, SymExpr)]| -> Option<(SymExpr, SymExpr)> {
        let (mut lo, mut hi) = (start.clone(), start.clone());
        for (n, st) in dims {
            let reach = &(n - &one) * st;
            if p.nonneg(st) {
                hi = hi + reach;
            } else if p.nonneg(&-st.clone()) {
                lo = lo + reach;
            } else {
                return None;
            }
        }
        Some((lo, hi))
    };
    let dims = |v: &'_ View| -> Vec<(SymExpr, SymExpr)> {
        v.shape
            .iter()
            .zip(&v.strides)
            .filter(|(n, st)| n.as_const() != Some(1) && st.as_const() != Some(0))
            .map(|(n, st)| (n.clone(), st.clone()))
            .collect()
    };
    let (da, db) = (dims(a), dims(b));
    if let (Some((la, ha)), Some((lb, hb))) = (span(&a.offset, &da), span(&b.offset, &db)) {
        if apart(&la, &ha, &lb, &hb) {
            return true;
        }
    }
    // Parity: every stride a constant, the offsets a constant apart (`x[::2]` and `x[1::2]` of
    // a vector of symbolic length).
    let const_gcd = |d: &[(SymExpr, SymExpr)]| d.iter().try_fold(0, |g, (_, st)| Some(gcd(g, st.as_const()?)));
    if let (Some(ga), Some(gb), Some(diff)) = (const_gcd(&da), const_gcd(&db), (&a.offset - &b.offset).as_const()) {
        if residues_apart(diff as i128, gcd(ga, gb)) {
            return true;
        }
    }
    // Rows and columns modulo a row length P = q x + c (q >= 1): every stride `k x + e` with a
    // single atom `x` offers P = (k x + e) / j for each common divisor j of k and e (a step-2 row
    // stride `2n + 4` offers `n + 2`, the row length).
    let mut moduli: Vec<(SymExpr, super::sym::Atom, i64)> = vec![];
    for (_, st) in da.iter().chain(&db) {
        let atoms = st.atoms();
        let [x] = atoms.as_slice() else { continue };
        let (k, e) = (st.coefficient(&vec![x.clone()]), st.coefficient(&vec![]));
        if k == 0 || st.terms().count() != 1 + usize::from(e != 0) {
            continue;
        }
        let g = gcd(k, e);
        for j in (1..=g.min(MODULUS_DIVISORS)).filter(|j| g % j == 0) {
            let q = k.abs() / j;
            let modulus = &(&SymExpr::atom(x.clone()) * &SymExpr::constant(q)) + &SymExpr::constant(k.signum() * e / j);
            let m = (modulus, x.clone(), q);
            if !moduli.contains(&m) {
                moduli.push(m);
            }
        }
    }
    for (modulus, x, q) in moduli {
        if !p.nonneg(&(&modulus - &one)) {
            continue;
        }
        let xm: super::sym::Monomial = vec![x.clone()];
        // `off = Q P + r` as polynomials, `r` free of `x`: for q = 1 the offset at `x = -c`
        // (any polynomial in `x`); otherwise the offset must be linear in `x` with a coefficient
        // divisible by q.
        let remainder = |off: &SymExpr| -> Option<SymExpr> {
            if q == 1 {
                let c = modulus.coefficient(&vec![]);
                return Some(off.map_atoms(&mut |y| (y == &x).then(|| SymExpr::constant(-c))));
            }
            let b = off.coefficient(&xm);
            let r = off - &(&modulus * &SymExpr::constant(b / q));
            (b % q == 0 && !r.atoms().contains(&x)).then_some(r)
        };
        // A view's column dimensions (constant strides), row multiples (strides `m P`) and
        // remainder, or None if a stride is neither.
        let columns = |v: &View, d: &[(SymExpr, SymExpr)]| -> Option<(SymExpr, Vec<Dim>, Vec<i64>)> {
            let (mut cols, mut rows) = (vec![], vec![]);
            for (n, st) in d {
                if st.is_const() {
                    cols.push((n.clone(), st.clone()));
                    continue;
                }
                let k = st.coefficient(&xm);
                if k % q != 0 || st != &(&modulus * &SymExpr::constant(k / q)) {
                    return None;
                }
                rows.push(k / q);
            }
            Some((remainder(&v.offset)?, cols, rows))
        };
        let (Some((ra, ca, rows_a)), Some((rb, cb, rows_b))) = (columns(a, &da), columns(b, &db)) else { continue };
        // The column range of a view: its remainder plus a whole number `k` of rows (`H[:, n]`:
        // remainder -2, column n = -2 + P), within [0, P - 1]; then its first column is `r + k P`.
        let last = &modulus - &one;
        let within = |r: &SymExpr, cols: &[(SymExpr, SymExpr)]| {
            [0, 1, -1, 2, -2].into_iter().find_map(|k| {
                let first = r + &(&modulus * &SymExpr::constant(k));
                let (lo, hi) = span(&first, cols)?;
                p.all_nonneg([&lo, &(&last - &hi)]).then_some((first, lo, hi))
            })
        };
        let (Some((fa, la, ha)), Some((fb, lb, hb))) = (within(&ra, &ca), within(&rb, &cb)) else { continue };
        // Every element `e` of either view is now `row * P + col` with `0 <= col < P`, one way
        // only: the views are disjoint when their columns are, or their rows. Columns: disjoint
        // intervals, or residues modulo the gcd of the column strides (`H[:, 1::2]` and
        // `H[:, 2::2]`). Rows: the first rows are `(off - first column) / P`, whose difference
        // `t` must be a constant; residues modulo the gcd of the row multiples (`H[1::2, :]` and
        // `H[2::2, :]`: red and black rows of a grid of any size).
        if apart(&la, &ha, &lb, &hb) {
            return true;
        }
        let col_gcd = ca.iter().chain(&cb).filter_map(|(_, st)| st.as_const()).fold(0, gcd);
        if let Some(d) = (&fa - &fb).as_const() {
            if col_gcd >= 2 && residues_apart(d as i128, col_gcd) {
                return true;
            }
        }
        let rows_diff = &(&a.offset - &fa) - &(&b.offset - &fb);
        let t = rows_diff.coefficient(&xm) / q;
        if rows_diff == &modulus * &SymExpr::constant(t)
            && residues_apart(t as i128, rows_a.iter().chain(&rows_b).fold(0, |g, &m| gcd(g, m)))
        {
            return true;
        }
    }
    false
}

/// One dimension of a view: `(extent, stride)`.
type Dim = (SymExpr, SymExpr);

/// The most divisors `j` of a stride `k x + e` that [`symbolic_disjoint`] tries as row lengths
/// `(k x + e) / j` (a step-`j` slice of rows of length `(k x + e) / j`).
const MODULUS_DIVISORS: i64 = 16;

/// Symbolic identity: same base and equal offset/shape/strides after substitution.
pub fn identical(a: &View, b: &View, bindings: &HashMap<String, i64>) -> bool {
    if a.base != b.base || a.shape.len() != b.shape.len() {
        return false;
    }
    let eq = |x: &SymExpr, y: &SymExpr| x == y || x.substitute(bindings) == y.substitute(bindings);
    eq(&a.offset, &b.offset)
        && a.shape.iter().zip(&b.shape).all(|(x, y)| eq(x, y))
        && a.strides.iter().zip(&b.strides).all(|(x, y)| eq(x, y))
}

/// Classify two views (Def. 11: "overlapping arrays ... point to some of the same elements").
pub fn relation(a: &View, b: &View, bindings: &HashMap<String, i64>) -> Relation {
    relation_in(a, b, bindings, &[])
}

/// [`relation`] where `facts` (each `p >= 0`, [`super::Region::facts`]) hold: symbolic views
/// are decided by [`symbolic_disjoint`] under them.
pub fn relation_in(a: &View, b: &View, bindings: &HashMap<String, i64>, facts: &[SymExpr]) -> Relation {
    if a.base != b.base {
        return Relation::Disjoint;
    }
    if identical(a, b, bindings) {
        return Relation::Identical;
    }
    let (Some(ca), Some(cb)) = (concrete(a, bindings), concrete(b, bindings)) else {
        let sub = |v: &View| View {
            base: v.base,
            offset: v.offset.substitute(bindings),
            shape: v.shape.iter().map(|e| e.substitute(bindings)).collect(),
            strides: v.strides.iter().map(|e| e.substitute(bindings)).collect(),
            facts: ViewFacts {
                valid: v.facts.valid.iter().map(|e| e.substitute(bindings)).collect(),
                exact_if: v.facts.exact_if.iter().map(|e| e.substitute(bindings)).collect(),
            },
        };
        let facts: Vec<SymExpr> = facts.iter().map(|e| e.substitute(bindings)).collect();
        return if symbolic_disjoint(&sub(a), &sub(b), &facts) { Relation::Disjoint } else { Relation::Overlap };
    };
    let (Some(ia), Some(ib)) = (element_range(ca.0, &ca.1, &ca.2), element_range(cb.0, &cb.1, &cb.2)) else {
        return Relation::Disjoint; // an empty view touches nothing
    };
    if ia.1 < ib.0 || ib.1 < ia.0 {
        return Relation::Disjoint;
    }
    // Sizes, offsets and their differences are computed with checked arithmetic: where one
    // overflows (sizes no array can have), nothing is claimed disjoint.
    if lattice_disjoint((ca.0, &ca.1, &ca.2), (cb.0, &cb.1, &cb.2)) {
        return Relation::Disjoint;
    }
    // Equal strides (a stencil's shifted neighbours): the search decides exactly, in either
    // direction, without enumerating elements.
    if let (true, Some(d)) = (ca.2 == cb.2, cb.0.checked_sub(ca.0)) {
        match same_strides_disjoint(d, &ca.1, &cb.1, &ca.2) {
            Some(true) => return Relation::Disjoint,
            Some(false) => return Relation::Overlap,
            None => {}
        }
    }
    let count = |sh: &[i64]| sh.iter().try_fold(1i64, |n, &d| n.checked_mul(d));
    let small = |sh: &[i64]| count(sh).is_some_and(|n| n <= ENUM_LIMIT);
    if small(&ca.1) && small(&cb.1) && sorted_disjoint(&cached_elems(&ca), &cached_elems(&cb)) {
        return Relation::Disjoint;
    }
    Relation::Overlap
}

/// Symbolic equality of two iteration spaces (after substituting `bindings`).
pub fn same_space(a: &[SymExpr], b: &[SymExpr], bindings: &HashMap<String, i64>) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y || x.substitute(bindings) == y.substitute(bindings))
}
