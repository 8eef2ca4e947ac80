# RUN: %arrayc run %s | FileCheck %s
# RUN: %arrayc emit --stage=arr %s | FileCheck %s --check-prefix=ARR
# RUN: %arrayc fuse-report %s | FileCheck %s --check-prefix=FUSE
# RUN: %arrayc emit --stage=arr %s | %arrayc-opt --pass wsp-fusion - | FileCheck %s --check-prefix=ROUNDTRIP
fn main(n: i64 = 6) -> (f64[n], i64[2, 3]) {
    let x = arange(n) * 0.5;
    let c = cumsum(x * 2.0) + 1.0;
    let m = arange(6)[0:3] + arange(2)[:, newaxis] * 3;
    return (c, cumprod(m + 1, axis=-1));
}

# Running sums and products, as NumPy's cumsum/cumprod.
# CHECK: result 0: [ 1.  2.  4.  7. 11. 16.]
# CHECK: result 1: {{\[\[}}  1   2   6]
# CHECK-NEXT: [  4  20 120]]
# The scan op: kind and a non-negative axis; `in` and `out` of one shape.
# ARR: "arr.scan"(%{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}) {kind = "sum", axis = 0 : i64} : (memref<?xf64, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>) -> ()
# ARR: "arr.scan"(%{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}) {kind = "prod", axis = 1 : i64} : (memref<?x?xi64
# The scan fuses with its input's producer and its output's consumer; both are contracted.
# FUSE: block {{[0-9]+}}: {{.*}}mul {{.*}}scan {{.*}}add c,
# FUSE: contracted:
# The printed scan imports again (arrayc-opt).
# ROUNDTRIP: "arr.scan"({{.*}}) {kind = "sum", axis = 0 : i64, arr.block = 
