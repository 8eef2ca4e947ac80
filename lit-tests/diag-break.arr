# RUN: not %arrayc check %s 2>&1 | FileCheck %s
fn main(n: i64) -> i64 {
    let s = 0;
    for i in 0..n { s += i; }
    if s > 10 { break; }
    return s;
}

# CHECK: [E0109] Error: `break` outside a loop
# CHECK-NEXT: ,-[ {{.*}}diag-break.arr:5:17 ]
# CHECK: 5 |     if s > 10 { break; }
# CHECK: not in a `for` or `while` loop
# CHECK: Help: put it in a loop's body
# CHECK: Note: `break` leaves the innermost `for` or `while` loop around it, and the body of `main` has none here
