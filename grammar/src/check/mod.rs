//! Name resolution and type / symbolic-shape checking (see `docs/language.md`).
//!
//! Submodules, one concern each:
//! - [`sig`]: signatures from declared types, size symbols, call-site binding;
//! - [`promote`]: dtype promotion (NumPy 2, weak literals) and casting rules;
//! - [`weak`]: which values are Python numbers, weak in promotion (NEP 50);
//! - [`shape`]: broadcasting, slice sizes, subscripts (views);
//! - [`expr`]: expressions, call resolution and user-function calls; [`builtins`]: builtin calls,
//!   one function per family (the builtins themselves: [`crate::builtin`]);
//! - [`literals`]: array literals `[a, b]`, `array`, `asarray`, and `reshape`, `ravel`, `flatten`;
//! - [`numpy_funcs`]: `diff`, `outer`, `eye`, `swapaxes`, `trace`, the `nan` reductions, `linalg.norm`;
//! - [`numpy_shapes`]: `fliplr`, `rot90`, `transpose(x, axes)` and NumPy's other everyday shape idioms;
//! - [`stmt`]: statements, assignments, control flow, returns;
//! - [`generic`]: rank-generic functions (`f64[...]` parameters), one instance per tuple of ranks;
//! - [`names`]: "did you mean" suggestions.
//!
//! The checker reports as many errors as it can: after an error the offending expression gets
//! [`Ty::Error`], which silently propagates.

pub(crate) mod builtins;
mod dtype_queries;
mod einsum;
mod expr;
pub mod generic;
mod insert_delete;
mod learnt;
mod linalg;
mod literals;
mod names;
mod numpy_funcs;
mod numpy_more;
mod numpy_shapes;
pub mod promote;
mod random_sort;
pub mod set_ops;
pub mod shape;
mod shape_ops;
pub(crate) mod sig;
mod stmt;
mod vectorize;
mod weak;

pub use builtins::literal_int;

use crate::ast::{DType, Function, Program, Span};
use crate::builtin::Callee;
use crate::diag::Diagnostic;
use crate::types::{Size, SizeSym, Ty};
use crate::{Checked, FnSig};
use std::collections::{HashMap, HashSet};

/// A variable in scope.
#[derive(Clone, Debug)]
pub(crate) struct Var {
    pub ty: Ty,
    /// For immutable `i64` scalars: their value as an affine size (size symbols, size parameters).
    pub size: Option<Size>,
    /// For a scalar declared from a Python integer literal (`total = 0`): the literal's
    /// [`Widening`] key, so that a later float value widens the declaration
    /// ([`Checker::request_widening`]).
    pub weak_int: Option<Widening>,
    /// For a variable holding a Python `int` or `float` (weak in promotion, NEP 50: `m = len(x)`,
    /// a `range` variable): its declaration's key ([`Checker::strong`]); `None` for a NumPy value.
    pub py_number: Option<Widening>,
}

/// A declaration `let x = <integer literal>;` by function index and the literal's start offset
/// (bytes): the key of [`Checker::widen`]; likewise of other declarations (the value's or the
/// name's start) in [`Checker::strong`].
pub(crate) type Widening = (usize, usize);

/// Per-function information gathered before bodies are checked.
#[derive(Clone, Debug, Default)]
pub(crate) struct FnInfo {
    /// Per parameter: `true` when it has no default (must be passed).
    pub required: Vec<bool>,
    /// Scalar `i64` parameters acting as size symbols (never reassigned in the body).
    pub size_params: HashSet<String>,
    /// Names reassigned (`x = ..`, `x += ..`) somewhere in the body.
    pub mutated: HashSet<String>,
    /// False for a duplicate definition (its calls resolve to the first one).
    pub primary: bool,
    /// A parameter has the rank-generic type `f64[...]`: the function's body is checked per
    /// instance ([`Checker::instantiate`]), never on its own.
    pub rank_generic: bool,
}

/// The checker state.
pub(crate) struct Checker {
    pub types: Vec<Ty>,
    pub diags: Vec<Diagnostic>,
    next_unknown: u32,
    pub sigs: Vec<FnSig>,
    pub infos: Vec<FnInfo>,
    pub fn_index: HashMap<String, usize>,
    pub scopes: Vec<HashMap<String, Var>>,
    /// Names declared in a block that has ended (an `if` branch, a loop body), for the help of
    /// E0201 when one is used after its block (Python's names live in the whole function).
    pub ended_block_names: std::collections::HashSet<String>,
    /// Index of the function whose body is being checked.
    pub cur_fn: usize,
    /// Type of the view written by each `x[...] = e` / `x[...] op= e`, by the id of `e`.
    pub target_types: HashMap<crate::ast::ExprId, Ty>,
    /// Assignments that declare their name anew ([`Checked::rebinds`]), by the value's id.
    pub rebinds: HashSet<crate::ast::ExprId>,
    /// Numbers read as their truth value ([`Checked::truthy`]), by id.
    pub truthy: HashSet<crate::ast::ExprId>,
    /// Python's list repetitions `[..] * k` ([`Checked::list_repeats`]), by id.
    pub list_repeats: HashSet<crate::ast::ExprId>,
    /// Whether the expression about to be checked is read as a truth value (a condition, the
    /// operand of `not`): set by [`Checker::condition`], taken by [`Checker::expr`].
    pub truth_context: bool,
    /// What each call calls, by `ExprId` ([`Checked::callees`]).
    pub callees: Vec<Option<Callee>>,
    /// The rank-generic functions' trees, by function index: each instance is a copy.
    pub generic_asts: HashMap<usize, Function>,
    /// Instances made so far: (generic function, ranks of its `[...]` parameters) -> instance.
    pub instances: HashMap<(usize, Vec<usize>), usize>,
    /// The instances' trees, by function index minus the program's function count (`None` only
    /// while the instance's body is being checked).
    pub new_functions: Vec<Option<Function>>,
    /// Per function (parallel to `sigs`): the generic function an instance is of.
    pub instance_of: Vec<Option<usize>>,
    /// The next free `ExprId` (instances' expressions are numbered after the program's).
    pub next_expr: u32,
    /// The instances whose bodies are being checked, innermost last.
    pub inst_stack: Vec<usize>,
    /// How many `for` and `while` loops enclose the statement being checked (in the function
    /// being checked): `break` and `continue` need one.
    pub loop_depth: usize,
    /// Python's rebinding of a scalar: a variable declared from an integer literal and later
    /// assigned a float (`total = 0` ... `total += v[k]`) has the float dtype from its
    /// declaration on (the literal is that float), as Python's value has from the assignment on.
    /// Filled while a function is checked; the function is then checked again
    /// ([`Checker::check_function`]).
    pub widen: HashMap<Widening, DType>,
    /// Whether the function being checked asked for a widening not yet applied (or a
    /// declaration new in [`Checker::strong`]).
    pub widen_requested: bool,
    /// The non-literal expressions whose value is a Python number ([`crate::Checked::weak`]).
    pub weak: HashSet<crate::ast::ExprId>,
    /// Declarations of Python numbers that an assignment gives a NumPy scalar (`s = 0` ...
    /// `s = s + x[i]`): the variable is a NumPy scalar from its declaration on (arrayc's
    /// variable has one type); filled while a function is checked, which is then checked again.
    pub strong: HashSet<Widening>,
    /// The dtype and rank learnt at the assignments of each list grown by appends
    /// ([`crate::grown_lists`]) and each name first assigned in a loop or branch
    /// ([`crate::function_scope`]), by function index and number; filled while a function is
    /// checked, which is then checked again.
    pub learnt: HashMap<(usize, i64), (DType, usize)>,
    /// The keys of [`Checker::learnt`] whose rank changed once (a second change is E0207).
    pub relearnt: HashSet<(usize, i64)>,
}

/// Checks a parsed program; `Some` only without errors.
pub fn check_program(program: Program) -> (Option<Checked>, Vec<Diagnostic>) {
    let (checked, diags) = check_program_all(program);
    if diags.iter().any(|d| d.is_error()) {
        (None, diags)
    } else {
        (Some(checked), diags)
    }
}

/// Checks a parsed program and returns what it found also when there are errors (then the
/// expressions that could not be typed have [`Ty::Error`]).
pub fn check_program_all(program: Program) -> (Checked, Vec<Diagnostic>) {
    check_program_for(program, None)
}

/// [`check_program_all`], also making the instance of the rank-generic function `entry.0` for
/// the ranks `entry.1` of its `[...]` parameters (`arrayc run --entry`; [`generic::instance_name`]
/// names it).
pub fn check_program_for(mut program: Program, entry: Option<(&str, &[usize])>) -> (Checked, Vec<Diagnostic>) {
    let mut c = Checker {
        types: vec![Ty::Error; program.num_exprs as usize],
        diags: Vec::new(),
        next_unknown: 0,
        sigs: Vec::new(),
        infos: Vec::new(),
        fn_index: HashMap::new(),
        scopes: Vec::new(),
        ended_block_names: Default::default(),
        cur_fn: 0,
        target_types: HashMap::new(),
        rebinds: HashSet::new(),
        truthy: HashSet::new(),
        list_repeats: HashSet::new(),
        truth_context: false,
        callees: vec![None; program.num_exprs as usize],
        generic_asts: HashMap::new(),
        instances: HashMap::new(),
        new_functions: Vec::new(),
        instance_of: Vec::new(),
        next_expr: program.num_exprs,
        inst_stack: Vec::new(),
        loop_depth: 0,
        widen: HashMap::new(),
        widen_requested: false,
        weak: HashSet::new(),
        strong: HashSet::new(),
        learnt: HashMap::new(),
        relearnt: HashSet::new(),
    };
    c.collect_signatures(&program);
    for (i, f) in program.functions.iter().enumerate() {
        // A rank-generic function's body is checked in each of its instances.
        if !c.infos[i].rank_generic {
            c.cur_fn = i;
            c.check_function(f);
        }
    }
    if let Some((name, ranks)) = entry {
        c.instantiate_entry(name, ranks);
    }
    let Checker {
        mut types,
        diags,
        sigs,
        target_types,
        mut callees,
        new_functions,
        instance_of,
        next_expr,
        rebinds,
        truthy,
        list_repeats,
        weak,
        ..
    } = c;
    program.functions.extend(new_functions.into_iter().flatten());
    program.num_exprs = next_expr;
    types.truncate(program.num_exprs as usize);
    types.resize(program.num_exprs as usize, Ty::Error);
    callees.resize(program.num_exprs as usize, None);
    (
        Checked {
            program,
            types,
            signatures: sigs,
            target_types,
            callees,
            instance_of,
            rebinds,
            truthy,
            list_repeats,
            weak,
        },
        diags,
    )
}

impl Checker {
    /// A fresh unknown size (known only at run time).
    pub fn fresh(&mut self) -> Size {
        self.next_unknown += 1;
        Size::sym(SizeSym::Unknown(self.next_unknown - 1))
    }

    /// Records what call `id` calls.
    pub fn set_callee(&mut self, id: crate::ast::ExprId, callee: Option<Callee>) {
        let i = id.0 as usize;
        if i >= self.callees.len() {
            self.callees.resize(i + 1, None);
        }
        self.callees[i] = callee;
    }

    pub fn err(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Shortcut for an error with a primary label.
    pub fn error(&mut self, code: &'static str, msg: impl Into<String>, span: Span, label: impl Into<String>) {
        self.diags.push(Diagnostic::error(code, msg, span, label));
    }

    pub fn set_ty(&mut self, id: crate::ast::ExprId, ty: Ty) {
        let i = id.0 as usize;
        if i >= self.types.len() {
            self.types.resize(i + 1, Ty::Error);
        }
        self.types[i] = ty;
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    pub fn pop_scope(&mut self) {
        if let Some(scope) = self.scopes.pop() {
            // The function's outermost scope (its parameters) ends with the function.
            if !self.scopes.is_empty() {
                self.ended_block_names.extend(scope.into_keys());
            }
        }
    }

    pub fn declare(&mut self, name: &str, var: Var) {
        if self.scopes.is_empty() {
            self.push_scope();
        }
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), var);
        }
    }

    pub fn lookup(&self, name: &str) -> Option<&Var> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub fn lookup_mut(&mut self, name: &str) -> Option<&mut Var> {
        self.scopes.iter_mut().rev().find_map(|s| s.get_mut(name))
    }

    /// All variable names in scope (for suggestions).
    pub fn names_in_scope(&self) -> Vec<String> {
        let mut v: Vec<String> =
            self.scopes.iter().flat_map(|s| s.keys().filter(|n| !crate::syntax::is_synthesized(n)).cloned()).collect();
        v.sort();
        v.dedup();
        v
    }

    /// Whether `name` is reassigned somewhere in the current function.
    pub fn is_mutated(&self, name: &str) -> bool {
        self.infos.get(self.cur_fn).is_some_and(|i| i.mutated.contains(name))
    }
}
