# Scalar control flow (for, while, if / else if / else) and user functions: several
# results, array arguments with size symbols, a size symbol used as a value, an affine
# result size, and functions calling functions.

# Min, max and mean of a vector.
fn stats(x: f64[N]) -> (f64, f64, f64) {
    return (min(x), max(x), mean(x));
}

# Positive and negative parts of a vector.
fn split_sign(x: f64[N]) -> (f64[N], f64[N]) {
    return (maximum(x, 0.0), minimum(x, 0.0));
}

# Sums of three consecutive elements: an affine result size.
fn window3(x: f64[N]) -> f64[N - 2] {
    return x[:-2] + x[1:-1] + x[2:];
}

# The last index of x, using the size symbol as a value, and a second call inside.
fn last_and_range(x: f64[N]) -> (i64, f64) {
    let m = N - 1;
    let (lo, hi, avg) = stats(x);
    return (m, hi - lo);
}

# Number of Collatz steps from n down to 1 (while, if/else, i64 arithmetic).
fn collatz(n: i64) -> i64 {
    let m = n;
    let steps = 0;
    while m != 1 {
        if m % 2 == 0 {
            m = i64(m / 2);
        } else {
            m = 3 * m + 1;
        }
        steps += 1;
    }
    return steps;
}

fn control(n: i64 = 12, seed: i64 = 5, start: i64 = 27, threshold: f64 = 1.0) -> (f64, f64, f64, f64[n], f64[n], f64[n - 2], i64, f64, i64, i64[n], i64, i64, i64, i64, f64, f64) {
    let x = random(n, seed=seed) - 0.5;
    let (lo, hi, avg) = stats(x);
    let (pos, neg) = split_sign(x);
    let win = window3(x);
    let (last, spread) = last_and_range(x);
    let steps = collatz(start);

    # Fibonacci numbers into an i64 array: element reads and writes in a loop.
    let fib = zeros(n, dtype=i64);
    fib[1] = 1;
    for i in 2..n {
        fib[i] = fib[i - 1] + fib[i - 2];
    }

    # Classify elements with if / else if / else.
    let small = 0;
    let below = 0;
    let above = 0;
    for i in 0..n {
        let xi = x[i];
        if abs(xi) < 0.1 {
            small += 1;
        } else if xi < 0.0 {
            below += 1;
        } else {
            above += 1;
        }
    }

    # First index at which the running sum of |x| exceeds the threshold (n if never).
    let j = 0;
    let acc = 0.0;
    while j < n & acc <= threshold {
        acc += abs(x[j]);
        j += 1;
    }

    # Nested loops with a scalar accumulator.
    let tri = 0.0;
    for a in 0..4 {
        for b in a..4 {
            tri += f64(a * b) * 0.5;
        }
    }
    return (lo, hi, avg, pos, neg, win, last, spread, steps, fib, small, below, above, j, acc, tri);
}
