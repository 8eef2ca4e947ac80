# RUN: not %arrayc check %s 2>&1 | FileCheck --strict-whitespace %s
fn main() -> f64[3] {
    let a = zeros(3);
    let b = ones(4);
    return a + b;
}

# CHECK: [E0401] Error: shapes [3] and [4] cannot be broadcast together
# CHECK-NEXT: {{^}}   ,-[ {{.*}}diag-shape.arr:5:12 ]
# CHECK: {{^}} 5 |     return a + b;
# CHECK-NEXT: {{^}}   |            ^^|^^
# CHECK-NEXT: {{^}}   |              `---- size 3 vs 4
# CHECK: Note: broadcasting needs equal sizes or a size of 1 in each right-aligned dimension
# CHECK: error: could not compile `{{.*}}diag-shape.arr` due to 1 previous error
