# expect: E0315
# at: 300
fn f(u: u8[n]) -> u8[n] {
    u[0] = 300;
    return u;
}
