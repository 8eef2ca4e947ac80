//! NumPy's `linalg.matrix_power(a, k)` with an exponent known only at run time (issue 31), as
//! statements before the statement that calls it (a literal `k` is the builtin's, unrolled by the
//! lowering): binary exponentiation in a `while` loop, NumPy's algorithm,
//!
//! ```text
//! let mp.a = a;  assert size(mp.a, axis=0) == size(mp.a, axis=1);
//! let mp.r = eye(size(mp.a, axis=0), dtype=mp.a.dtype);  let mp.p = mp.a;  let mp.k = abs(k) >> 0;
//! if k < 0 { assert (mp.a.dtype == f64) | (mp.a.dtype == f32); mp.p = array(linalg.inv(mp.a), dtype=mp.a.dtype); }
//! while mp.k > 0 { if mp.k & 1 == 1 { mp.r = mp.r @ mp.p; } mp.k = mp.k >> 1; if mp.k > 0 { mp.p = mp.p @ mp.p; } }
//! ```
//!
//! and the call replaced by `mp.r` (the names `mp.OFFSET.x`, which no program can write). `k = 0`
//! is the identity of `a`'s dtype, `k < 0` the power of `inv(a)` for a float `a`; NumPy's
//! negative power of an integer matrix is a float, a dtype arrayc cannot choose at run time: a
//! run-time error naming the line. `>>` takes integers only (a float `k`, NumPy's TypeError, is
//! E0301, once). A call in a `while` condition is E0503 (it would run once).

use crate::ast::{BinOp, Block, Expr, ExprKind, Program, Span, Stmt};
use crate::builtin::qualified;
use crate::check::literal_int;
use crate::compositions::Build;
use crate::diag::Diagnostic;
use std::cell::Cell;

/// The name the parser gives NumPy's `matrix_power` (`np.linalg.matrix_power`, `linalg.matrix_power`).
const MATRIX_POWER: &str = "linalg.matrix_power";

/// Rewrites every `linalg.matrix_power(a, k)` of a non-literal `k` in `program`; the errors.
pub fn run_time_powers(program: &mut Program) -> Vec<Diagnostic> {
    let ids = Cell::new(program.num_exprs);
    let mut errors = vec![];
    for f in &mut program.functions {
        block(&ids, &mut f.body, &mut errors);
    }
    program.num_exprs = ids.get();
    errors
}

/// Whether `e` is a call of `matrix_power` of two positional arguments, the second no literal.
fn run_time_power(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { func, args, kwargs }
        if func.name == MATRIX_POWER && args.len() == 2 && kwargs.is_empty() && literal_int(&args[1]).is_none())
}

fn block(ids: &Cell<u32>, b: &mut Block, errors: &mut Vec<Diagnostic>) {
    for mut s in std::mem::take(&mut b.stmts) {
        match &mut s {
            Stmt::For { body, .. } | Stmt::While { body, .. } => block(ids, body, errors),
            Stmt::If { then_block, else_block, .. } => {
                block(ids, then_block, errors);
                if let Some(e) = else_block {
                    block(ids, e, errors);
                }
            }
            _ => {}
        }
        let in_while = matches!(s, Stmt::While { .. });
        for e in s.own_exprs_mut() {
            e.walk_mut(&mut |x| {
                if !run_time_power(x) {
                    return;
                }
                if in_while {
                    errors.push(
                        Diagnostic::error(
                            "E0503",
                            "`linalg.matrix_power` of a run-time exponent in a `while` condition",
                            x.span.clone(),
                            "computed once, not per iteration",
                        )
                        .with_help("compute it into a variable before the loop and at the end of its body"),
                    );
                    return;
                }
                let ExprKind::Call { args, .. } = &mut x.kind else { return };
                let (a, k) = (args.remove(0), args.remove(0));
                let build = Build { ids, at: x.span.clone() };
                let (stmts, result) = power(&build, a, k);
                b.stmts.extend(stmts);
                *x = result;
            });
        }
        b.stmts.push(s);
    }
}

/// The statements of `matrix_power(a, k)` (see the module docs) and the expression of its value.
fn power(b: &Build, a: Expr, k: Expr) -> (Vec<Stmt>, Expr) {
    let at: Span = b.at.clone();
    let name = |part: &str| format!("mp.{}.{part}", at.start);
    let var = |part: &str| b.e(ExprKind::Var(b.kw(&name(part))));
    let attr = |part: &str, attr: &str| {
        b.e(ExprKind::Call { func: b.kw(&format!(".{attr}")), args: vec![var(part)], kwargs: vec![] })
    };
    let size = |axis: i64| b.call("size", vec![var("a")], vec![(b.kw("axis"), b.int(axis))]);
    let let_ = |part: &str, value: Expr| Stmt::Let { names: vec![b.kw(&name(part))], value, span: at.clone() };
    let set = |part: &str, value: Expr| Stmt::Assign { name: b.kw(&name(part)), value, span: at.clone() };
    let assert = |cond: Expr, msg: &str| Stmt::Assert { cond, msg: Some(msg.to_string()), span: at.clone() };
    let if_ = |cond: Expr, stmts: Vec<Stmt>| Stmt::If {
        cond,
        then_block: Block { stmts, span: at.clone() },
        else_block: None,
        span: at.clone(),
    };
    let matmul = |x: &str, y: &str| b.e(ExprKind::Call { func: b.kw("@"), args: vec![var(x), var(y)], kwargs: vec![] });
    let dtype_is = |d: crate::ast::DType| {
        crate::syntax::comparison(b.ids, attr("a", "dtype"), BinOp::Eq, b.e(ExprKind::DTypeName(d)), at.clone())
    };
    let float = b.bin(BinOp::Or, dtype_is(crate::ast::DType::F64), dtype_is(crate::ast::DType::F32));
    let inverse = b.e(ExprKind::Call {
        func: b.kw(&qualified("array")),
        args: vec![b.e(ExprKind::Call { func: b.kw("linalg.inv"), args: vec![var("a")], kwargs: vec![] })],
        kwargs: vec![(b.kw("dtype"), attr("a", "dtype"))],
    });
    let eye = b.e(ExprKind::Call {
        func: b.kw(&qualified("eye")),
        args: vec![size(0)],
        kwargs: vec![(b.kw("dtype"), attr("a", "dtype"))],
    });
    let negative = b.bin(BinOp::Lt, b.copy(&k), b.int(0));
    let odd = b.bin(BinOp::Eq, b.bin(BinOp::And, var("k"), b.int(1)), b.int(1));
    let positive = || b.bin(BinOp::Gt, var("k"), b.int(0));
    let stmts = vec![
        let_("a", a),
        assert(
            b.bin(BinOp::Eq, size(0), size(1)),
            "linalg.matrix_power: LinAlgError: the last 2 dimensions of a must be square",
        ),
        let_("r", eye),
        let_("p", var("a")),
        // `>> 0`: an integer, or one E0301 (NumPy's TypeError) for a float `k`.
        let_("k", b.bin(BinOp::Shr, b.call("abs", vec![k], vec![]), b.int(0))),
        if_(
            negative,
            vec![
                assert(
                    float,
                    "linalg.matrix_power: a negative power of an integer matrix is a float in NumPy; convert it: f64(a)",
                ),
                set("p", inverse),
            ],
        ),
        Stmt::While {
            cond: positive(),
            body: Block {
                stmts: vec![
                    if_(odd, vec![set("r", matmul("r", "p"))]),
                    set("k", b.bin(BinOp::Shr, var("k"), b.int(1))),
                    if_(positive(), vec![set("p", matmul("p", "p"))]),
                ],
                span: at.clone(),
            },
            span: at.clone(),
        },
    ];
    (stmts, var("r"))
}
