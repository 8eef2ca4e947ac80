"""NumPy reference for benchmarks/programs/sor.arr: red-black successive over-relaxation
of the Laplace equation on an (n+2) x (n+2) grid with a hot top row (40.0), the interior
split into four interleaved step-2 sub-grids."""
import numpy as np


def sor(n=100, omega=1.5, epsilon=0.005, max_iter=1000):
    assert n % 2 == 0, "n must be even"
    g = np.zeros((n + 2, n + 2))
    g[0, :] = 40.0
    h = n // 2
    # Sub-grid k covers interior rows/columns 1 + 2i (odd) or 2 + 2i (even), i < h.
    # Index a neighbour of a sub-grid point by its row/column start and step 2.
    def view(row0, col0):
        return g[row0:row0 + 2 * h:2, col0:col0 + 2 * h:2]

    r1, r2 = view(1, 1), view(2, 2)   # red: (odd, odd), (even, even)
    b1, b2 = view(1, 2), view(2, 1)   # black: (odd, even), (even, odd)
    parts = np.zeros(4)  # sum(|u|) of each of the four updates of a sweep
    delta = epsilon + 1.0
    it = 0
    while delta > epsilon and it < max_iter:
        # each point: north (row - 1), south (row + 1), west (col - 1), east (col + 1)
        u1 = omega * (0.25 * (view(0, 1) + view(2, 1) + view(1, 0) + view(1, 2)) - r1)
        r1 += u1
        parts[0] = np.sum(np.abs(u1))
        u2 = omega * (0.25 * (view(1, 2) + view(3, 2) + view(2, 1) + view(2, 3)) - r2)
        r2 += u2
        parts[1] = np.sum(np.abs(u2))
        u3 = omega * (0.25 * (view(0, 2) + view(2, 2) + view(1, 1) + view(1, 3)) - b1)
        b1 += u3
        parts[2] = np.sum(np.abs(u3))
        u4 = omega * (0.25 * (view(1, 1) + view(3, 1) + view(2, 0) + view(2, 2)) - b2)
        b2 += u4
        parts[3] = np.sum(np.abs(u4))
        delta = float(np.sum(parts))
        it += 1
    return g, np.int64(it), np.float64(delta)
