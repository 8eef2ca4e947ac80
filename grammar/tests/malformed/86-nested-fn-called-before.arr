# expect: E0118
# at: twice(n)
fn main(n: i64) -> i64 {
    k = twice(n);
    fn twice(m: i64) -> i64 { return 2 * m; }
    return k;
}
