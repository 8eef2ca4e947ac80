//! Types learnt at assignments: a list grown by appends ([`crate::grown_lists`]: `list.buffer(K)`
//! is an array of the items' type with one more axis in front, `list.item(e, K)` an appended value
//! in that type) and a name first assigned inside a loop or branch and read after it
//! ([`crate::function_scope`]: `scope.unbound(K)` a placeholder of the name's type, `scope.value(e,
//! K)` an assigned value in that type). The dtype and rank are learnt at the appends
//! (assignments), so a function meeting a new one is checked again ([`Checker::check_function`]),
//! as Python's rebinding of a scalar is ([`Checker::request_widening`]).

use super::builtins::literal_int;
use super::Checker;
use crate::ast::{DType, Expr};
use crate::builtin::Builtin;
use crate::diag::Diagnostic;
use crate::types::Ty;

impl Checker {
    /// The learnt dtype and rank of `K` (the last argument); before any value is checked `bool`
    /// scalars, the bottom of NumPy's promotion, so that a value computed from the placeholder
    /// itself (`fib.append(fib[-1] + fib[-2])` after `fib = [0, 1]`) promotes to the values' own
    /// dtype once the function is checked again.
    fn learnt_of(&self, k: &Expr) -> ((usize, i64), (DType, usize)) {
        let key = (self.cur_fn, literal_int(k).expect("written by grown_lists or function_scope"));
        (key, self.learnt.get(&key).copied().unwrap_or((DType::Bool, 0)))
    }

    /// `list.buffer(K)`: an array of the items' dtype whose rank is one more than the items', sizes
    /// unknown; `scope.unbound(K)`: a value of the learnt dtype and rank (sizes unknown).
    pub(super) fn learnt_placeholder(&mut self, b: Builtin, args: &[Expr]) -> Ty {
        let (_, (d, rank)) = self.learnt_of(&args[0]);
        let rank = rank + usize::from(b == Builtin::ListBuffer);
        if rank == 0 {
            return Ty::Scalar(d);
        }
        Ty::Array(d, (0..rank).map(|_| self.fresh()).collect())
    }

    /// `list.item(e, K)`, `scope.value(e, K)`: `e` with the learnt dtype, NumPy's promotion of
    /// every value's dtype (`np.array([1, 2.5])` is `f64`); values of two ranks are E0207 (for a list NumPy's ValueError of an inhomogeneous shape; for a name, arrayc's
    /// variable has one rank).
    pub(super) fn learn(&mut self, b: Builtin, args: &[Expr]) -> Ty {
        let t = self.value(&args[0]);
        let (key, _) = self.learnt_of(&args[1]);
        let (Some(d), Some(rank)) = (t.dtype(), t.rank()) else { return Ty::Error };
        let learnt = match self.learnt.get(&key).copied() {
            None => (d, rank),
            Some((old, r)) if r == rank => (old.promote(d), rank),
            // A rank learnt in a round that read the placeholder before its rank was known: the
            // higher rank, once, and the function is checked again.
            Some((old, r)) if self.relearnt.insert(key) => (old.promote(d), r.max(rank)),
            Some((_, r)) => {
                let (what, note, help) = match b {
                    Builtin::ListItem => (
                        format!("this item has {rank} axes where another item of the list has {r}"),
                        "NumPy's `np.array` of such a list is a ValueError (an inhomogeneous shape)",
                        "append values of one rank (a scalar, or arrays of one shape) to a list",
                    ),
                    _ => (
                        format!(
                            "this value has {rank} axes where another value the name is given in this loop or branch has {r}"
                        ),
                        "a name first assigned inside a loop or branch and read after it has one type, learnt at \
                         its assignments there",
                        "assign values of one rank, or declare the name with its type before the loop or branch",
                    ),
                };
                self.err(
                    Diagnostic::error("E0207", what, args[0].span.clone(), "assigned here")
                        .with_note(note)
                        .with_help(help),
                );
                return Ty::Error;
            }
        };
        if self.learnt.insert(key, learnt) != Some(learnt) {
            self.widen_requested = true;
        }
        match t {
            Ty::Array(_, shape) => Ty::Array(learnt.0, shape),
            _ => Ty::Scalar(learnt.0),
        }
    }
}
