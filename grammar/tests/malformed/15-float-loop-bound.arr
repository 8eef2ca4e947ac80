# expect: E0305
# at: 10.0
fn f() { for i in 0..10.0 { } }
