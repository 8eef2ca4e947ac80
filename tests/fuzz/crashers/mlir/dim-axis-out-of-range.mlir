module {
  func.func @f(%n: i64) -> i64 {
    %a = "arr.new"(%n) : (i64) -> (memref<?xf64, strided<[?], offset: ?>>)
    %d = "arr.dim"(%a) {axis = 5 : i64} : (memref<?xf64, strided<[?], offset: ?>>) -> (i64)
    %c = arith.constant 1.0 : f64
    "arr.fill"(%a, %c) : (memref<?xf64, strided<[?], offset: ?>>, f64) -> ()
    return %d : i64
  }
}
