# expect: E0117
# at: t += k;
fn main(n: i64) -> i64 {
    t = 0;
    fn bump(k: i64) { t += k; }
    bump(n);
    return t;
}
