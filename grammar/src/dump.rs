//! Indented AST dump for `arrayc emit --stage=ast`.

use crate::ast::Program;

/// Pretty-prints the program (Rust `Debug` with indentation).
pub fn dump_program(p: &Program) -> String {
    format!("{p:#?}\n")
}
