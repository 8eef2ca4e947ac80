# expect: E0311
# at: f32
fn f() { let t = f32; }
