//! The input of the fusion pass: a [`Region`] of array operations ([`Op`]) over views ([`View`])
//! of base arrays ([`BaseId`]) -- the Bohrium bytecode model of Sec. IV-A (Fig. 3b, Def. 10).
use super::sym::SymExpr;
use std::collections::HashMap;

/// A base array: contiguous and one-dimensional (Sec. IV-A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BaseId(pub u32);

/// A strided view of a base array; `offset`, `shape` and `strides` are in ELEMENTS.
/// Two views are *identical* (Def. 11/12) when base, offset, shape and strides are equal
/// (symbolically); they *overlap* when they share an element of the base.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    pub base: BaseId,
    pub offset: SymExpr,
    pub shape: Vec<SymExpr>,
    pub strides: Vec<SymExpr>,
    /// What [`super::view::relation`] may assume of the symbols, and must prove, to decide two
    /// symbolic views disjoint (empty for a view that is exactly its form, as a whole base).
    pub facts: ViewFacts,
}

/// Conditions on the symbols of a symbolic [`View`], each a polynomial meaning `p >= 0`.
///
/// The form of a view made by indexing assumes in-range bounds (the checker's rule); NumPy clips
/// slice bounds and wraps negative indices, so where a bound is out of range the form and the
/// real view differ. Identity of two forms is safe without these conditions (equal forms are the
/// same view); a claim of disjointness is not.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ViewFacts {
    /// True whenever the view exists: the program made it without an index error (an integer
    /// index `i` of an axis of `d`: `d - 1 - i >= 0` and `d + i >= 0`).
    pub valid: Vec<SymExpr>,
    /// Sufficient for the form to be the real view, as a set of elements (a slice bound inside
    /// its axis, a symbolic index non-negative). A constant `-1` here: never known exact (an
    /// opaque view).
    pub exact_if: Vec<SymExpr>,
}

impl ViewFacts {
    /// The conditions of a view never known to be exact (opaque layouts).
    pub fn never_exact() -> ViewFacts {
        ViewFacts { valid: vec![], exact_if: vec![SymExpr::constant(-1)] }
    }
}

impl View {
    /// Contiguous 1-d view `base[offset .. offset+len]`.
    pub fn range(base: BaseId, offset: impl Into<SymExpr>, len: impl Into<SymExpr>) -> View {
        View {
            base,
            offset: offset.into(),
            shape: vec![len.into()],
            strides: vec![SymExpr::constant(1)],
            facts: ViewFacts::default(),
        }
    }
    /// Row-major contiguous view of a whole base of the given shape; its facts: every size is
    /// non-negative (an array of a negative size is an error where it is made).
    pub fn full(base: BaseId, shape: Vec<SymExpr>) -> View {
        let mut strides = vec![SymExpr::constant(1); shape.len()];
        for d in (0..shape.len().saturating_sub(1)).rev() {
            strides[d] = &strides[d + 1] * &shape[d + 1];
        }
        let valid = shape.iter().filter(|d| !d.is_const()).cloned().collect();
        View { base, offset: SymExpr::constant(0), shape, strides, facts: ViewFacts { valid, exact_if: vec![] } }
    }
    /// Number of elements (product of the shape).
    pub fn elems(&self) -> SymExpr {
        self.shape.iter().fold(SymExpr::constant(1), |a, s| &a * s)
    }
}

/// What an operation iterates over.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// Iteration space = shape of its (first) output view.
    Elementwise,
    /// Iteration space = shape of its (first) input view; its output is fuse-preventing for
    /// every later op that reads it.
    Reduction { axis: Option<usize> },
    /// A gather (`x[idx]`): elementwise over its output's shape, but its first input view (the
    /// gathered array, whole) is read at indices the iteration does not determine, so any write to
    /// that base array is fuse-preventing with it, in either order (van Balen et al. 2024, Sec. 3.3:
    /// the gathered array is materialised; arrayc's kernels do not recompute its producer at the
    /// gathered index).
    Gather,
    /// A scan along `axis` (`cumsum`): elementwise over its output's shape (its input's), in order
    /// along the axis; fuse-preventing with any reduction and with scans along another axis (a
    /// kernel runs its scan axis innermost, in order: `crate::kernel_layout::KernelLayout::scan_axis`).
    /// Its producers and consumers of the same view fuse with it (van Balen et al. 2024, Sec. 3.3:
    /// a scan traverses its input in the order it writes its output).
    Scan { axis: usize },
    /// A scatter (`x[idx] = v`, `add_at`): elementwise over its index array's shape (its first
    /// input), but its output view (the target, whole) is written at indices the iteration does not
    /// determine, so any other op that reads or writes that base array is fuse-preventing with it,
    /// in either order (van Balen et al. 2024, Fig. 4: a scatter's target is materialised before
    /// later readers).
    Scatter,
    /// `new`/`del`/`sync`: no iteration space, fuses with anything, costs nothing by itself
    /// (Def. 10: "DEL and SYNC are counted as having no input or output").
    System,
    /// Communication between the ranks of a distributed run, inserted by the `distribute` pass
    /// (`arr.exchange`: reads its view, no outputs, and comes before `partner`, the index in the
    /// region of the computation it is for; `arr.allreduce`: reads and writes its view, right after
    /// `partner`, the computation that writes it). No
    /// iteration space; it joins a block like `System` ops, under the fusibility rules of
    /// [`super::graph::fusible`] (an exchange runs before its block's kernel, an all-reduce after),
    /// so the partition is the single process's. Its views are those of the computations it goes
    /// with, so the cost models see no new array.
    Communication { partner: Option<usize> },
}

/// One array operation (a vertex of the WSP graph, Sec. IV-A3). `new`, `del`, `sync` are the
/// sets of Def. 10 (`sync` = the front end reads the base after this op, so it stays
/// materialized).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op {
    pub name: String,
    pub line: Option<u32>,
    pub kind: OpKind,
    pub ins: Vec<View>,
    pub outs: Vec<View>,
    pub new: Vec<BaseId>,
    pub del: Vec<BaseId>,
    pub sync: Vec<BaseId>,
}

impl Op {
    /// Elementwise op `outs = f(ins)`.
    pub fn elementwise(name: &str, outs: Vec<View>, ins: Vec<View>) -> Op {
        Op {
            name: name.into(),
            line: None,
            kind: OpKind::Elementwise,
            ins,
            outs,
            new: vec![],
            del: vec![],
            sync: vec![],
        }
    }
    /// Gather `out = src[indices..]`: `src` is the whole gathered view, each of the `indices` (one
    /// per gathered axis) has out's shape.
    pub fn gather(name: &str, out: View, src: View, indices: Vec<View>) -> Op {
        let ins = std::iter::once(src).chain(indices).collect();
        Op { kind: OpKind::Gather, ..Op::elementwise(name, vec![out], ins) }
    }
    /// Scatter into `target` (the whole target view) through `index`, of `values` (views of the
    /// index's shape; none for a scalar value).
    pub fn scatter(name: &str, target: View, index: View, values: Vec<View>) -> Op {
        let ins = std::iter::once(index).chain(values).collect();
        Op { kind: OpKind::Scatter, ..Op::elementwise(name, vec![target], ins) }
    }
    /// Scan `out = scan(in, axis)` (`in` and `out` of one shape).
    pub fn scan(name: &str, out: View, input: View, axis: usize) -> Op {
        Op { kind: OpKind::Scan { axis }, ..Op::elementwise(name, vec![out], vec![input]) }
    }
    /// Reduction `out = reduce(in, axis)`.
    pub fn reduction(name: &str, out: View, input: View, axis: Option<usize>) -> Op {
        Op {
            name: name.into(),
            line: None,
            kind: OpKind::Reduction { axis },
            ins: vec![input],
            outs: vec![out],
            new: vec![],
            del: vec![],
            sync: vec![],
        }
    }
    /// System op `DEL base`.
    pub fn del(base: BaseId) -> Op {
        Op {
            name: "del".into(),
            line: None,
            kind: OpKind::System,
            ins: vec![],
            outs: vec![],
            new: vec![],
            del: vec![base],
            sync: vec![],
        }
    }
    /// System op `SYNC base`.
    pub fn sync(base: BaseId) -> Op {
        Op {
            name: "sync".into(),
            line: None,
            kind: OpKind::System,
            ins: vec![],
            outs: vec![],
            new: vec![],
            del: vec![],
            sync: vec![base],
        }
    }
    /// System op `NEW base` (when allocation is not folded into the first writer).
    pub fn new_base(base: BaseId) -> Op {
        Op {
            name: "new".into(),
            line: None,
            kind: OpKind::System,
            ins: vec![],
            outs: vec![],
            new: vec![base],
            del: vec![],
            sync: vec![],
        }
    }
    /// A communication op `name` (see [`OpKind::Communication`]) reading `ins` and writing `outs`;
    /// its partner is set by the region builder.
    pub fn communication(name: &str, ins: Vec<View>, outs: Vec<View>) -> Op {
        Op {
            name: name.into(),
            line: None,
            kind: OpKind::Communication { partner: None },
            ins,
            outs,
            new: vec![],
            del: vec![],
            sync: vec![],
        }
    }
    /// Builder: mark bases as allocated by this op.
    pub fn with_new(mut self, b: &[BaseId]) -> Op {
        self.new.extend_from_slice(b);
        self
    }
    pub fn with_line(mut self, l: u32) -> Op {
        self.line = Some(l);
        self
    }
    /// The iteration space: output shape (elementwise), input shape (reduction), none (system).
    pub fn iteration_space(&self) -> Option<&[SymExpr]> {
        match self.kind {
            OpKind::Elementwise => self.outs.first().or(self.ins.first()).map(|v| v.shape.as_slice()),
            OpKind::Gather | OpKind::Scan { .. } => self.outs.first().map(|v| v.shape.as_slice()),
            OpKind::Reduction { .. } | OpKind::Scatter => self.ins.first().map(|v| v.shape.as_slice()),
            OpKind::System | OpKind::Communication { .. } => None,
        }
    }
    /// Every base the op mentions (views, new, del, sync).
    pub fn touched_bases(&self) -> Vec<BaseId> {
        let mut v: Vec<BaseId> = self
            .ins
            .iter()
            .chain(&self.outs)
            .map(|v| v.base)
            .chain(self.new.iter().copied())
            .chain(self.del.iter().copied())
            .chain(self.sync.iter().copied())
            .collect();
        v.sort();
        v.dedup();
        v
    }
}

/// A straight-line list of operations plus base metadata. `base_sizes` are in ELEMENTS;
/// `bindings` optionally give concrete values for symbols.
#[derive(Clone, Debug, Default)]
pub struct Region {
    pub ops: Vec<Op>,
    pub base_sizes: HashMap<BaseId, SymExpr>,
    pub base_names: HashMap<BaseId, String>,
    pub bindings: HashMap<String, i64>,
    /// Facts of the symbols (each `p >= 0`) that hold wherever the region runs to its end: the
    /// [`ViewFacts::valid`] of every view of its operations. A region is straight-line code, so
    /// where one of its views cannot be made (an index out of range) the run stops there with an
    /// error, and what its earlier kernels computed is not a result (as when fusion moves an
    /// operation past a failing one today). [`super::view::relation_in`] may assume them.
    pub facts: Vec<SymExpr>,
}

impl Region {
    /// Register a base of `size` elements named `name`; returns its id.
    pub fn add_base(&mut self, name: &str, size: impl Into<SymExpr>) -> BaseId {
        let id = BaseId(self.base_sizes.len() as u32);
        self.base_sizes.insert(id, size.into());
        self.base_names.insert(id, name.into());
        id
    }
    pub fn push(&mut self, op: Op) -> usize {
        self.ops.push(op);
        self.ops.len() - 1
    }
    pub fn len(&self) -> usize {
        self.ops.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}
