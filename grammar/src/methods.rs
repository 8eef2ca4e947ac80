//! NumPy's array methods and attributes, as arrayc spells them.
//!
//! A method call `x.m(a, k=v)` is the builtin `m(x, a, k=v)` when `m` is one of NumPy's array
//! methods in [`METHODS`] and arrayc has a builtin of that name; the parser writes it as a call of
//! `.m` ([`crate::syntax::method_call`]) and [`Builtin::from_name`] resolves `.m` here, so a
//! function of the program named `m` is never called by it. `x.astype(d)` is the cast `d(x)` and
//! `x.copy()` the builtin `copy(x)`. A NumPy method without a builtin yet (`x.reshape(...)`) is
//! E0207, which names the method.
//!
//! Attributes: `x.T` (`transpose(x)`), `x.ndim` (`ndim(x)`), `x.size` (`size(x)`) and `x.shape[k]`
//! (`size(x, axis=k)`); any other attribute is a syntax error (E0003).

use crate::builtin::Builtin;

/// NumPy's array methods whose function form takes the array first (`x.m(...)` is `np.m(x, ...)`),
/// the one list of methods arrayc knows: each is the builtin of its name where there is one.
pub const METHODS: &[&str] = &[
    "all",
    "any",
    "argmax",
    "argmin",
    "argpartition",
    "argsort",
    "choose",
    "clip",
    "copy",
    "cumprod",
    "cumsum",
    "diagonal",
    "dot",
    "flatten",
    "max",
    "mean",
    "min",
    "nonzero",
    "prod",
    "ravel",
    "repeat",
    "reshape",
    "round",
    "searchsorted",
    "sort",
    "squeeze",
    "std",
    "sum",
    "swapaxes",
    "take",
    "trace",
    "transpose",
    "var",
];

/// The attributes arrayc has besides `x.T` (`x.shape` only as `x.shape[k]`).
pub const ATTRIBUTES: &[&str] = &["shape", "ndim", "size", "itemsize", "nbytes", "flat"];

/// The builtin that the method `name` calls, if `name` is one of [`METHODS`] and the builtin
/// exists.
pub fn method_builtin(name: &str) -> Option<Builtin> {
    if name == "sort" {
        // NumPy's `x.sort()` sorts in place and returns None, unlike the builtin `sort` (a copy):
        // E0207 says so.
        return None;
    }
    METHODS.contains(&name).then(|| Builtin::from_name(name)).flatten()
}
