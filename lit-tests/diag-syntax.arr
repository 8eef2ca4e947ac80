# RUN: not %arrayc check %s 2>&1 | FileCheck --strict-whitespace %s
fn main() -> f64 {
    let x = 1.0 +;
    return x;
}

# CHECK: [E0101] Error: unexpected `;`, expected one of `true`, `false`, `newaxis`, a dtype (`f64`, `i32`, `u8`, ...), identifier, integer, float, `string`, `fstring`, `(`, `[`, `+`, ...
# CHECK-NEXT: {{^}}   ,-[ {{.*}}diag-syntax.arr:3:18 ]
# CHECK: {{^}} 3 |     let x = 1.0 +;
# CHECK-NEXT: {{^}}   |                  |
# CHECK-NEXT: {{^}}   |                  `-- expected one of
# CHECK: error: could not compile `{{.*}}diag-syntax.arr` due to 1 previous error
