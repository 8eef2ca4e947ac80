//! Prints the diagnostics of a file: `cargo run -p arrayc-grammar --example render FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("usage: render FILE");
    let src = std::fs::read_to_string(&path).expect("read");
    let (c, d) = arrayc_grammar::frontend(&src);
    for x in &d {
        print!("{}", x.render(&path, &src, false));
    }
    println!("ok: {}", c.is_some());
}
