# RUN: not %arrayc check %s 2>&1 | FileCheck --strict-whitespace %s
fn main() -> i64[3] {
    let a = zeros(3, dtype=i64);
    a += 1.5;
    return a;
}

# CHECK: [E0304] Error: cannot store the f64 result of `+` into `a` of type i64[3] in place
# CHECK-NEXT: {{^}}   ,-[ {{.*}}diag-dtype.arr:4:5 ]
# CHECK: {{^}} 4 |     a += 1.5;
# CHECK-NEXT: {{^}}   |     ^^^^|^^^^
# CHECK-NEXT: {{^}}   |         `------ result is f64
# CHECK: Help: give `a` a f64 dtype, or cast the value to i64
# CHECK: Note: in-place operators need NumPy's same_kind cast from f64 to i64
# CHECK: error: could not compile `{{.*}}diag-dtype.arr` due to 1 previous error
