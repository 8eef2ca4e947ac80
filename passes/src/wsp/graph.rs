//! The WSP graph `G = (V, E_d, E_f)` of Def. 1, built from a [`Region`] as in Sec. IV-A3:
//! one vertex per op, dependency edges `E_d` (a DAG in region order) and fuse-preventing
//! edges `E_f` (Def. 12 plus iteration-space and reduction rules).
use super::bitset::BitSet;
use super::region::{OpKind, Region};
use super::view::{relation_in, same_space, Relation};
use petgraph::graph::{DiGraph, NodeIndex};
use std::cell::RefCell;
use std::collections::HashMap;

/// [`relation_in`] of pairs of views of one region, each ordered pair decided once.
///
/// The graph asks for the relation of every pair of views of every pair of ops, and a region's
/// ops share few distinct views (a loop body reads the same views of a few bases again and
/// again); a symbolic pair costs a sign proof ([`super::prove::Prover`]) each time. The relation
/// depends only on the two views and the region's bindings and facts, which are fixed here, so
/// the memo changes no answer (xraysim's region of 113 blocks: see benchmarks/REPORT-compile.md).
struct Relations<'r> {
    region: &'r Region,
    memo: RefCell<HashMap<(&'r super::View, &'r super::View), Relation, foldhash::fast::FixedState>>,
}

impl<'r> Relations<'r> {
    fn new(region: &'r Region) -> Relations<'r> {
        Relations { region, memo: RefCell::new(HashMap::with_hasher(foldhash::fast::FixedState::default())) }
    }
    /// `relation_in(a, b, bindings, facts)` of the region.
    fn get(&self, a: &'r super::View, b: &'r super::View) -> Relation {
        if a.base != b.base {
            return Relation::Disjoint;
        }
        if let Some(&r) = self.memo.borrow().get(&(a, b)) {
            return r;
        }
        let r = relation_in(a, b, &self.region.bindings, &self.region.facts);
        self.memo.borrow_mut().insert((a, b), r);
        r
    }
    /// Whether a view of `xs` is not disjoint from one of `ys`.
    fn touches(&self, xs: &'r [super::View], ys: &'r [super::View]) -> bool {
        xs.iter().any(|x| ys.iter().any(|y| self.get(x, y) != Relation::Disjoint))
    }
}

/// Why a dependency edge exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DepKind {
    /// Read/write conflict on overlapping views (RAW, WAR or WAW).
    Data,
    /// `new`/`del`/`sync` ordering on a base.
    Lifetime,
}

/// The WSP graph. `dag` is the petgraph view of `E_d`; `succ`/`pred`/`reach` are bitset rows for
/// fast partition-graph queries; `fp[i]` is the set of ops fuse-preventing with op `i`.
pub struct WspGraph {
    pub n: usize,
    pub dag: DiGraph<usize, DepKind>,
    pub succ: Vec<BitSet>,
    pub pred: Vec<BitSet>,
    /// Transitive closure: `reach[i]` = ops reachable from `i` by a non-empty path.
    pub reach: Vec<BitSet>,
    pub fp: Vec<BitSet>,
}

impl WspGraph {
    /// Build the graph (Sec. IV-A3, steps 1-4).
    pub fn build(region: &Region) -> WspGraph {
        let n = region.ops.len();
        let rel = Relations::new(region);
        let mut dag = DiGraph::new();
        let nodes: Vec<NodeIndex> = (0..n).map(|i| dag.add_node(i)).collect();
        let mut succ = vec![BitSet::new(n); n];
        let mut pred = vec![BitSet::new(n); n];
        let mut fp = vec![BitSet::new(n); n];
        let ops = &region.ops;
        let touched: Vec<_> = ops.iter().map(super::Op::touched_bases).collect();
        for j in 0..n {
            for i in 0..j {
                let (a, c) = (&ops[i], &ops[j]);
                let ov = |xs, ys| rel.touches(xs, ys);
                // Data dependencies: RAW, WAR, WAW.
                let data = ov(&a.outs, &c.ins)
                    || ov(&a.ins, &c.outs)
                    || ov(&a.outs, &c.outs)
                    || (a.outs.is_empty() && a.kind == OpKind::Communication { partner: Some(j) });
                // Lifetime ordering: new before every use, del after every use, sync after writers
                // and before later writers.
                let (ta, tc) = (&touched[i], &touched[j]);
                let writes = |o: &super::Op, base| o.outs.iter().any(|v| v.base == base);
                let life = ta.iter().any(|base| {
                    tc.contains(base)
                        && (a.new.contains(base)
                            || a.del.contains(base)
                            || c.new.contains(base)
                            || c.del.contains(base)
                            || (a.sync.contains(base) && writes(c, *base))
                            || (c.sync.contains(base) && writes(a, *base)))
                });
                if data || life {
                    dag.add_edge(nodes[i], nodes[j], if data { DepKind::Data } else { DepKind::Lifetime });
                    succ[i].insert(j);
                    pred[j].insert(i);
                }
                if !fusible_in(&rel, i, j) {
                    fp[i].insert(j);
                    fp[j].insert(i);
                }
            }
        }
        // Transitive closure in reverse topological (= reverse region) order.
        let mut reach = vec![BitSet::new(n); n];
        for i in (0..n).rev() {
            let mut r = succ[i].clone();
            for s in succ[i].iter() {
                r.union_with(&reach[s]);
            }
            reach[i] = r;
        }
        WspGraph { n, dag, succ, pred, reach, fp }
    }

    /// Is there a dependency path (length >= 1) from `i` to `j`?
    pub fn path(&self, i: usize, j: usize) -> bool {
        self.reach[i].contains(j)
    }
}

/// Fusibility of ops `i < j`: Def. 12 (1)-(3), equal iteration spaces (Sec. IV-A1, compared
/// symbolically), "a reduction's output is fuse-preventing for its consumers", a gather's gathered
/// array is fuse-preventing with any write to it (van Balen et al. 2024, Sec. 3.3), a scatter's
/// target with any other use of it (Fig. 4), a scan shares a
/// block with no reduction and with scans along its own axis only, and two reductions
/// share a block only when both reduce everything (one accumulator each in one loop nest: Robinson
/// et al. 2014, Fig. 1, normalize2's two sums in one loop) or both reduce the same axis of a space
/// of rank 2 or more (what the kernel back end runs as one loop nest:
/// `crate::kernel_layout::kernel_layout`; the paper's Sec. IV-A leaves what is fusible to the back
/// end). A communication op of a distributed run joins a block as `new`/`del`/`sync` do (so the
/// partition is the single process's): an `arr.exchange`, which runs before its block's kernel,
/// with any op; an `arr.allreduce`, which runs after it, with the op that writes its partial
/// results and any op that does not touch them.
pub fn fusible(region: &Region, i: usize, j: usize) -> bool {
    fusible_in(&Relations::new(region), i, j)
}

/// [`fusible`] with the relations of `rel`'s region memoised.
fn fusible_in<'r>(rel: &Relations<'r>, i: usize, j: usize) -> bool {
    let region: &'r Region = rel.region;
    let b = &region.bindings;
    let (f, g) = (&region.ops[i], &region.ops[j]);
    let touches = |x, y| rel.touches(x, y);
    match (&f.kind, &g.kind) {
        // An exchange announces, before its block's kernel, the reads of other ranks' rows that
        // the launch then makes; a view its block's kernel also writes is computed on the rows
        // it is read on (a block writes and reads only identical views of one base, Def. 12).
        (OpKind::Communication { .. }, _) if f.outs.is_empty() => return true,
        (_, OpKind::Communication { .. }) if g.outs.is_empty() => return true,
        // An all-reduce runs after its block's kernel: with the computation that writes its
        // partial results, never with a later read or write of them.
        (OpKind::Communication { .. }, _) => return !touches(&f.outs, &g.ins) && !touches(&f.outs, &g.outs),
        (_, OpKind::Communication { .. }) => return !touches(&g.outs, &f.ins),
        _ => {}
    }
    if let (OpKind::Reduction { axis: af }, OpKind::Reduction { axis: ag }) = (&f.kind, &g.kind) {
        let rank = f.iteration_space().map_or(0, <[_]>::len);
        let everything = |a: &Option<usize>| a.is_none() || rank < 2;
        if !(everything(af) && everything(ag) || af == ag && rank >= 2) {
            return false;
        }
    }
    match (&f.kind, &g.kind) {
        (OpKind::Scan { .. }, OpKind::Reduction { .. }) | (OpKind::Reduction { .. }, OpKind::Scan { .. }) => {
            return false
        }
        (OpKind::Scan { axis: af }, OpKind::Scan { axis: ag }) if af != ag => return false,
        _ => {}
    }
    let bad = |o, x| rel.get(o, x) == Relation::Overlap;
    // Def. 12: a written view may only meet an identical view in the other op.
    for o in &f.outs {
        if g.ins.iter().chain(&g.outs).any(|x| bad(o, x)) {
            return false;
        }
    }
    for o in &g.outs {
        if f.ins.iter().any(|x| bad(o, x)) {
            return false;
        }
    }
    if let (Some(sa), Some(sb)) = (f.iteration_space(), g.iteration_space()) {
        if !same_space(sa, sb, b) {
            return false;
        }
    }
    let consumes = |r: &'r super::Op, c: &'r super::Op| {
        matches!(r.kind, OpKind::Reduction { .. })
            && r.outs.iter().any(|o| c.ins.iter().any(|x| rel.get(o, x) != Relation::Disjoint))
    };
    // A scatter writes its target anywhere: never in one block with another use of it.
    let scatters_used = |x: &'r super::Op, u: &'r super::Op| {
        x.kind == OpKind::Scatter && u.ins.iter().chain(&u.outs).any(|v| rel.get(&x.outs[0], v) != Relation::Disjoint)
    };
    // A gather reads its gathered array anywhere: never in one block with a write to it.
    let gathers_written = |x: &'r super::Op, w: &'r super::Op| {
        x.kind == OpKind::Gather && w.outs.iter().any(|o| rel.get(o, &x.ins[0]) != Relation::Disjoint)
    };
    !(consumes(f, g)
        || consumes(g, f)
        || gathers_written(f, g)
        || gathers_written(g, f)
        || scatters_used(f, g)
        || scatters_used(g, f))
}
