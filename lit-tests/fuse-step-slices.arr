# RUN: %arrayc fuse-report --generic %s | FileCheck %s
# RUN: %arrayc fuse-report %s | FileCheck %s --check-prefix=SPEC
# RUN: %arrayc check %s 2>&1 | FileCheck %s --check-prefix=EMPTY --allow-empty
# RUN: %arrayc run --generic --arg n=3 %s | FileCheck %s --check-prefix=OUT
# Step slices have exact symbolic sizes (a canonical ceiling division, issue 32): the even and odd
# elements of an axis of 2*n both have n, the rows 1, 3, .. (`1:-1:2`) and 0, 2, .. (`:-2:2`) of an
# n+2 grid both ceil(n/2). So the generic partition (sizes unknown at compile time, as `arrayc
# build` chooses it) needs no run-time broadcast between them and has the specialised partition's
# blocks: one kernel per line, where each operation used to be a kernel of its own (8 blocks).
fn evenodd(n: i64 = 1000) -> (f64[n], f64) {
    let x = arange(2 * n) * 0.5;
    let e = x[::2];
    let o = x[1::2];
    let g = ones(n + 2, n + 2);
    let s = sum(g[1:-1:2, 1:-1:2] + g[:-2:2, 1:-1:2] + g[1:-1:2, :-2:2]);
    return (e * o + e - o, s);
}
# CHECK:      evenodd region 0: {{.*}} 5 blocks
# CHECK-NEXT:   block 0: new %{{[0-9]+}} (line 11); arange {{.*}}; mul x, {{.*}}
# CHECK-NEXT:   block 1: new g (line 14); fill g (line 14)
# CHECK-NEXT:   block 2: new {{.*}} add {{.*}} add {{.*}} reduce {{.*}}
# CHECK-NEXT:   block 3: new {{.*}} mul {{.*}} add {{.*}} sub {{.*}}
# CHECK-NEXT:   block 4: sync
# SPEC:       evenodd region 0: {{.*}} 5 blocks
# EMPTY-NOT:  {{.}}
# NumPy: x = arange(6) * 0.5; e, o = x[::2], x[1::2]; e * o + e - o; 3 ones summed over a 2x2 grid.
# OUT:      result 0: [-0.5  1.   4.5]
# OUT-NEXT: result 1: 12.0
