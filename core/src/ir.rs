//! arrayc's typed mirror of an `arr` module: host functions (scalar code, `scf` control flow, `arr`
//! array operations) and outlined kernel functions.
//!
//! Passes work on this structure; `arrayc_dialect::print` writes it as MLIR text that the real MLIR parser
//! verifies against the IRDL definition in `dialect/arr.irdl.mlir`. Semantics of every operation are
//! in `dialect/README.md`. Array operations follow Bohrium's bytecode (Kristensen et al. 2016,
//! Sec. IV, Fig. 3): destination-passing on views, with explicit `new`, `del` and `sync`.

pub use crate::{BinFn, ComputeFn, IndexEntry, ReduceKind, Scalar, ScatterKind, ScatterMode, Type, UnFn, ValueId};

/// Source position of an operation (1-based), printed as an MLIR `loc("file":line:col)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Loc {
    pub line: u32,
    pub col: u32,
}

/// An operation with its source location.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Op {
    pub kind: OpKind,
    pub loc: Option<Loc>,
    /// The block of the WSP partition this operation belongs to, as the `wsp-fusion` pass decided
    /// it (printed as the discardable attribute `arr.block`), for `outline-kernels` to outline: on a
    /// computation, `arr.sync` or `arr.del`, the block (numbered within its function) it runs in; on
    /// an `arr.new`, the block its base array is contracted in (Kristensen et al. 2016, Sec. IV-A2).
    /// `None` before fusion, after outlining, and on an `arr.new` whose array is materialised.
    pub block: Option<u32>,
}

impl Op {
    /// An operation outside any block.
    pub fn new(kind: OpKind, loc: Option<Loc>) -> Op {
        Op { kind, loc, block: None }
    }
}

/// A sequence of operations (the body of a function, loop or branch) — a straight-line region
/// apart from the nested control flow it contains.
pub type Body = Vec<Op>;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum OpKind {
    /// `arith.constant`
    Const { res: ValueId, value: Scalar },
    /// Scalar binary arithmetic (`arith.*`/`math.*`); operands have the same dtype, except that
    /// comparisons give `bool`.
    Binary { res: ValueId, op: BinFn, lhs: ValueId, rhs: ValueId },
    /// Scalar unary function.
    Unary { res: ValueId, op: UnFn, arg: ValueId },
    /// Scalar conversion to the result's dtype.
    Cast { res: ValueId, arg: ValueId },
    /// `arith.select`
    Select { res: ValueId, cond: ValueId, lhs: ValueId, rhs: ValueId },
    /// `scf.for %iv = lo to hi step 1 iter_args(carried = inits) { body; yield yields }`
    For {
        iv: ValueId,
        lo: ValueId,
        hi: ValueId,
        step: ValueId,
        inits: Vec<ValueId>,
        carried: Vec<ValueId>,
        body: Body,
        yields: Vec<ValueId>,
        results: Vec<ValueId>,
    },
    /// `scf.while`: `before` computes `cond` from `before_args`; if true, `after` runs with
    /// `after_args` bound to the same values and yields the next values.
    While {
        inits: Vec<ValueId>,
        before_args: Vec<ValueId>,
        before: Body,
        cond: ValueId,
        after_args: Vec<ValueId>,
        after: Body,
        yields: Vec<ValueId>,
        results: Vec<ValueId>,
    },
    /// `scf.if`
    If {
        cond: ValueId,
        then_body: Body,
        then_yields: Vec<ValueId>,
        else_body: Body,
        else_yields: Vec<ValueId>,
        results: Vec<ValueId>,
    },
    /// `func.call` of a host function or of an outlined kernel (a kernel launch).
    Call { callee: String, args: Vec<ValueId>, results: Vec<ValueId> },
    /// `func.return`
    Return { values: Vec<ValueId> },
    /// `cf.assert`: a run-time check with a message naming the source line.
    Assert { cond: ValueId, msg: String },
    /// `arr.new`: a fresh base array of the given sizes (row-major).
    New { res: ValueId, sizes: Vec<ValueId> },
    /// `arr.view`: NumPy basic indexing of `src`; `operands` are the i64 operands of the entries in order.
    View { res: ValueId, src: ValueId, index: Vec<IndexEntry>, operands: Vec<ValueId> },
    /// `arr.broadcast`: `src` broadcast to `sizes` (NumPy rules; checked at run time).
    Broadcast { res: ValueId, src: ValueId, sizes: Vec<ValueId> },
    /// `arr.transpose`: `src` with its axes permuted: result axis `i` is source axis `perm[i]`
    /// (NumPy `x.transpose(perm)`; `x.T` reverses the axes). Aliases `src`'s base array.
    Transpose { res: ValueId, src: ValueId, perm: Vec<usize> },
    /// `arr.diagonal`: the main diagonal of a 2-d `src`, a 1-d view of `min(d0, d1)` elements with
    /// stride `s0 + s1` (NumPy `x.diagonal()`, but writable). Aliases `src`'s base array.
    Diagonal { res: ValueId, src: ValueId },
    /// `arr.reshape`: `src`'s elements in row-major order as a view of shape `sizes` (NumPy's
    /// `reshape` when it returns a view): the same element count, and `src`'s elements laid out so
    /// that the new shape has strides (NumPy's no-copy rule: each group of axes that is merged or
    /// split is contiguous within itself). A run-time error otherwise: the lowering emits it only
    /// where `arr.reshapable` holds or the source is known to be row-major. Aliases `src`'s base.
    Reshape { res: ValueId, src: ValueId, sizes: Vec<ValueId> },
    /// `arr.reshapable`: whether `arr.reshape` of `src` to `sizes` can be a view (an `i1`; `false`
    /// also when the element counts differ). Reads only the view's shape and strides.
    Reshapable { res: ValueId, src: ValueId, sizes: Vec<ValueId> },
    /// `arr.contiguous`: whether the view `src`'s elements lie in row-major order one element
    /// apart (NumPy's C-contiguous flag: axes of size 1 aside; an empty view is), an `i1`: when
    /// NumPy's `ravel` is a view. Reads only the view's shape and strides.
    Contiguous { res: ValueId, src: ValueId },
    /// `arr.dim`: size of dimension `axis` of a view.
    Dim { res: ValueId, src: ValueId, axis: usize },
    /// `arr.load`: the host reads the element of a 0-d view.
    Load { res: ValueId, src: ValueId },
    /// `arr.del`: the base array created by `arr.new` is dead from here on (Bohrium's DEL).
    Del { base: ValueId },
    /// `arr.sync`: the host is about to read the base array (Bohrium's SYNC).
    Sync { base: ValueId },
    /// `arr.print` of a scalar or a view, then the text `end` (Python's `sep` between the
    /// arguments of a `print`, its `end` after the last, nothing between an f-string's pieces).
    /// `spec`: an f-string field's format spec ([`crate::format_spec`], Python's
    /// `format(value, spec)`; `Some("")` for `f"{x}"`); `None`: `print`'s `str(value)`.
    Print { value: ValueId, spec: Option<String>, end: String },
    /// `arr.print_text`: the text of a string literal of `print("...", ..)` (or a literal piece of
    /// an f-string), then the text `end`.
    PrintText { text: String, end: String },
    /// An array computation writing `out` (destination-passing).
    Compute { func: ComputeFn, out: ValueId, ins: Vec<ValueId> },
    /// `arr.matmul`: the matrix product `out = lhs @ rhs` of materialised 2-d views (`lhs` `n x k`,
    /// `rhs` `k x m`, `out` `n x m`, one float dtype; `out` overlaps neither input), which the host
    /// executor computes with a BLAS-like library instead of a kernel (NumPy's `matmul` of 2-d
    /// arrays; which products take this form is [`crate::ops::matmul_by_library`]). A host operation:
    /// it reads `lhs` and `rhs` and writes `out` as `arr.load` and `arr.print` read arrays, so it
    /// ends a WSP region.
    MatMul { out: ValueId, lhs: ValueId, rhs: ValueId },
    /// `arr.sort`: `out` is `src` sorted along `axis` (NumPy's `sort`, NaN last), or with
    /// `indices`, the `i64` positions along `axis` that sort it, stably (NumPy's
    /// `argsort(kind='stable')`); `out` a new array of `src`'s shape (`src`'s dtype, or `i64`)
    /// that overlaps nothing. A host operation like `arr.matmul` (`arrayc_runtime::sort`, a
    /// parallel sort): it reads `src` and writes `out`, so it ends a WSP region.
    Sort { out: ValueId, src: ValueId, axis: usize, indices: bool },
    /// `arr.convolve`: `out[k] = sum_j x[k + off - j] * y[j]` over the `j` with `0 <= k + off - j <
    /// nl`, `x` the longer of the 1-d views `a` and `v` (size `nl`; `a` when the sizes are equal)
    /// and `y` the other: NumPy's `convolve`, whose mode the lowering turns into the `i64` scalar
    /// `off` and `out`'s size. `a`, `v` and `out` have one dtype; `out` is a new array. A host
    /// operation like `arr.sort` (`arrayc_runtime::convolve`): it reads `a` and `v` and writes
    /// `out`, so it ends a WSP region.
    Convolve { out: ValueId, a: ValueId, v: ValueId, off: ValueId },
    /// `arr.linalg`: a dense linear-algebra function of the 2-d view `a` (`f64` or `f32`; square,
    /// `n x n`, but for `svdvals`), computed on the host by `faer`'s factorisations (those LAPACK
    /// routines that NumPy calls compute): with [`LinAlgFn::Solve`], `out = a^-1 b` for `b` of
    /// shape `(n,)` or `(n, k)` (NumPy's `linalg.solve`; `out` has `b`'s shape; an LU
    /// factorisation with partial pivoting, `getrf`); with [`LinAlgFn::Det`], the 0-d `out` is
    /// `det(a)` (NumPy's `linalg.det`; `b` is absent); [`LinAlgFn::Cholesky`],
    /// [`LinAlgFn::Eigvalsh`] and [`LinAlgFn::Svdvals`] as their docs say (no `b`), and
    /// [`LinAlgFn::Pinv`] (`m x n` `a`, a 0-d `b`, `rtol`, and an `n x m` `out`). `a`, `b` and `out` have one
    /// dtype and `out` is a new array. A pivot that is exactly zero makes `Solve` fail with NumPy's
    /// `LinAlgError: Singular matrix`, `Cholesky` of an `a` that is not positive definite with
    /// `LinAlgError: Matrix is not positive definite`, run-time errors naming the line. A host
    /// operation like `arr.convolve` (`arrayc_runtime::linalg`): it reads `a` and `b` and writes `out`, so it ends
    /// a WSP region.
    LinAlg { func: LinAlgFn, out: ValueId, a: ValueId, b: Option<ValueId> },
    /// `arr.exchange`: in a distributed run (`arrayc run --distributed`, docs/distributed.md), the
    /// elements of `view` that the computation following it reads on a rank, where another rank
    /// owns them, are brought up to date on that rank before it runs (a halo exchange: DistNumPy's
    /// and Ramba's owner-computes fetch). Inserted by the `distribute` pass where a computation
    /// reads a view whose rows are not its iteration space's (a stencil's `grid[:-2, 1:-1]`, a
    /// reversed or transposed view); the launcher sends all of one launch's exchanges as one
    /// message per pair of ranks. No effect in one process, and the array's values are unchanged:
    /// for fusion it reads `view`, comes before the computation it is for, and joins a block like
    /// `arr.sync` (it runs before the block's kernel).
    Exchange { view: ValueId },
    /// `arr.allreduce`: in a distributed run, `view` holds each rank's partial result of a
    /// reduction over everything or along axis 0, or of a scatter-add (`add_at`, `bincount`),
    /// computed on the rank's own rows; combines them across ranks in rank order with `kind`, so
    /// that every rank holds the whole result (a fixed rank count gives bit-identical results).
    /// Inserted by the `distribute` pass right after such a computation. No effect in one process;
    /// for fusion it reads and writes `view` and joins the block of the computation (it runs after
    /// the block's kernel).
    AllReduce { view: ValueId, kind: ReduceKind },
}

impl OpKind {
    /// Nested bodies of control-flow operations.
    pub fn bodies(&self) -> Vec<&Body> {
        match self {
            OpKind::For { body, .. } => vec![body],
            OpKind::While { before, after, .. } => vec![before, after],
            OpKind::If { then_body, else_body, .. } => vec![then_body, else_body],
            _ => vec![],
        }
    }
    pub fn bodies_mut(&mut self) -> Vec<&mut Body> {
        match self {
            OpKind::For { body, .. } => vec![body],
            OpKind::While { before, after, .. } => vec![before, after],
            OpKind::If { then_body, else_body, .. } => vec![then_body, else_body],
            _ => vec![],
        }
    }
    /// `(result, source)` of an operation that makes a view of an existing array without moving data
    /// (`arr.view`, `arr.broadcast`, `arr.transpose`, `arr.diagonal`, `arr.reshape`): the result
    /// aliases the source's base array.
    pub fn view_of(&self) -> Option<(ValueId, ValueId)> {
        match self {
            OpKind::View { res, src, .. }
            | OpKind::Reshape { res, src, .. }
            | OpKind::Broadcast { res, src, .. }
            | OpKind::Transpose { res, src, .. }
            | OpKind::Diagonal { res, src } => Some((*res, *src)),
            _ => None,
        }
    }
    /// Values this operation defines in the body that holds it (a control-flow operation's results,
    /// not the values defined inside its nested bodies).
    pub fn results(&self) -> Vec<ValueId> {
        use OpKind::*;
        match self {
            Const { res, .. }
            | Binary { res, .. }
            | Unary { res, .. }
            | Cast { res, .. }
            | Select { res, .. }
            | New { res, .. }
            | View { res, .. }
            | Broadcast { res, .. }
            | Transpose { res, .. }
            | Diagonal { res, .. }
            | Reshape { res, .. }
            | Reshapable { res, .. }
            | Contiguous { res, .. }
            | Dim { res, .. }
            | Load { res, .. } => vec![*res],
            Call { results, .. } | For { results, .. } | While { results, .. } | If { results, .. } => results.clone(),
            Return { .. }
            | Assert { .. }
            | Del { .. }
            | Sync { .. }
            | Print { .. }
            | PrintText { .. }
            | Compute { .. }
            | MatMul { .. }
            | Sort { .. }
            | Convolve { .. }
            | LinAlg { .. }
            | Exchange { .. }
            | AllReduce { .. } => {
                vec![]
            }
        }
    }
    /// Values this operation reads, not counting those read inside nested bodies.
    pub fn operands(&self) -> Vec<ValueId> {
        use OpKind::*;
        match self {
            Const { .. } => vec![],
            Binary { lhs, rhs, .. } => vec![*lhs, *rhs],
            Unary { arg, .. } | Cast { arg, .. } => vec![*arg],
            Select { cond, lhs, rhs, .. } => vec![*cond, *lhs, *rhs],
            For { lo, hi, step, inits, yields, .. } => [vec![*lo, *hi, *step], inits.clone(), yields.clone()].concat(),
            While { inits, cond, yields, .. } => [inits.clone(), vec![*cond], yields.clone()].concat(),
            If { cond, then_yields, else_yields, .. } => {
                [vec![*cond], then_yields.clone(), else_yields.clone()].concat()
            }
            Call { args, .. } => args.clone(),
            Return { values } => values.clone(),
            Assert { cond, .. } => vec![*cond],
            New { sizes, .. } => sizes.clone(),
            View { src, operands, .. } => [vec![*src], operands.clone()].concat(),
            Broadcast { src, sizes, .. } | Reshape { src, sizes, .. } | Reshapable { src, sizes, .. } => {
                [vec![*src], sizes.clone()].concat()
            }
            Transpose { src, .. } | Diagonal { src, .. } | Contiguous { src, .. } => vec![*src],
            Dim { src, .. } | Load { src, .. } => vec![*src],
            Del { base } | Sync { base } => vec![*base],
            Print { value, .. } => vec![*value],
            PrintText { .. } => vec![],
            Compute { out, ins, .. } => [vec![*out], ins.clone()].concat(),
            MatMul { out, lhs, rhs } => vec![*out, *lhs, *rhs],
            Sort { out, src, .. } => vec![*out, *src],
            Convolve { out, a, v, off } => vec![*out, *a, *v, *off],
            LinAlg { out, a, b, .. } => [vec![*out, *a], b.iter().copied().collect()].concat(),
            Exchange { view } | AllReduce { view, .. } => vec![*view],
        }
    }
}

/// The function of an `arr.linalg` ([`OpKind::LinAlg`]), named in the op's `func` attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum LinAlgFn {
    /// `out = a^-1 b` (NumPy's `linalg.solve`; `linalg.inv(a)` is `solve(a, eye(n))`).
    Solve,
    /// `out = det(a)`, 0-d (NumPy's `linalg.det`).
    Det,
    /// `out = [sign, logabsdet]`, `(2,)` (NumPy's `linalg.slogdet`: `det(a) = sign * exp(logabsdet)`
    /// without its overflow; `[0, -inf]` for a singular `a`).
    Slogdet,
    /// `out = L`, the lower-triangular Cholesky factor of `a = L L^T` (NumPy's `linalg.cholesky`,
    /// LAPACK's `potrf` with `UPLO='L'`): reads only `a`'s lower triangle; zeros above the diagonal.
    Cholesky,
    /// `out` (1-d, `n`): the eigenvalues of the symmetric `a` in ascending order (NumPy's
    /// `linalg.eigvalsh`, `UPLO='L'`): reads only `a`'s lower triangle.
    Eigvalsh,
    /// `out` (1-d, `min(m, n)`): the singular values of the `m x n` `a` (not necessarily square)
    /// in descending order (NumPy's `linalg.svd(a, compute_uv=False)`).
    Svdvals,
    /// `out` (`n x m`): the Moore-Penrose pseudo-inverse of the `m x n` `a` (NumPy's
    /// `linalg.pinv`), `V diag(1/s) U^T` of `a`'s thin SVD `a = U diag(s) V^T` with the singular
    /// values `s <= rtol * max(s)` taken as zero, `rtol` the 0-d `b` of `a`'s dtype.
    Pinv,
    /// NumPy's `linalg.eigh(a)` (`UPLO='L'`) of the symmetric `n x n` `a`, packed in the `(n + 1) x n`
    /// `out`: row 0 the eigenvalues `w`, ascending; rows `1..=n` the matrix `v` whose columns are
    /// the unit eigenvectors (`a @ v = v * w`). Reads only `a`'s lower triangle. The lowering's
    /// results are views of `out`.
    Eigh,
    /// NumPy's `linalg.qr(a)` of the `m x n` `a`, packed in the `(m + p) x max(p, n)` `out`, `p`
    /// `min(m, n)` (`mode='reduced'`) or `m` (`mode='complete'`): rows `0..m`, columns `0..p` the
    /// orthonormal `q` (`m x p`), rows `m..m + p`, columns `0..n` the upper-triangular `r` (`p x n`),
    /// `a = q @ r`. The rest of `out` is zero. The lowering's results are views of `out`.
    Qr,
    /// NumPy's `linalg.svd(a)` (`compute_uv=True`) of the `m x n` `a`, packed in the
    /// `(m + 1 + q) x max(p, n)` `out`, `k = min(m, n)`, `(p, q)` `(k, k)` (`full_matrices=False`) or
    /// `(m, n)` (`full_matrices=True`): rows `0..m`, columns `0..p` `u`; row `m`, columns `0..k`
    /// the singular values `s`, descending; rows `m + 1..`, columns `0..n` `vh`, so that
    /// `a = u[:, :k] @ diag(s) @ vh[:k]`. Full matrices where `q == n` and `max(p, n) >= m` (for
    /// `m == n` both modes are one). The rest of `out` is zero. The lowering's results are views of
    /// `out`.
    Svd,
}

impl LinAlgFn {
    /// Its name in the `func` attribute of `arr.linalg`.
    pub fn name(self) -> &'static str {
        match self {
            LinAlgFn::Solve => "solve",
            LinAlgFn::Det => "det",
            LinAlgFn::Slogdet => "slogdet",
            LinAlgFn::Cholesky => "cholesky",
            LinAlgFn::Eigvalsh => "eigvalsh",
            LinAlgFn::Svdvals => "svdvals",
            LinAlgFn::Pinv => "pinv",
            LinAlgFn::Eigh => "eigh",
            LinAlgFn::Qr => "qr",
            LinAlgFn::Svd => "svd",
        }
    }
    /// The function named `name` ([`LinAlgFn::name`]).
    pub fn from_name(name: &str) -> Option<LinAlgFn> {
        LinAlgFn::ALL.into_iter().find(|f| f.name() == name)
    }
    /// Every function, in declaration order.
    pub const ALL: [LinAlgFn; 10] = [
        LinAlgFn::Solve,
        LinAlgFn::Det,
        LinAlgFn::Slogdet,
        LinAlgFn::Cholesky,
        LinAlgFn::Eigvalsh,
        LinAlgFn::Svdvals,
        LinAlgFn::Pinv,
        LinAlgFn::Eigh,
        LinAlgFn::Qr,
        LinAlgFn::Svd,
    ];
    /// The rank of `out` for an `a` of rank 2 and a `b` of rank `b_rank` (`None`: no `b`), or
    /// `None` where the operands do not fit: `solve` takes a 1-d or 2-d `b` and gives its rank;
    /// `pinv` takes a 0-d `b` (its `rtol`) and gives a 2-d `out`; the others take no `b`; `det`
    /// gives a 0-d `out`, `cholesky` and the packed `eigh`, `qr`, `svd` a 2-d one, `eigvalsh`,
    /// `svdvals` and `slogdet` a 1-d one.
    pub fn out_rank(self, b_rank: Option<usize>) -> Option<usize> {
        match (self, b_rank) {
            (LinAlgFn::Solve, Some(r)) if (1..=2).contains(&r) => Some(r),
            (LinAlgFn::Det, None) => Some(0),
            (LinAlgFn::Cholesky | LinAlgFn::Eigh | LinAlgFn::Qr | LinAlgFn::Svd, None) => Some(2),
            (LinAlgFn::Eigvalsh | LinAlgFn::Svdvals | LinAlgFn::Slogdet, None) => Some(1),
            (LinAlgFn::Pinv, Some(0)) => Some(2),
            _ => None,
        }
    }
    /// Whether it takes the operand `b` (`solve` and `pinv`).
    pub fn takes_b(self) -> bool {
        matches!(self, LinAlgFn::Solve | LinAlgFn::Pinv)
    }
    /// Whether `a` must be square (all but `svdvals`, `pinv`, `qr` and `svd`).
    pub fn square(self) -> bool {
        !matches!(self, LinAlgFn::Svdvals | LinAlgFn::Pinv | LinAlgFn::Qr | LinAlgFn::Svd)
    }
}

/// A function: a host function, or an outlined kernel (`kernel == true`) whose body holds only array
/// computations on its parameters and which the runtime launches over chunks of its iteration space.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Func {
    pub name: String,
    pub params: Vec<ValueId>,
    /// Default values of parameters, by position (`arrayc run` uses them when no `--arg` is given).
    pub param_defaults: Vec<Option<Scalar>>,
    /// Source names of the parameters.
    pub param_names: Vec<String>,
    pub results: Vec<Type>,
    pub body: Body,
    /// Type of every value, indexed by [`ValueId`].
    pub value_types: Vec<Type>,
    /// Optional readable names (source variable names) for printing.
    pub value_names: Vec<Option<String>>,
    pub kernel: bool,
    /// Kernels only: per parameter, the stride (in elements) that the last dimension of the view
    /// passed for it has, `0` (broadcast) or `1` (contiguous), or `None` where it is not known;
    /// empty when none is known (`arr.inner_strides`). The CPU code generator casts such views to
    /// these static strides, which LLVM can vectorise, and the launcher rejects a launch whose views
    /// do not have them.
    pub inner_strides: Vec<Option<i64>>,
}

impl Func {
    pub fn new(name: &str, kernel: bool) -> Func {
        Func {
            name: name.to_string(),
            params: vec![],
            param_defaults: vec![],
            param_names: vec![],
            results: vec![],
            body: vec![],
            value_types: vec![],
            value_names: vec![],
            kernel,
            inner_strides: vec![],
        }
    }
    /// Allocates a new value of type `ty`.
    pub fn new_value(&mut self, ty: Type, name: Option<&str>) -> ValueId {
        self.value_types.push(ty);
        self.value_names.push(name.map(str::to_string));
        (self.value_types.len() - 1) as ValueId
    }
    pub fn ty(&self, v: ValueId) -> Type {
        self.value_types[v as usize]
    }
}

/// A whole program: host functions and kernels.
#[derive(Clone, Debug, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct Module {
    /// The source file name, used in locations.
    pub source_name: String,
    pub funcs: Vec<Func>,
}

impl Module {
    pub fn func(&self, name: &str) -> Option<&Func> {
        self.funcs.iter().find(|f| f.name == name)
    }
}
