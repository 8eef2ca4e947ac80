# RUN: %arrayc run %s | FileCheck %s
fn main(n: i64 = 5) -> f64 {
    let x = arange(n) * 1.5;
    print(x);
    print(sum(x), n);
    return mean(x);
}
