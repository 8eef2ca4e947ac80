# RUN: not %arrayc check %s 2>&1 | FileCheck %s
fn main() -> i64[3] {
    let a = zeros(3, dtype=i64);
    a += 1.5;
    return a;
}
