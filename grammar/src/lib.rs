//! arrayc front end: `logos` lexer, `lalrpop` grammar, AST with byte spans, name resolution, type and
//! symbolic shape checking, and `ariadne` diagnostics.
//!
//! Entry points: [`parse`], [`check`], [`frontend`] (= parse then check), [`check_keeping_errors`]
//! (for the language server), [`dump_ast`].
//! See `docs/language.md` for the language and `grammar/ERRORS.md` for the error codes.

pub mod apply_along_axis;
pub mod ast;
pub mod axis_compositions;
pub mod builtin;
pub mod call_of_call;
pub mod check;
pub mod compositions;
pub mod comprehension;
pub mod comprehension_targets;
pub mod constants;
pub mod diag;
pub mod dtype_queries;
pub mod dump;
pub mod einsum;
pub mod flat_writes;
pub mod fromfunction;
pub mod function_scope;
pub mod grown_lists;
pub mod key_extrema;
pub mod lambda;
pub mod lexer;
pub mod list_index;
pub mod list_ops;
pub mod loop_returns;
pub mod loop_vars;
pub mod math_more;
pub mod matrix_power;
pub mod membership;
pub mod methods;
pub mod nested;
pub mod nesting;
pub mod numpy_keywords;
pub mod numpy_shapes;
pub mod out_args;
mod parse;
pub mod piecewise;
pub mod print_stmt;
pub mod py_calls;
pub mod py_lists;
pub mod py_refused;
pub mod random_api;
pub mod slice_objects;
#[doc(hidden)]
pub mod spellings;
pub mod star_args;
pub mod starred_targets;
pub mod syntax;
pub mod tuple_loops;
pub mod tuple_names;
pub mod tuple_returns;
pub mod types;
pub mod unroll;
pub mod view_writes;
pub mod writes;

pub use diag::{line_col, Diagnostic, Label, LineIndex, Severity};

#[allow(clippy::all, unused_parens, dead_code, unused_imports)]
mod parser {
    include!(concat!(env!("OUT_DIR"), "/parser.rs"));
}

/// A type-checked program with side tables for the lowering.
#[derive(Clone, Debug)]
pub struct Checked {
    pub program: ast::Program,
    /// Checked type of every expression, indexed by `ExprId.0` (length `program.num_exprs`).
    /// Shapes are symbolic sizes in elements. Literals passed where another dtype is expected (a
    /// user-function argument or a default) carry the expected type; in binary operations operands
    /// keep their own type and the operation's type is the promoted one.
    pub types: Vec<types::Ty>,
    /// Signatures, in the same order as `program.functions`.
    pub signatures: Vec<FnSig>,
    /// Type of the view written by each `x[...] = e` and `x[...] op= e`, keyed by the id of the
    /// value `e` (not by the statement's place: instances of a rank-generic function share it).
    pub target_types: std::collections::HashMap<ast::ExprId, types::Ty>,
    /// What each call calls, indexed by `ExprId.0` (length `program.num_exprs`; `None` for other
    /// expressions and for calls of unknown functions): the checker's one resolution of names,
    /// which the lowering and the language server read (see [`builtin`]).
    pub callees: Vec<Option<builtin::Callee>>,
    /// Per function (parallel to `signatures`): for an instance of a rank-generic function, the
    /// generic function's index. Instances follow the program's own functions in
    /// `program.functions`; each is a copy of its generic function with concrete parameter types,
    /// named `NAME.rR` (`lap.r2`; ranks of several `[...]` parameters joined by `_`: `f.r2_3`),
    /// which no program can write. The generic function itself is never lowered
    /// ([`ast::Function::is_rank_generic`]); its calls call the instances.
    pub instance_of: Vec<Option<usize>>,
    /// Python's rebinding of a name to a value of another dtype or rank, `x = x.astype(f64)`,
    /// `v = v.reshape(-1)`, where the old or the new value is an array and `x` was declared in the
    /// same block (a parameter: in the function's body): keyed by the id of the value, the
    /// assignment declares a new `x` from there on, as `let x = e` would (Python's name then
    /// names the new object; the old array is not written). Elsewhere (a loop body or a branch
    /// assigning a name declared outside it) such an assignment is E0303: its type would depend
    /// on the path taken.
    pub rebinds: std::collections::HashSet<ast::ExprId>,
    /// Python's truth value of a number: the conditions (of `if`, `while`, `elif`, `assert`,
    /// `a if c else b`), the operand of `not`, and the operands of an `and`/`or` that is itself
    /// one of these, that are integer or float scalars, by id: each is read as `c != 0` (NaN is
    /// true, as `bool(float('nan'))`). An `and`/`or` whose value is used as a number stays E0302
    /// (Python's `a or b` gives one of the numbers, not a bool).
    pub truthy: std::collections::HashSet<ast::ExprId>,
    /// Python's repetition of a list literal, `[..] * k` or `k * [..]` with `k` an integer or bool
    /// scalar (`[0.0] * n`, `[True, False] * half`), by id of the product: the literal's items
    /// repeated `k` times along axis 0 (NumPy's `np.array` of the repeated list), not NumPy's
    /// elementwise product; a negative `k` is a run-time error (Python's empty list). With an
    /// array `k` (`img * [0.3, 0.6, 0.1]`) the product is NumPy's, elementwise. Repetitions by
    /// an integer literal and joins `[..] + [..]` are rewritten as the program is parsed
    /// ([`list_ops`]).
    pub list_repeats: std::collections::HashSet<ast::ExprId>,
    /// The expressions other than literals whose value is a Python `int` or `float`, "weak" in
    /// NumPy 2's promotion (NEP 50; `len(x)`, `x.shape[0]`, a `range` variable, `n - 1`, ...: the
    /// checker's `weak` module lists them), by id: each takes the other operand's dtype, as a
    /// literal does, and an integer that does not fit it is NumPy's `OverflowError` at run time.
    pub weak: std::collections::HashSet<ast::ExprId>,
}

impl Checked {
    /// What call `id` calls, as the checker resolved it; `None` when `id` is not a call or names
    /// no function.
    pub fn callee(&self, id: ast::ExprId) -> Option<builtin::Callee> {
        self.callees.get(id.0 as usize).copied().flatten()
    }

    /// The weak kind of the checked expression `e`: a literal ([`check::promote::weak_of`]) or
    /// another Python number ([`Checked::weak`]); `None` for a NumPy value.
    pub fn weak_of(&self, e: &ast::Expr) -> Option<check::promote::Weak> {
        check::promote::weak_in(e, &self.types, &self.weak)
    }
}

/// A function's checked signature. Shapes use [`types::SizeSym::Named`] for size symbols (`N`) and for
/// scalar `i64` parameters used as sizes (`n` in `-> f64[n+2, n+2]`).
#[derive(Clone, Debug, PartialEq)]
pub struct FnSig {
    /// The function's name in the source (an instance of a rank-generic function has its generic
    /// function's name here, for messages; its tree's name is the instance's, `lap.r2`).
    pub name: String,
    pub params: Vec<(String, types::Ty)>,
    pub results: Vec<types::Ty>,
}

/// Parses a source file. Returns the program when there is no syntax error and it nests at most
/// [`nesting::MAX_NESTING`] deep, and all diagnostics.
pub fn parse(src: &str) -> (Option<ast::Program>, Vec<Diagnostic>) {
    parse::parse_program(src)
}

/// Resolves names and checks types and symbolic shapes. `Some` only when no error was reported
/// (warnings may be present).
pub fn check(program: ast::Program) -> (Option<Checked>, Vec<Diagnostic>) {
    check::check_program(program)
}

/// [`check`], returning the checked program also when the checker reports errors: the expressions
/// it could not type have [`types::Ty::Error`] (the language server shows the types it has).
pub fn check_keeping_errors(program: ast::Program) -> (Checked, Vec<Diagnostic>) {
    check::check_program_all(program)
}

/// [`check`], also making the instance of the rank-generic function `entry` for the ranks `ranks`
/// of its `[...]` parameters (named [`check::generic::instance_name`]), as `arrayc run --entry`
/// does when the entry's array arguments give its ranks.
pub fn check_for_entry(program: ast::Program, entry: &str, ranks: &[usize]) -> (Option<Checked>, Vec<Diagnostic>) {
    let (checked, diags) = check::check_program_for(program, Some((entry, ranks)));
    if diags.iter().any(|d| d.is_error()) {
        (None, diags)
    } else {
        (Some(checked), diags)
    }
}

/// [`parse`] then [`check`].
pub fn frontend(src: &str) -> (Option<Checked>, Vec<Diagnostic>) {
    let (prog, mut diags) = parse(src);
    match prog {
        Some(p) if !diags.iter().any(|d| d.is_error()) => {
            let (c, d2) = check(p);
            diags.extend(d2);
            (c, diags)
        }
        _ => (None, diags),
    }
}

/// A readable indented dump of the AST (for `arrayc emit --stage=ast`).
pub fn dump_ast(program: &ast::Program) -> String {
    dump::dump_program(program)
}
