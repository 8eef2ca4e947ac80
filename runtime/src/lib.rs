//! arrayc run-time library.
pub mod array;
