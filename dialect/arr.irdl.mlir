// The `arr` dialect, declared in IRDL and loaded into every MLIR context by arrayc-dialect.
// Operation semantics are documented in dialect/README.md. Constraint variables bind one type each
// (an MLIR 22 IRDL rule), so operations whose operands have different types list them one by one.
irdl.dialect @arr {
  // %b = arr.new(sizes...) : allocate a base array (row-major, uninitialised: contents unspecified).
  irdl.operation @new {
    %i = irdl.is i64
    %v = irdl.any
    irdl.operands(sizes: variadic %i)
    irdl.results(result: %v)
  }
  // %v = arr.view(source, index operands...) {index = array<i64: ...>} : a view aliasing source's base array.
  irdl.operation @view {
    %s = irdl.any
    %i = irdl.is i64
    %v = irdl.any
    irdl.operands(source: %s, operands: variadic %i)
    irdl.results(result: %v)
  }
  // %v = arr.broadcast(source, sizes...) : a read-only view of source broadcast to sizes (NumPy rules).
  irdl.operation @broadcast {
    %s = irdl.any
    %i = irdl.is i64
    %v = irdl.any
    irdl.operands(source: %s, sizes: variadic %i)
    irdl.results(result: %v)
  }
  // %v = arr.transpose(source) {perm = array<i64: ...>} : source with permuted axes (a view).
  irdl.operation @transpose {
    %s = irdl.any
    %v = irdl.any
    irdl.operands(source: %s)
    irdl.results(result: %v)
  }
  // %v = arr.diagonal(source) : the main diagonal of a 2-d source (a 1-d view).
  irdl.operation @diagonal {
    %s = irdl.any
    %v = irdl.any
    irdl.operands(source: %s)
    irdl.results(result: %v)
  }
  // %v = arr.reshape(source, sizes...) : source's elements in row-major order as a view of sizes
  // (NumPy's reshape without a copy; a run-time error where that needs a copy).
  irdl.operation @reshape {
    %s = irdl.any
    %i = irdl.is i64
    %v = irdl.any
    irdl.operands(source: %s, sizes: variadic %i)
    irdl.results(result: %v)
  }
  // %b = arr.reshapable(source, sizes...) : whether arr.reshape of source to sizes is possible (i1).
  irdl.operation @reshapable {
    %s = irdl.any
    %i = irdl.is i64
    %b = irdl.is i1
    irdl.operands(source: %s, sizes: variadic %i)
    irdl.results(result: %b)
  }
  // %b = arr.contiguous(source) : whether the view is C-contiguous (NumPy's flag), when ravel is a view (i1).
  irdl.operation @contiguous {
    %s = irdl.any
    %b = irdl.is i1
    irdl.operands(source: %s)
    irdl.results(result: %b)
  }
  // %n = arr.dim(view) {axis} : size of one dimension, in elements.
  irdl.operation @dim {
    %s = irdl.any
    %i = irdl.is i64
    irdl.operands(source: %s)
    irdl.results(result: %i)
  }
  // %x = arr.load(view) : the host reads the single element of a 0-d view (after arr.sync).
  irdl.operation @load {
    %s = irdl.any
    %x = irdl.any
    irdl.operands(source: %s)
    irdl.results(result: %x)
  }
  // %t = arr.contracted : inside an arr.kernel function, an array contracted to one scalar per
  // iteration (Kristensen et al. 2016, Sec. IV-A2): no memory, never loaded or stored.
  irdl.operation @contracted {
    %v = irdl.any
    irdl.results(result: %v)
  }
  irdl.operation @del { %b = irdl.any
    irdl.operands(base: %b) }
  irdl.operation @sync { %b = irdl.any
    irdl.operands(base: %b) }
  irdl.operation @print { %x = irdl.any
    irdl.operands(value: %x) }
  // arr.print_text {text, end} : the text of a string literal of `print("...", ..)`.
  irdl.operation @print_text { }
  // arr.matmul(out, lhs, rhs) : out = lhs @ rhs of 2-d views, a host operation that calls a
  // matrix-product library (dialect/README.md).
  irdl.operation @matmul { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  // arr.sort(out, src) {axis, indices} : out = src sorted along axis (indices: the i64 positions
  // that sort it, stably), a host operation that calls a parallel sort (dialect/README.md).
  irdl.operation @sort { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, src: %a) }
  // arr.convolve(out, a, v, off) : out[k] = sum_j x[k + off - j] * y[j], x the longer of the 1-d
  // views a and v, y the other (NumPy's convolve), a host operation (dialect/README.md).
  irdl.operation @convolve { %o = irdl.any
    %a = irdl.any
    %v = irdl.any
    %k = irdl.any
    irdl.operands(out: %o, a: %a, v: %v, off: %k) }
  // arr.linalg(out, a[, b]) {func = "solve" | "det" | "slogdet" | "cholesky" | "eigvalsh" | "svdvals" | "pinv" | ...} :
  // NumPy's linalg.solve(a, b), det, slogdet, cholesky, eigvalsh, svd(compute_uv=False) or pinv (b its
  // 0-d rtol) of a 2-d a, a host operation (dialect/README.md).
  irdl.operation @linalg { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, a: %a, b: optional %b) }
  // arr.exchange(view) : in a distributed run, each rank receives the elements of view that the
  // next computation reads there and another rank owns (a halo exchange; dialect/README.md).
  irdl.operation @exchange { %v = irdl.any
    irdl.operands(view: %v) }
  // arr.allreduce(view) {kind} : in a distributed run, the ranks' partial results in view are
  // combined in rank order with kind (dialect/README.md).
  irdl.operation @allreduce { %v = irdl.any
    irdl.operands(view: %v) }

  // Destination-passing computations: the first operand is the output view.
  irdl.operation @fill { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, value: %a) }
  irdl.operation @copy { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @arange { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, start: %a, step: %b) }
  irdl.operation @random { %o = irdl.any
    %s = irdl.is i64
    irdl.operands(out: %o, seed: %s) }
  irdl.operation @reduce { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  // Scatter along axes 0..: out[index_0[i, s], .., s] = value[i, s] (or +=), in order
  // (dialect/README.md).
  irdl.operation @scatter { %o = irdl.any
    %i = irdl.any
    %v = irdl.any
    irdl.operands(out: %o, index: variadic %i, value: %v) }
  // Scan along `axis`: out[.., j, ..] = in[.., 0, ..] (+) ... (+) in[.., j, ..] (dialect/README.md).
  irdl.operation @scan { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @where { %o = irdl.any
    %c = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, cond: %c, lhs: %a, rhs: %b) }
  // Gather along axes axis.. with one index array per axis (see dialect/README.md).
  irdl.operation @gather { %o = irdl.any
    %s = irdl.any
    %i = irdl.any
    irdl.operands(out: %o, src: %s, index: variadic %i) }
  // Elementwise binary: out = lhs OP rhs (each a view of out's shape or a scalar).
  irdl.operation @add { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @sub { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @mul { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @div { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @rem { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @pow { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @minimum { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @arctan2 { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @copysign { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @floordiv { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @xor { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @shl { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @shr { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @maximum { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @eq { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @ne { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @lt { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @le { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @gt { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @ge { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @and { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  irdl.operation @or { %o = irdl.any
    %a = irdl.any
    %b = irdl.any
    irdl.operands(out: %o, lhs: %a, rhs: %b) }
  // Elementwise unary: out = OP(in).
  irdl.operation @neg { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @not { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @abs { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @sqrt { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @exp { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @log { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @sin { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @cos { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @tanh { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @ceil { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @tan { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @arcsin { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @arccos { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @arctan { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @sinh { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @cosh { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @arcsinh { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @arccosh { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @arctanh { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @exp2 { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @expm1 { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @log2 { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @log10 { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @log1p { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @floor { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @trunc { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
  irdl.operation @rint { %o = irdl.any
    %a = irdl.any
    irdl.operands(out: %o, in: %a) }
}
