# expect: E0101
# at: )
fn f() { } )
