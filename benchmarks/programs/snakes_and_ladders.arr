# Snakes and ladders: bh107/benchpress (master), benchpress/benchmarks/snakes_and_ladders/
# python_numpy/snakes_and_ladders.py (by Natalino Busa), "Snakes and Ladders" (size
# size*iterations). A Markov chain of a board of `size` squares without snakes or ladders (the
# "null game"): from square i a die moves to i+1 .. i+6, a throw past the end finishes. The
# transition matrix p is raised to successive powers m = p^(k+1); the results are the
# accumulated marginal probabilities a (the sum of the rows m[0] of p^0 .. p^(iterations-1)
# without p^0's, as in the original, which starts at m = p) and pr_end[k], the probability of
# having finished after k+1 throws.
# Deviations from the original's NumPy spelling:
# - `nullgame(size, dtype)` has no dtype parameter (f64, Benchpress's default dtype; arrayc has
#   no dtype-generic parameters).
# - `np.array(np.zeros(n))` (a copy of a new array) is `zeros(n)`, `np.array(nullgame(...))` is
#   `nullgame(...)`.
fn nullgame(size: i64) -> f64[size + 1, size + 1] {
    let p = zeros(size + 1, size + 1);
    for i in range(size + 1) {
        for j in range(6) {
            if i + j < size {
                p[i][i + j + 1] = 1.0 / 6.0;
            }
        }
    }
    p[size][size] = 1.0;
    p[size - 1][size] = 6.0 / 6.0;
    p[size - 2][size] = 5.0 / 6.0;
    p[size - 3][size] = 4.0 / 6.0;
    p[size - 4][size] = 3.0 / 6.0;
    p[size - 5][size] = 2.0 / 6.0;
    p[size - 6][size] = 1.0 / 6.0;
    return p;
}

fn snakes_and_ladders(size: i64 = 100, iterations: i64 = 10) -> (f64[size + 1], f64[iterations]) {
    let a = zeros(size + 1);
    let p = nullgame(size);
    let m = p;  # the initial matrix is p
    let pr_end = zeros(iterations);
    for k in range(iterations) {
        # the probability of ending after the k-th iteration
        pr_end[k] = m[0][size];
        # the accumulated marginal probability at the k-th iteration
        a = a + m[0];
        # the stochastic matrix of iteration k+1
        m = dot(m, p);
    }
    return (a, pr_end);
}
