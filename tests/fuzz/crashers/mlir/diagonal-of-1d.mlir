module {
  func.func @f(%n: i64) -> i64 {
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    %d = "arr.diagonal"(%a) {axis = 0 : i64} : (memref<?xf64, strided<[?], offset: ?>>) -> (memref<?xf64, strided<[?], offset: ?>>)
    %c = arith.constant 1.0 : f64
    "arr.fill"(%a, %c) : (memref<?xf64, strided<[?], offset: ?>>, f64) -> ()
    "arr.fill"(%d, %c) : (memref<?xf64, strided<[?], offset: ?>>, f64) -> ()
    return %n : i64
  }
}
