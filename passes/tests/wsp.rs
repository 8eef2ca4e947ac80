//! Tests of the WSP fusion pass (Kristensen et al. 2016): the Fig. 3 running example, Darte's
//! fragment of Fig. 21, and property tests against an independent legality verifier and an
//! exhaustive search.
use arrayc_passes::wsp::*;
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};

/// Fig. 3b, built by hand. `new` of A, B, D, E, T is folded into the first writer (Bohrium
/// constructs arrays "on first encounter"); DEL and SYNC are System vertices.
/// Ops (0-based): 0-3 COPY A,B,D,E; 4 ADD A,A,D[:-1]; 5 COPY A,D[:-1]; 6 ADD B,B,E[:-1];
/// 7 COPY B,E[:-1]; 8 MUL T,A,B; 9 MAX D[1:],T,E[1:]; 10 MIN E[1:],T,D[1:];
/// 11-14 DEL A,B,E,T; 15 SYNC D; 16 DEL D.
pub fn fig3() -> Region {
    let mut r = Region::default();
    let a = r.add_base("A", 4);
    let b = r.add_base("B", 4);
    let d = r.add_base("D", 5);
    let e = r.add_base("E", 5);
    let t = r.add_base("T", 4);
    let full = |x: BaseId, n: i64| View::range(x, 0, n);
    let lo = |x: BaseId| View::range(x, 0, 4); // X[:-1]
    let hi = |x: BaseId| View::range(x, 1, 4); // X[1:]
    r.push(Op::elementwise("COPY", vec![full(a, 4)], vec![]).with_new(&[a]).with_line(1));
    r.push(Op::elementwise("COPY", vec![full(b, 4)], vec![]).with_new(&[b]).with_line(2));
    r.push(Op::elementwise("COPY", vec![full(d, 5)], vec![]).with_new(&[d]).with_line(3));
    r.push(Op::elementwise("COPY", vec![full(e, 5)], vec![]).with_new(&[e]).with_line(4));
    r.push(Op::elementwise("ADD", vec![full(a, 4)], vec![full(a, 4), lo(d)]).with_line(5));
    r.push(Op::elementwise("COPY", vec![full(a, 4)], vec![lo(d)]).with_line(6));
    r.push(Op::elementwise("ADD", vec![full(b, 4)], vec![full(b, 4), lo(e)]).with_line(7));
    r.push(Op::elementwise("COPY", vec![full(b, 4)], vec![lo(e)]).with_line(8));
    r.push(Op::elementwise("MUL", vec![full(t, 4)], vec![full(a, 4), full(b, 4)]).with_new(&[t]).with_line(9));
    r.push(Op::elementwise("MAX", vec![hi(d)], vec![full(t, 4), hi(e)]).with_line(10));
    r.push(Op::elementwise("MIN", vec![hi(e)], vec![full(t, 4), hi(d)]).with_line(11));
    for (x, l) in [(a, 12), (b, 13), (e, 14), (t, 15)] {
        r.push(Op::del(x).with_line(l));
    }
    r.push(Op::sync(d).with_line(16));
    r.push(Op::del(d).with_line(17));
    r
}

/// Solves with a node limit and no time limit, so that what a test asserts (optimality proven,
/// partitions) never depends on the machine's load.
fn run(r: &Region, m: &dyn CostModel, a: Algorithm) -> Solution {
    solve(r, m, a, Budget { max_nodes: Some(2_000_000), max_ms: None })
}

/// Fig. 3 under the Bohrium cost (Def. 13), sizes in elements.
///
/// Paper: singleton 94, linear 58, greedy 58, unintrusive 70, optimal 38. We get 94 / 62 / 38 /
/// 74 / 38:
/// * linear 62: with the SYNC rule the last linear block {MAX, MIN, DEL A,B,E,T, SYNC D, DEL D}
///   keeps `D[1:]` materialized (+4). Without the SYNC op the same algorithm gives the paper's
///   58 (checked in `fig3_without_sync`), so the paper's linear number predates the SYNC rule.
/// * greedy 38: our FIND-HEAVIEST breaks ties by region order, which happens to follow the
///   optimal merge chain; the paper's greedy got stuck at 58 (Fig. 8).
/// * unintrusive 74: we merge only when the pendant vertex's forbidden set is covered and its
///   single legal weight edge is the merge edge (the conditions Theorem 3's proof needs, which
///   keep `optimal` exact -- see the proptests); that merges {COPY A, ADD A}, {COPY B, ADD B} and
///   {MIN, DEL E} (94 - 8 - 8 - 4 = 74). The paper's Fig. 9 merges one more 4-element pair that
///   these conditions do not certify.
#[test]
fn fig3_numbers() {
    let r = fig3();
    let m = Bohrium::default();
    let mut got = HashMap::new();
    for a in Algorithm::ALL {
        let s = run(&r, &m, a);
        eprintln!("fig3 {:>16}: cost {:>3} blocks {:?} nodes {}", a.name(), s.cost, s.partition, s.stats.search_nodes);
        assert!(verify::legal(&r, &s.partition), "{} illegal", a.name());
        got.insert(a.name(), s.cost);
    }
    assert_eq!(got["singleton"], 94);
    assert_eq!(got["optimal"], 38);
    assert_eq!(got["optimal-baseline"], 38);
    assert_eq!(got["linear"], 62);
    assert_eq!(got["greedy"], 38);
    assert_eq!(got["unintrusive"], 74);
    assert_eq!(got["ilp"], 38);
    let opt = run(&r, &m, Algorithm::Optimal);
    assert!(opt.stats.optimal_proven);
}

/// The integer program states every model exactly on regions that create, write, sync and delete
/// an array (Fig. 3's `D`; a temporary `X` synced before its `del`, which may share a block with
/// its creation): its objective is the cost of the partition it chose (an indicator missing its
/// row, e.g. "not synced" for a contracted base or "synced after the write", would make it lower).
#[test]
fn ilp_objective_is_the_cost_with_synced_arrays() {
    let mut synced = Region::default();
    let (x, y) = (synced.add_base("X", 4), synced.add_base("Y", 4));
    synced.push(Op::elementwise("COPY", vec![View::range(x, 0, 4)], vec![]).with_new(&[x]));
    synced.push(Op::elementwise("COPY", vec![View::range(y, 0, 4)], vec![View::range(x, 0, 4)]).with_new(&[y]));
    synced.push(Op::sync(x));
    synced.push(Op::del(x));
    for r in [fig3(), synced] {
        for m in models() {
            let s = run(&r, m.as_ref(), Algorithm::Ilp);
            let objective = s.stats.ilp_objective.expect("HiGHS proves these small regions optimal");
            assert!((objective - s.cost as f64).abs() < 0.5, "{}: objective {objective}, cost {}", m.name(), s.cost);
            assert_eq!(s.cost, run(&r, m.as_ref(), Algorithm::Optimal).cost, "{}", m.name());
        }
    }
}

/// Fig. 3 without `SYNC D`: `D` can then be contracted too, the linear partition costs the
/// paper's 58 and the optimum drops to 34 -- the SYNC rule is what makes 38 optimal.
#[test]
fn fig3_without_sync() {
    let mut r = fig3();
    r.ops.remove(15);
    let m = Bohrium::default();
    assert_eq!(run(&r, &m, Algorithm::Singleton).cost, 94);
    assert_eq!(run(&r, &m, Algorithm::Linear).cost, 58);
    assert_eq!(run(&r, &m, Algorithm::Optimal).cost, 34);
}

/// Darte and Huard's fragment (Fig. 21a) as array operations over a symbolic `N` (no binding:
/// sizes default to 1024 and the cost says so). `E` has index range 0..N+1 (size N+2), so
/// `E(0:N-1)`, `E(1:N)`, `E(2:N+1)` are the views at offsets 0, 1, 2; `A(N:1:-1)` is offset N-1,
/// stride -1. B, C, D, F, G are temporaries (new in their writer, DEL at the end); A, E, H live.
/// Ops: 0 A=E(0:N-1); 1 B=A*2+3; 2 C=B+99; 3 D=A(N:1:-1)+A; 4 E=B+C*D; 5 F=E*4+2; 6 G=E*8-3;
/// 7 H=F+G*E(2:N+1); 8-12 DEL B,C,D,F,G.
pub fn darte() -> Region {
    let mut r = Region::default();
    let n = SymExpr::sym("N");
    let one = SymExpr::constant(1);
    let names = ["A", "B", "C", "D", "E", "F", "G", "H"];
    let mut ids = HashMap::new();
    for nm in names {
        let size = if nm == "E" { &n + &SymExpr::constant(2) } else { n.clone() };
        ids.insert(nm, r.add_base(nm, size));
    }
    let v = |nm: &str| View::range(ids[nm], 0, n.clone());
    let e = |off: i64| View::range(ids["E"], off, n.clone());
    let arev = View {
        base: ids["A"],
        offset: &n - &one,
        shape: vec![n.clone()],
        strides: vec![SymExpr::constant(-1)],
        facts: Default::default(),
    };
    r.push(Op::elementwise("A=E(0:N-1)", vec![v("A")], vec![e(0)]));
    r.push(Op::elementwise("B=A*2+3", vec![v("B")], vec![v("A")]).with_new(&[ids["B"]]));
    r.push(Op::elementwise("C=B+99", vec![v("C")], vec![v("B")]).with_new(&[ids["C"]]));
    r.push(Op::elementwise("D=Arev+A", vec![v("D")], vec![arev, v("A")]).with_new(&[ids["D"]]));
    r.push(Op::elementwise("E=B+C*D", vec![e(1)], vec![v("B"), v("C"), v("D")]));
    r.push(Op::elementwise("F=E*4+2", vec![v("F")], vec![e(1)]).with_new(&[ids["F"]]));
    r.push(Op::elementwise("G=E*8-3", vec![v("G")], vec![e(1)]).with_new(&[ids["G"]]));
    r.push(Op::elementwise("H=F+G*E(2:N+1)", vec![v("H")], vec![v("F"), v("G"), e(2)]));
    for nm in ["B", "C", "D", "F", "G"] {
        r.push(Op::del(ids[nm]));
    }
    r
}

/// Blocks restricted to the 8 computations of Fig. 21 (DEL vertices dropped).
fn compute_blocks(p: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut v: Vec<Vec<usize>> = p
        .iter()
        .map(|b| b.iter().copied().filter(|&i| i < 8).collect::<Vec<_>>())
        .filter(|b: &Vec<usize>| !b.is_empty())
        .collect();
    v.sort();
    v
}

/// Fig. 21: Bohrium, Max Contract and Robinson give (c) = {A=..}{b,c,d,E}{f,g,H}, contracting
/// F and G. Max Locality (Def. 20, pairs of identical view accesses) rates (b) =
/// {A=..}{b,c,d,E,F,G}{H} and (c) alike: each cuts 4 sharing pairs (A: op0-op1, op0-op3; (b)
/// F and G: op5-op7, op6-op7; (c) E(1:N): op4-op5, op4-op6), so at operation level it has no
/// reason to prefer (b). We assert that (b) is *an* optimum of Max Locality (same cost as what
/// `optimal` returns). Robinson's |P| term gives every legal pair a positive weight, so the paper's
/// plain mask search (`optimal-baseline`, 35 search edges) does not finish within the default
/// budget; `optimal` proves it after lifetime attachment (11 edges, a few hundred nodes).
#[test]
fn fig21_darte() {
    let r = darte();
    let c = vec![vec![0], vec![1, 2, 3, 4], vec![5, 6, 7]];
    let b = vec![vec![0], vec![1, 2, 3, 4, 5, 6], vec![7]];
    for name in ["bohrium", "max-contract", "robinson", "max-locality"] {
        let m = model_by_name(name).unwrap();
        let s = run(&r, m.as_ref(), Algorithm::Optimal);
        let sb = run(&r, m.as_ref(), Algorithm::OptimalBaseline);
        eprintln!("fig21 {name}: optimal {:?} baseline {:?} {:?}", s.stats, sb.stats, sb.partition);
        let cb = compute_blocks(&s.partition);
        eprintln!(
            "fig21 {name:>13}: cost {} {:?} defaulted {:?}",
            s.cost,
            cb,
            m.cost(&r, &s.partition).defaulted_symbols
        );
        assert!(verify::legal(&r, &s.partition));
        assert!(s.stats.optimal_proven, "{name}");
        assert_eq!(sb.stats.optimal_proven, name != "robinson", "{name}");
        if name == "robinson" {
            // The unproven baseline returns (c) on the computations too, at no lower cost.
            assert_eq!(compute_blocks(&sb.partition), c);
            assert!(s.cost <= sb.cost);
        } else {
            assert_eq!(s.cost, sb.cost, "{name}");
        }
        if name == "max-locality" {
            // (b) with the DELs as their own blocks is legal and optimal too.
            let mut pb = b.clone();
            pb.extend((8..13).map(|i| vec![i]));
            assert!(verify::legal(&r, &pb));
            assert_eq!(m.cost(&r, &pb).value, s.cost);
        } else {
            assert_eq!(cb, c, "{name}");
        }
    }
    assert_eq!(Bohrium::default().cost(&r, &[vec![0]]).defaulted_symbols, vec!["N".to_string()]);
}

/// Every legal partition of `r` (by the independent verifier), found by enumerating all of them.
fn legal_partitions(r: &Region) -> Vec<Vec<Vec<usize>>> {
    all_partitions(r.ops.len()).into_iter().filter(|p| verify::legal(r, p)).collect()
}

fn all_partitions(n: usize) -> Vec<Vec<Vec<usize>>> {
    fn rec(i: usize, n: usize, cur: &mut Vec<Vec<usize>>, out: &mut Vec<Vec<Vec<usize>>>) {
        if i == n {
            out.push(cur.clone());
            return;
        }
        for k in 0..cur.len() {
            cur[k].push(i);
            rec(i + 1, n, cur, out);
            cur[k].pop();
        }
        cur.push(vec![i]);
        rec(i + 1, n, cur, out);
        cur.pop();
    }
    let mut out = vec![];
    rec(0, n, &mut vec![], &mut out);
    out
}

/// Independent legality verifier: recomputes dependencies and forbidden pairs from the
/// definitions (Defs. 5, 10-12) on concrete element sets, without using the library's graph.
mod verify {
    use super::*;

    fn elems(r: &Region, v: &View) -> HashSet<(u32, i64)> {
        let b = &r.bindings;
        let off = v.offset.eval(b).expect("concrete");
        let sh: Vec<i64> = v.shape.iter().map(|s| s.eval(b).expect("concrete")).collect();
        let st: Vec<i64> = v.strides.iter().map(|s| s.eval(b).expect("concrete")).collect();
        let mut out = HashSet::new();
        let total: i64 = sh.iter().product();
        for lin in 0..total.max(0) {
            let mut rem = lin;
            let mut idx = off;
            for d in (0..sh.len()).rev() {
                idx += (rem % sh[d]) * st[d];
                rem /= sh[d];
            }
            out.insert((v.base.0, idx));
        }
        out
    }
    fn is_concrete(r: &Region, v: &View) -> bool {
        v.offset.eval(&r.bindings).is_some() && v.shape.iter().chain(&v.strides).all(|s| s.eval(&r.bindings).is_some())
    }
    /// Overlap: shared element (symbolic views of one base: assumed).
    fn overlap(r: &Region, a: &View, b: &View) -> bool {
        if a.base != b.base {
            return false;
        }
        if !is_concrete(r, a) || !is_concrete(r, b) {
            return true;
        }
        !elems(r, a).is_disjoint(&elems(r, b))
    }
    fn same(r: &Region, a: &View, b: &View) -> bool {
        let s = |x: &SymExpr| x.substitute(&r.bindings);
        a.base == b.base
            && s(&a.offset) == s(&b.offset)
            && a.shape.len() == b.shape.len()
            && a.shape.iter().zip(&b.shape).all(|(x, y)| s(x) == s(y))
            && a.strides.iter().zip(&b.strides).all(|(x, y)| s(x) == s(y))
    }
    fn space(o: &Op) -> Option<Vec<SymExpr>> {
        match o.kind {
            OpKind::Elementwise | OpKind::Gather | OpKind::Scan { .. } => o.outs.first().map(|v| v.shape.clone()),
            OpKind::Reduction { .. } | OpKind::Scatter => o.ins.first().map(|v| v.shape.clone()),
            // The generated regions hold no communication ops (those of pass `distribute` are
            // checked by tests/examples/test_distributed.py and lit-tests/opt-distribute.arr).
            OpKind::System | OpKind::Communication { .. } => None,
        }
    }
    fn bases(o: &Op) -> HashSet<BaseId> {
        o.ins
            .iter()
            .chain(&o.outs)
            .map(|v| v.base)
            .chain(o.new.iter().copied())
            .chain(o.del.iter().copied())
            .chain(o.sync.iter().copied())
            .collect()
    }
    /// `i` (earlier) must execute before `j`.
    pub fn depends(r: &Region, i: usize, j: usize) -> bool {
        let (a, c) = (&r.ops[i], &r.ops[j]);
        let any = |xs: &[View], ys: &[View]| xs.iter().any(|x| ys.iter().any(|y| overlap(r, x, y)));
        if any(&a.outs, &c.ins) || any(&a.ins, &c.outs) || any(&a.outs, &c.outs) {
            return true;
        }
        let (ba, bc) = (bases(a), bases(c));
        ba.intersection(&bc).any(|x| {
            a.new.contains(x)
                || a.del.contains(x)
                || c.new.contains(x)
                || c.del.contains(x)
                || (a.sync.contains(x) && c.outs.iter().any(|v| v.base == *x))
                || (c.sync.contains(x) && a.outs.iter().any(|v| v.base == *x))
        })
    }
    pub fn forbidden(r: &Region, i: usize, j: usize) -> bool {
        let (f, g) = (&r.ops[i], &r.ops[j]);
        let bad = |o: &View, x: &View| overlap(r, o, x) && !same(r, o, x);
        if f.outs.iter().any(|o| g.ins.iter().chain(&g.outs).any(|x| bad(o, x)))
            || g.outs.iter().any(|o| f.ins.iter().chain(&f.outs).any(|x| bad(o, x)))
        {
            return true;
        }
        if let (Some(a), Some(b)) = (space(f), space(g)) {
            let s = |x: &SymExpr| x.substitute(&r.bindings);
            if a.len() != b.len() || a.iter().zip(&b).any(|(x, y)| s(x) != s(y)) {
                return true;
            }
        }
        let red = |x: &Op, y: &Op| {
            matches!(x.kind, OpKind::Reduction { .. }) && x.outs.iter().any(|o| y.ins.iter().any(|v| overlap(r, o, v)))
        };
        // Two reductions share a kernel when both reduce everything (no axis, or a 1-d space), or
        // along the same axis of a space of rank >= 2.
        let two = match (&f.kind, &g.kind) {
            (OpKind::Reduction { axis: a }, OpKind::Reduction { axis: b }) => {
                let rank = space(f).map_or(0, |s| s.len());
                let all = |x: &Option<usize>| x.is_none() || rank < 2;
                !(all(a) && all(b)) && (a != b || rank < 2)
            }
            _ => false,
        };
        // A scan with a reduction, or with a scan along another axis.
        let scan = match (&f.kind, &g.kind) {
            (OpKind::Scan { axis: a }, OpKind::Scan { axis: b }) => a != b,
            (OpKind::Scan { .. }, OpKind::Reduction { .. }) | (OpKind::Reduction { .. }, OpKind::Scan { .. }) => true,
            _ => false,
        };
        // A scatter's target with any other use of its elements, in either order.
        let scatter = |x: &Op, y: &Op| {
            x.kind == OpKind::Scatter && y.ins.iter().chain(&y.outs).any(|v| overlap(r, &x.outs[0], v))
        };
        // A gather's gathered array (its first input) with a write to it, in either order.
        let gather = |x: &Op, y: &Op| x.kind == OpKind::Gather && y.outs.iter().any(|o| overlap(r, o, &x.ins[0]));
        red(f, g) || red(g, f) || two || scan || scatter(f, g) || scatter(g, f) || gather(f, g) || gather(g, f)
    }
    /// Def. 5: a partition of all ops; no forbidden pair inside a block; acyclic quotient.
    pub fn legal(r: &Region, p: &[Vec<usize>]) -> bool {
        let n = r.ops.len();
        let mut owner = vec![usize::MAX; n];
        for (k, b) in p.iter().enumerate() {
            for &i in b {
                if i >= n || owner[i] != usize::MAX {
                    return false;
                }
                owner[i] = k;
            }
        }
        if owner.contains(&usize::MAX) {
            return false;
        }
        for b in p {
            for (x, &i) in b.iter().enumerate() {
                for &j in &b[x + 1..] {
                    if forbidden(r, i.min(j), i.max(j)) {
                        return false;
                    }
                }
            }
        }
        // Quotient graph acyclic: repeated removal of blocks without incoming edges.
        let k = p.len();
        let mut edges = HashSet::new();
        for i in 0..n {
            for j in i + 1..n {
                if owner[i] != owner[j] && depends(r, i, j) {
                    edges.insert((owner[i], owner[j]));
                }
            }
        }
        let mut alive: HashSet<usize> = (0..k).collect();
        loop {
            let src = alive.iter().copied().find(|&b| !edges.iter().any(|&(x, y)| y == b && alive.contains(&x)));
            match src {
                Some(b) => {
                    alive.remove(&b);
                }
                None => return alive.is_empty(),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Property tests on random regions.

#[derive(Clone, Debug)]
enum GenOp {
    /// out (base, off), ins [(base, off)], length, new-on-out
    Elem(usize, usize, Vec<(usize, usize)>, usize, bool),
    /// out (base, off), in (base, off, len)
    Red(usize, usize, usize, usize, usize),
    /// out (base, off), in (base, off), length: a scan along axis 0
    Scan(usize, usize, usize, usize, usize),
    /// out (base, off), gathered base (whole), index (base, off), length
    Gather(usize, usize, usize, usize, usize, usize),
    /// target base (whole), index (base, off), value (base, off), length
    Scatter(usize, usize, usize, usize, usize, usize),
    /// 0 new, 1 del, 2 sync
    Sys(u8, usize),
}

/// Builds a well-formed region: per base at most one `new` (before any other use), a `del` is
/// the base's last touch, nothing touches a deleted base (ops that would are dropped).
fn gen_region(sizes: Vec<i64>, ops: Vec<GenOp>) -> Region {
    let mut r = Region::default();
    let ids: Vec<BaseId> = sizes.iter().enumerate().map(|(i, &s)| r.add_base(&format!("b{i}"), s)).collect();
    let nb = ids.len();
    let clip = |b: usize, off: usize, len: usize| -> View {
        let size = sizes[b % nb] as usize;
        let len = len.clamp(1, size);
        let off = off % (size - len + 1);
        View::range(ids[b % nb], off as i64, len as i64)
    };
    let mut touched: HashSet<BaseId> = HashSet::new();
    let mut deleted: HashSet<BaseId> = HashSet::new();
    for op in ops {
        let o = match op {
            GenOp::Elem(ob, oo, ins, len, new) => {
                let len = len.clamp(1, 2);
                let out = clip(ob, oo, len);
                let l = out.shape[0].as_const().unwrap() as usize;
                let ins: Vec<View> =
                    ins.into_iter().map(|(b, o)| clip(b, o, l)).filter(|v| v.shape == out.shape).collect();
                let base = out.base;
                let op = Op::elementwise("ew", vec![out], ins);
                if new && !touched.contains(&base) && op.ins.iter().all(|v| v.base != base) {
                    op.with_new(&[base])
                } else {
                    op
                }
            }
            GenOp::Red(ob, oo, ib, io, il) => Op::reduction("sum", clip(ob, oo, 1), clip(ib, io, il), Some(0)),
            GenOp::Scan(ob, oo, ib, io, len) => {
                let out = clip(ob, oo, len);
                let l = out.shape[0].as_const().unwrap() as usize;
                let input = clip(ib, io, l);
                if input.shape != out.shape {
                    continue;
                }
                Op::scan("cumsum", out, input, 0)
            }
            GenOp::Gather(ob, oo, sb, ib, io, len) => {
                let out = clip(ob, oo, len);
                let l = out.shape[0].as_const().unwrap() as usize;
                let index = clip(ib, io, l);
                let src = clip(sb, 0, usize::MAX);
                if index.shape != out.shape {
                    continue;
                }
                Op::gather("gather", out, src, vec![index])
            }
            GenOp::Scatter(tb, ib, io, vb, vo, len) => {
                let index = clip(ib, io, len);
                let l = index.shape[0].as_const().unwrap() as usize;
                let value = clip(vb, vo, l);
                if value.shape != index.shape {
                    continue;
                }
                Op::scatter("scatter", clip(tb, 0, usize::MAX), index, vec![value])
            }
            GenOp::Sys(k, b) => match k {
                0 if !touched.contains(&ids[b % nb]) => Op::new_base(ids[b % nb]),
                0 => continue,
                1 => Op::del(ids[b % nb]),
                _ => Op::sync(ids[b % nb]),
            },
        };
        let tb = o.touched_bases();
        if tb.iter().any(|b| deleted.contains(b)) {
            continue;
        }
        touched.extend(tb.iter().copied());
        deleted.extend(o.del.iter().copied());
        r.push(o);
    }
    if r.ops.is_empty() {
        r.push(Op::sync(ids[0]));
    }
    r
}

fn arb_op() -> impl Strategy<Value = GenOp> {
    prop_oneof![
        6 => (0..4usize, 0..4usize, prop::collection::vec((0..4usize, 0..4usize), 0..3), 1..3usize, prop::bool::weighted(0.3))
            .prop_map(|(a, b, c, d, e)| GenOp::Elem(a, b, c, d, e)),
        1 => (0..4usize, 0..4usize, 0..4usize, 0..4usize, 1..3usize).prop_map(|(a, b, c, d, e)| GenOp::Red(a, b, c, d, e)),
        1 => (0..4usize, 0..4usize, 0..4usize, 0..4usize, 1..3usize).prop_map(|(a, b, c, d, e)| GenOp::Scan(a, b, c, d, e)),
        1 => (0..4usize, 0..4usize, 0..4usize, 0..4usize, 0..4usize, 1..3usize)
            .prop_map(|(a, b, c, d, e, f)| GenOp::Gather(a, b, c, d, e, f)),
        1 => (0..4usize, 0..4usize, 0..4usize, 0..4usize, 0..4usize, 1..3usize)
            .prop_map(|(a, b, c, d, e, f)| GenOp::Scatter(a, b, c, d, e, f)),
        3 => (0..3u8, 0..4usize).prop_map(|(k, b)| GenOp::Sys(k, b)),
    ]
}

fn arb_region(max_ops: usize) -> impl Strategy<Value = Region> {
    (prop::collection::vec(2..5i64, 1..4), prop::collection::vec(arb_op(), 1..=max_ops))
        .prop_map(|(s, o)| gen_region(s, o))
}

/// Regions of exactly `n` operations (generated with spare operations, cut to `n`; cutting the
/// tail keeps a region well formed).
fn arb_region_exactly(n: usize) -> impl Strategy<Value = Region> {
    (prop::collection::vec(2..5i64, 1..4), prop::collection::vec(arb_op(), 3 * n)).prop_map(move |(s, o)| {
        let mut r = gen_region(s, o);
        r.ops.truncate(n);
        r
    })
}

fn models() -> Vec<Box<dyn CostModel>> {
    ["bohrium", "max-contract", "max-locality", "robinson"].iter().map(|n| model_by_name(n).unwrap()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, .. ProptestConfig::default() })]

    /// Every algorithm yields a legal partition (independent verifier); singleton >= linear,
    /// greedy >= optimal; optimal (always proven) == exhaustive optimum == optimal-baseline
    /// (where it finishes), for every model.
    #[test]
    fn algorithms_legal_and_optimal(r in arb_region(8)) {
        let legal = legal_partitions(&r);
        for m in models() {
            let mut cost = HashMap::new();
            let mut baseline_proven = false;
            for a in Algorithm::ALL {
                let s = run(&r, m.as_ref(), a);
                prop_assert!(verify::legal(&r, &s.partition), "{} / {}: illegal {:?}", m.name(), a.name(), s.partition);
                prop_assert_eq!(s.cost, m.cost(&r, &s.partition).value);
                cost.insert(a.name(), s.cost);
                if a == Algorithm::Optimal {
                    prop_assert!(s.stats.optimal_proven);
                }
                if a == Algorithm::OptimalBaseline {
                    baseline_proven = s.stats.optimal_proven;
                }
                // The integer program states the model exactly: its objective is the cost of the
                // partition it chose (an indicator missing a row would make it lower).
                if let Some(objective) = s.stats.ilp_objective {
                    prop_assert!((objective - s.cost as f64).abs() < 0.5, "{}: ilp objective {objective} vs cost {}", m.name(), s.cost);
                }
            }
            let ex = legal.iter().map(|p| m.cost(&r, p).value).min().unwrap();
            prop_assert!(cost["singleton"] >= cost["linear"]);
            prop_assert!(cost["greedy"] >= cost["optimal"]);
            prop_assert!(cost["unintrusive"] >= cost["optimal"]);
            // The plain mask search can run out of budget under Robinson (every legal pair has
            // a positive weight: about 2^22 masks on 8 ops); when it finishes it must agree.
            if baseline_proven {
                prop_assert_eq!(cost["optimal"], cost["optimal-baseline"], "{}", m.name());
            }
            // The second exact solver: HiGHS on the integer program (always within budget here).
            prop_assert_eq!(cost["optimal"], cost["ilp"], "{}: optimal vs ilp", m.name());
            prop_assert_eq!(cost["optimal"], ex, "{}: optimal vs exhaustive", m.name());
        }
    }

    /// Def. 6: costs are non-negative, and merging two blocks of a legal partition into a legal
    /// partition never increases the cost.
    #[test]
    fn cost_models_monotone(r in arb_region(7)) {
        let legal = legal_partitions(&r);
        for m in models() {
            let prob = Problem::new(&r, m.as_ref());
            for p in &legal {
                let c = prob.prep.cost(p);
                prop_assert!(c >= 0, "{} negative", m.name());
                for i in 0..p.len() {
                    for j in i + 1..p.len() {
                        let mut q: Vec<Vec<usize>> = p.iter().enumerate().filter(|(k, _)| *k != i && *k != j).map(|(_, b)| b.clone()).collect();
                        let mut merged = p[i].clone();
                        merged.extend(&p[j]);
                        merged.sort();
                        q.push(merged);
                        if verify::legal(&r, &q) {
                            prop_assert!(prob.prep.cost(&q) <= c, "{}: merge increased cost", m.name());
                        }
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    /// `optimal` equals an exhaustive search over every partition (Bell(10) = 115 975 of them) on
    /// regions of 10 operations, for every model (fewer cases than above: each takes about 0.25 s).
    #[test]
    fn optimal_matches_exhaustive_on_10_ops(r in arb_region_exactly(10)) {
        let legal = legal_partitions(&r);
        for m in models() {
            // No node budget: the persisted case needs 3.2 million nodes under robinson, whose
            // lower bound is weak (more nodes than the 115 975 partitions it searches among).
            let s = solve(&r, m.as_ref(), Algorithm::Optimal, Budget { max_nodes: None, max_ms: None });
            prop_assert!(s.stats.optimal_proven);
            prop_assert!(verify::legal(&r, &s.partition));
            let ex = legal.iter().map(|p| m.cost(&r, p).value).min().unwrap();
            prop_assert_eq!(s.cost, ex, "{}", m.name());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// The parallel search is deterministic: on 1, 2 and 4 threads, repeated, `optimal` returns
    /// the same partition (not only the same cost), so compilation never depends on timing
    /// when optimality is proven. Small bases make equal-cost partitions common.
    #[test]
    fn optimal_partition_independent_of_threads(r in arb_region(16)) {
        let m = Bohrium::default();
        let mut seen: Option<Vec<Vec<usize>>> = None;
        for threads in [1, 2, 4, 4, 4] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let s = pool.install(|| solve(&r, &m, Algorithm::Optimal, Budget { max_nodes: None, max_ms: None }));
            prop_assert!(s.stats.optimal_proven);
            match &seen {
                None => seen = Some(s.partition),
                Some(p) => prop_assert_eq!(p, &s.partition, "{} threads", threads),
            }
        }
    }
}

/// Merge cache (Sec. V-F): a renamed copy of a region hits the cache.
#[test]
fn merge_cache_hits() {
    let mut cache = PartitionCache::new();
    let m = Bohrium::default();
    let r1 = fig3();
    let mut r2 = fig3();
    for (_, n) in r2.base_names.iter_mut() {
        n.push('_');
    }
    for o in &mut r2.ops {
        o.name = "x".into();
    }
    let a = cache.solve(&Problem::new(&r1, &m), Algorithm::Optimal, Budget::default());
    let b = cache.solve(&Problem::new(&r2, &m), Algorithm::Optimal, Budget::default());
    assert_eq!(a.partition, b.partition);
    assert_eq!((cache.hits, cache.misses), (1, 1));
    let _ = cache.solve(&Problem::new(&darte(), &m), Algorithm::Optimal, Budget::default());
    assert_eq!((cache.hits, cache.misses), (1, 2));
}

/// The merge cache on disk: a second compilation (a new `PartitionCache` on the same directory)
/// reads the partition instead of searching; an entry that is not a legal partition of the region
/// (edited to fuse ops joined by a fuse-preventing edge, or to drop an op) is not used.
#[test]
fn merge_cache_persists_on_disk_and_checks_what_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    let disk = arrayc_passes::disk_cache::DiskCache::new(dir.path().to_path_buf(), 1 << 20);
    let m = Bohrium::default();
    let first = PartitionCache::with_disk(disk.clone()).solve(
        &Problem::new(&fig3(), &m),
        Algorithm::Optimal,
        Budget::default(),
    );
    let mut second = PartitionCache::with_disk(disk.clone());
    let again = second.solve(&Problem::new(&fig3(), &m), Algorithm::Optimal, Budget::default());
    assert_eq!((second.disk_hits, again.partition.clone(), again.cost), (1, first.partition.clone(), first.cost));
    assert_eq!(again.stats.search_nodes, first.stats.search_nodes, "the original search's statistics");
    // Entries rewritten through the cache's own API (valid header and checksum), so that only the
    // partition check can reject them: every op in one block (illegal: fig. 3 has fuse-preventing
    // edges), then one op missing.
    let key = disk_key(&fig3(), &m, Algorithm::Optimal, Budget::default());
    let n = fig3().ops.len();
    let all: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    let most: Vec<String> = (1..n).map(|i| i.to_string()).collect();
    for blocks in [all.join(" "), most.join(" ")] {
        disk.put(&key, format!("nodes 1\nproven 1\nms 0\n{blocks}\n").as_bytes()).unwrap();
        let mut third = PartitionCache::with_disk(disk.clone());
        let sol = third.solve(&Problem::new(&fig3(), &m), Algorithm::Optimal, Budget::default());
        assert_eq!((third.disk_hits, sol.partition), (0, first.partition.clone()), "{blocks}");
    }
}

/// SymExpr basics: normal form, products, display.
#[test]
fn symexpr() {
    let n = SymExpr::sym("N");
    let m = SymExpr::sym("M");
    assert_eq!(&n - &SymExpr::constant(2), &n - &SymExpr::constant(2));
    assert_eq!(&n * &m, &m * &n);
    assert_eq!((&n + &n) - n.clone() - n.clone(), SymExpr::constant(0));
    assert!(SymExpr::constant(3).is_const());
    assert_eq!(format!("{}", &(&n * &m) - &SymExpr::constant(2)), "M*N - 2");
    let b: HashMap<String, i64> = [("N".to_string(), 5)].into();
    assert_eq!((&n * &n).eval(&b), Some(25));
}

/// Measurement (run with `--ignored --nocapture`): optimal vs optimal-baseline vs ilp on random
/// well-formed regions of 50-300 ops under a 200k-node / 3 s budget (`benchmarks/REPORT-fusion.md`).
#[test]
#[ignore]
fn measure_optimal_vs_baseline() {
    let m = Bohrium::default();
    let budget = Budget { max_nodes: Some(200_000), max_ms: Some(3_000) };
    let mut seed = 0x2545F4914F6CDD1Du64;
    let mut rnd = move |k: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % k) as usize
    };
    for &n in &[50usize, 100, 200, 300] {
        // n/6 bases of 4 elements; elementwise ops on random 2- or 3-element views, temporaries
        // created by their first writer, deleted after their last use, a few syncs.
        let mut r = Region::default();
        let nb = n / 6;
        let ids: Vec<BaseId> = (0..nb).map(|i| r.add_base(&format!("x{i}"), 4)).collect();
        let mut seen = HashSet::new();
        let mut last = HashMap::new();
        for _ in 0..(n - nb) {
            let len = 2 + rnd(2) as i64;
            let v = |b: usize, o: usize| View::range(ids[b], o as i64 % (5 - len), len);
            let ob = rnd(nb as u64);
            let out = v(ob, rnd(2));
            let ins: Vec<View> = (0..1 + rnd(2)).map(|_| v(rnd(nb as u64), rnd(2))).collect();
            let mut op = Op::elementwise("ew", vec![out], ins);
            if seen.insert(ob) {
                op = op.with_new(&[ids[ob]]);
            }
            for b in op.touched_bases() {
                last.insert(b, r.ops.len());
            }
            r.push(op);
        }
        // DEL every base after its last use (in order of last use), SYNC a third of them first.
        let mut ends: Vec<(usize, BaseId)> = last.into_iter().map(|(b, i)| (i, b)).collect();
        ends.sort();
        for (k, (_, b)) in ends.into_iter().enumerate() {
            if k % 3 == 0 {
                r.push(Op::sync(b));
            }
            r.push(Op::del(b));
        }
        for a in [Algorithm::Greedy, Algorithm::Optimal, Algorithm::OptimalBaseline, Algorithm::Ilp] {
            let s = run_b(&r, &m, a, budget);
            eprintln!(
                "ops {:>3} {:>16}: cost {:>5} nodes {:>7} proven {:>5} comps {:>3} edges {:>4} ms {:>8.1}",
                r.ops.len(),
                a.name(),
                s.cost,
                s.stats.search_nodes,
                s.stats.optimal_proven,
                s.stats.components,
                s.stats.search_edges,
                s.stats.solve_ms
            );
            assert!(verify::legal(&r, &s.partition));
        }
    }
}

fn run_b(r: &Region, m: &dyn CostModel, a: Algorithm, b: Budget) -> Solution {
    solve(r, m, a, b)
}

/// Regression (found by `cost_models_monotone`): a write, a SYNC, a dead write after the SYNC,
/// then DEL. Only writes followed by a SYNC in their block are materialized, so merging the dead
/// write's block with the SYNC's block never raises the cost.
#[test]
fn dead_write_after_sync_keeps_costs_monotone() {
    let mut r = Region::default();
    let b = r.add_base("b0", 3);
    r.push(Op::elementwise("W2", vec![View::range(b, 2, 1)], vec![]).with_new(&[b]));
    r.push(Op::sync(b));
    r.push(Op::elementwise("W0", vec![View::range(b, 0, 1)], vec![]));
    r.push(Op::del(b));
    let legal = legal_partitions(&r);
    for m in models() {
        let prob = Problem::new(&r, m.as_ref());
        for p in &legal {
            for q in &legal {
                let coarser = p.iter().all(|bp| q.iter().any(|bq| bp.iter().all(|x| bq.contains(x))));
                if coarser {
                    assert!(prob.prep.cost(q) <= prob.prep.cost(p), "{}: {p:?} -> {q:?}", m.name());
                }
            }
        }
    }
}

// ---------------------------------------------------------------- view relations

/// A constant view of base 0.
fn cview(offset: i64, shape: &[i64], strides: &[i64]) -> region::View {
    let c = |x: &i64| sym::SymExpr::constant(*x);
    region::View {
        base: region::BaseId(0),
        offset: c(&offset),
        shape: shape.iter().map(c).collect(),
        strides: strides.iter().map(c).collect(),
        facts: Default::default(),
    }
}

/// Every element index of a constant view (brute force, the reference).
fn element_set(offset: i64, shape: &[i64], strides: &[i64]) -> HashSet<i64> {
    let mut out = HashSet::from([offset]);
    for (&n, &s) in shape.iter().zip(strides) {
        if n == 0 {
            return HashSet::new();
        }
        out = out.iter().flat_map(|&e| (0..n).map(move |i| e + i * s)).collect();
    }
    out
}

#[test]
fn red_and_black_points_of_a_large_grid_are_disjoint() {
    // Red-black SOR on a 1002 x 1002 padded grid: the four step-2 interleaved interior grids have
    // 500 x 500 = 250000 elements each (beyond element enumeration).
    let w = 1002;
    let grid = |r0: i64, c0: i64| cview(r0 * w + c0, &[500, 500], &[2 * w, 2]);
    let (r11, r22, b12, b21) = (grid(1, 1), grid(2, 2), grid(1, 2), grid(2, 1));
    let none = HashMap::new();
    for (a, b) in [(&r11, &r22), (&r11, &b12), (&r11, &b21), (&r22, &b12), (&b12, &b21)] {
        assert_eq!(view::relation(a, b, &none), view::Relation::Disjoint);
    }
    // A neighbour view of the red points (one row up) is a black grid: disjoint from the red ones it
    // does not include, overlapping the black grid it is part of.
    let north = grid(0, 1);
    assert_eq!(view::relation(&north, &r11, &none), view::Relation::Disjoint);
    assert_eq!(view::relation(&north, &b21, &none), view::Relation::Overlap);
}

/// Views whose sizes overflow 64-bit arithmetic (element counts of 2^64, strides near 2^62) are
/// classified conservatively and at once: their element count once wrapped to 0 in a release build,
/// which sent `relation` into enumerating 2^64 elements (and overflowed in a debug build).
#[test]
fn views_with_overflowing_sizes_are_classified_conservatively() {
    let none = HashMap::new();
    let big = 1i64 << 62;
    let a = cview(0, &[big, 4], &[4, 1]);
    let b = cview(1, &[big, 4], &[4, 1]);
    assert_eq!(view::relation(&a, &b, &none), view::Relation::Overlap);
    let c = cview(i64::MAX - 8, &[2, 2], &[big, 1]);
    let d = cview(i64::MIN + 8, &[2, 2], &[big, 1]);
    // Whatever the answer, it must not panic; two views 2^64 - 16 apart with these strides do not
    // share an element, and an answer of Overlap is allowed (conservative).
    let _ = view::relation(&c, &d, &none);
    assert_eq!(view::relation(&c, &c.clone(), &none), view::Relation::Identical);
}

proptest! {
    /// `relation` never calls two views disjoint that share an element, and calls views with the
    /// same element set at the same layout identical.
    #[test]
    fn relation_is_sound_against_enumeration(
        oa in 0i64..40, ob in 0i64..40,
        sa in prop::collection::vec((1i64..6, -6i64..7), 1..3),
        sb in prop::collection::vec((1i64..6, -6i64..7), 1..3),
    ) {
        let (sha, sta): (Vec<i64>, Vec<i64>) = sa.into_iter().unzip();
        let (shb, stb): (Vec<i64>, Vec<i64>) = sb.into_iter().unzip();
        let shared = !element_set(oa, &sha, &sta).is_disjoint(&element_set(ob, &shb, &stb));
        let rel = view::relation(&cview(oa, &sha, &sta), &cview(ob, &shb, &stb), &HashMap::new());
        prop_assert!(!(shared && rel == view::Relation::Disjoint), "shared elements called disjoint");
    }

    /// The same with equal strides (the exact search of `relation`), where it must also be complete:
    /// views with no common element are called disjoint.
    #[test]
    fn relation_is_exact_for_equal_strides(
        oa in 0i64..60, ob in 0i64..60,
        dims in prop::collection::vec((1i64..6, 1i64..6, -9i64..10), 1..4),
    ) {
        let sha: Vec<i64> = dims.iter().map(|d| d.0).collect();
        let shb: Vec<i64> = dims.iter().map(|d| d.1).collect();
        let st: Vec<i64> = dims.iter().map(|d| d.2).collect();
        let (a, b) = (cview(oa, &sha, &st), cview(ob, &shb, &st));
        let shared = !element_set(oa, &sha, &st).is_disjoint(&element_set(ob, &shb, &st));
        let rel = view::relation(&a, &b, &HashMap::new());
        prop_assert_eq!(rel == view::Relation::Disjoint, !shared);
    }
}

/// A chain `t_k = t_{k-1} + x` of `n` elementwise operations over one input (a sum of `n` terms,
/// as `x + x + ... + x` lowers), each temporary deleted after its use.
fn long_sum(n: usize) -> Region {
    let mut r = Region::default();
    let x = r.add_base("x", 10);
    let mut prev = x;
    for k in 0..n {
        let t = r.add_base(&format!("t{k}"), 10);
        r.push(
            Op::elementwise("ADD", vec![View::range(t, 0, 10)], vec![View::range(prev, 0, 10), View::range(x, 0, 10)])
                .with_new(&[t])
                .with_line(k as u32 + 1),
        );
        if prev != x {
            r.push(Op::del(prev));
        }
        prev = t;
    }
    r.push(Op::sync(prev));
    r
}

/// The time budget bounds every phase of a solve, not only the branch and bound (issue 10: a
/// 200-term sum once spent 7 s before its first search node, and a wide region 25 s under a 10 ms
/// budget). With a budget of 0 ms every phase stops at its first check, so the result is exactly
/// what the steps before any check give: the singleton partition for greedy and unintrusive, and
/// for optimal the singletons with lifetime operations attached, unproven. Each is legal.
#[test]
fn a_zero_time_budget_stops_every_phase() {
    let r = long_sum(300);
    let zero = Budget { max_nodes: None, max_ms: Some(0) };
    let m = Bohrium::default();
    let singleton = solve(&r, &m, Algorithm::Singleton, zero);
    for a in [Algorithm::Greedy, Algorithm::Unintrusive] {
        let s = solve(&r, &m, a, zero);
        assert_eq!(s.partition, singleton.partition, "{}", a.name());
    }
    let s = solve(&r, &m, Algorithm::Optimal, zero);
    assert!(verify::legal(&r, &s.partition));
    assert!(!s.stats.optimal_proven);
    assert_eq!(s.stats.search_edges, 0, "the edge scan stopped at once");
    // Each `del` joins the operation that last reads its base; nothing else merges.
    assert_eq!(s.partition.len(), 300 + 1, "{:?}", &s.partition[..4]);
    // Without the time limit the same region is solved and proven: the cheap phases finish.
    let unlimited = Budget { max_nodes: None, max_ms: None };
    let s = solve(&long_sum(60), &m, Algorithm::Optimal, unlimited);
    assert!(s.stats.optimal_proven);
    assert!(s.cost <= solve(&long_sum(60), &m, Algorithm::Greedy, unlimited).cost);
    assert!(s.cost < solve(&long_sum(60), &m, Algorithm::Singleton, unlimited).cost);
}
