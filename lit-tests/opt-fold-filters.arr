# fold-filters and sink-loads on normalize2 (Robinson et al. 2014, Fig. 1).
# Before: the filter's count is read by the host, and its result is scattered, then reduced.
# RUN: %arrayc-opt %s --pass lower-ast | FileCheck %s --check-prefix=BEFORE
# fold-filters: the sum reads `where(mask, xs, 0.0)`; no count, no scan, no scatter remain.
# RUN: %arrayc-opt %s --pass lower-ast --pass fold-filters | FileCheck %s --check-prefix=FOLD
# sink-loads: both sums are read by the host only where the divisions need them, after both
# reductions, so one region holds both (and wsp-fusion puts them in one kernel).
# RUN: %arrayc-opt %s --pass lower-ast --pass fold-filters --pass sink-loads | FileCheck %s --check-prefix=SINK
# RUN: %arrayc-opt %s --pass lower-ast --pass fold-filters --pass sink-loads --pass insert-del-sync --pass wsp-fusion | FileCheck %s --check-prefix=FUSED
fn normalize2(xs: f64[N]) -> (f64[N], f64[N]) {
    let sum1 = sum(xs);
    let gts = xs[xs > 0.0];
    let sum2 = sum(gts);
    return (xs / sum1, xs / sum2);
}
# BEFORE:      "arr.scan"
# BEFORE:      "arr.scatter"
# FOLD:        %[[S1:[0-9]+]] = "arr.new"()
# FOLD-NEXT:   "arr.reduce"(%[[S1]], %xs_0) {kind = "sum"}
# FOLD-NEXT:   %sum1_{{[0-9]+}} = "arr.load"(%[[S1]])
# FOLD:        %[[M:[0-9]+]] = "arr.new"
# FOLD-NEXT:   "arr.gt"(%[[M]], %xs_0,
# FOLD-NOT:    "arr.scan"
# FOLD-NOT:    "arr.scatter"
# FOLD:        "arr.where"(%[[W:[0-9]+]], %[[M]], %{{[0-9]+}}, %{{[0-9]+}})
# FOLD-NEXT:   "arr.reduce"(%{{[0-9]+}}, %[[W]]) {kind = "sum"}
# SINK:        "arr.reduce"(%{{[0-9]+}}, %xs_0) {kind = "sum"}
# SINK-NOT:    "arr.load"
# SINK:        "arr.reduce"
# SINK:        %sum1_{{[0-9]+}} = "arr.load"
# SINK-NEXT:   %sum2_{{[0-9]+}} = "arr.load"
# SINK-NEXT:   "arr.new"
# SINK-NEXT:   "arr.div"
# FUSED:       "arr.reduce"(%{{[0-9]+}}, %xs_0) {kind = "sum", arr.block = [[B:[0-9]+]] : i64}
# FUSED:       "arr.reduce"(%{{[0-9]+}}, %{{[0-9]+}}) {kind = "sum", arr.block = [[B]] : i64}
# FUSED:       "arr.div"({{.*}}) {arr.block = [[D:[0-9]+]] : i64}
# FUSED-NEXT:  "arr.div"({{.*}}) {arr.block = [[D]] : i64}
