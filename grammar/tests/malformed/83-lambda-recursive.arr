# expect: E0115
# at: fact(k - 1)
fn main(n: i64) -> i64 {
    fact = lambda k: 1 if k <= 1 else k * fact(k - 1);
    return fact(n);
}
