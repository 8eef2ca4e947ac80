# expect: E0105
# at: range(1, 2, 3, 4)
fn f() { for i in range(1, 2, 3, 4) { print(i); } }
