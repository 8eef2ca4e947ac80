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

/// Python's `slice(start, stop, step).indices(n)` for a dimension of `n` elements: the first index
/// and the number of elements selected (bounds clipped, negative values count from the end).
/// `step` must not be 0.
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
