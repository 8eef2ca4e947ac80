# expect: E0105
# at: arange(3)
fn f() { for i in arange(3) { print(i); } }
