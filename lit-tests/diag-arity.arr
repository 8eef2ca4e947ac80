# RUN: not %arrayc check %s 2>&1 | FileCheck %s
fn f(x: f64, y: f64) -> f64 {
    return x + y;
}

fn main() -> f64 {
    return f(1.0);
}
