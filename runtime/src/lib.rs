//! arrayc run-time library: arrays and views, host values, kernel launch, .npy I/O, RNG, printing.
pub mod array;
pub mod value;
pub mod rng;
pub mod npy;
pub mod print;
pub mod launch;
pub mod exec;
