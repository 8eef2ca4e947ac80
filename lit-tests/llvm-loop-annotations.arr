# RUN: %arrayc emit --stage=llvm --fuse singleton %s | FileCheck %s
# Accumulating loops and their LLVM loop metadata (`kernel_codegen::builder`).
fn sums(n: i64 = 8) -> (f64, i64) {
    let x = arange(n) * 0.5;
    let k = arange(n);
    return (sum(x), sum(k));
}

# A float sum keeps its order (LLVM may not reassociate it): eight interleaved partial sums
# (`SUM_ACCUMULATORS`, a loop by 8), combined pairwise, then the rest in order; neither loop is
# interleaved or unrolled (`STRICT_LOOP_ANNOTATION`), which saves LLVM the work on copies of them.
# CHECK-LABEL: define void @kernel2_reduce(
# CHECK: udiv i64 %{{[0-9]+}}, 8
# CHECK: add i64 %{{[0-9]+}}, 7
# CHECK: fadd double
# CHECK-NEXT: add i64 %{{[0-9]+}}, 8
# CHECK-NEXT: br label %{{[0-9]+}}, !llvm.loop ![[STRICT:[0-9]+]]
# CHECK: [[A:%[0-9]+]] = fadd double %{{[0-9]+}}, %{{[0-9]+}}
# CHECK-NEXT: [[B:%[0-9]+]] = fadd double %{{[0-9]+}}, %{{[0-9]+}}
# CHECK-NEXT: [[C:%[0-9]+]] = fadd double %{{[0-9]+}}, %{{[0-9]+}}
# CHECK-NEXT: [[D:%[0-9]+]] = fadd double %{{[0-9]+}}, %{{[0-9]+}}
# CHECK-NEXT: [[AB:%[0-9]+]] = fadd double [[A]], [[B]]
# CHECK-NEXT: [[CD:%[0-9]+]] = fadd double [[C]], [[D]]
# CHECK-NEXT: fadd double [[AB]], [[CD]]
# CHECK: fadd double
# CHECK-NEXT: add i64 %{{[0-9]+}}, 1
# CHECK-NEXT: br label %{{[0-9]+}}, !llvm.loop ![[STRICT]]
# An integer sum is left to LLVM (vectorised and interleaved): no metadata on its loop.
# CHECK-LABEL: define void @kernel3_reduce(
# CHECK: add i64 %{{[0-9]+}}, %{{[0-9]+}}
# CHECK-NEXT: add i64 %{{[0-9]+}}, 1
# CHECK-NEXT: br label %{{[0-9]+}}{{$}}
# CHECK-DAG: ![[STRICT]] = distinct !{![[STRICT]], ![[IC:[0-9]+]], ![[UNROLL:[0-9]+]]}
# CHECK-DAG: ![[IC]] = !{!"llvm.loop.interleave.count", i32 1}
# CHECK-DAG: ![[UNROLL]] = !{!"llvm.loop.unroll.disable"}
