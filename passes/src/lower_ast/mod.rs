//! Pass `lower-ast`: the checked AST to the `arr` dialect ([`ir::Module`]).
//!
//! Every array operation of the source becomes one destination-passing `arr` operation, in the style
//! of Bohrium's bytecode (Kristensen et al. 2016, Sec. IV, Fig. 3b): an expression allocates its
//! result with `arr.new`; `x[...] = f(...)` and `x op= e` compute straight into the view (Fig. 3's
//! `MAX D[1:], T, E[1:]`) when that is safe, i.e. when no input overlaps the destination other than
//! as the identical view; otherwise the right-hand side goes through a temporary, as NumPy's
//! semantics require. `del` and `sync` are added later by the `insert-del-sync` pass.
//!
//! Mutable variables become SSA values: variables rebound inside `for`, `while` and `if` are carried
//! through `scf` iteration arguments and results.

/// The pass's name: its `arrayc-opt --pass` flag.
pub const NAME: &str = "lower-ast";

mod along_axis;
mod dtype_queries;
mod einsum;
mod expr;
mod gradient;
mod insert_delete;
mod jumps;
mod linalg;
mod literals;
mod numpy_funcs;
mod numpy_more;
mod numpy_shapes;
mod quantile;
mod random_sort;
mod returns;
mod set_ops;
mod shape_ops;
mod stmt;
mod weak;

use arrayc_dialect::ir::{self, Body, Loc, Op, OpKind, Scalar, Type, ValueId};
use arrayc_grammar::ast::{self, DType, Span};
use arrayc_grammar::types::{Size, Ty};
use arrayc_grammar::{Checked, Diagnostic};
use std::collections::HashMap;

/// Lowers a checked program. Errors are constructs the checker accepts but the lowering does not
/// support yet (for example `return` inside a loop); each names the place and the work-around.
pub fn lower_program(checked: &Checked, source: &str, file_name: &str) -> Result<ir::Module, Vec<Diagnostic>> {
    let mut module = ir::Module { source_name: file_name.to_string(), funcs: vec![] };
    let mut errors = vec![];
    let lines = arrayc_grammar::LineIndex::new(source);
    for (i, f) in checked.program.functions.iter().enumerate() {
        // A rank-generic function is lowered as its instances (`lap.r2`, ...), which follow the
        // program's functions in the checked program.
        if f.is_rank_generic() {
            continue;
        }
        let mut l = Lowerer::new(checked, &lines, &f.name.name);
        match l.function(f, &checked.signatures[i]) {
            Ok(()) => module.funcs.push(l.f),
            Err(d) => errors.push(*d),
        }
    }
    if errors.is_empty() {
        Ok(module)
    } else {
        Err(errors)
    }
}

/// Where a view's elements live, as far as the lowering can tell: a base array made by `arr.new`
/// in this function, or something from outside (a parameter or a call result) that may alias any
/// other outside array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Root {
    New(ValueId),
    Outside(ValueId),
}

pub(crate) struct Lowerer<'a> {
    pub(crate) checked: &'a Checked,
    /// The source's lines, for the source location of every operation.
    pub(crate) lines: &'a arrayc_grammar::LineIndex<'a>,
    pub(crate) f: ir::Func,
    /// Lexical scopes, innermost last: name -> current SSA value.
    scopes: Vec<HashMap<String, ValueId>>,
    /// Bodies being built, innermost last.
    bodies: Vec<Body>,
    /// Per loop being lowered, innermost last: the flags of its `break` and `continue`
    /// (`jumps.rs`), `None` for a loop without them.
    jumps: Vec<Option<jumps::LoopJumps>>,
    /// A number per body on `bodies` (parallel to it), unique within the function, so that
    /// `dim_defs` can tell which body an `arr.dim` is in.
    body_ids: Vec<usize>,
    /// How many bodies this function has had (the next `body_ids` entry).
    bodies_made: usize,
    /// Every `arr.dim` emitted so far: its result -> (array, axis, the `body_ids` entry of its body).
    /// `is_dim_of` looks its size operands up here in constant time, not by scanning the body
    /// (which made a function of n gathers or scatters take time quadratic in n).
    dim_defs: HashMap<ValueId, (ValueId, usize, usize)>,
    /// Base array of every array value.
    pub(crate) roots: HashMap<ValueId, Root>,
    /// How each view value was made (for the identical-view test).
    pub(crate) view_defs: HashMap<ValueId, (ValueId, Vec<ir::IndexEntry>, Vec<ValueId>)>,
    pub(crate) consts: HashMap<ValueId, Scalar>,
    /// Reshape views known to be row-major (`literals.rs`: their reshapes are views again).
    pub(crate) row_major: std::collections::HashSet<ValueId>,
    /// Size operands of the arrays allocated with `arr.new` in this function.
    pub(crate) new_sizes: HashMap<ValueId, Vec<ValueId>>,
    /// Static (symbolic) shape of array values, from the checker, where known.
    pub(crate) shapes: HashMap<ValueId, Vec<Size>>,
    pub(crate) loc: Option<Loc>,
    /// Per result of the function: for an array, its declared shape and, per dimension, the value
    /// computed at entry and its text (`n+2`), against which `return` checks what it returns.
    pub(crate) result_sizes: Vec<Option<DeclaredShape>>,
}

/// A result's declared shape: symbolic (for the static comparison) and as values computed at the
/// function's entry (with each dimension's source text, for the run-time message).
pub(crate) struct DeclaredShape {
    pub(crate) shape: Vec<Size>,
    /// `None` for an existential size (`?`), which nothing checks.
    pub(crate) dims: Vec<Option<(ValueId, String)>>,
}

pub(crate) type LResult<T> = Result<T, Box<Diagnostic>>;

impl<'a> Lowerer<'a> {
    fn new(checked: &'a Checked, lines: &'a arrayc_grammar::LineIndex<'a>, name: &str) -> Self {
        Lowerer {
            checked,
            lines,
            f: ir::Func::new(name, false),
            scopes: vec![HashMap::new()],
            bodies: vec![vec![]],
            jumps: vec![],
            body_ids: vec![0],
            bodies_made: 1,
            dim_defs: HashMap::new(),
            roots: HashMap::new(),
            view_defs: HashMap::new(),
            consts: HashMap::new(),
            row_major: Default::default(),
            shapes: HashMap::new(),
            new_sizes: HashMap::new(),
            loc: None,
            result_sizes: vec![],
        }
    }

    pub(crate) fn set_loc(&mut self, span: &Span) {
        let (line, col) = self.lines.line_col(span.start);
        self.loc = Some(Loc { line: line as u32, col: col as u32 });
    }

    pub(crate) fn emit(&mut self, kind: OpKind) {
        let loc = self.loc;
        if let OpKind::Dim { res, src, axis } = &kind {
            let body = self.current_body();
            self.dim_defs.insert(*res, (*src, *axis, body));
        }
        self.bodies.last_mut().unwrap().push(Op { kind, loc, block: None });
    }

    /// The `body_ids` entry of the body being built.
    fn current_body(&self) -> usize {
        self.body_ids.last().copied().unwrap_or(0)
    }

    pub(crate) fn value(&mut self, ty: Type, name: Option<&str>) -> ValueId {
        self.f.new_value(ty, name)
    }

    pub(crate) fn lookup(&self, name: &str) -> Option<ValueId> {
        self.scopes.iter().rev().find_map(|s| s.get(name).copied())
    }

    pub(crate) fn declare(&mut self, name: &str, v: ValueId) {
        self.scopes.last_mut().unwrap().insert(name.to_string(), v);
    }

    /// Rebinds an existing variable in the scope that declared it.
    pub(crate) fn rebind(&mut self, name: &str, v: ValueId) {
        for s in self.scopes.iter_mut().rev() {
            if let Some(slot) = s.get_mut(name) {
                *slot = v;
                return;
            }
        }
        self.declare(name, v);
    }

    pub(crate) fn ty_of(&self, e: &ast::Expr) -> &Ty {
        &self.checked.types[e.id.0 as usize]
    }

    /// A lowering diagnostic (codes E0901-E0913), boxed: [`LResult`]'s error stays one pointer wide.
    pub(crate) fn error(&self, code: &'static str, span: &Span, msg: &str, help: &str) -> Box<Diagnostic> {
        let mut d = Diagnostic::error(code, msg.to_string(), span.clone(), msg.to_string());
        if !help.is_empty() {
            d = d.with_help(help.to_string());
        }
        Box::new(d)
    }

    pub(crate) fn constant(&mut self, s: Scalar) -> ValueId {
        let v = self.value(Type::Scalar(s.dtype()), None);
        self.emit(OpKind::Const { res: v, value: s });
        self.consts.insert(v, s);
        v
    }

    pub(crate) fn i64_const(&mut self, x: i64) -> ValueId {
        self.constant(Scalar::I64(x))
    }

    /// Are the static shapes of `a` and `b` known and provably equal?
    pub(crate) fn same_static_shape(&self, a: ValueId, b: &[Size]) -> bool {
        self.shapes
            .get(&a)
            .is_some_and(|s| s.len() == b.len() && s.iter().zip(b).all(|(x, y)| x.provably_eq(y) == Some(true)))
    }

    /// The base array a value views (itself for non-views).
    pub(crate) fn root(&self, v: ValueId) -> Root {
        self.roots.get(&v).copied().unwrap_or(Root::Outside(v))
    }

    fn function(&mut self, f: &ast::Function, sig: &arrayc_grammar::FnSig) -> LResult<()> {
        self.set_loc(&f.span);
        for (p, (_, ty)) in f.params.iter().zip(&sig.params) {
            let t = ir_type(ty).ok_or_else(|| self.error("E0901", &p.span, "parameter type not supported", ""))?;
            let v = self.value(t, Some(&p.name.name));
            self.f.params.push(v);
            self.f.param_names.push(p.name.name.clone());
            self.f.param_defaults.push(p.default.as_ref().and_then(|d| literal_value(d, t.dtype())));
            if let Ty::Array(_, shape) = ty {
                self.roots.insert(v, Root::Outside(v));
                self.shapes.insert(v, shape.clone());
            }
            self.declare(&p.name.name, v);
        }
        self.f.results = sig.results.iter().filter_map(ir_type).collect();
        self.bind_size_symbols(f, &sig.name)?;
        // The declared result sizes, computed here where the signature's names are in scope (a
        // `let` in the body may shadow them).
        for (rt, ty) in f.results.iter().zip(&sig.results) {
            let declared = match (ty, &rt.dims) {
                (Ty::Array(_, shape), Some(dims)) => Some(DeclaredShape {
                    shape: shape.clone(),
                    dims: dims
                        .iter()
                        .map(|d| match d {
                            ast::DimExpr::Exists(_) | ast::DimExpr::AnyRank(_) => Ok(None),
                            _ => Ok(Some((self.dim_expr(d)?, dim_text(d)))),
                        })
                        .collect::<LResult<_>>()?,
                }),
                _ => None,
            };
            self.result_sizes.push(declared);
        }
        let implicit = ast::Stmt::Return { values: vec![], span: f.body.span.end..f.body.span.end };
        let implicit = self.f.results.is_empty().then_some(&implicit);
        match returns::tail_form(&f.body.stmts, implicit) {
            Ok(None) => self.block_stmts(&f.body.stmts)?,
            Ok(Some(stmts)) => {
                let values = self.tail_block(&stmts)?;
                self.emit(OpKind::Return { values });
            }
            Err(returns::NotTail { span, in_loop }) => {
                let (msg, help) = if in_loop {
                    (
                        "`return` inside a loop of a function whose result has a size `?` or is rank-generic \
                         (`f64[...]`) is not supported yet",
                        "declare the result's sizes (`-> f64[N]`), or set a variable and `break` out of the loop, \
                         then return after it",
                    )
                } else {
                    (
                        "this `return` is in a branch that may fall through, and the statements after \
                         the `if` would have to run on both sides",
                        "give the `if` an `else` that returns, or return at the end of both branches",
                    )
                };
                return Err(self.error("E0905", &span, msg, help));
            }
        }
        self.f.body = self.bodies.pop().unwrap();
        if !matches!(self.f.body.last().map(|o| &o.kind), Some(OpKind::Return { .. })) {
            if !self.f.results.is_empty() {
                return Err(self.error(
                    "E0902",
                    &f.span,
                    "function with results must end with `return`",
                    "add a `return` as the last statement",
                ));
            }
            self.f.body.push(Op { kind: OpKind::Return { values: vec![] }, loc: None, block: None });
        }
        Ok(())
    }

    /// Binds each size symbol of the signature (`N` in `x: f64[N]`) to `arr.dim` of the first
    /// parameter that mentions it, and checks every other declared size at run time.
    /// `name` is the function's name in the source (an instance's, `lap.r2`, is its generic
    /// function's, `lap`).
    fn bind_size_symbols(&mut self, f: &ast::Function, name: &str) -> LResult<()> {
        for (pi, p) in f.params.iter().enumerate() {
            let Some(dims) = &p.ty.dims else { continue };
            let pv = self.f.params[pi];
            for (axis, d) in dims.iter().enumerate() {
                if let ast::DimExpr::Exists(_) | ast::DimExpr::AnyRank(_) = d {
                    continue;
                }
                let dim = self.value(Type::Scalar(DType::I64), None);
                self.emit(OpKind::Dim { res: dim, src: pv, axis });
                if let ast::DimExpr::Sym(id) = d {
                    if self.lookup(&id.name).is_none() {
                        self.f.value_names[dim as usize] = Some(id.name.clone());
                        self.declare(&id.name, dim);
                        continue;
                    }
                }
                let expected = self.dim_expr(d)?;
                let ok = self.value(Type::Scalar(DType::Bool), None);
                self.emit(OpKind::Binary { res: ok, op: ir::BinFn::Eq, lhs: dim, rhs: expected });
                let (line, _) = self.lines.line_col(p.span.start);
                // `{lhs}` and `{rhs}`: the executor puts in the compared sizes (see `cf.assert`).
                let msg = format!(
                    "line {line}: argument `{}` has size {{lhs}} in dimension {axis}, but the signature of `{}` says {} = {{rhs}}",
                    p.name.name,
                    name,
                    dim_text(d)
                );
                self.emit(OpKind::Assert { cond: ok, msg });
            }
        }
        Ok(())
    }

    fn dim_expr(&mut self, d: &ast::DimExpr) -> LResult<ValueId> {
        use ast::DimExpr::*;
        Ok(match d {
            Lit(x, _) => self.i64_const(*x),
            Sym(id) => self.lookup(&id.name).ok_or_else(|| self.error("E0903", &id.span, "unknown size symbol", ""))?,
            Exists(sp) | AnyRank(sp) => {
                return Err(self.error("E0903", sp, "an existential size `?` (or `...`) has no value", ""))
            }
            Add(a, b, _) | Sub(a, b, _) | Mul(a, b, _) => {
                let (x, y) = (self.dim_expr(a)?, self.dim_expr(b)?);
                let op = match d {
                    Add(..) => ir::BinFn::Add,
                    Sub(..) => ir::BinFn::Sub,
                    _ => ir::BinFn::Mul,
                };
                self.scalar_binary(op, x, y, DType::I64)
            }
        })
    }

    /// Lowers statements into the current body, in a new scope (those after a `break` or
    /// `continue` as [`Self::stmts_with_jumps`] does).
    pub(crate) fn block_stmts(&mut self, stmts: &[ast::Stmt]) -> LResult<()> {
        self.scopes.push(HashMap::new());
        let r = self.stmts_with_jumps(stmts);
        self.scopes.pop();
        r
    }

    /// Runs `f` in a fresh body and returns what it emitted.
    pub(crate) fn in_body<T>(&mut self, f: impl FnOnce(&mut Self) -> LResult<T>) -> LResult<(Body, T)> {
        self.bodies.push(vec![]);
        self.body_ids.push(self.bodies_made);
        self.bodies_made += 1;
        let r = f(self);
        let body = self.bodies.pop().unwrap();
        self.body_ids.pop();
        r.map(|t| (body, t))
    }

    pub(crate) fn scalar_binary(&mut self, op: ir::BinFn, a: ValueId, b: ValueId, dt: DType) -> ValueId {
        let rt = if op.is_comparison() { DType::Bool } else { dt };
        let r = self.value(Type::Scalar(rt), None);
        self.emit(OpKind::Binary { res: r, op, lhs: a, rhs: b });
        r
    }
}

/// The IR type of a checked type (`None` for tuples, unit and errors).
pub(crate) fn ir_type(t: &Ty) -> Option<Type> {
    match t {
        Ty::Scalar(d) => Some(Type::Scalar(*d)),
        Ty::Array(d, shape) => Some(Type::Array(*d, shape.len())),
        _ => None,
    }
}

/// The value of a literal default (optionally negated), converted to `dtype`.
fn literal_value(e: &ast::Expr, dtype: DType) -> Option<Scalar> {
    let s = match &e.kind {
        ast::ExprKind::Int(i) => Scalar::I64(*i),
        ast::ExprKind::Float(x) => Scalar::F64(*x),
        ast::ExprKind::Bool(b) => Scalar::Bool(*b),
        ast::ExprKind::Unary(ast::UnOp::Neg, inner) => match literal_value(inner, dtype)? {
            Scalar::I64(i) => Scalar::I64(-i),
            s => Scalar::F64(-s.as_f64()),
        },
        _ => return None,
    };
    Some(s.cast(dtype))
}

fn dim_text(d: &ast::DimExpr) -> String {
    use ast::DimExpr::*;
    match d {
        Lit(x, _) => x.to_string(),
        Sym(id) => arrayc_grammar::types::shape_symbol_text(&id.name),
        Add(a, b, _) => format!("{}+{}", dim_text(a), dim_text(b)),
        Sub(a, b, _) => format!("{}-{}", dim_text(a), dim_text(b)),
        Mul(a, b, _) => format!("{}*{}", dim_text(a), dim_text(b)),
        Exists(_) => "?".into(),
        AnyRank(_) => "...".into(),
    }
}
