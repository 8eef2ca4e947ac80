//! NumPy's keyword spellings of positional arguments: `np.linspace(start=0.0, stop=1.0, num=5)`,
//! `np.full((2, 3), fill_value=7)`, `np.percentile(x, q=50)`, `np.arange(0, 10, step=2)`,
//! `x.astype(dtype=np.float32)`. NumPy's functions take most arguments by position or by their
//! parameter's name; arrayc's builtins take them by position ([`crate::builtin`]'s arity), so a
//! keyword naming a positional parameter of NumPy's function is passed as the positional argument
//! at that parameter's place ([`keyword_positional`]), and the call is then checked as if written
//! positionally. [`PARAMETERS`] is the one table of those names (NumPy's signatures).

use crate::ast::{Expr, Ident};

/// NumPy's names of the positional parameters of the builtins that take arguments by position,
/// `(builtin, [names of parameter 0, names of parameter 1, ..])` (a place has more than one name
/// where NumPy has aliases: `clip`'s `a_min` and NumPy 2's `min`). Only the parameters arrayc
/// takes by position are here: a keyword the builtin takes itself (`axis=`, `k=` of `eye`,
/// `weights=` of `histogram`) stays a keyword. ufuncs (`sqrt`, `maximum`) are not here: NumPy's
/// ufuncs take their operands by position only.
pub const PARAMETERS: &[(&str, &[&[&str]])] = &[
    // creation
    ("zeros", &[&["shape"]]),
    ("ones", &[&["shape"]]),
    ("empty", &[&["shape"]]),
    ("full", &[&["shape"], &["fill_value"]]),
    ("zeros_like", &[&["a"]]),
    ("ones_like", &[&["a"]]),
    ("empty_like", &[&["a"]]),
    ("full_like", &[&["a"], &["fill_value"]]),
    ("linspace", &[&["start"], &["stop"], &["num"]]),
    ("logspace", &[&["start"], &["stop"], &["num"]]),
    ("geomspace", &[&["start"], &["stop"], &["num"]]),
    ("eye", &[&["N"], &["M"]]),
    ("tri", &[&["N"], &["M"]]),
    ("identity", &[&["n"]]),
    ("vander", &[&["x"], &["N"]]),
    ("diag", &[&["v"]]),
    ("tril", &[&["m"]]),
    ("triu", &[&["m"]]),
    ("triu_indices", &[&["n"]]),
    ("tril_indices", &[&["n"]]),
    ("broadcast_to", &[&["array"], &["shape"]]),
    // reductions and scans (NumPy's first parameter `a`)
    ("sum", &[&["a"]]),
    ("prod", &[&["a"]]),
    ("min", &[&["a"]]),
    ("max", &[&["a"]]),
    ("mean", &[&["a"]]),
    ("any", &[&["a"]]),
    ("all", &[&["a"]]),
    ("var", &[&["a"]]),
    ("std", &[&["a"]]),
    ("median", &[&["a"]]),
    ("average", &[&["a"]]),
    ("ptp", &[&["a"]]),
    ("count_nonzero", &[&["a"]]),
    ("argmin", &[&["a"]]),
    ("argmax", &[&["a"]]),
    ("cumsum", &[&["a"]]),
    ("cumprod", &[&["a"]]),
    ("nansum", &[&["a"]]),
    ("nanmax", &[&["a"]]),
    ("nanmin", &[&["a"]]),
    ("nanmean", &[&["a"]]),
    ("percentile", &[&["a"], &["q"]]),
    ("quantile", &[&["a"], &["q"]]),
    ("nanpercentile", &[&["a"], &["q"]]),
    ("nanquantile", &[&["a"], &["q"]]),
    ("diff", &[&["a"]]),
    ("gradient", &[&["f"]]),
    ("trapezoid", &[&["y"], &["x"], &["dx"]]),
    // elementwise with parameters
    ("clip", &[&["a"], &["a_min", "min"], &["a_max", "max"]]),
    ("round", &[&["a"]]),
    ("where", &[&["condition"], &["x"], &["y"]]),
    ("isclose", &[&["a"], &["b"]]),
    ("allclose", &[&["a"], &["b"]]),
    ("array_equal", &[&["a1"], &["a2"]]),
    ("isin", &[&["element"], &["test_elements"]]),
    ("nan_to_num", &[&["x"]]),
    // shape and order
    ("reshape", &[&["a"], &["shape", "newshape"]]),
    ("ravel", &[&["a"]]),
    ("transpose", &[&["a"]]),
    ("swapaxes", &[&["a"], &["axis1"], &["axis2"]]),
    ("moveaxis", &[&["a"], &["source"], &["destination"]]),
    ("squeeze", &[&["a"]]),
    ("expand_dims", &[&["a"]]),
    ("flip", &[&["m"]]),
    ("rot90", &[&["m"]]),
    ("tile", &[&["A"], &["reps"]]),
    ("repeat", &[&["a"], &["repeats"]]),
    ("roll", &[&["a"], &["shift"]]),
    ("pad", &[&["array"], &["pad_width"]]),
    ("sort", &[&["a"]]),
    ("argsort", &[&["a"]]),
    ("partition", &[&["a"], &["kth"]]),
    ("argpartition", &[&["a"], &["kth"]]),
    ("split", &[&["ary"], &["indices_or_sections"]]),
    ("array_split", &[&["ary"], &["indices_or_sections"]]),
    ("vsplit", &[&["ary"], &["indices_or_sections"]]),
    ("hsplit", &[&["ary"], &["indices_or_sections"]]),
    ("append", &[&["arr"], &["values"]]),
    ("insert", &[&["arr"], &["obj"], &["values"]]),
    ("delete", &[&["arr"], &["obj"]]),
    // indexing and searching
    ("take", &[&["a"], &["indices"]]),
    ("take_along_axis", &[&["arr"], &["indices"]]),
    ("put_along_axis", &[&["arr"], &["indices"], &["values"]]),
    ("searchsorted", &[&["a"], &["v"]]),
    ("digitize", &[&["x"], &["bins"]]),
    ("interp", &[&["x"], &["xp"], &["fp"]]),
    ("bincount", &[&["x"], &["weights"]]),
    ("histogram", &[&["a"]]),
    ("unique", &[&["ar"]]),
    ("unravel_index", &[&["indices"], &["shape"]]),
    ("ravel_multi_index", &[&["multi_index"], &["dims"]]),
    ("fill_diagonal", &[&["a"], &["val"]]),
    ("nonzero", &[&["a"]]),
    ("flatnonzero", &[&["a"]]),
    ("argwhere", &[&["a"]]),
    // products and polynomials
    ("dot", &[&["a"], &["b"]]),
    ("inner", &[&["a"], &["b"]]),
    ("outer", &[&["a"], &["b"]]),
    ("vdot", &[&["a"], &["b"]]),
    ("kron", &[&["a"], &["b"]]),
    ("cross", &[&["a"], &["b"]]),
    ("convolve", &[&["a"], &["v"]]),
    ("polyfit", &[&["x"], &["y"], &["deg"]]),
    ("linalg.solve", &[&["a"], &["b"]]),
    ("linalg.matrix_power", &[&["a"], &["n"]]),
    ("linalg.norm", &[&["x"]]),
    ("linalg.inv", &[&["a"]]),
    ("linalg.det", &[&["a"]]),
    ("linalg.lstsq", &[&["a"], &["b"]]),
];

/// The keywords of the call of builtin `name` (without `np.` or a method's `.`) that name one of
/// NumPy's positional parameters ([`PARAMETERS`]) become positional arguments at their places,
/// once the arguments before each are there (given by position or so moved):
/// `np.linspace(start=0, stop=1, num=5)` is `linspace(0, 1, 5)`, and a method's receiver is its
/// first argument (`x.take(indices=i)` is `take(x, i)`). A keyword whose place is not next stays a
/// keyword, for the checker's unknown-keyword error (E0502). NumPy's `arange(stop)` has a
/// parameter order of its own ([`arange_keywords`]).
pub fn keyword_positional(name: &str, args: &mut Vec<Expr>, kwargs: &mut Vec<(Ident, Expr)>) {
    if name == "arange" {
        return arange_keywords(args, kwargs);
    }
    let Some((_, places)) = PARAMETERS.iter().find(|(n, _)| *n == name) else { return };
    while let Some(names) = places.get(args.len()) {
        let Some(at) = kwargs.iter().position(|(k, _)| names.contains(&k.name.as_str())) else { return };
        let (_, v) = kwargs.remove(at);
        args.push(v);
    }
}

/// NumPy's `arange([start,] stop[, step])` by keyword: `arange(start=a, stop=b, step=s)`,
/// `arange(a, b, step=s)`, `arange(a, stop=b)` and `arange(stop=b)` (NumPy's start 0). A step
/// after one positional argument, `arange(b, step=s)`, whose argument is the stop, stays a keyword
/// here: [`crate::spellings::rewrite_call`] adds the start 0 before it.
fn arange_keywords(args: &mut Vec<Expr>, kwargs: &mut Vec<(Ident, Expr)>) {
    let take = |key: &str, kwargs: &mut Vec<(Ident, Expr)>| {
        kwargs.iter().position(|(k, _)| k.name == key).map(|at| kwargs.remove(at).1)
    };
    if args.is_empty() && !kwargs.iter().any(|(k, _)| k.name == "start") {
        // `arange(stop=b)`, `arange(stop=b, dtype=..)`.
        if let Some(stop) = take("stop", kwargs) {
            args.push(stop);
        }
        return;
    }
    for key in ["start", "stop", "step"] {
        let place = match key {
            "start" => 0,
            "stop" => 1,
            _ => 2,
        };
        if args.len() == place {
            match take(key, kwargs) {
                Some(v) => args.push(v),
                None => return,
            }
        }
    }
}
