# RUN: not %arrayc check %s 2>&1 | FileCheck %s
fn main() -> f64 {
    let value = 1.0;
    return valeu * 2.0;
}
