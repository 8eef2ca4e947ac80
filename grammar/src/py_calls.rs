//! Python's builtin `pow` and the calls arrayc refuses with the way to write them
//! (`docs/language.md`, "Other spellings of builtins"), after parsing, once the lambdas bound to
//! names are inlined (so a lambda named `pow` keeps its calls):
//!
//! - Python's `pow(a, b)` (bare, where the program has no function `pow`) is `a ** b`, Python's
//!   power ([`crate::syntax::power`]: `pow(2, -1)` is `0.5`); NumPy's `np.pow` stays NumPy's
//!   `power`, which refuses an integer's negative power.
//! - E0331: Python's three-argument `pow(a, b, m)` (modular power of unbounded integers),
//!   NumPy's `np.unique_values(x)` (whose order NumPy leaves unspecified: NumPy 2.4 gives the
//!   integers in hash order), `np.nextafter(x, y)`: each help names the arrayc way.

use crate::ast::{ExprKind, Program};
use crate::diag::Diagnostic;
use std::cell::Cell;
use std::collections::HashSet;

/// Rewrites Python's `pow(a, b)` and returns E0331 for each refused call (see the module's docs).
pub fn python_calls(program: &mut Program) -> Vec<Diagnostic> {
    let own: HashSet<String> = program.functions.iter().map(|f| f.name.name.clone()).collect();
    let ids = Cell::new(program.num_exprs);
    let mut diags = Vec::new();
    for f in &mut program.functions {
        f.for_each_expr_mut(&mut |e| {
            let ExprKind::Call { func, args, kwargs } = &mut e.kind else { return };
            if own.contains(&func.name) {
                return;
            }
            let refused = |what: &str, help: &str| {
                Diagnostic::error("E0331", format!("{what} is not in arrayc"), func.span.clone(), "here").with_help(help.to_string())
            };
            match (func.name.as_str(), args.len()) {
                ("pow", 2) if kwargs.is_empty() => {
                    let b = args.pop().expect("two arguments");
                    let a = args.pop().expect("two arguments");
                    *e = crate::syntax::power(&ids, a, b, e.span.clone());
                }
                ("pow", 3) => diags.push(refused(
                    "Python's three-argument `pow(a, b, m)`",
                    "Python's integers are unbounded where arrayc's are `int64`: write `a ** b % m` where `a ** b` \
                     fits in `int64`, or square and multiply in a loop, `r = 1; for _ in range(b) { r = r * a % m; }`",
                )),
                ("np.unique_values", _) => diags.push(refused(
                    "NumPy's `np.unique_values(x)`",
                    "NumPy leaves its order unspecified (NumPy 2.4 gives integers in hash order): write `np.unique(x)`, \
                     the distinct values sorted",
                )),
                ("np.nextafter", _) => diags.push(refused("NumPy's `np.nextafter(x, y)`", crate::math_more::NEXT_FLOAT)),
                _ => {}
            }
        });
    }
    program.num_exprs = ids.get();
    diags
}
