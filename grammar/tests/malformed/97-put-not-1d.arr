# expect: E0321
# at: z, ix
fn f(z: f64[r, c], ix: i64[k]) -> i64 {
    np.put(z, ix, 1.0);
    return 0;
}
