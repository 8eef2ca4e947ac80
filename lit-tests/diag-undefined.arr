# RUN: not %arrayc check %s 2>&1 | FileCheck --strict-whitespace %s
fn main() -> f64 {
    let value = 1.0;
    return valeu * 2.0;
}

# CHECK: [E0201] Error: undefined variable `valeu`
# CHECK-NEXT: {{^}}   ,-[ {{.*}}diag-undefined.arr:4:12 ]
# CHECK: {{^}} 4 |     return valeu * 2.0;
# CHECK-NEXT: {{^}}   |            ^^|^^
# CHECK-NEXT: {{^}}   |              `---- not found in this scope
# CHECK: Help: did you mean `value`?
# CHECK: error: could not compile `{{.*}}diag-undefined.arr` due to 1 previous error
