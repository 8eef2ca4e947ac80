pub mod ast;
pub mod types;
