# Galton bean machine: bh107/benchpress (master), benchpress/benchmarks/galton_bean_machine/
# python_numpy/galton_bean_machine.py, "Galton Bean Machine" (size <num_of_beans>*<height>).
# Each of `num_beans` beans falls through `height` rows of pins and goes left (-1) or right (+1)
# at each with equal probability; the result is every bean's final position, the sum of its
# steps (normally distributed for many rows).
# Deviations from the original's NumPy spelling:
# - inputs: `bench.random_array((num_beans, height))` (NumPy's `np.random.rand`) is
#   `random(num_beans, height, seed=seed)`.
fn galton_bean_machine(num_beans: i64 = 1000, height: i64 = 100, seed: i64 = 1) -> f64[num_beans] {
    return sum(sign(random(num_beans, height, seed=seed) - 0.5), axis=1);
}
