# RUN: %arrayc run %s | FileCheck %s
fn main(n: i64 = 5) -> f64 {
    let x = arange(n) * 1.5;
    print(x);
    print(sum(x), n);
    return mean(x);
}

# print() output comes first (NumPy formatting), then the entry's result.
# CHECK:      [0.  1.5 3.  4.5 6. ]
# CHECK-NEXT: 15.0 5
# CHECK-NEXT: 3.0
# CHECK-EMPTY:
