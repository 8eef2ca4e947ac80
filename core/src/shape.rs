//! Shape and index arithmetic shared by the compiler (fusion's view symbols) and the runtime
//! (views, launches): element counts, row-major strides, element ranges and NumPy slicing. Sizes,
//! strides and offsets are in elements.

/// The number of elements of `shape`, or `None` when a size is negative or the count overflows
/// `i64`. Every shape that makes a new array or a broadcast view passes this check, so `View::len`
/// and the products of sizes and strides over a view never overflow.
pub fn checked_len(shape: &[i64]) -> Option<i64> {
    shape.iter().try_fold(1i64, |n, &d| if d < 0 { None } else { n.checked_mul(d) })
}

/// `(3, 4)` style, like NumPy's shape tuples.
pub fn shape_str(s: &[i64]) -> String {
    match s {
        [x] => format!("({x},)"),
        _ => format!("({})", s.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")),
    }
}

/// Row-major (C order) strides in elements for `shape`, whose element count fits in `i64`
/// ([`checked_len`]).
pub fn row_major_strides(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![0; shape.len()];
    let mut acc = 1;
    for d in (0..shape.len()).rev() {
        strides[d] = acc;
        acc *= shape[d].max(1);
    }
    strides
}

/// The elements `lo ..= hi` of a base array (counted from its start) between which every element of
/// a view with this `offset`, `shape` and `strides` (in elements) lies; `None` when a size is 0 or
/// negative (the view has no element). In `i128`, so no size or stride overflows it.
pub fn element_range(offset: i64, shape: &[i64], strides: &[i64]) -> Option<(i128, i128)> {
    let (mut lo, mut hi) = (offset as i128, offset as i128);
    for (&n, &s) in shape.iter().zip(strides) {
        if n <= 0 {
            return None;
        }
        let reach = (n as i128 - 1) * s as i128;
        if reach < 0 {
            lo += reach
        } else {
            hi += reach
        }
    }
    Some((lo, hi))
}

/// Where a view whose axis 0 starts `offset` elements into its base array and steps `stride0`
/// elements over `len0` entries lies among the base's `rows` rows of `row_len` elements: twice the
/// offset of the centre of its rows from the centre of the base's rows (0 for `grid[1:-1, 1:-1]`
/// of an `(n+2) x (n+2)` grid and for a whole array, -2 for `grid[:-2, 1:-1]`, +2 for
/// `grid[2:, 1:-1]`). Views with equal margins in bases of as many rows are read row for row alike
/// under owner computes (docs/distributed.md). `None` where axis 0 does not step forward over
/// whole rows, or is empty. The one rule of pass `distribute` and of the distributed launcher.
pub fn row_margin(offset: i64, stride0: i64, len0: i64, row_len: i64, rows: i64) -> Option<i64> {
    if row_len <= 0 || stride0 <= 0 || stride0 % row_len != 0 || len0 <= 0 {
        return None;
    }
    let first = offset.div_euclid(row_len);
    Some(2 * first + (len0 - 1) * (stride0 / row_len) - (rows - 1))
}

/// Python's `slice(start, stop, step).indices(n)` for a dimension of `n` elements: the first index
/// and the number of elements selected (bounds clipped, negative values count from the end).
/// `step` must not be 0.
pub fn slice_indices(n: i64, start: Option<i64>, stop: Option<i64>, step: i64) -> (i64, i64) {
    // In i128: `x + n`, `end - first + step` and `-step` may leave i64 for extreme values.
    let (n, step) = (n as i128, step as i128);
    let (lower, upper) = if step > 0 { (0, n) } else { (-1, n - 1) };
    let clamp = |x: Option<i64>, default: i128| match x.map(i128::from) {
        None => default,
        Some(x) if x < 0 => (x + n).max(lower),
        Some(x) => x.min(upper),
    };
    let first = clamp(start, if step > 0 { lower } else { upper });
    let end = clamp(stop, if step > 0 { upper } else { lower });
    let len =
        if step > 0 { (end - first + step - 1).div_euclid(step) } else { (first - end - step - 1).div_euclid(-step) };
    // Both lie in -1 ..= n, so they fit in i64 again.
    (first as i64, len.max(0) as i64)
}

/// Ceiling division of an integer-valued sum `sum_i a_i x_i + c` (the `x_i` are any integer-valued
/// terms: symbols, products of symbols) by a positive constant `k`, in the canonical form that the
/// compiler's two symbolic size systems share (the checker's `Size` and fusion's `SymExpr`):
///
/// `ceil((sum_i a_i x_i + c) / k) == sum_i q_i x_i + q + ceil((sum_i r_i x_i + r) / d)`
///
/// for every integer value of every `x_i`, where the residual `ceil(../d)` (`residual`) has
/// coefficients `0 <= r_i < d`, not all 0, with `gcd(r_1, .., d) == 1`, and `0 <= r < d`, `d >= 2`;
/// `None` when the whole quotient is affine (`d` would be 1, or every `r_i` is 0). Two divisions
/// whose canonical forms are equal are equal for every value (the identity holds term by term), so
/// a size that is `ceil((n+2-1-1)/2)` on one side and `ceil(n/2)` on the other compares equal.
///
/// How: `a_i = k q_i + r_i` and `c = k q + r` (Euclidean) move whole multiples of `k` out of the
/// ceiling; a common factor `g` of the `r_i` and `k` goes with `ceil((g y + r) / k) ==
/// ceil((y + ceil(r / g)) / (k / g))` (nested ceilings: `ceil(ceil(x/a)/b) == ceil(x/(ab))` for
/// positive integers `a`, `b`). `None` for `k <= 0` or when a coefficient leaves `i64`.
pub fn ceil_div_split(coeffs: &[i64], constant: i64, k: i64) -> Option<CeilDivSplit> {
    if k <= 0 {
        return None;
    }
    let quotients: Vec<i64> = coeffs.iter().map(|a| a.div_euclid(k)).collect();
    let mut rem: Vec<i64> = coeffs.iter().map(|a| a.rem_euclid(k)).collect();
    let mut q = constant.div_euclid(k);
    let mut r = constant.rem_euclid(k);
    let gcd = |mut x: i64, mut y: i64| {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    };
    let g = rem.iter().fold(k, |g, &ri| gcd(g, ri));
    let mut d = k;
    if g > 1 {
        // ceil((g y + r) / k) == ceil((y + ceil(r / g)) / (k / g)); ceil(r / g) <= k / g.
        d = k / g;
        rem.iter_mut().for_each(|ri| *ri /= g);
        let c = (r + g - 1) / g;
        q = q.checked_add(c.div_euclid(d))?;
        r = c.rem_euclid(d);
    }
    if rem.iter().all(|&ri| ri == 0) {
        // ceil(r / d) with 0 <= r < d: 1 when r > 0.
        return Some(CeilDivSplit { quotients, constant: q.checked_add((r > 0) as i64)?, residual: None });
    }
    Some(CeilDivSplit { quotients, constant: q, residual: Some((rem, r, d)) })
}

/// [`ceil_div_split`]'s result: `ceil((sum a_i x_i + c) / k) == sum quotients[i] * x_i + constant +
/// ceil((sum residual.0[i] * x_i + residual.1) / residual.2)` (the last term absent when `residual`
/// is `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CeilDivSplit {
    pub quotients: Vec<i64>,
    pub constant: i64,
    /// `(r_i, r, d)`: coefficients (one per input coefficient, some 0), constant and divisor.
    pub residual: Option<(Vec<i64>, i64, i64)>,
}

/// Integer sizes that can be computed with symbolically: what [`symbolic_slice`] needs of the
/// checker's `Size` and of fusion's `SymExpr`.
pub trait SymbolicSize: Sized + Clone {
    /// The constant `c`.
    fn lit(c: i64) -> Self;
    /// The value when it is a known constant.
    fn as_const(&self) -> Option<i64>;
    /// `self + o`.
    fn plus(&self, o: &Self) -> Self;
    /// `self - o`.
    fn minus(&self, o: &Self) -> Self;
    /// `ceil(self / k)` for a constant `k > 0` (canonical: [`ceil_div_split`]); `None` where it
    /// cannot be represented.
    fn ceil_div(&self, k: i64) -> Option<Self>;
    /// `c * self`.
    fn scale(&self, c: i64) -> Self;
    /// NumPy's `self // k` (rounded toward minus infinity) for a constant `k != 0`:
    /// `floor(x / k) == ceil((x - k + 1) / k)` for `k > 0`, and `x // k == (-x) // (-k)`.
    fn floor_div(&self, k: i64) -> Option<Self> {
        let (x, k) = if k < 0 { (self.scale(-1), k.checked_neg()?) } else { (self.clone(), k) };
        x.minus(&Self::lit(k.checked_sub(1)?)).ceil_div(k)
    }
    /// NumPy's `self % k` for a constant `k != 0` (with the sign of `k`): `x - k * (x // k)`.
    fn rem(&self, k: i64) -> Option<Self> {
        Some(self.minus(&self.floor_div(k)?.scale(k)))
    }
}

/// The first index and the length of `x[start:stop:step]` on a dimension of `dim` elements, for
/// symbolic sizes and bounds (`None`: the bound is left out), ASSUMING every given bound lies in
/// the dimension (a bound that is a negative constant counts from the end, as in NumPy; any other
/// bound is an index from the start, `0 <= bound <= dim`, `< dim` for negative steps): NumPy's
/// clipping is left out, so this is `slice_indices` wherever the bounds are in range (tested), and
/// the lengths of two slices compare equal only where they are. With step `k > 0`: first `start`
/// (default 0), length `ceil((stop - first) / k)` (stop default `dim`); with `k < 0`: first `start`
/// (default `dim - 1`), length `ceil((first - stop) / -k)` (stop default: before index 0, -1). A
/// length that is a negative constant is 0. `None` for step 0 or a length that cannot be
/// represented. The one rule of the checker's slice sizes and of fusion's slice views.
pub fn symbolic_slice<S: SymbolicSize>(dim: &S, start: Option<S>, stop: Option<S>, step: i64) -> Option<(S, S)> {
    if step == 0 {
        return None;
    }
    let resolve = |b: Option<S>, default: S| match b {
        None => default,
        Some(s) => match s.as_const() {
            Some(c) if c < 0 => dim.plus(&s),
            _ => s,
        },
    };
    let (first, distance) = if step > 0 {
        let first = resolve(start, S::lit(0));
        let end = resolve(stop, dim.clone());
        (first.clone(), end.minus(&first))
    } else {
        let first = resolve(start, dim.minus(&S::lit(1)));
        let end = resolve(stop, S::lit(-1));
        (first.clone(), first.minus(&end))
    };
    let len = distance.ceil_div(step.checked_abs()?)?;
    Some(match len.as_const() {
        Some(c) if c < 0 => (first, S::lit(0)),
        _ => (first, len),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_margin_is_twice_the_offset_of_the_centres_of_the_rows() {
        // Against the rows each view's axis 0 visits, listed one by one: a 10 x 10 base.
        let (row_len, rows) = (10, 10);
        for (offset, stride0, len0) in [(11, 10, 8), (1, 10, 8), (21, 10, 8), (0, 10, 10), (13, 20, 4), (50, 10, 1)] {
            let visited: Vec<i64> = (0..len0).map(|i| (offset + i * stride0) / row_len).collect();
            let want = visited[0] + visited[visited.len() - 1] - (rows - 1);
            assert_eq!(row_margin(offset, stride0, len0, row_len, rows), Some(want), "{offset} {stride0} {len0}");
        }
        assert_eq!(row_margin(11, 10, 8, row_len, rows), Some(0));
        // Columns, reversed or empty axes 0 are not runs of whole rows.
        assert_eq!(row_margin(0, 1, 10, row_len, rows), None);
        assert_eq!(row_margin(90, -10, 10, row_len, rows), None);
        assert_eq!(row_margin(0, 10, 0, row_len, rows), None);
    }

    /// `ceil(x / k)` of integers, computed in i128 by Euclidean division (the reference).
    fn ceil_ref(x: i128, k: i128) -> i128 {
        -((-x).div_euclid(k))
    }

    #[test]
    fn ceil_div_split_equals_ceiling_division_for_every_value() {
        // Every numerator with two symbols, coefficients -6..=6, constants -7..=7, divisors 1..=6,
        // against brute force over symbol values -13..=13.
        let mut splits = 0;
        for k in 1..=6i64 {
            for a in -6..=6i64 {
                for b in -6..=6i64 {
                    for c in -7..=7i64 {
                        let s = ceil_div_split(&[a, b], c, k).expect("small coefficients");
                        if let Some((r, rc, d)) = &s.residual {
                            // The canonical form's invariants.
                            assert!(*d >= 2 && (0..*d).contains(rc) && r.iter().all(|ri| (0..*d).contains(ri)));
                            assert!(r.iter().any(|&ri| ri != 0));
                            let g =
                                r.iter().fold(*d, |g, &ri| (1..=g).rev().find(|x| g % x == 0 && ri % x == 0).unwrap());
                            assert_eq!(g, 1, "{a} {b} {c} {k}: {s:?}");
                            splits += 1;
                        }
                        for x in -13..=13i64 {
                            for y in -13..=13i64 {
                                let want = ceil_ref((a * x + b * y + c) as i128, k as i128);
                                let mut got = (s.quotients[0] * x + s.quotients[1] * y + s.constant) as i128;
                                if let Some((r, rc, d)) = &s.residual {
                                    got += ceil_ref((r[0] * x + r[1] * y + rc) as i128, *d as i128);
                                }
                                assert_eq!(got, want, "ceil(({a}x + {b}y + {c}) / {k}) at x={x}, y={y}: {s:?}");
                            }
                        }
                    }
                }
            }
        }
        assert!(splits > 1000, "most splits keep a residual");
        // Canonical: ceil((n+2-1-1)/2) and ceil(n/2) are one form; ceil((n-1)/2) is another,
        // ceil((n+1)/2) - 1 (they differ at odd n).
        assert_eq!(ceil_div_split(&[1], 0, 2), ceil_div_split(&[1], 2 - 1 - 1, 2));
        assert_eq!(ceil_div_split(&[1], -1, 2).unwrap().constant, -1);
        assert_eq!(ceil_div_split(&[1], -1, 2).unwrap().residual, Some((vec![1], 1, 2)));
        // ceil((2n - 1)/2) == n: whole multiples leave the ceiling.
        assert_eq!(ceil_div_split(&[2], -1, 2), Some(CeilDivSplit { quotients: vec![1], constant: 0, residual: None }));
        // ceil((2n + 1)/4) == ceil((n + 1)/2): the common factor 2 leaves the divisor.
        assert_eq!(ceil_div_split(&[2], 1, 4).unwrap().residual, Some((vec![1], 1, 2)));
        assert_eq!(ceil_div_split(&[1], 0, 0), None);
        assert_eq!(ceil_div_split(&[1], 0, -2), None);
    }

    /// A symbolic size for testing [`symbolic_slice`]: `a * n + c`, or `ceil((a n + c) / k) + q n + e`.
    #[derive(Clone, Debug, PartialEq)]
    enum T {
        Affine(i64, i64),
        Ceil { a: i64, c: i64, k: i64, q: i64, e: i64 },
    }
    impl T {
        fn at(&self, n: i64) -> i64 {
            match *self {
                T::Affine(a, c) => a * n + c,
                T::Ceil { a, c, k, q, e } => ceil_ref((a * n + c) as i128, k as i128) as i64 + q * n + e,
            }
        }
    }
    impl SymbolicSize for T {
        fn lit(c: i64) -> T {
            T::Affine(0, c)
        }
        fn as_const(&self) -> Option<i64> {
            match *self {
                T::Affine(0, c) => Some(c),
                _ => None,
            }
        }
        fn plus(&self, o: &T) -> T {
            match (self, o) {
                (T::Affine(a, c), T::Affine(b, d)) => T::Affine(a + b, c + d),
                _ => unreachable!("slices add affine bounds only"),
            }
        }
        fn minus(&self, o: &T) -> T {
            match (self, o) {
                (T::Affine(a, c), T::Affine(b, d)) => T::Affine(a - b, c - d),
                _ => unreachable!("slices subtract affine bounds only"),
            }
        }
        fn scale(&self, k: i64) -> T {
            match *self {
                T::Affine(a, c) => T::Affine(k * a, k * c),
                _ => unreachable!("slices scale affine bounds only"),
            }
        }
        fn ceil_div(&self, k: i64) -> Option<T> {
            let T::Affine(a, c) = *self else { return None };
            let s = ceil_div_split(&[a], c, k)?;
            Some(match s.residual {
                None => T::Affine(s.quotients[0], s.constant),
                Some((r, rc, d)) => T::Ceil { a: r[0], c: rc, k: d, q: s.quotients[0], e: s.constant },
            })
        }
    }

    #[test]
    fn symbolic_slices_equal_python_slices_where_the_bounds_are_in_range() {
        // Dimensions n + dc of every n, bounds: absent, constants (negative ones count from the
        // end) and n + constant; steps -4..=4. Wherever every given bound lies in the dimension
        // (what the rule assumes), the symbolic first index and length at n equal Python's.
        let bounds: Vec<Option<T>> = std::iter::once(None)
            .chain((-4..=4).map(|c| Some(T::Affine(0, c))))
            .chain((-3..=3).map(|c| Some(T::Affine(1, c))))
            .collect();
        let mut checked = 0;
        for dc in [0i64, 2] {
            let dim = T::Affine(1, dc);
            for start in &bounds {
                for stop in &bounds {
                    for step in (-4..=4i64).filter(|&s| s != 0) {
                        let (first, len) = symbolic_slice(&dim, start.clone(), stop.clone(), step).unwrap();
                        assert!(step.abs() < 2 || !matches!(len, T::Affine(a, _) if a != 0 && a.abs() < step.abs()));
                        for n in 0..40 {
                            let d = n + dc;
                            let at = |b: &Option<T>| b.as_ref().map(|b| b.at(n));
                            // A constant may count from the end; a symbolic bound is an index
                            // from the start.
                            let in_range = |b: &Option<T>| {
                                let lo = if b.as_ref().and_then(T::as_const).is_some() { -d } else { 0 };
                                match at(b) {
                                    None => true,
                                    Some(v) if step > 0 => (lo..=d).contains(&v),
                                    Some(v) => (lo..d).contains(&v),
                                }
                            };
                            if d == 0 || !in_range(start) || !in_range(stop) {
                                continue;
                            }
                            let (pf, plen) = slice_indices(d, at(start), at(stop), step);
                            assert_eq!(len.at(n).max(0), plen, "len of [{start:?}:{stop:?}:{step}] on {d}");
                            if plen > 0 {
                                assert_eq!(first.at(n), pf, "first of [{start:?}:{stop:?}:{step}] on {d}");
                            }
                            if len.at(n) < 0 {
                                // Never a negative length where Python's is positive.
                                assert_eq!(plen, 0);
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 50_000, "{checked}");
        // sor's sub-grids of an (n+2)-row grid: rows 1, 3, .. and rows 0, 2, .. have one size.
        let dim = T::Affine(1, 2);
        let r1 = symbolic_slice(&dim, Some(T::lit(1)), Some(T::lit(-1)), 2).unwrap().1;
        let north = symbolic_slice(&dim, None, Some(T::lit(-2)), 2).unwrap().1;
        let r2 = symbolic_slice(&dim, Some(T::lit(2)), Some(T::lit(-1)), 2).unwrap().1;
        assert_eq!(r1, north);
        assert_ne!(r1, r2);
        assert_eq!(symbolic_slice(&dim, None, None, 0), None);
    }

    #[test]
    fn slice_indices_of_extreme_steps_match_python() {
        // Python: slice(None, None, -2**63).indices(5) -> (4, -1, ...): one element.
        assert_eq!(slice_indices(5, None, None, i64::MIN), (4, 1));
        assert_eq!(slice_indices(5, None, None, i64::MAX), (0, 1));
        assert_eq!(slice_indices(5, Some(i64::MIN), Some(i64::MAX), 1), (0, 5));
        assert_eq!(slice_indices(5, Some(i64::MAX), Some(i64::MIN), -1), (4, 5));
        assert_eq!(slice_indices(0, None, None, -1), (-1, 0));
    }
}
