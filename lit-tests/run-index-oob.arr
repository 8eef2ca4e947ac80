# RUN: not %arrayc run --arg k=7 %s 2>&1 | FileCheck %s
fn main(k: i64 = 0) -> f64 {
    let x = zeros(4);
    return x[k];
}
# RUN: %arrayc run --arg k=-4 %s | FileCheck %s --check-prefix=OK

# The run-time check names the source position of the subscript.
# CHECK: {{.*}}run-index-oob.arr:4:5: error: index 7 is out of bounds for axis 0 with size 4
# OK: 0.0
