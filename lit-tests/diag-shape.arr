# RUN: not %arrayc check %s 2>&1 | FileCheck %s
fn main() -> f64[3] {
    let a = zeros(3);
    let b = ones(4);
    return a + b;
}
