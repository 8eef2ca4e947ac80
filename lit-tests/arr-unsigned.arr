# RUN: %arrayc emit --stage=arr %s | FileCheck %s
# RUN: %arrayc emit --stage=arr %s > %t.mlir && %arrayc-opt %t.mlir | FileCheck %s --check-prefix=RT
# u8 and u64 are MLIR's ui8 and ui64; host scalar arithmetic on them is bridged to the signless
# types `arith` takes (builtin.unrealized_conversion_cast), with the unsigned spellings, and the
# importer reads the bridged text back with the same dtypes.
fn f(x: u64, y: u64, a: u8[N]) -> (u64, bool, u8) {
    return (x // y, x < y, a[0] >> u8(3));
}

# CHECK: func.func @f(%[[X:x_[0-9]+]]: ui64, %[[Y:y_[0-9]+]]: ui64, %{{a_[0-9]+}}: memref<?xui8, strided<[?], offset: ?>>) -> (ui64, i1, ui8)
# CHECK:      %[[BX:bridge.[0-9]+]] = builtin.unrealized_conversion_cast %[[X]] : ui64 to i64
# CHECK-NEXT: %[[BY:bridge.[0-9]+]] = builtin.unrealized_conversion_cast %[[Y]] : ui64 to i64
# CHECK-NEXT: %[[Q:bridge.[0-9]+]] = arith.divui %[[BX]], %[[BY]] : i64
# CHECK-NEXT: %{{[0-9]+}} = builtin.unrealized_conversion_cast %[[Q]] : i64 to ui64
# CHECK:      arith.cmpi ult, %{{bridge.[0-9]+}}, %{{bridge.[0-9]+}} : i64
# CHECK:      arith.shrui %{{bridge.[0-9]+}}, %{{bridge.[0-9]+}} : i8

# RT: func.func @f(%{{[0-9]+}}: ui64, %{{[0-9]+}}: ui64, %{{[0-9]+}}: memref<?xui8, strided<[?], offset: ?>>) -> (ui64, i1, ui8)
# RT: arith.divui %{{.*}} : i64
# RT: arith.cmpi ult, %{{.*}} : i64
# RT: arith.shrui %{{.*}} : i8
