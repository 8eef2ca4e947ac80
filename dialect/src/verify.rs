//! The typed IR's verifier: every fact about an operation's operands that a pass or the executor
//! relies on (ranks, axes, permutations, operand counts and kinds, value ids, callees), checked
//! once, so that no pass indexes past a shape or a frame.
//!
//! MLIR's own verifier checks what the IRDL definition (`arr.irdl.mlir`) states: operand and
//! result *kinds* (memref, i64, ...). The ranks that relate operands to each other (an
//! `arr.transpose`'s permutation against its source's rank, an `arr.dim`'s axis, an `arr.view`'s
//! index entries) are stated in `dialect/README.md` and checked here. The importer runs it on every
//! module it reads (`arrayc-opt`), and the lowering's output satisfies it by construction.

use crate::ir::{Body, ComputeFn, Func, IndexEntry, LinAlgFn, Loc, Module, Op, OpKind, Type, ValueId};
use crate::ops::{self, Spelling};
use arrayc_core::DType;

/// A rule of the dialect (`dialect/README.md`) that a module breaks: the function, the operation
/// and its source place where the violation is at an operation, and what is wrong. Printed as
/// `@func: arr.op (line N): what is wrong`, or `@func: what is wrong` for the function itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The function that breaks the rule.
    pub func: String,
    /// The operation (its MLIR name), when the violation is at one.
    pub op: Option<String>,
    /// The operation's source place, when it has one.
    pub loc: Option<Loc>,
    /// What is wrong.
    pub why: String,
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "@{}: ", self.func)?;
        if let Some(op) = &self.op {
            write!(f, "{op}")?;
            if let Some(l) = self.loc {
                write!(f, " (line {})", l.line)?;
            }
            write!(f, ": ")?;
        }
        f.write_str(&self.why)
    }
}

impl std::error::Error for VerifyError {}

/// What is wrong, before the verifier knows the function and operation ([`VerifyError::why`]).
struct Reason(String);

impl From<String> for Reason {
    fn from(why: String) -> Self {
        Reason(why)
    }
}

impl From<&str> for Reason {
    fn from(why: &str) -> Self {
        Reason(why.to_string())
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Checks every function of `m`. Errors: the first violation ([`VerifyError`]).
pub fn verify_module(m: &Module) -> Result<(), VerifyError> {
    for f in &m.funcs {
        let v = Verifier { m, f };
        let of_func = |why: Reason| VerifyError { func: f.name.clone(), op: None, loc: None, why: why.0 };
        v.check_values(&f.params, "parameter").map_err(of_func)?;
        if f.param_defaults.len() > f.params.len() || f.param_names.len() > f.params.len() {
            return Err(of_func("more parameter defaults or names than parameters".into()));
        }
        v.body(&f.body)?;
        if !f.kernel {
            let mut scope = Scope { defined: vec![false; f.value_types.len()], log: vec![] };
            scope.define_all(&f.params).map_err(of_func)?;
            v.dominance(&f.body, &mut scope)?;
        }
    }
    Ok(())
}

/// The values visible at a point of a host function (SSA dominance in structured control flow):
/// a value defined in a nested body is visible in that body only, and the results of the operation
/// that holds it outside. `log` records definitions, so that leaving a body can undo its own.
struct Scope {
    defined: Vec<bool>,
    log: Vec<ValueId>,
}

impl Scope {
    fn define_all(&mut self, vs: &[ValueId]) -> Result<(), Reason> {
        for &v in vs {
            let slot = self.defined.get_mut(v as usize).ok_or_else(|| format!("value %{v} is not defined"))?;
            if *slot {
                return Err(format!("value %{v} is defined twice").into());
            }
            *slot = true;
            self.log.push(v);
        }
        Ok(())
    }
    fn require(&self, vs: &[ValueId]) -> Result<(), Reason> {
        match vs.iter().find(|&&v| !self.defined.get(v as usize).copied().unwrap_or(false)) {
            Some(v) => Err(format!(
                "%{v} is used where it is not defined (before its definition, or outside the body that defines it)"
            )
            .into()),
            None => Ok(()),
        }
    }
    /// Runs `f` in a nested body: the values defined inside go out of scope afterwards.
    fn nested<E>(&mut self, f: impl FnOnce(&mut Scope) -> Result<(), E>) -> Result<(), E> {
        let mark = self.log.len();
        let r = f(self);
        for v in self.log.drain(mark..) {
            self.defined[v as usize] = false;
        }
        r
    }
}

struct Verifier<'a> {
    m: &'a Module,
    f: &'a Func,
}

impl Verifier<'_> {
    fn ty(&self, v: ValueId) -> Result<Type, Reason> {
        self.f
            .value_types
            .get(v as usize)
            .copied()
            .ok_or_else(|| format!("value %{v} is not defined in @{}", self.f.name).into())
    }
    fn check_values(&self, vs: &[ValueId], what: &str) -> Result<(), Reason> {
        for &v in vs {
            self.ty(v).map_err(|e| format!("{what}: {e}"))?;
        }
        Ok(())
    }
    fn rank(&self, v: ValueId) -> Result<Option<usize>, Reason> {
        Ok(match self.ty(v)? {
            Type::Array(_, r) => Some(r),
            Type::Scalar(_) => None,
        })
    }
    /// The rank of `v`, which must be an array.
    fn array(&self, v: ValueId, what: &str) -> Result<usize, Reason> {
        self.rank(v)?.ok_or_else(|| format!("{what} %{v} must be an array").into())
    }
    fn scalar(&self, v: ValueId, what: &str) -> Result<DType, Reason> {
        match self.ty(v)? {
            Type::Scalar(d) => Ok(d),
            Type::Array(..) => Err(format!("{what} %{v} must be a scalar").into()),
        }
    }
    fn i64s(&self, vs: &[ValueId], what: &str) -> Result<(), Reason> {
        for &v in vs {
            if self.scalar(v, what)? != DType::I64 {
                return Err(format!("{what} %{v} must be an i64").into());
            }
        }
        Ok(())
    }
    fn same_types(&self, groups: &[&[ValueId]], what: &str) -> Result<(), Reason> {
        let n = groups[0].len();
        if groups.iter().any(|g| g.len() != n) {
            return Err(format!("{what}: the lists of carried values differ in length").into());
        }
        for i in 0..n {
            let t = self.ty(groups[0][i])?;
            for g in &groups[1..] {
                if self.ty(g[i])? != t {
                    return Err(format!("{what}: carried value {i} changes type").into());
                }
            }
        }
        Ok(())
    }

    /// `why` as the violation of operation `op` of this function.
    fn at(&self, op: &Op, why: Reason) -> VerifyError {
        VerifyError { func: self.f.name.clone(), op: Some(op_name(&op.kind)), loc: op.loc, why: why.0 }
    }

    fn body(&self, body: &Body) -> Result<(), VerifyError> {
        for op in body {
            self.check_op(op).map_err(|e| self.at(op, e))?;
            for b in op.kind.bodies() {
                self.body(b)?;
            }
        }
        Ok(())
    }

    /// Checks that every operand of `body` is defined where it is read (SSA dominance).
    fn dominance(&self, body: &Body, scope: &mut Scope) -> Result<(), VerifyError> {
        use OpKind::*;
        for op in body {
            let at = |e: Reason| self.at(op, e);
            match &op.kind {
                For { iv, lo, hi, step, inits, carried, body, yields, results } => {
                    scope.require(&[*lo, *hi, *step]).and_then(|()| scope.require(inits)).map_err(at)?;
                    scope.nested(|s| {
                        s.define_all(&[*iv]).and_then(|()| s.define_all(carried)).map_err(at)?;
                        self.dominance(body, s)?;
                        s.require(yields).map_err(at)
                    })?;
                    scope.define_all(results).map_err(at)?;
                }
                While { inits, before_args, before, cond, after_args, after, yields, results } => {
                    scope.require(inits).map_err(at)?;
                    scope.nested(|s| {
                        s.define_all(before_args).map_err(at)?;
                        self.dominance(before, s)?;
                        s.require(&[*cond]).map_err(at)
                    })?;
                    scope.nested(|s| {
                        s.define_all(after_args).map_err(at)?;
                        self.dominance(after, s)?;
                        s.require(yields).map_err(at)
                    })?;
                    scope.define_all(results).map_err(at)?;
                }
                If { cond, then_body, then_yields, else_body, else_yields, results } => {
                    scope.require(&[*cond]).map_err(at)?;
                    for (b, y) in [(then_body, then_yields), (else_body, else_yields)] {
                        scope.nested(|s| {
                            self.dominance(b, s)?;
                            s.require(y).map_err(at)
                        })?;
                    }
                    scope.define_all(results).map_err(at)?;
                }
                k => {
                    scope.require(&k.operands()).map_err(at)?;
                    scope.define_all(&k.results()).map_err(at)?;
                }
            }
        }
        Ok(())
    }

    fn check_op(&self, op: &Op) -> Result<(), Reason> {
        use OpKind::*;
        let k = &op.kind;
        self.check_values(&k.operands(), "operand")?;
        match k {
            Const { res, value } => {
                if self.scalar(*res, "result")? != value.dtype() {
                    return Err("the constant's type differs from its result's".into());
                }
            }
            Binary { res, op: f, lhs, rhs } => {
                self.scalar(*res, "result")?;
                let dt = self.scalar(*lhs, "lhs")?;
                if dt != self.scalar(*rhs, "rhs")? {
                    return Err("operands of different dtypes".into());
                }
                if ops::binary(*f).spelling(dt) == Spelling::Undefined {
                    return Err(format!("`{}` is not defined on {} operands", f.name(), dt.name()).into());
                }
            }
            Unary { res, op: f, arg } => {
                self.scalar(*res, "result")?;
                let dt = self.scalar(*arg, "operand")?;
                // Host code has one MLIR operation per unary function (integer negation and `~` are
                // lowered to binary operations).
                if !matches!(ops::unary(*f).spelling(dt), Spelling::Op(_)) {
                    return Err(format!("`{}` on {} is not a host scalar operation", f.name(), dt.name()).into());
                }
            }
            Cast { res, arg } => {
                self.scalar(*res, "result")?;
                self.scalar(*arg, "operand")?;
            }
            Select { res, cond, lhs, rhs } => {
                self.scalar(*cond, "condition")?;
                if self.ty(*lhs)? != self.ty(*res)? || self.ty(*rhs)? != self.ty(*res)? {
                    return Err("both branches must have the result's type".into());
                }
            }
            For { iv, lo, hi, step, inits, carried, yields, results, .. } => {
                self.i64s(&[*iv, *lo, *hi, *step], "loop bound or induction variable")?;
                self.same_types(&[inits, carried, yields, results], "scf.for")?;
            }
            While { inits, before_args, cond, after_args, yields, results, .. } => {
                self.scalar(*cond, "condition")?;
                self.same_types(&[inits, before_args, after_args, yields, results], "scf.while")?;
            }
            If { cond, then_yields, else_yields, results, .. } => {
                self.scalar(*cond, "condition")?;
                self.same_types(&[then_yields, else_yields, results], "scf.if")?;
            }
            Call { callee, args, results } => {
                let g = self.m.func(callee).ok_or_else(|| format!("no function @{callee}"))?;
                if args.len() != g.params.len() {
                    return Err(format!("@{callee} takes {} arguments, {} given", g.params.len(), args.len()).into());
                }
                for (a, p) in args.iter().zip(&g.params) {
                    if g.value_types.get(*p as usize) != Some(&self.ty(*a)?) {
                        return Err(format!("argument %{a} does not have the type of @{callee}'s parameter").into());
                    }
                }
                if !g.kernel && results.len() != g.results.len() {
                    return Err(format!("@{callee} has {} results, {} taken", g.results.len(), results.len()).into());
                }
                self.check_values(results, "result")?;
            }
            Return { values } => {
                if values.len() != self.f.results.len() {
                    return Err(format!(
                        "returns {} values, the function has {} results",
                        values.len(),
                        self.f.results.len()
                    )
                    .into());
                }
            }
            Assert { cond, .. } => {
                self.scalar(*cond, "condition")?;
            }
            New { res, sizes } => {
                if self.array(*res, "result")? != sizes.len() {
                    return Err("one size per dimension of the result".into());
                }
                self.i64s(sizes, "size")?;
            }
            View { res, src, index, operands } => {
                let r = self.array(*src, "source")?;
                let consumed = index.iter().filter(|e| !matches!(e, IndexEntry::NewAxis)).count();
                let produced = index.iter().filter(|e| !matches!(e, IndexEntry::At)).count();
                if consumed != r {
                    return Err(format!("{consumed} index entries cover the dimensions of a {r}-d source").into());
                }
                if self.array(*res, "result")? != produced {
                    return Err(format!("the index makes a {produced}-d view, the result type says otherwise").into());
                }
                if operands.len() != index.iter().map(|e| e.num_operands()).sum::<usize>() {
                    return Err("the index entries take a different number of operands".into());
                }
                self.i64s(operands, "index operand")?;
            }
            Broadcast { res, src, sizes } => {
                let (r, rr) = (self.array(*src, "source")?, self.array(*res, "result")?);
                if rr != sizes.len() || rr < r {
                    return Err(
                        format!("broadcasts a {r}-d source to {} sizes into a {rr}-d result", sizes.len()).into()
                    );
                }
                self.i64s(sizes, "size")?;
            }
            Transpose { res, src, perm } => {
                let r = self.array(*src, "source")?;
                let mut sorted = perm.clone();
                sorted.sort_unstable();
                if sorted != (0..r).collect::<Vec<_>>() || self.array(*res, "result")? != r {
                    return Err(format!("`perm` must be a permutation of 0..{r}, the source's dimensions").into());
                }
            }
            Diagonal { res, src } => {
                if self.array(*src, "source")? != 2 || self.array(*res, "result")? != 1 {
                    return Err("takes a 2-d source to a 1-d result".into());
                }
            }
            Reshape { res, src, sizes } => {
                self.array(*src, "source")?;
                if self.array(*res, "result")? != sizes.len() {
                    return Err(format!("{} sizes for a result of another rank", sizes.len()).into());
                }
                self.i64s(sizes, "size")?;
            }
            Reshapable { res, src, sizes } => {
                self.array(*src, "source")?;
                self.i64s(sizes, "size")?;
                if self.scalar(*res, "result")? != DType::Bool {
                    return Err(format!("result %{res} must be an i1").into());
                }
            }
            Contiguous { res, src } => {
                self.array(*src, "source")?;
                if self.scalar(*res, "result")? != DType::Bool {
                    return Err(format!("result %{res} must be an i1").into());
                }
            }
            Dim { res, src, axis } => {
                let r = self.array(*src, "source")?;
                if *axis >= r {
                    return Err(format!("axis {axis} of a {r}-d source").into());
                }
                self.i64s(&[*res], "result")?;
            }
            Load { res, src } => {
                if self.array(*src, "source")? != 0 {
                    return Err("reads a 0-d view only".into());
                }
                self.scalar(*res, "result")?;
            }
            Del { base } | Sync { base } => {
                self.array(*base, "base")?;
            }
            Exchange { view } => {
                self.array(*view, "view")?;
            }
            AllReduce { view, .. } => {
                self.array(*view, "view")?;
            }
            Print { .. } | PrintText { .. } => {}
            Sort { out, src, axis, indices } => {
                let ranks = [self.array(*out, "out")?, self.array(*src, "src")?];
                if ranks[0] != ranks[1] || *axis >= ranks[0] {
                    return Err(format!(
                        "takes views of one rank with an axis below it, got ranks {ranks:?} and axis {axis}"
                    )
                    .into());
                }
                let (od, sd) = (self.f.ty(*out).dtype(), self.f.ty(*src).dtype());
                if od != if *indices { DType::I64 } else { sd } {
                    return Err("writes `i64` indices, or values of its input's dtype".into());
                }
            }
            Convolve { out, a, v, off } => {
                let ranks = [self.array(*out, "out")?, self.array(*a, "a")?, self.array(*v, "v")?];
                if ranks != [1, 1, 1] {
                    return Err("takes 1-d views only".into());
                }
                let dtypes = [*out, *a, *v].map(|x| self.f.ty(x).dtype());
                if dtypes.iter().any(|d| *d != dtypes[0]) || dtypes[0] == DType::Bool {
                    return Err("takes numeric views of one dtype".into());
                }
                if self.scalar(*off, "off")? != DType::I64 {
                    return Err("takes an `i64` offset".into());
                }
            }
            LinAlg { func, out, a, b } => {
                let ranks = [self.array(*out, "out")?, self.array(*a, "a")?];
                let b_rank = b.map(|b| self.array(b, "b")).transpose()?;
                if ranks[1] != 2 || func.out_rank(b_rank) != Some(ranks[0]) {
                    return Err(format!(
                        "`{}` takes a 2-d `a` and {}",
                        func.name(),
                        match func {
                            LinAlgFn::Solve => "a 1-d or 2-d `b` and `out` of its rank",
                            LinAlgFn::Det => "a 0-d `out`, no `b`",
                            LinAlgFn::Cholesky | LinAlgFn::Eigh | LinAlgFn::Qr | LinAlgFn::Svd => {
                                "a 2-d `out`, no `b`"
                            }
                            LinAlgFn::Eigvalsh | LinAlgFn::Svdvals | LinAlgFn::Slogdet => "a 1-d `out`, no `b`",
                            LinAlgFn::Pinv => "a 0-d `b` (rtol) and a 2-d `out`",
                        }
                    )
                    .into());
                }
                let dtypes: Vec<DType> = [*out, *a].into_iter().chain(*b).map(|x| self.f.ty(x).dtype()).collect();
                if dtypes.iter().any(|d| *d != dtypes[0]) || !dtypes[0].is_float() {
                    return Err("takes float views of one dtype".into());
                }
            }
            MatMul { out, lhs, rhs } => {
                let ranks = [self.array(*out, "out")?, self.array(*lhs, "lhs")?, self.array(*rhs, "rhs")?];
                if ranks != [2, 2, 2] {
                    return Err("takes 2-d views only".into());
                }
                let dtypes = [*out, *lhs, *rhs].map(|v| self.f.ty(v).dtype());
                if dtypes.iter().any(|d| *d != dtypes[0]) || !dtypes[0].is_float() {
                    return Err("takes `f64` or `f32` views of one dtype".into());
                }
            }
            Compute { func, out, ins } => self.compute(*func, *out, ins)?,
        }
        Ok(())
    }

    /// `arr.OP(out, ins..)`: the operand counts of the table in `dialect/README.md`, and each array
    /// input of `out`'s rank or 0-d (a reduction's input one rank more, or any rank).
    fn compute(&self, func: ComputeFn, out: ValueId, ins: &[ValueId]) -> Result<(), Reason> {
        let r = self.array(out, "out")?;
        let arity = match func {
            ComputeFn::Fill
            | ComputeFn::Copy
            | ComputeFn::Random
            | ComputeFn::Unary(_)
            | ComputeFn::Reduce(..)
            | ComputeFn::Scan(..) => 1,
            ComputeFn::Arange | ComputeFn::Binary(_) => 2,
            ComputeFn::Scatter(..) => ins.len().max(2),
            ComputeFn::Gather(_) => ins.len().max(2),
            ComputeFn::Where => 3,
        };
        if ins.len() != arity {
            return Err(format!("takes {arity} inputs, {} given", ins.len()).into());
        }
        if let ComputeFn::Gather(axis) = func {
            // `src`, then one index array per gathered axis.
            let rs = self.array(ins[0], "src")?;
            let count = ins.len() - 1;
            if axis + count > rs {
                return Err(format!("gathers along axes {axis}..{} of a {rs}-d src", axis + count - 1).into());
            }
            if ins.contains(&out) {
                return Err("writes one of its inputs".into());
            }
            for &index in &ins[1..] {
                let ri = self.array(index, "index")?;
                if self.ty(index)?.dtype() != DType::I64 {
                    return Err("its indices must be i64 arrays".into());
                }
                if ri != r || r + count < rs {
                    return Err(format!("gathers a {rs}-d src through a {ri}-d index into a {r}-d out").into());
                }
            }
            return Ok(());
        }
        if let ComputeFn::Reduce(kind, axis) = func {
            let ri = self.array(ins[0], "input")?;
            if kind.is_arg() && self.ty(out)?.dtype() != DType::I64 {
                return Err(format!("an {} writes positions: its out must be an i64 array", kind.name()).into());
            }
            return match axis {
                Some(a) if a < ri && r + 1 == ri => Ok(()),
                None if r == 0 => Ok(()),
                Some(a) => Err(format!("reduces axis {a} of a {ri}-d input into a {r}-d out").into()),
                None => Err("a reduction over all elements writes a 0-d out".into()),
            };
        }
        if let ComputeFn::Scatter(..) = func {
            // One index array per scattered axis, then the value.
            let (indices, value) = ins.split_at(ins.len() - 1);
            let count = indices.len();
            if ins.contains(&out) {
                return Err("reads its own target".into());
            }
            let rv = self.rank(value[0])?;
            for &index in indices {
                let ri = self.array(index, "index")?;
                if self.ty(index)?.dtype() != DType::I64 {
                    return Err("its indices must be i64 arrays".into());
                }
                if r < count || ri + count < r || rv.is_some_and(|rv| rv != ri) {
                    return Err(format!(
                        "scatters a {}-d value through {count} {ri}-d indices into a {r}-d out",
                        rv.unwrap_or(0)
                    )
                    .into());
                }
            }
            return Ok(());
        }
        if let ComputeFn::Scan(_, axis) = func {
            let ri = self.array(ins[0], "input")?;
            return if ri == r && axis < r {
                Ok(())
            } else {
                Err(format!("scans axis {axis} of a {ri}-d input into a {r}-d out").into())
            };
        }
        if matches!(func, ComputeFn::Arange) && r != 1 {
            return Err("writes a 1-d out".into());
        }
        for &i in ins {
            if let Some(ri) = self.rank(i)? {
                if ri != r && ri != 0 {
                    return Err(format!("input %{i} is {ri}-d, out is {r}-d").into());
                }
            }
        }
        Ok(())
    }
}

/// The MLIR name of an operation, for messages.
fn op_name(k: &OpKind) -> String {
    use OpKind::*;
    match k {
        Const { .. } => "arith.constant".into(),
        Binary { op, .. } => format!("binary {}", op.name()),
        Unary { op, .. } => format!("unary {}", op.name()),
        Cast { .. } => "cast".into(),
        Select { .. } => "arith.select".into(),
        For { .. } => "scf.for".into(),
        While { .. } => "scf.while".into(),
        If { .. } => "scf.if".into(),
        Call { callee, .. } => format!("func.call @{callee}"),
        Return { .. } => "func.return".into(),
        Assert { .. } => "cf.assert".into(),
        New { .. } => "arr.new".into(),
        View { .. } => "arr.view".into(),
        Broadcast { .. } => "arr.broadcast".into(),
        Transpose { .. } => "arr.transpose".into(),
        Diagonal { .. } => "arr.diagonal".into(),
        Reshape { .. } => "arr.reshape".into(),
        Reshapable { .. } => "arr.reshapable".into(),
        Contiguous { .. } => "arr.contiguous".into(),
        Dim { .. } => "arr.dim".into(),
        Load { .. } => "arr.load".into(),
        Del { .. } => "arr.del".into(),
        Sync { .. } => "arr.sync".into(),
        Print { .. } => "arr.print".into(),
        PrintText { .. } => "arr.print_text".into(),
        MatMul { .. } => "arr.matmul".into(),
        Sort { .. } => "arr.sort".into(),
        Convolve { .. } => "arr.convolve".into(),
        LinAlg { .. } => "arr.linalg".into(),
        Exchange { .. } => "arr.exchange".into(),
        AllReduce { .. } => "arr.allreduce".into(),
        Compute { func, .. } => format!("arr.{}", func.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinFn, Scalar};

    fn module(f: Func) -> Module {
        Module { source_name: "t".into(), funcs: vec![f] }
    }

    /// A use before the definition, a value of a loop body used after the loop, and a value
    /// defined twice are rejected; the same operations in order are accepted.
    #[test]
    fn values_are_used_where_they_are_defined() {
        let mut f = Func::new("main", false);
        let (a, b, c) = (
            f.new_value(Type::Scalar(DType::I64), None),
            f.new_value(Type::Scalar(DType::I64), None),
            f.new_value(Type::Scalar(DType::I64), None),
        );
        let konst = |res| Op::new(OpKind::Const { res, value: Scalar::I64(1) }, None);
        let add = Op::new(OpKind::Binary { res: c, op: BinFn::Add, lhs: a, rhs: b }, None);
        f.body = vec![konst(a), konst(b), add.clone(), Op::new(OpKind::Return { values: vec![] }, None)];
        verify_module(&module(f.clone())).unwrap();

        let mut g = f.clone();
        g.body = vec![konst(a), add.clone(), konst(b)];
        let e = verify_module(&module(g)).unwrap_err();
        assert!(e.why.contains(&format!("%{b} is used where it is not defined")), "{e}");
        assert_eq!((e.func.as_str(), e.op.as_deref()), ("main", Some("binary add")), "{e}");

        let mut g = f.clone();
        g.body = vec![konst(a), konst(b), konst(a)];
        assert!(verify_module(&module(g)).unwrap_err().why.contains("defined twice"));

        let iv = f.new_value(Type::Scalar(DType::I64), None);
        let inner = f.new_value(Type::Scalar(DType::I64), None);
        let mut g = f.clone();
        let lp = OpKind::For {
            iv,
            lo: a,
            hi: b,
            step: a,
            inits: vec![],
            carried: vec![],
            body: vec![konst(inner)],
            yields: vec![],
            results: vec![],
        };
        let use_inner = Op::new(OpKind::Binary { res: c, op: BinFn::Add, lhs: inner, rhs: a }, None);
        g.body = vec![konst(a), konst(b), Op::new(lp, None), use_inner];
        let e = verify_module(&module(g)).unwrap_err();
        assert!(e.why.contains(&format!("%{inner} is used where it is not defined")), "{e}");
    }
}
