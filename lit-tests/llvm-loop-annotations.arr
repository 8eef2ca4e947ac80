# RUN: %arrayc emit --stage=llvm --fuse singleton %s | FileCheck %s
# Accumulating loops and their LLVM loop metadata (`kernel_codegen::builder`).
fn sums(n: i64 = 8) -> (f64, i64) {
    let x = arange(n) * 0.5;
    let k = arange(n);
    return (sum(x), sum(k));
}

# A float sum keeps NumPy's order, so it cannot be vectorised: neither interleaved nor unrolled
# (`STRICT_LOOP_ANNOTATION`), which saves LLVM the work on eight copies of it.
# CHECK-LABEL: define void @kernel2_reduce(
# CHECK: fadd double
# CHECK-NEXT: add i64 %{{[0-9]+}}, 1
# CHECK-NEXT: br label %{{[0-9]+}}, !llvm.loop ![[STRICT:[0-9]+]]
# An integer sum is left to LLVM (vectorised and interleaved): no metadata on its loop.
# CHECK-LABEL: define void @kernel3_reduce(
# CHECK: add i64 %{{[0-9]+}}, %{{[0-9]+}}
# CHECK-NEXT: add i64 %{{[0-9]+}}, 1
# CHECK-NEXT: br label %{{[0-9]+}}{{$}}
# CHECK-DAG: ![[STRICT]] = distinct !{![[STRICT]], ![[IC:[0-9]+]], ![[UNROLL:[0-9]+]]}
# CHECK-DAG: ![[IC]] = !{!"llvm.loop.interleave.count", i32 1}
# CHECK-DAG: ![[UNROLL]] = !{!"llvm.loop.unroll.disable"}
