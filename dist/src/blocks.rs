//! The block distribution of base arrays along axis 0 and what each rank reads of the others'
//! blocks: pure arithmetic, no MPI, so that it is tested on its own.
//!
//! The model is DistNumPy's and Ramba's (issue 30): a large base array of `rows` rows is split
//! into `p` contiguous blocks of rows, rank `r` owning block `r` (the first `rows % p` ranks one
//! row more); a kernel runs on every rank over the rows of its output that the rank owns
//! (owner computes), and the elements it reads outside the rank's own blocks are fetched from
//! their owners first. Every rank computes every rank's needs from the same replicated host state,
//! so nobody has to ask: each knows what to send to whom.

use arrayc_core::shape::element_range;

/// Rows `[lo, hi)` of `rows` that rank `r` of `p` owns: contiguous blocks in rank order, the first
/// `rows % p` ranks one row more (a rank may own none when `rows < p`).
pub fn block_rows(rows: i64, p: usize, r: usize) -> (i64, i64) {
    let (p, r) = (p as i64, r as i64);
    let (q, extra) = (rows / p, rows % p);
    let lo = r * q + r.min(extra);
    (lo, lo + q + i64::from(r < extra))
}

/// Whether a base array of `shape` (elements per dimension) and `bytes` bytes is distributed when
/// arrays of at least `min_bytes` bytes are: rank 1 or more and at least that large (and at least
/// one byte).
pub fn distributable(shape: &[i64], bytes: u64, min_bytes: u64) -> bool {
    !shape.is_empty() && bytes >= min_bytes.max(1)
}

/// How a distributed base array is split: `rows` rows (its dimension 0) of `row_len` elements, in
/// blocks of rows: [`block_rows`]'s, or the blocks `cuts` gives (rank `r` owns rows
/// `cuts[r]..cuts[r + 1]`; a new array takes the rows its first writer computed, so that it lines
/// up with the arrays it is computed from: a 100-row temporary of a 102-row grid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseLayout {
    pub rows: i64,
    pub row_len: i64,
    pub cuts: Option<std::sync::Arc<[i64]>>,
}

impl BaseLayout {
    /// [`block_rows`]'s blocks of `rows` rows of `row_len` elements.
    pub fn even(rows: i64, row_len: i64) -> BaseLayout {
        BaseLayout { rows, row_len, cuts: None }
    }

    /// The elements `[lo, hi)` (offsets into the base) of rank `r`'s block of `p`.
    pub fn block(&self, p: usize, r: usize) -> (i64, i64) {
        let (lo, hi) = match &self.cuts {
            Some(c) => (c[r], c[r + 1]),
            None => block_rows(self.rows, p, r),
        };
        (lo * self.row_len, hi * self.row_len)
    }

    /// The rank of `p` that owns element `e` of the base (`e` within the base; past the end: the
    /// last rank). A binary search over the blocks, which end in rank order: O(log p).
    pub fn owner(&self, p: usize, e: i64) -> usize {
        let (mut lo, mut hi) = (0, p - 1);
        // The first rank whose block ends after `e`, or the last rank.
        while lo < hi {
            let mid = (lo + hi) / 2;
            if e < self.block(p, mid).1 {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }

    /// The ranks whose blocks may hold elements of the range `[lo, hi)` of base offsets (`lo < hi`):
    /// from the owner of `lo` to the owner of `hi - 1`, every rank whose block meets the range (and
    /// ranks with empty blocks between them).
    pub fn owners(&self, p: usize, (lo, hi): (i64, i64)) -> std::ops::RangeInclusive<usize> {
        self.owner(p, lo)..=self.owner(p, hi - 1)
    }
}

/// The rows `[a, b)` of dimension 0 of a view (`n0` rows, stride `s0` elements, first element at
/// base offset `offset`) whose first element lies in rank `r`'s block of `layout`: the rows that
/// rank computes when the view is a kernel's output (owner computes). The ranges of the `p` ranks
/// tile `[0, n0)` (in rank order for `s0 > 0`, in reverse for `s0 < 0`). `None` when the rows do
/// not map to distinct base rows in order (`s0 == 0` with more than one row).
pub fn owned_rows(offset: i64, n0: i64, s0: i64, layout: &BaseLayout, p: usize, r: usize) -> Option<(i64, i64)> {
    if n0 <= 1 || s0 == 0 {
        // One row (or none): its owner computes it.
        if n0 > 1 {
            return None;
        }
        let mine = n0 == 1 && layout.owner(p, offset) == r;
        return Some(if mine { (0, 1) } else { (0, 0) });
    }
    let (x, y) = layout.block(p, r);
    // Rows i with offset + i * s0 in [x, y).
    let (a, b) = if s0 > 0 {
        (ceil_div(x - offset, s0), ceil_div(y - offset, s0))
    } else {
        let t = -s0;
        (floor_div(offset - y, t) + 1, floor_div(offset - x, t) + 1)
    };
    let (a, b) = (a.clamp(0, n0), b.clamp(0, n0));
    Some((a, b.max(a)))
}

fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

fn ceil_div(a: i64, b: i64) -> i64 {
    -(-a).div_euclid(b)
}

/// The elements a view reads or writes, as runs of `len` consecutive elements: run `k < count`
/// covers base offsets `[start + k * step, start + k * step + len)`, `step >= len` (the runs do
/// not overlap). A view whose dimensions after the first are row-major contiguous gives one run per
/// row of dimension 0 (exact: a stencil's `grid[1:-1, 2:]` reads no column it does not use);
/// any other gives one run over its bounding range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Runs {
    pub start: i64,
    pub step: i64,
    pub len: i64,
    pub count: i64,
    /// Whether the runs hold only the view's elements (false for a bounding range of a view that
    /// does not fill it).
    pub exact: bool,
}

impl Runs {
    /// The runs of the view `offset`, `shape`, `strides` (elements), restricted to rows `rows` of
    /// its dimension 0 when given. `None` when the view has no element.
    pub fn of(offset: i64, shape: &[i64], strides: &[i64], rows: Option<(i64, i64)>) -> Option<Runs> {
        let (offset, shape) = match (rows, shape.first()) {
            (Some((a, b)), Some(_)) => {
                let mut s = shape.to_vec();
                s[0] = b - a;
                (offset + a * strides[0], s)
            }
            _ => (offset, shape.to_vec()),
        };
        let (lo, hi) = element_range(offset, &shape, strides).map(|(lo, hi)| (lo as i64, hi as i64 + 1))?;
        let filled = shape.iter().product::<i64>() == hi - lo;
        let bounding = Runs { start: lo, step: hi - lo, len: hi - lo, count: 1, exact: filled };
        let Some((&n0, inner)) = shape.split_first() else { return Some(bounding) };
        let mut want = 1;
        for (&n, &st) in inner.iter().zip(&strides[1..]).rev() {
            if n > 1 && st != want {
                return Some(bounding);
            }
            want *= n;
        }
        let (len, s0) = (want, strides[0]);
        if n0 == 1 || s0 == 0 || s0.abs() < len {
            return Some(bounding);
        }
        Some(Runs { start: lo, step: s0.abs(), len, count: n0, exact: true })
    }

    /// The ranges of the runs inside `block` (half-open), one per run that meets it, in order.
    pub fn pieces(&self, block: (i64, i64)) -> Vec<(i64, i64)> {
        let first = (block.0 - self.start).div_euclid(self.step).max(0);
        let last = (block.1 - 1 - self.start).div_euclid(self.step).min(self.count - 1);
        (first..=last)
            .filter_map(|k| intersect((self.start + k * self.step, self.start + k * self.step + self.len), block))
            .collect()
    }

    /// One past the last base offset of the runs.
    pub fn end(&self) -> i64 {
        self.start + (self.count - 1) * self.step + self.len
    }

    /// The smallest range of base offsets inside `block` (half-open) that holds every element of
    /// the runs inside it, if any.
    pub fn clip(&self, block: (i64, i64)) -> Option<(i64, i64)> {
        let (mut lo, mut hi) = intersect((self.start, self.end()), block)?;
        // A bound in the gap after a run moves to the next run's start (lo) or the run's end (hi).
        let k = (lo - self.start).div_euclid(self.step);
        if lo >= self.start + k * self.step + self.len {
            lo = self.start + (k + 1) * self.step;
        }
        let k = (hi - 1 - self.start).div_euclid(self.step);
        if hi > self.start + k * self.step + self.len {
            hi = self.start + k * self.step + self.len;
        }
        (lo < hi).then_some((lo, hi))
    }
}

/// The intersection of two half-open ranges, if not empty.
pub fn intersect(a: (i64, i64), b: (i64, i64)) -> Option<(i64, i64)> {
    let (lo, hi) = (a.0.max(b.0), a.1.min(b.1));
    (lo < hi).then_some((lo, hi))
}

/// Sorts half-open ranges and merges those that overlap or touch.
pub fn merge(ranges: &mut Vec<(i64, i64)>) {
    ranges.sort_unstable();
    let mut out: Vec<(i64, i64)> = Vec::with_capacity(ranges.len());
    for &(lo, hi) in ranges.iter() {
        match out.last_mut() {
            Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    *ranges = out;
}

/// One copy of an exchange: elements `range` of a base array, from the rank that owns them to a
/// rank that reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    pub from: usize,
    pub to: usize,
    pub range: (i64, i64),
}

/// The copies that bring every rank what it reads of a distributed base array of layout `layout`:
/// `needs[q]` are the runs rank `q` reads; each part of them in another rank's block comes from
/// that rank (the runs clipped to the block, merged). Ordered by receiving rank, then sending rank,
/// then range, so that sender and receiver agree on the order of the bytes without a word between
/// them. Only the blocks each rank's runs span are visited ([`BaseLayout::owners`]): O(p) work for
/// a stencil, whose ranks read from their neighbours only, where trying every pair of ranks was
/// O(p²) on every rank and every launch.
pub fn transfers(layout: &BaseLayout, p: usize, needs: &[Vec<Runs>]) -> Vec<Transfer> {
    let mut out = vec![];
    for (to, need) in needs.iter().enumerate() {
        let mut senders: Vec<usize> = need.iter().flat_map(|n| layout.owners(p, (n.start, n.end()))).collect();
        senders.sort_unstable();
        senders.dedup();
        for from in senders.into_iter().filter(|&f| f != to) {
            let block = layout.block(p, from);
            let mut parts: Vec<_> = need.iter().filter_map(|n| n.clip(block)).collect();
            merge(&mut parts);
            out.extend(parts.into_iter().map(|range| Transfer { from, to, range }));
        }
    }
    out
}

/// The exact ranges of the elements of the view `offset`, `shape`, `strides` (restricted to rows
/// `rows` of its dimension 0) that lie in `block`, in order: one range per run of the view's
/// [`Runs`] where they are exact, else the view is split along its first dimension until they are
/// (a 3-d interior `grid[1:-1, 1:-1, 1:-1]`: one range per row of a plane).
pub fn exact_pieces(
    offset: i64,
    shape: &[i64],
    strides: &[i64],
    rows: (i64, i64),
    block: (i64, i64),
) -> Vec<(i64, i64)> {
    fn walk(offset: i64, shape: &[i64], strides: &[i64], block: (i64, i64), out: &mut Vec<(i64, i64)>) {
        let Some(r) = Runs::of(offset, shape, strides, None) else { return };
        if r.clip(block).is_none() {
            return;
        }
        if r.exact || shape.is_empty() {
            out.extend(r.pieces(block));
            return;
        }
        for i in 0..shape[0] {
            walk(offset + i * strides[0], &shape[1..], &strides[1..], block, out);
        }
    }
    let mut out = vec![];
    if let (Some(_), true) = (shape.first(), rows.0 < rows.1) {
        let mut s = shape.to_vec();
        s[0] = rows.1 - rows.0;
        walk(offset + rows.0 * strides[0], &s, strides, block, &mut out);
    }
    out
}

/// The copies that bring each owner the elements of a distributed base array of layout `layout`
/// that other ranks wrote in its block: rank `r` wrote the rows `rows[r]` of the view `offset`,
/// `shape`, `strides` (a kernel's output over the rows `r` computed, which need not follow the
/// output's own blocks: a new array of 100 rows written along a grid of 102). Only elements that
/// were written move ([`exact_pieces`]). Ordered as [`transfers`]; as there, only the blocks that
/// each rank's rows span are visited (O(p) for rows in rank order, not O(p²)).
pub fn deliveries(
    layout: &BaseLayout,
    p: usize,
    (offset, shape, strides): (i64, &[i64], &[i64]),
    rows: &[(i64, i64)],
) -> Vec<Transfer> {
    let mut pairs: Vec<(usize, usize)> = vec![];
    for (from, &rr) in rows.iter().enumerate() {
        if let Some(r) = Runs::of(offset, shape, strides, Some(rr)) {
            pairs.extend(layout.owners(p, (r.start, r.end())).filter(|&to| to != from).map(|to| (to, from)));
        }
    }
    pairs.sort_unstable();
    let mut out = vec![];
    for (to, from) in pairs {
        let pieces = exact_pieces(offset, shape, strides, rows[from], layout.block(p, to));
        out.extend(pieces.into_iter().map(|range| Transfer { from, to, range }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_tile_the_rows_and_the_first_ranks_get_the_extra_rows() {
        assert_eq!((0..3).map(|r| block_rows(10, 3, r)).collect::<Vec<_>>(), [(0, 4), (4, 7), (7, 10)]);
        assert_eq!((0..4).map(|r| block_rows(2, 4, r)).collect::<Vec<_>>(), [(0, 1), (1, 2), (2, 2), (2, 2)]);
        for rows in 0..20 {
            for p in 1..6 {
                let mut next = 0;
                for r in 0..p {
                    let (lo, hi) = block_rows(rows, p, r);
                    assert_eq!(lo, next);
                    assert!(hi - lo == rows / p as i64 || hi - lo == rows / p as i64 + 1);
                    next = hi;
                }
                assert_eq!(next, rows);
            }
        }
    }

    /// Every row of a view is computed by exactly one rank, the owner of its first element, for
    /// every offset and stride sign, checked element by element.
    #[test]
    fn owned_rows_give_each_row_to_the_owner_of_its_first_element() {
        let layout = BaseLayout::even(11, 3);
        for p in 1..5 {
            for (offset, n0, s0) in [(0, 11, 3), (4, 9, 3), (30, 10, -3), (32, 11, -3), (1, 5, 6), (31, 5, -6)] {
                let mut seen = vec![None; n0 as usize];
                for r in 0..p {
                    let (a, b) = owned_rows(offset, n0, s0, &layout, p, r).unwrap();
                    for (i, s) in seen.iter_mut().enumerate().take(b as usize).skip(a as usize) {
                        assert!(s.is_none());
                        *s = Some(r);
                        assert_eq!(layout.owner(p, offset + i as i64 * s0), r);
                    }
                }
                assert!(seen.iter().all(Option::is_some), "{offset} {n0} {s0} p={p}: {seen:?}");
            }
        }
    }

    /// A 5-point stencil on a 10x10 grid over 2 ranks: each rank reads, of the other's block, one
    /// row minus its two corner elements (`grid[:-2, 1:-1]` and `grid[2:, 1:-1]` around the output
    /// `new[1:-1, 1:-1]`): the halo minimum.
    #[test]
    fn a_stencil_needs_only_its_halo_rows() {
        let layout = BaseLayout::even(10, 10);
        let p = 2;
        // The output new[1:-1, 1:-1]: offset 11, 8 rows of stride 10.
        let rows: Vec<_> = (0..p).map(|r| owned_rows(11, 8, 10, &layout, p, r).unwrap()).collect();
        assert_eq!(rows, [(0, 4), (4, 8)]);
        let views = [(1, [8, 8], [10, 1]), (21, [8, 8], [10, 1]), (10, [8, 8], [10, 1]), (12, [8, 8], [10, 1])];
        let needs: Vec<Vec<_>> = (0..p)
            .map(|r| views.iter().filter_map(|(o, s, st)| Runs::of(*o, s, st, Some(rows[r]))).collect())
            .collect();
        let t = transfers(&layout, p, &needs);
        assert_eq!(t, [Transfer { from: 1, to: 0, range: (51, 59) }, Transfer { from: 0, to: 1, range: (41, 49) }]);
    }

    /// Clipping runs to a block keeps exactly the elements of the runs inside it: checked against
    /// the elements one by one.
    #[test]
    fn clipped_runs_are_the_tightest_range_of_their_elements() {
        let runs = Runs { start: 3, step: 7, len: 4, count: 5, exact: true };
        let elems: Vec<i64> = (0..5).flat_map(|k| 3 + 7 * k..3 + 7 * k + 4).collect();
        for x in 0..40 {
            for y in x..41 {
                let inside: Vec<i64> = elems.iter().copied().filter(|e| (x..y).contains(e)).collect();
                let want = inside.first().map(|&lo| (lo, inside.last().unwrap() + 1));
                assert_eq!(runs.clip((x, y)), want, "block {x}..{y}");
                let mut pieces: Vec<i64> = runs.pieces((x, y)).iter().flat_map(|&(a, b)| a..b).collect();
                pieces.dedup();
                assert_eq!(pieces, inside, "block {x}..{y}");
            }
        }
    }

    /// A 100-row array written along the interior rows of a 102-row grid over 3 ranks: the rows
    /// computed by a rank that lie in another rank's block of the output go to that rank.
    #[test]
    fn outputs_written_off_their_blocks_are_delivered_to_their_owners() {
        let grid = BaseLayout::even(102, 102);
        let work = BaseLayout::even(100, 100);
        let p = 3;
        let rows: Vec<_> = (0..p).map(|r| owned_rows(103, 100, 102, &grid, p, r).unwrap()).collect();
        assert_eq!(rows, [(0, 33), (33, 67), (67, 100)]);
        // The output's blocks are rows 0..34, 34..67, 67..100: row 33 was computed by rank 1.
        let t = deliveries(&work, p, (0, &[100, 100], &[100, 1]), &rows);
        assert_eq!(t, [Transfer { from: 1, to: 0, range: (3300, 3400) }]);
        // A 3-d interior written off its blocks moves row by row, never the boundary between.
        let cube = BaseLayout::even(6, 36);
        let rows = [(0, 3), (3, 4)];
        let t = deliveries(&cube, 2, (43, &[4, 4, 4], &[36, 6, 1]), &rows);
        let moved: Vec<i64> = t.iter().flat_map(|t| t.range.0..t.range.1).collect();
        let want: Vec<i64> = (0..4).flat_map(|j| (0..4).map(move |k| 43 + 2 * 36 + j * 6 + k)).collect();
        assert_eq!(moved, want);
        assert!(t.iter().all(|t| t.from == 0 && t.to == 1));
    }

    /// The definitions of [`transfers`] and [`deliveries`], every pair of ranks tried (O(p²)), and
    /// of [`BaseLayout::owner`], every block tried: the references of the fast versions.
    fn transfers_of_every_pair(layout: &BaseLayout, p: usize, needs: &[Vec<Runs>]) -> Vec<Transfer> {
        let mut out = vec![];
        for (to, need) in needs.iter().enumerate() {
            for from in (0..p).filter(|&f| f != to) {
                let mut parts: Vec<_> = need.iter().filter_map(|n| n.clip(layout.block(p, from))).collect();
                merge(&mut parts);
                out.extend(parts.into_iter().map(|range| Transfer { from, to, range }));
            }
        }
        out
    }

    fn deliveries_of_every_pair(
        layout: &BaseLayout,
        p: usize,
        (offset, shape, strides): (i64, &[i64], &[i64]),
        rows: &[(i64, i64)],
    ) -> Vec<Transfer> {
        let mut out = vec![];
        for to in 0..p {
            for (from, &rr) in rows.iter().enumerate().filter(|&(f, _)| f != to) {
                let pieces = exact_pieces(offset, shape, strides, rr, layout.block(p, to));
                out.extend(pieces.into_iter().map(|range| Transfer { from, to, range }));
            }
        }
        out
    }

    /// The transfers and deliveries that visit only the blocks a rank's runs span are exactly those
    /// of every pair of ranks, and `owner` is the first block ending after the element, over
    /// stencil views, reversed, strided and transposed views, row ranges in and out of rank order,
    /// even and cut layouts, 1 to 9 ranks (more ranks than rows too).
    #[test]
    fn visiting_only_spanned_blocks_finds_every_transfer() {
        let (rows, len) = (13i64, 7i64);
        let layouts = [
            BaseLayout::even(rows, len),
            BaseLayout { rows, row_len: len, cuts: Some(vec![0, 0, 5, 6, 6, 13].into()) },
        ];
        // (offset, shape, strides) of views of the 13 x 7 base.
        let views: [(i64, [i64; 2], [i64; 2]); 7] = [
            (8, [11, 5], [7, 1]),
            (1, [11, 5], [7, 1]),
            (15, [11, 5], [7, 1]),
            (84, [13, 7], [-7, 1]),
            (0, [7, 13], [1, 7]),
            (3, [6, 3], [14, 2]),
            (0, [13, 7], [0, 1]),
        ];
        let mut moved = 0;
        for layout in &layouts {
            let ps: Vec<usize> = if layout.cuts.is_some() { vec![5] } else { (1..10).collect() };
            for &p in &ps {
                for e in 0..rows * len + 3 {
                    let want = (0..p).find(|&r| e < layout.block(p, r).1).unwrap_or(p - 1);
                    assert_eq!(layout.owner(p, e), want, "element {e}, p = {p}");
                }
                let split: Vec<(i64, i64)> = (0..p).map(|r| block_rows(11, p, r)).collect();
                let mut reversed = split.clone();
                reversed.reverse();
                for (o, sh, st) in &views {
                    for rows_of in [&split, &reversed] {
                        let needs: Vec<Vec<Runs>> = (0..p)
                            .map(|q| {
                                let rr = (rows_of[q].0.min(sh[0]), rows_of[q].1.min(sh[0]));
                                views
                                    .iter()
                                    .take(3)
                                    .chain([(*o, *sh, *st)].iter())
                                    .filter_map(|(o2, sh2, st2)| {
                                        Runs::of(*o2, sh2, st2, Some((rr.0.min(sh2[0]), rr.1.min(sh2[0]))))
                                    })
                                    .collect()
                            })
                            .collect();
                        let t = transfers(layout, p, &needs);
                        assert_eq!(t, transfers_of_every_pair(layout, p, &needs));
                        moved += t.len();
                        let written: Vec<(i64, i64)> =
                            rows_of.iter().map(|&(a, b)| (a.min(sh[0]), b.min(sh[0]))).collect();
                        assert_eq!(
                            deliveries(layout, p, (*o, sh, st), &written),
                            deliveries_of_every_pair(layout, p, (*o, sh, st), &written),
                            "view {o} {sh:?} {st:?}, p = {p}"
                        );
                    }
                }
            }
        }
        assert!(moved > 1000, "the cases move data between ranks: {moved} transfers");
    }

    #[test]
    fn merge_joins_overlapping_and_touching_ranges() {
        let mut r = vec![(5, 7), (0, 2), (2, 3), (6, 9), (11, 12)];
        merge(&mut r);
        assert_eq!(r, [(0, 3), (5, 9), (11, 12)]);
    }
}
