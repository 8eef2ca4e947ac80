# RUN: not %arrayc check %s 2>&1 | FileCheck %s
fn main() -> f64 {
    let x = 1.0 +;
    return x;
}
