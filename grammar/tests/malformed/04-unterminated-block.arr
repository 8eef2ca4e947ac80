# expect: E0102
fn f() {
    let x = 1;
    while x < 3 {
        x += 1;

