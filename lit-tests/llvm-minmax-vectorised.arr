# RUN: %arrayc emit --stage=llvm --fuse singleton %s | FileCheck %s
# Min and max reductions (`MIN_MAX_OPS` of `kernel_codegen::builder`): their loops get the vector
# width of the host's 64-bit lanes and are interleaved twice, which makes LLVM vectorise them
# (its cost model leaves NaN-propagating `llvm.minimum` and `i64` min scalar on AVX2).
fn extremes(x: f64[N], k: i64[N]) -> (f64, i64) {
    return (min(x), max(k));
}

# CHECK-LABEL: define void @kernel0_reduce(
# CHECK: call double @llvm.minimum.f64(
# CHECK: br label %{{[0-9]+}}, !llvm.loop ![[WIDE:[0-9]+]]
# CHECK-LABEL: define void @kernel1_reduce(
# CHECK: call i64 @llvm.smax.i64(
# CHECK: br label %{{[0-9]+}}, !llvm.loop ![[WIDE]]
# CHECK-DAG: ![[WIDE]] = distinct !{![[WIDE]], ![[W:[0-9]+]], ![[IC:[0-9]+]]}
# CHECK-DAG: ![[W]] = !{!"llvm.loop.vectorize.width", i32 {{[248]}}}
# CHECK-DAG: ![[IC]] = !{!"llvm.loop.interleave.count", i32 2}
