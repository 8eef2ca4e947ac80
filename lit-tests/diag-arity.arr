# RUN: not %arrayc check %s 2>&1 | FileCheck --strict-whitespace %s
fn f(x: f64, y: f64) -> f64 {
    return x + y;
}

fn main() -> f64 {
    return f(1.0);
}

# CHECK: [E0501] Error: missing argument y in call of `f`
# CHECK-NEXT: {{^}}   ,-[ {{.*}}diag-arity.arr:7:12 ]
# CHECK: {{^}} 7 |     return f(1.0);
# CHECK-NEXT: {{^}}   |            ^^^|^^
# CHECK-NEXT: {{^}}   |               `---- wrong number of arguments
# CHECK: Note: signature: fn f(x: f64, y: f64) -> f64
# CHECK: error: could not compile `{{.*}}diag-arity.arr` due to 1 previous error
