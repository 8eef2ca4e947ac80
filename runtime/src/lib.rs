//! arrayc run-time library: arrays and views, host values, kernel launch (CPU and GPU), .npy I/O,
//! RNG, printing.
//! It holds no IR and links no MLIR: kernels arrive compiled, with a [`LaunchPlan`](arrayc_core::abi::LaunchPlan)
//! computed once at compile time; what it shares with the compiler is in `arrayc-core`.
pub mod array;
pub mod convolve;
pub mod gpu;
pub mod launch;
pub mod linalg;
pub mod matmul;
pub mod npy;
pub mod print;
pub mod rng;
pub mod sort;
pub mod value;
pub mod views;
