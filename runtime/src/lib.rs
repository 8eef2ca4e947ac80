//! arrayc run-time library: arrays and views, host values, kernel launch, .npy I/O, RNG, printing.
pub mod array;
pub mod value;
