# expect: E0301
# at: ~x
fn f(x: f32) -> f32 { return ~x; }
