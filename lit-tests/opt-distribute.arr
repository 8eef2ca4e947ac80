# distribute (issue 30) makes a distributed run's communication explicit: an arr.exchange before
# each read that may come from other ranks' rows (here every view of the grid read into 8-row
# temporaries, and the temporary `t` written into the grid's interior), and an
# arr.allreduce after the reduction over everything. wsp-fusion then puts each in the block of
# its computation, so the partition is the single process's (the stencil is one block).
# RUN: %arrayc-opt %s --pass lower-ast --pass distribute | FileCheck %s
# RUN: %arrayc-opt %s --pass lower-ast --pass sink-loads --pass distribute --pass insert-del-sync --pass wsp-fusion | FileCheck %s --check-prefix=FUSED
# RUN: %arrayc-opt %s --pass lower-ast --pass sink-loads --pass insert-del-sync --pass wsp-fusion | FileCheck %s --check-prefix=SINGLE
fn main() -> (f64[10, 10], f64) {
    let g = zeros(10, 10);
    g[0, :] = 40.0;
    let t = 0.25 * (g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:]);
    g[1:-1, 1:-1] = t;
    return (g, sum(g));
}
# Every view of g is exchanged: the adds' outputs have 8 rows, g has 10, so no view of g is
# provably read on the rows it is computed on (at run time the launch runs on the rows of
# g[1:-1, :-2], centred in g, and only the rows above and below move).
# CHECK:       %[[UP:[0-9]+]] = "arr.view"(%g_{{[0-9]+}}, {{.*}}) {index = array<i64: 10, 11>}
# CHECK:       %[[DOWN:[0-9]+]] = "arr.view"(%g_{{[0-9]+}}, {{.*}}) {index = array<i64: 9, 11>}
# CHECK:       "arr.exchange"(%[[DOWN]])
# CHECK-NEXT:  "arr.add"(%{{[0-9]+}}, %[[UP]], %[[DOWN]])
# CHECK:       "arr.exchange"(%t_{{[0-9]+}})
# CHECK-NEXT:  "arr.copy"(%{{[0-9]+}}, %t_{{[0-9]+}})
# CHECK:       "arr.reduce"(%[[S:[0-9]+]], %g_{{[0-9]+}}) {kind = "sum"}
# CHECK-NEXT:  "arr.allreduce"(%[[S]]) {kind = "sum"}
# FUSED:       "arr.exchange"({{.*}}) {arr.block = [[B:[0-9]+]] : i64}
# FUSED-NEXT:  "arr.exchange"({{.*}}) {arr.block = [[B]] : i64}
# FUSED-NEXT:  "arr.add"({{.*}}) {arr.block = [[B]] : i64}
# FUSED:       "arr.mul"(%t_{{[0-9]+}}, {{.*}}) {arr.block = [[B]] : i64}
# FUSED:       "arr.exchange"(%t_{{[0-9]+}}) {arr.block = [[C:[0-9]+]] : i64}
# FUSED-NEXT:  "arr.copy"({{.*}}) {arr.block = [[C]] : i64}
# FUSED:       "arr.reduce"({{.*}}) {kind = "sum", arr.block = [[D:[0-9]+]] : i64}
# FUSED-NEXT:  "arr.allreduce"({{.*}}) {kind = "sum", arr.block = [[D]] : i64}
# The same blocks without the pass: the three adds and the mul in one.
# SINGLE:      "arr.add"({{.*}}) {arr.block = [[B:[0-9]+]] : i64}
# SINGLE:      "arr.mul"(%t_{{[0-9]+}}, {{.*}}) {arr.block = [[B]] : i64}
# SINGLE:      "arr.copy"({{.*}}) {arr.block = [[C:[0-9]+]] : i64}
