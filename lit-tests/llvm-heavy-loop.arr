# RUN: %arrayc emit --stage=llvm %s | FileCheck %s
# A reduction whose loop body is long (two Philox generators, `HEAVY_BODY_OPS` or more operations):
# interleaved twice, and its vector width fixed to the host's 64-bit lanes (2, 4 or 8:
# `HEAVY_LOOP_ANNOTATIONS`, `Host::lanes_64`), so that LLVM builds no vectorised epilogue for it.
fn inside(n: i64 = 8) -> i64 {
    let x = random(n, seed=1);
    let y = random(n, seed=2);
    return sum(x * x + y * y <= 1.0);
}

# CHECK-LABEL: define void @kernel0_random_random_mul_7ops(
# CHECK: br label %{{[0-9]+}}, !llvm.loop ![[LOOP:[0-9]+]]
# CHECK-DAG: ![[LOOP]] = distinct !{![[LOOP]], ![[W:[0-9]+]], ![[IC:[0-9]+]]}
# CHECK-DAG: ![[W]] = !{!"llvm.loop.vectorize.width", i32 {{2|4|8}}}
# CHECK-DAG: ![[IC]] = !{!"llvm.loop.interleave.count", i32 2}
