//! The abstract syntax tree of the arrayc language, with byte spans into the source.
//!
//! The parser (`parser.lalrpop`) builds it; the checker (`check`) resolves names and computes a
//! [`Ty`](crate::types::Ty) for every expression; the lowering in `arrayc-passes` turns the checked
//! tree into the `arr` dialect.
//!
//! Every expression carries an [`ExprId`], dense from 0 within one [`Program`], so later phases keep
//! side tables (`Vec<T>` indexed by id) instead of mutating the tree.

use std::ops::Range;

/// A half-open byte range `start..end` into the source text.
pub type Span = Range<usize>;

/// Dense index of an expression within one [`Program`] (`0..Program::num_exprs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);

/// A name with the span where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A whole source file: a list of functions.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub functions: Vec<Function>,
    /// Module-level constants, `NAME = value;` (Python's globals), with each statement's span, in
    /// the file's order; `syntax::module_globals` moves them into the functions that read them
    /// right after parsing, and leaves this empty.
    pub globals: Vec<(Ident, Expr, Span)>,
    /// Number of expressions; every [`ExprId`] in the tree is below this.
    pub num_exprs: u32,
}

/// `fn name(params) -> results { body }`
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: Ident,
    pub params: Vec<Param>,
    /// Declared result types (`-> T` or `-> (T, U)`); empty for no result.
    pub results: Vec<TypeExpr>,
    pub body: Block,
    pub span: Span,
}

/// `name: type` or `name: type = default`. Defaults make the parameter optional for `arrayc run`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Ident,
    pub ty: TypeExpr,
    pub default: Option<Expr>,
    pub span: Span,
}

/// Element types of arrays and scalars (defined in `arrayc-core`, shared with the runtime).
pub use arrayc_core::DType;

/// A type as written: `f64`, `i64[N]`, `f64[N, M]`, `f32[3, N-2]`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    pub dtype: DType,
    /// `None` for a scalar; `Some(dims)` for an array (dims may be empty only for a 0-d array `f64[]`).
    pub dims: Option<Vec<DimExpr>>,
    pub span: Span,
}

/// One dimension in a type: a literal, a size symbol, or an affine combination (`N-2`, `2*N+1`).
#[derive(Clone, Debug, PartialEq)]
pub enum DimExpr {
    Lit(i64, Span),
    Sym(Ident),
    Add(Box<DimExpr>, Box<DimExpr>, Span),
    Sub(Box<DimExpr>, Box<DimExpr>, Span),
    Mul(Box<DimExpr>, Box<DimExpr>, Span),
    /// `?`, a whole dimension: an existential size (Robinson et al. 2014, Sec. 3), known only at
    /// run time: a result's size that no parameter gives (a filter's, `bincount`'s).
    Exists(Span),
    /// `...`, only as the one entry of `f64[...]` (NumPy's ellipsis): an array of any rank, a
    /// rank-generic type. A function with such a parameter is checked and lowered once per tuple
    /// of argument ranks at its calls (`docs/language.md`, "Rank-generic functions").
    AnyRank(Span),
}

impl TypeExpr {
    /// Whether this is the rank-generic array type `f64[...]`.
    pub fn is_any_rank(&self) -> bool {
        matches!(self.dims.as_deref(), Some([DimExpr::AnyRank(_)]))
    }
}

impl Function {
    /// Whether a parameter has a rank-generic type `f64[...]` (the function is then instantiated
    /// per call; only its instances are lowered).
    pub fn is_rank_generic(&self) -> bool {
        self.params.iter().any(|p| p.ty.is_any_rank())
    }

    /// Whether this is an instance of a rank-generic function, which the checker made (its name,
    /// `lap.r2`, has a dot, which no name a program writes has; [`crate::Checked::instance_of`]).
    /// Tools that show the program's own functions skip instances.
    pub fn is_instance(&self) -> bool {
        self.name.name.contains('.')
    }

    /// Calls `visit` on every expression of the function (parameter defaults and body), outer
    /// expressions before the ones they contain.
    pub fn for_each_expr_mut(&mut self, visit: &mut impl FnMut(&mut Expr)) {
        for p in &mut self.params {
            if let Some(d) = &mut p.default {
                expr_walk_mut(d, visit);
            }
        }
        block_walk_mut(&mut self.body, visit);
    }
}

impl Index {
    /// The expressions of the index: a position, a slice's bounds and step.
    pub fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Index::At(e) => vec![e],
            Index::Slice { start, stop, step, .. } => [start, stop, step].into_iter().flatten().collect(),
            Index::NewAxis(_) | Index::Ellipsis(_) => vec![],
        }
    }
}

impl Stmt {
    /// The blocks nested directly in this statement: a loop's body, an `if`'s branches.
    pub fn blocks(&self) -> Vec<&Block> {
        match self {
            Stmt::For { body, .. } | Stmt::While { body, .. } => vec![body],
            Stmt::If { then_block, else_block, .. } => std::iter::once(then_block).chain(else_block.as_ref()).collect(),
            _ => vec![],
        }
    }

    /// [`Stmt::blocks`], mutable.
    pub fn blocks_mut(&mut self) -> Vec<&mut Block> {
        match self {
            Stmt::For { body, .. } | Stmt::While { body, .. } => vec![body],
            Stmt::If { then_block, else_block, .. } => std::iter::once(then_block).chain(else_block.as_mut()).collect(),
            _ => vec![],
        }
    }

    /// The statement's own expressions, not those of its nested blocks, in Python's evaluation
    /// order (an assignment's value before its target's index).
    pub fn own_exprs_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            Stmt::Let { value, .. } | Stmt::Assign { value, .. } => vec![value],
            Stmt::Assert { cond, .. } | Stmt::While { cond, .. } | Stmt::If { cond, .. } => vec![cond],
            Stmt::SetItem { index, value, .. } | Stmt::AugAssign { index, value, .. } => {
                let mut v: Vec<&mut Expr> = vec![value];
                for ix in index {
                    v.extend(ix.exprs_mut());
                }
                v
            }
            Stmt::For { start, end, step, .. } => {
                let mut v: Vec<&mut Expr> = vec![start, end];
                v.extend(step.as_deref_mut());
                v
            }
            Stmt::Return { values, .. } | Stmt::Print { args: values, .. } => values.iter_mut().collect(),
            Stmt::Expr(e) => vec![e],
            Stmt::Break { .. } | Stmt::Continue { .. } => vec![],
        }
    }
}

impl Expr {
    /// Calls `visit` on this expression and every one it contains, outer ones first.
    pub fn walk_mut(&mut self, visit: &mut impl FnMut(&mut Expr)) {
        expr_walk_mut(self, visit);
    }
}

impl Block {
    /// Calls `visit` on every expression of the block and the blocks inside it, outer expressions
    /// before the ones they contain.
    pub fn for_each_expr_mut(&mut self, visit: &mut impl FnMut(&mut Expr)) {
        block_walk_mut(self, visit);
    }
}

fn block_walk_mut(b: &mut Block, visit: &mut impl FnMut(&mut Expr)) {
    for s in &mut b.stmts {
        match s {
            Stmt::Let { value, .. } | Stmt::Assign { value, .. } | Stmt::Assert { cond: value, .. } => {
                expr_walk_mut(value, visit)
            }
            Stmt::SetItem { index, value, .. } | Stmt::AugAssign { index, value, .. } => {
                index.iter_mut().for_each(|ix| index_walk_mut(ix, visit));
                expr_walk_mut(value, visit);
            }
            Stmt::For { start, end, step, body, .. } => {
                expr_walk_mut(start, visit);
                expr_walk_mut(end, visit);
                if let Some(st) = step {
                    expr_walk_mut(st, visit);
                }
                block_walk_mut(body, visit);
            }
            Stmt::While { cond, body, .. } => {
                expr_walk_mut(cond, visit);
                block_walk_mut(body, visit);
            }
            Stmt::If { cond, then_block, else_block, .. } => {
                expr_walk_mut(cond, visit);
                block_walk_mut(then_block, visit);
                if let Some(e) = else_block {
                    block_walk_mut(e, visit);
                }
            }
            Stmt::Return { values: es, .. } | Stmt::Print { args: es, .. } => {
                es.iter_mut().for_each(|e| expr_walk_mut(e, visit));
            }
            Stmt::Expr(e) => expr_walk_mut(e, visit),
            Stmt::Break { .. } | Stmt::Continue { .. } => {}
        }
    }
}

fn index_walk_mut(ix: &mut Index, visit: &mut impl FnMut(&mut Expr)) {
    match ix {
        Index::At(e) => expr_walk_mut(e, visit),
        Index::Slice { start, stop, step, .. } => {
            for e in [start, stop, step].into_iter().flatten() {
                expr_walk_mut(e, visit);
            }
        }
        Index::NewAxis(_) | Index::Ellipsis(_) => {}
    }
}

impl Expr {
    /// Calls `visit` on this expression and every expression inside it, outermost first.
    pub fn for_each_mut(&mut self, visit: &mut impl FnMut(&mut Expr)) {
        expr_walk_mut(self, visit);
    }
}

fn expr_walk_mut(e: &mut Expr, visit: &mut impl FnMut(&mut Expr)) {
    visit(e);
    match &mut e.kind {
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Bool(_)
        | ExprKind::Str(_)
        | ExprKind::NoneLit
        | ExprKind::Var(_)
        | ExprKind::DTypeName(_) => {}
        ExprKind::Binary(_, a, b) => {
            expr_walk_mut(a, visit);
            expr_walk_mut(b, visit);
        }
        ExprKind::Unary(_, a) => expr_walk_mut(a, visit),
        ExprKind::Call { args, kwargs, .. } => {
            args.iter_mut().for_each(|a| expr_walk_mut(a, visit));
            kwargs.iter_mut().for_each(|(_, a)| expr_walk_mut(a, visit));
        }
        ExprKind::Subscript { base, index } => {
            expr_walk_mut(base, visit);
            index.iter_mut().for_each(|ix| index_walk_mut(ix, visit));
        }
        ExprKind::Tuple(items) | ExprKind::List(items) => items.iter_mut().for_each(|a| expr_walk_mut(a, visit)),
        ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => parts.iter_mut().for_each(|a| expr_walk_mut(a, visit)),
        ExprKind::FString(parts) => parts.iter_mut().for_each(|p| {
            if let FPart::Field { value, .. } = p {
                expr_walk_mut(value, visit)
            }
        }),
    }
}

/// A piece of an f-string ([`ExprKind::FString`]).
#[derive(Clone, Debug, PartialEq)]
pub enum FPart {
    /// Literal text (`{{` and `}}` already made `{` and `}`, escapes resolved).
    Text(String),
    /// A replacement field `{value:spec}`: `spec` is Python's format spec
    /// (`arrayc_core::format_spec`), empty for `{value}`; `spec_span` where it is in the source.
    Field { value: Expr, spec: String, spec_span: Span },
}

impl FPart {
    /// The field's value (`None` for text).
    pub fn value(&self) -> Option<&Expr> {
        match self {
            FPart::Field { value, .. } => Some(value),
            FPart::Text(_) => None,
        }
    }
}

/// `{ stmt* }`
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `let x = e;` and `let (x, y) = f(...);`
    Let { names: Vec<Ident>, value: Expr, span: Span },
    /// `x = e;` rebinds a variable (no copy; for arrays the name now refers to the new value).
    Assign { name: Ident, value: Expr, span: Span },
    /// `x[idx] = e;` writes into the view `x[idx]` in place (NumPy `__setitem__`).
    /// `x[...] = e` has `index == [Index::Ellipsis]`.
    SetItem { target: Ident, index: Vec<Index>, value: Expr, span: Span },
    /// `x += e;`, `x[idx] -= e;` (NumPy in-place operators; `index` empty for the whole variable).
    /// For a scalar variable this is `x = x op e`.
    AugAssign { target: Ident, index: Vec<Index>, op: BinOp, value: Expr, span: Span },
    /// `for i in a..b { }` with `i` an `i64` taking `a, a+1, ..., b-1`; `for i in range(a, b, s)`
    /// (Python's `range`: `step` `s`, which may be negative and is never 0) has a `step`.
    For { var: Ident, start: Expr, end: Expr, step: Option<Box<Expr>>, body: Block, span: Span },
    /// `while cond { }`
    While { cond: Expr, body: Block, span: Span },
    /// `if cond { } else { }` (`else if` nests another `If` in the else block).
    If { cond: Expr, then_block: Block, else_block: Option<Block>, span: Span },
    /// `return e;`, `return (a, b);`, `return;`
    Return { values: Vec<Expr>, span: Span },
    /// `print(e, ...);`, `print(e, ..., sep=" ", end="\n")` (Python's keywords; the defaults
    /// shown): `sep` between the arguments, `end` after the last.
    Print { args: Vec<Expr>, sep: String, end: String, span: Span },
    /// `assert cond;` and `assert cond, "message";` (Python's): a run-time error naming the line
    /// (`AssertionError: message`) where the bool scalar `cond` is false.
    Assert { cond: Expr, msg: Option<String>, span: Span },
    /// `break;`: leaves the innermost enclosing `for` or `while` loop (Python's; outside a loop
    /// E0109).
    Break { span: Span },
    /// `continue;`: skips the rest of the current iteration of the innermost enclosing loop.
    Continue { span: Span },
    /// An expression evaluated for effect (a call), `f(x);`
    Expr(Expr),
}

/// Whether a block always returns (Python's rule, which the checker's E0313 and the lowering of
/// early returns, `passes/src/lower_ast/returns.rs`, share): one of its statements is a `return`,
/// or an `if` with an `else` both of whose blocks always return. Statements after it never run.
pub fn always_returns(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Return { .. } => true,
        Stmt::If { then_block, else_block: Some(e), .. } => {
            always_returns(&then_block.stmts) && always_returns(&e.stmts)
        }
        _ => false,
    })
}

impl Stmt {
    /// The statement's source span (bytes), an expression statement's being its expression's.
    pub fn span(&self) -> &Span {
        match self {
            Stmt::Let { span, .. }
            | Stmt::Assign { span, .. }
            | Stmt::SetItem { span, .. }
            | Stmt::AugAssign { span, .. }
            | Stmt::For { span, .. }
            | Stmt::While { span, .. }
            | Stmt::If { span, .. }
            | Stmt::Return { span, .. }
            | Stmt::Print { span, .. }
            | Stmt::Assert { span, .. }
            | Stmt::Break { span }
            | Stmt::Continue { span } => span,
            Stmt::Expr(e) => &e.span,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    /// `**`
    Pow,
    /// `%` (NumPy remainder: sign of the divisor)
    Rem,
    /// `//` (NumPy `floor_divide`: `a == (a // b) * b + a % b`)
    FloorDiv,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `&` (bool arrays and scalars)
    And,
    /// `|`
    Or,
    /// `^` (NumPy `bitwise_xor` on integers, logical xor on bools)
    Xor,
    /// `<<` (NumPy `left_shift`, integers)
    Shl,
    /// `>>` (NumPy `right_shift`, integers)
    Shr,
}

/// Python's boolean operators, [`ExprKind::BoolOp`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
    Not,
}

impl BoolOp {
    /// The operator as written (`and`, `or`, `not`).
    pub fn name(self) -> &'static str {
        match self {
            BoolOp::And => "and",
            BoolOp::Or => "or",
            BoolOp::Not => "not",
        }
    }

    /// The elementwise operator that does the same on arrays (`&`, `|`, `~`).
    pub fn elementwise(self) -> &'static str {
        match self {
            BoolOp::And => "&",
            BoolOp::Or => "|",
            BoolOp::Not => "~",
        }
    }

    /// The operands of `parts` ([`ExprKind::BoolOp`]'s conditional form) the user wrote: `a` and
    /// `b` of `a and b` / `a or b`, `a` of `not a`.
    pub fn operands(self, parts: &[Expr; 3]) -> Vec<&Expr> {
        match self {
            BoolOp::And => vec![&parts[0], &parts[1]],
            BoolOp::Or => vec![&parts[0], &parts[2]],
            BoolOp::Not => vec![&parts[0]],
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `~x` on bool
    Not,
}

/// One entry of a subscript `x[...]`.
// A slice holds three optional expressions inline: subscripts are few, and boxing them would cost
// an allocation per slice for no gain.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Index {
    /// `i` — an integer that selects one position and drops the dimension (negative counts from the end).
    At(Expr),
    /// `a:b:c` with each part optional (NumPy slice semantics, bounds clipped, negative steps allowed).
    Slice { start: Option<Expr>, stop: Option<Expr>, step: Option<Expr>, span: Span },
    /// `newaxis` — inserts a dimension of size 1.
    NewAxis(Span),
    /// `...` — as many full slices as needed.
    Ellipsis(Span),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub id: ExprId,
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    Bool(bool),
    /// A string literal, `"same"`: only a keyword argument's value, where
    /// [`crate::syntax::keyword_value`] makes it the name or type name it spells; anywhere else E0317.
    Str(String),
    /// Python's f-string, `f"x = {x:.3f}"`: literal text and fields, in order; only an argument of
    /// `print` ([`crate::print_stmt`]), anywhere else E0317.
    FString(Vec<FPart>),
    /// Python's `None` (also `newaxis`, `np.newaxis`): in a subscript a new axis
    /// ([`crate::syntax::index_at`]); as an argument where NumPy's default is `None` (`axis=None`,
    /// `dtype=None`, `out=None`, `clip(x, None, hi)`), the argument left out
    /// ([`crate::syntax::positional_axis`]); anywhere else E0319.
    NoneLit,
    Var(Ident),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    /// `f(args, key=value)` — builtins (`zeros`, `sum`, `sqrt`, ...) and user functions.
    Call {
        func: Ident,
        args: Vec<Expr>,
        kwargs: Vec<(Ident, Expr)>,
    },
    /// `x[i, a:b, newaxis]` — a view of `x`.
    Subscript {
        base: Box<Expr>,
        index: Vec<Index>,
    },
    /// A type name used as a value, only valid as a `dtype=` argument or a cast function: `f32(x)`.
    DTypeName(DType),
    /// `(a, b, ..)`: several values, only valid as the values of `return` (which the parser takes
    /// apart) and as the index arrays of `add_at(x, (i, j), v)` (typed as the arrays' broadcast
    /// shape); anywhere else E0309.
    Tuple(Vec<Expr>),
    /// `a if c else b`, Python's conditional expression, as `[c, a, b]`: `c` a `bool` scalar, and
    /// only the chosen branch is evaluated.
    IfElse(Box<[Expr; 3]>),
    /// Python's `a and b`, `a or b` and `not a` on bool scalars, written as the conditional
    /// expression `[c, a, b]` they mean, so that they short-circuit as Python's do (`i < n and
    /// x[i] > 0` never reads `x[n]`): `a and b` is `[a, b, false]`, `a or b` `[a, true, b]`, `not a`
    /// `[a, false, true]` (the `true`/`false` are spanned at the operator). The operator is kept for
    /// the checker's messages (arrays need `&`, `|`, `~`); lowered as [`ExprKind::IfElse`].
    BoolOp(BoolOp, Box<[Expr; 3]>),
    /// `[a, b, ..]`, an array literal (NumPy's `np.array([a, b, ..])`): items are scalars or,
    /// nested, array literals of one length each (`[[1, 2], [3, 4]]`); a new array of the nesting's
    /// shape whose dtype is the promotion of the items' (`[]` is `f64` of shape `(0,)`).
    List(Vec<Expr>),
}
