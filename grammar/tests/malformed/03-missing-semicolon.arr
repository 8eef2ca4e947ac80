# expect: E0101
# at: let
fn f() {
    let x = 1
    let y = 2;
}
