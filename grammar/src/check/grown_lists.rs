//! The types of a list grown by appends ([`crate::grown_lists`]): `list.buffer(K)` is an array of
//! the items' type with one more axis in front, `list.item(e, K)` the appended value `e` in that
//! type. The items' dtype and rank are learnt at the appends, so a function whose list meets a
//! new item type is checked again ([`Checker::check_function`]), as Python's rebinding of a
//! scalar is ([`Checker::request_widening`]).

use super::builtins::literal_int;
use super::Checker;
use crate::ast::{DType, Expr};
use crate::diag::Diagnostic;
use crate::types::Ty;

impl Checker {
    /// `list.buffer(K)`: an array of the list's item dtype (`f64` before any append is checked,
    /// NumPy's dtype of `np.array([])`) whose rank is one more than the items', sizes unknown.
    pub(super) fn list_buffer(&mut self, args: &[Expr]) -> Ty {
        let key = (self.cur_fn, literal_int(&args[0]).expect("written by grown_lists"));
        let (d, rank) = self.list_items.get(&key).copied().unwrap_or((DType::F64, 0));
        Ty::Array(d, (0..=rank).map(|_| self.fresh()).collect())
    }

    /// `list.item(e, K)`: `e` with the list's item dtype, NumPy's promotion of every item's dtype
    /// (`np.array([1, 2.5])` is `f64`); an item of another rank than the first is E0207, NumPy's
    /// ValueError of an inhomogeneous shape.
    pub(super) fn list_item(&mut self, args: &[Expr]) -> Ty {
        let t = self.value(&args[0]);
        let key = (self.cur_fn, literal_int(&args[1]).expect("written by grown_lists"));
        let (Some(d), Some(rank)) = (t.dtype(), t.rank()) else { return Ty::Error };
        let item = match self.list_items.get(&key).copied() {
            None => (d, rank),
            Some((old, r)) if r == rank => (old.promote(d), rank),
            Some((_, r)) => {
                self.err(
                    Diagnostic::error(
                        "E0207",
                        format!("this item has {rank} axes where the list's first item has {r}"),
                        args[0].span.clone(),
                        "appended here",
                    )
                    .with_note("NumPy's `np.array` of such a list is a ValueError (an inhomogeneous shape)")
                    .with_help("append values of one rank (a scalar, or arrays of one shape) to a list"),
                );
                return Ty::Error;
            }
        };
        if self.list_items.insert(key, item) != Some(item) {
            self.widen_requested = true;
        }
        match t {
            Ty::Array(_, shape) => Ty::Array(item.0, shape),
            _ => Ty::Scalar(item.0),
        }
    }
}
