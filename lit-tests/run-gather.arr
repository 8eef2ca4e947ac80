# RUN: %arrayc run %s | FileCheck %s
# RUN: not %arrayc run --arg k=5 %s 2>&1 | FileCheck %s --check-prefix=OOB
# RUN: %arrayc fuse-report %s | FileCheck %s --check-prefix=FUSE
fn main(k: i64 = -1) -> f64[3] {
    let x = arange(5) * 1.5;
    let idx = arange(3) + k;
    return x[idx] * 2.0;
}

# Negative indices count from the end (NumPy): x[[-1, 0, 1]] * 2.
# CHECK: [12.  0.  3.]
# An index outside [-5, 5) is NumPy's IndexError, naming the line.
# OOB: run-gather.arr:7:5: error: index out of bounds for axis 0 of the indexed array (IndexError)
# The gather fuses with its index array's producer and its consumer (the index array is
# contracted), not with the producer of the gathered array (van Balen et al. 2024, Sec. 3.3).
# FUSE: block 0: {{.*}}mul x,
# FUSE-NOT: gather
# FUSE: block 1: {{.*}}new idx{{.*}}gather {{.*}}, x, idx{{.*}}mul
# FUSE: contracted: {{.*}}idx
