//! Generates the parser from `src/parser.lalrpop` into `OUT_DIR`.
fn main() {
    println!("cargo:rerun-if-changed=src/parser.lalrpop");
    lalrpop::Configuration::new()
        .use_cargo_dir_conventions()
        .emit_rerun_directives(true)
        .process()
        .expect("lalrpop failed to generate the parser");
}
