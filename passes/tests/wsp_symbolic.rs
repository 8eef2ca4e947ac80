//! The symbolic disjointness test of `wsp::view::relation` (issue 32) against NumPy's indexing
//! enumerated at small sizes: a pair of views of one `d0 x d1` base (sizes affine in `n`), made
//! by `wsp_fusion::region::index_view_of` from integer indices and slices with constant or
//! symbolic bounds (one or two levels), is claimed disjoint only if, at every `n` in -3..=8 where
//! the base can exist and both views can be made (NumPy raises no IndexError), their element
//! sets, computed by NumPy's rules (clipped slices, wrapped negative indices), share nothing.
use arrayc_core::ops::IndexEntry;
use arrayc_passes::wsp::view::{relation, Relation};
use arrayc_passes::wsp::{BaseId, SymExpr, View};
use arrayc_passes::wsp_fusion::region::index_view_of;
use std::collections::{BTreeSet, HashMap};

/// An index operand: a constant, or `n + c`.
#[derive(Clone, Copy, Debug)]
enum Bound {
    Const(i64),
    NPlus(i64),
}

impl Bound {
    fn sym(self) -> SymExpr {
        match self {
            Bound::Const(c) => SymExpr::constant(c),
            Bound::NPlus(c) => &SymExpr::sym("n") + &SymExpr::constant(c),
        }
    }
    fn at(self, n: i64) -> i64 {
        match self {
            Bound::Const(c) => c,
            Bound::NPlus(c) => n + c,
        }
    }
}

/// One axis of an index.
#[derive(Clone, Copy, Debug)]
enum Entry {
    Full,
    At(Bound),
    Slice(Option<Bound>, Option<Bound>, i64),
}

/// A view known by value: a constant offset plus one list of offsets per axis (elements are the
/// offset plus one choice from each list).
#[derive(Clone, Debug)]
struct Real {
    off: i64,
    axes: Vec<Vec<i64>>,
}

/// Python's `slice(start, stop, step).indices(d)`, listed.
fn py_slice(d: i64, start: Option<i64>, stop: Option<i64>, step: i64) -> Vec<i64> {
    let (lo, hi) = if step > 0 { (0, d) } else { (-1, d - 1) };
    let fix = |x: i64| if x < 0 { (x + d).max(lo) } else { x.min(hi) };
    let first = start.map_or(if step > 0 { 0 } else { d - 1 }, fix);
    let end = stop.map_or(if step > 0 { d } else { -1 }, fix);
    let mut out = vec![];
    let mut i = first;
    while (step > 0 && i < end) || (step < 0 && i > end) {
        out.push(i);
        i += step;
    }
    out
}

/// NumPy's `v[index]` at size `n`, or `None` for an IndexError.
fn real_index(v: &Real, index: &[Entry], n: i64) -> Option<Real> {
    let mut out = Real { off: v.off, axes: vec![] };
    for (ax, e) in v.axes.iter().zip(index) {
        let d = ax.len() as i64;
        match *e {
            Entry::Full => out.axes.push(ax.clone()),
            Entry::At(b) => {
                let i = b.at(n);
                if i < -d || i >= d {
                    return None;
                }
                out.off += ax[i.rem_euclid(d.max(1)) as usize];
            }
            Entry::Slice(a, b, s) => {
                let picks = py_slice(d, a.map(|x| x.at(n)), b.map(|x| x.at(n)), s);
                out.axes.push(picks.into_iter().map(|i| ax[i as usize]).collect());
            }
        }
    }
    out.axes.extend(v.axes[index.len().min(v.axes.len())..].iter().cloned());
    Some(out)
}

fn elements(v: &Real) -> BTreeSet<i64> {
    let mut out = BTreeSet::from([v.off]);
    for ax in &v.axes {
        out = out.iter().flat_map(|&e| ax.iter().map(move |&o| e + o)).collect();
    }
    out
}

/// The symbolic view `v[index]`, or `None` where it is opaque.
fn sym_index(v: &View, index: &[Entry]) -> Option<View> {
    let mut entries = vec![];
    let mut ops = vec![];
    for e in index {
        match *e {
            Entry::Full => entries.push(IndexEntry::Full),
            Entry::At(b) => {
                entries.push(IndexEntry::At);
                ops.push(b.sym());
            }
            Entry::Slice(a, b, s) => {
                entries.push(IndexEntry::Slice { start: a.is_some(), stop: b.is_some(), step: true });
                ops.extend(a.map(Bound::sym));
                ops.extend(b.map(Bound::sym));
                ops.push(SymExpr::constant(s));
            }
        }
    }
    index_view_of(v, &entries, &ops)
}

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn below(&mut self, k: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % k
    }
    fn bound(&mut self) -> Bound {
        match self.below(3) {
            0 => Bound::NPlus(self.below(4) as i64 - 2),
            _ => Bound::Const(self.below(7) as i64 - 3),
        }
    }
    fn entry(&mut self) -> Entry {
        match self.below(6) {
            0 => Entry::Full,
            1 | 2 => Entry::At(self.bound()),
            _ => {
                let b = |r: &mut Rng| if r.below(3) == 0 { None } else { Some(r.bound()) };
                let (start, stop) = (b(self), b(self));
                Entry::Slice(start, stop, [1, 1, 2, -1, 3][self.below(5) as usize])
            }
        }
    }
    fn index(&mut self, rank: usize) -> Vec<Entry> {
        (0..rank).map(|_| self.entry()).collect()
    }
}

fn rank_after(index: &[Entry], rank: usize) -> usize {
    rank - index.iter().filter(|e| matches!(e, Entry::At(_))).count()
}

#[test]
fn symbolic_disjointness_holds_at_every_small_size() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut claims, mut pairs) = (0, 0);
    for _ in 0..40_000 {
        // A base of (n + a0) x (k n + a1).
        let (a0, k, a1) = (rng.below(3) as i64, 1 + rng.below(2) as i64, rng.below(3) as i64);
        let n = SymExpr::sym("n");
        let dims = [&n + &SymExpr::constant(a0), &(&n * &SymExpr::constant(k)) + &SymExpr::constant(a1)];
        let whole = View::full(BaseId(0), dims.to_vec());
        // Each view: one index, sometimes a second one of its result.
        let make = |rng: &mut Rng| {
            let first = rng.index(2);
            let r = rank_after(&first, 2);
            let second = if r > 0 && rng.below(3) == 0 { Some(rng.index(r)) } else { None };
            (first, second)
        };
        let (ia, ib) = (make(&mut rng), make(&mut rng));
        let sym = |(first, second): &(Vec<Entry>, Option<Vec<Entry>>)| {
            let v = sym_index(&whole, first)?;
            match second {
                Some(s) => sym_index(&v, s),
                None => Some(v),
            }
        };
        let (Some(va), Some(vb)) = (sym(&ia), sym(&ib)) else { continue };
        pairs += 1;
        if relation(&va, &vb, &HashMap::new()) != Relation::Disjoint {
            continue;
        }
        claims += 1;
        for nv in -3..=8 {
            let (d0, d1) = (nv + a0, k * nv + a1);
            if d0 < 0 || d1 < 0 {
                continue; // no such base
            }
            let base = Real { off: 0, axes: vec![(0..d0).map(|i| i * d1).collect(), (0..d1).collect()] };
            let real = |(first, second): &(Vec<Entry>, Option<Vec<Entry>>)| {
                let v = real_index(&base, first, nv)?;
                match second {
                    Some(s) => real_index(&v, s, nv),
                    None => Some(v),
                }
            };
            let (Some(ra), Some(rb)) = (real(&ia), real(&ib)) else { continue };
            let shared: Vec<i64> = elements(&ra).intersection(&elements(&rb)).copied().collect();
            assert!(
                shared.is_empty(),
                "claimed disjoint, but at n = {nv} ({d0} x {d1}) {ia:?} and {ib:?} share {shared:?}\n{va:?}\n{vb:?}"
            );
        }
    }
    // The test has teeth: many symbolic pairs, a good share of them decided.
    assert!(pairs > 20_000 && claims > 2_000, "{pairs} pairs, {claims} claimed disjoint");
}

#[test]
fn grid_boundaries_of_a_symbolic_size_are_disjoint() {
    // shallow_water's H, (n+2) x (n+2): boundary columns and rows against each other and the interior.
    let n = SymExpr::sym("n");
    let d = &n + &SymExpr::constant(2);
    let h = View::full(BaseId(0), vec![d.clone(), d.clone()]);
    let c = |k: i64| Bound::Const(k);
    let col = |b: Bound| sym_index(&h, &[Entry::Full, Entry::At(b)]).unwrap();
    let row = |b: Bound| sym_index(&h, &[Entry::At(b)]).unwrap();
    let interior =
        sym_index(&h, &[Entry::Slice(Some(c(1)), None, 1), Entry::Slice(Some(c(1)), Some(c(-1)), 1)]).unwrap();
    let none = HashMap::new();
    let disjoint = |a: &View, b: &View| relation(a, b, &none) == Relation::Disjoint;
    assert!(disjoint(&col(c(0)), &col(c(1))));
    // Column n + 1 is column 0 of a 1 x 1 grid (n = -1), where column 1 cannot be made.
    assert!(!disjoint(&col(Bound::NPlus(1)), &col(c(0))));
    let region = |a: &View, b: &View| {
        arrayc_passes::wsp::view::relation_in(a, b, &none, &col(c(1)).facts.valid) == Relation::Disjoint
    };
    assert!(region(&col(Bound::NPlus(1)), &col(c(0))));
    assert!(disjoint(&col(c(0)), &interior));
    assert!(disjoint(&col(Bound::NPlus(1)), &interior));
    assert!(disjoint(&row(c(0)), &row(c(1))));
    assert!(disjoint(&row(c(0)), &interior));
    assert!(!disjoint(&row(Bound::NPlus(1)), &row(c(0))) && region(&row(Bound::NPlus(1)), &row(c(0))));
    // Overlapping pairs stay overlapping: a row and a column, the interior and row n (n >= 1).
    assert!(!disjoint(&row(c(0)), &col(c(0))));
    assert!(!disjoint(&row(Bound::NPlus(0)), &interior));
    // Column n and column n + 1 are one column of a 1 x 1 grid (n = -1): not disjoint by
    // themselves; with the fact of a view of column 1 in the same region (n >= 0), they are.
    assert!(!disjoint(&col(Bound::NPlus(0)), &col(Bound::NPlus(1))));
    let facts = col(c(1)).facts.valid;
    assert_eq!(
        arrayc_passes::wsp::view::relation_in(&col(Bound::NPlus(0)), &col(Bound::NPlus(1)), &none, &facts),
        Relation::Disjoint
    );
    // Rows [0, n) and [n, 2n) of a vector of 2n.
    let v = View::full(BaseId(0), vec![&n * &SymExpr::constant(2)]);
    let lo = sym_index(&v, &[Entry::Slice(None, Some(Bound::NPlus(0)), 1)]).unwrap();
    let hi = sym_index(&v, &[Entry::Slice(Some(Bound::NPlus(0)), None, 1)]).unwrap();
    assert!(disjoint(&lo, &hi));
}

/// The parity proofs of `symbolic_disjoint`: residues of rows and columns modulo the gcd of their
/// steps. sor's sub-grids and neighbours (`benchmarks/programs/sor.arr`) of an `(s+2) x (s+2)`
/// grid, `s` either `n` or `2h` (row stride `2 (2h+2)`: the row length is a divisor of the
/// stride): every pair is claimed disjoint exactly when it is disjoint at every size `s` in 0..=12
/// by NumPy's indexing (computed independently), so none stays split that the specialised
/// partition fuses, and none is fused that shares an element.
#[test]
fn red_black_sub_grids_of_a_symbolic_size_are_disjoint_by_parity() {
    let c = |k: i64| Some(Bound::Const(k));
    let s = |a: Option<Bound>, b: Option<Bound>| Entry::Slice(a, b, 2);
    // (rows, columns) of r1, r2, b1, b2 and the eight neighbours of sor.arr.
    let views = [
        [s(c(1), c(-1)), s(c(1), c(-1))],
        [s(c(2), c(-1)), s(c(2), c(-1))],
        [s(c(1), c(-1)), s(c(2), c(-1))],
        [s(c(2), c(-1)), s(c(1), c(-1))],
        [s(None, c(-2)), s(c(1), c(-1))],
        [s(c(1), c(-1)), s(None, c(-2))],
        [s(c(3), None), s(c(2), c(-1))],
        [s(c(2), c(-1)), s(c(3), None)],
        [s(None, c(-2)), s(c(2), c(-1))],
        [s(c(1), c(-1)), s(c(3), None)],
        [s(c(3), None), s(c(1), c(-1))],
        [s(c(2), c(-1)), s(None, c(-2))],
    ];
    let none = HashMap::new();
    let (mut disjoint_pairs, mut overlapping_pairs) = (0, 0);
    for (side, step) in [(SymExpr::sym("n"), 1), (&SymExpr::sym("n") * &SymExpr::constant(2), 2)] {
        let d = &side + &SymExpr::constant(2);
        let grid = View::full(BaseId(0), vec![d.clone(), d.clone()]);
        for (i, ia) in views.iter().enumerate() {
            for ib in &views[i + 1..] {
                let (va, vb) = (sym_index(&grid, ia).unwrap(), sym_index(&grid, ib).unwrap());
                let claimed = relation(&va, &vb, &none) == Relation::Disjoint;
                let real = (0..=12).step_by(step).all(|sv| {
                    let dv = sv + 2;
                    let base = Real { off: 0, axes: vec![(0..dv).map(|r| r * dv).collect(), (0..dv).collect()] };
                    let (ra, rb) = (real_index(&base, ia, 0).unwrap(), real_index(&base, ib, 0).unwrap());
                    elements(&ra).is_disjoint(&elements(&rb))
                });
                assert_eq!(claimed, real, "s = {side:?}: {ia:?} and {ib:?}\n{va:?}\n{vb:?}");
                if real {
                    disjoint_pairs += 1;
                } else {
                    overlapping_pairs += 1;
                }
            }
        }
    }
    assert!(disjoint_pairs > 40 && overlapping_pairs > 10, "{disjoint_pairs} disjoint, {overlapping_pairs} not");
}

#[test]
fn step_slices_of_a_vector_of_symbolic_length_are_disjoint_by_parity() {
    let n = SymExpr::sym("n");
    let v = View::full(BaseId(0), vec![&n * &SymExpr::constant(2)]);
    let step = |start: i64, k: i64| sym_index(&v, &[Entry::Slice(Some(Bound::Const(start)), None, k)]).unwrap();
    let disjoint = |a: &View, b: &View| relation(a, b, &HashMap::new()) == Relation::Disjoint;
    assert!(disjoint(&step(0, 2), &step(1, 2)));
    assert!(disjoint(&step(1, 4), &step(2, 2)));
    // Shared elements: 2, 4, .. (both even); 0 and 3 of steps 3 and 1 (gcd 1).
    assert!(!disjoint(&step(0, 2), &step(2, 2)));
    assert!(!disjoint(&step(0, 3), &step(1, 1)));
}

/// A row length that divides a stride: the halves `x[:, :n]` and `x[:, n:]` of an `m x 2n` base
/// (lmm_swaption_vec's `concatenate((eps_tmp, -eps_tmp), axis=1)`) are disjoint, as rows of
/// length `n` of which each takes every other; `x[:, :n+1]` and `x[:, n:]` share column `n`.
#[test]
fn halves_of_rows_of_a_symbolic_length_are_disjoint() {
    let (n, m) = (SymExpr::sym("n"), SymExpr::sym("m"));
    let base = View::full(BaseId(0), vec![m.clone(), &n * &SymExpr::constant(2)]);
    let cols = |a: Option<Bound>, b: Option<Bound>| sym_index(&base, &[Entry::Full, Entry::Slice(a, b, 1)]).unwrap();
    let none = HashMap::new();
    let disjoint = |a: &View, b: &View| relation(a, b, &none) == Relation::Disjoint;
    let (lo, hi) = (cols(None, Some(Bound::NPlus(0))), cols(Some(Bound::NPlus(0)), None));
    assert!(disjoint(&lo, &hi));
    assert!(!disjoint(&cols(None, Some(Bound::NPlus(1))), &hi));
    // At every m, n in 0..=6, by NumPy's indexing: the halves share nothing.
    for (mv, nv) in (0..=6).flat_map(|a| (0..=6).map(move |b| (a, b))) {
        let row = 2 * nv;
        let real = Real { off: 0, axes: vec![(0..mv).map(|r| r * row).collect(), (0..row).collect()] };
        let half = |e: Entry| elements(&real_index(&real, &[Entry::Full, e], nv).unwrap());
        let (a, b) =
            (half(Entry::Slice(None, Some(Bound::NPlus(0)), 1)), half(Entry::Slice(Some(Bound::NPlus(0)), None, 1)));
        assert!(a.is_disjoint(&b), "m = {mv}, n = {nv}");
    }
}
