# RUN: %arrayc emit --stage=arr --entry main %s | FileCheck %s
fn twice(v: f64[N]) -> f64[N] {
    return v * 2.0;
}

fn main(n: i64 = 5) -> f64[n] {
    let a = arange(n) * 1.0;
    return twice(a);
}
