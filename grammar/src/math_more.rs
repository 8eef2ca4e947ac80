//! More of Python's `math` module (`docs/language.md`, "Other spellings of builtins"), rewritten
//! after parsing by [`crate::spellings::math_call`]: `math.gcd(a, b)` is `int(np.gcd(a, b))` (a
//! Python `int`, weak in promotion), and `math.factorial(n)` Python's exact value where it fits
//! arrayc's `int64`, `n` from 0 to 20: the item `n` of the table of those values, where `n`
//! outside it (Python's ValueError for a negative `n`, a value beyond `int64` above 20) is the
//! table's run-time index error (a float `n`, Python's TypeError, is an index of the wrong type).
//! Python's other `math` functions are E0330 ([`missing_help`] names the arrayc way).

use crate::ast::{BinOp, Expr, ExprKind, Ident, Index, Span};
use crate::syntax::mk;
use std::cell::Cell;

/// The values of `math.factorial(n)` that `int64` holds, `0!` to `20!`.
fn factorials() -> Vec<i64> {
    (1..=20i64)
        .scan(1i64, |acc, k| {
            *acc *= k;
            Some(*acc)
        })
        .fold(vec![1], |mut v, f| {
            v.push(f);
            v
        })
}

/// `math.name(args)` of the functions of this module, by position (see the module's docs);
/// `None` for any other (E0330).
pub fn math_call(ids: &Cell<u32>, name: &str, mut args: Vec<Expr>, at: &Span, span: &Span) -> Option<ExprKind> {
    let call = |ids: &Cell<u32>, f: &str, args: Vec<Expr>| {
        mk(
            ids,
            ExprKind::Call { func: Ident { name: f.to_string(), span: at.clone() }, args, kwargs: vec![] },
            span.clone(),
        )
    };
    let value = match (name, args.len()) {
        ("gcd", 2) => call(ids, &crate::builtin::qualified("gcd"), args),
        ("factorial", 1) => {
            let n = args.pop()?;
            let table = factorials();
            let past = mk(ids, ExprKind::Int(table.len() as i64), span.clone());
            let table = table.into_iter().map(|f| mk(ids, ExprKind::Int(f), span.clone())).collect();
            let table = mk(ids, ExprKind::List(table), span.clone());
            // A negative `n` would count from the end: it reads past the table instead.
            let zero = mk(ids, ExprKind::Int(0), span.clone());
            let negative = mk(ids, ExprKind::Binary(BinOp::Lt, Box::new(n.clone()), Box::new(zero)), span.clone());
            let at_n = mk(ids, ExprKind::IfElse(Box::new([negative, past, n])), span.clone());
            mk(ids, ExprKind::Subscript { base: Box::new(table), index: vec![Index::At(at_n)] }, span.clone())
        }
        _ => return None,
    };
    Some(call(ids, "int", vec![value]).kind)
}

/// How to write the float next to `x` in arrayc, which has not NumPy's `nextafter` or `spacing`.
pub const NEXT_FLOAT: &str = "for a normal positive `x`, the next float up is `x + np.ldexp(1.0, np.frexp(x)[1] - 53)` \
                              (one unit in the last place of a `float64`), and `np.finfo(np.float64).eps` is that of 1.0";

/// The help of E0330 for `math.name`, a function of Python's `math` module arrayc has not: the
/// arrayc way to write it.
pub fn missing_help(name: &str) -> String {
    let way = match name {
        "fsum" => {
            "`np.sum(x)` adds with NumPy's pairwise rounding (Python's `fsum` rounds once, exactly); \
                   where the last bits matter, keep the terms small and sorted"
        }
        "dist" => "`np.linalg.norm(p - q)` (`math.hypot(dx, dy)` of two coordinates)",
        "comb" | "perm" | "lcm" | "isqrt" => {
            "Python's exact integers are unbounded where arrayc's are `int64`: compute it with a loop of \
             `i64` products where it fits (`np.lcm(a, b)` for `lcm`, which wraps past `int64` as NumPy's)"
        }
        "factorial" => "`math.factorial(n)` takes one integer, `n` from 0 to 20 in arrayc",
        "gcd" => "`math.gcd(a, b)` takes two integers in arrayc (`math.gcd(math.gcd(a, b), c)` for more)",
        "gamma" | "lgamma" | "erf" | "erfc" => {
            "NumPy has it not either (SciPy's `scipy.special`): write a series or a table"
        }
        "modf" | "frexp" | "ldexp" => "NumPy's `np.modf(x)`, `np.frexp(x)`, `np.ldexp(x, e)`",
        "remainder" => "`x - np.round(x / y) * y` (Python's IEEE remainder), or `np.remainder` (NumPy's, Python's `%`)",
        "nextafter" | "ulp" => NEXT_FLOAT,
        "cbrt" | "exp2" => "NumPy's `np.cbrt(x)`, `np.exp2(x)`",
        _ => {
            "arrayc's `math` functions are `sqrt exp log log2 log10 log1p expm1`, the trigonometric and \
              hyperbolic ones, `atan2 hypot fabs fmod copysign pow prod degrees radians isnan isinf \
              isfinite isclose floor ceil trunc gcd factorial`; NumPy's function of the same name works on scalars"
        }
    };
    format!("write it with NumPy's functions: {way}")
}
