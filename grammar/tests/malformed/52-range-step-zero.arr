# expect: E0314
# at: 0)
fn f() { for i in range(1, 5, 0) { print(i); } }
