//! Links the driver binaries as position-dependent executables (`-no-pie`): the dynamic loader
//! then has no relocations to apply at start-up. As a PIE, `arrayc` had about 300,000 of them (the
//! statically linked MLIR and LLVM), which cost about 7.5 M instructions and, in page faults on
//! the pages they write, several ms of every run (`arrayc --version`: about 10 ms).
fn main() {
    println!("cargo:rustc-link-arg-bins=-no-pie");
}
