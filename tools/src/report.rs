//! `arrayc fuse-report`: the fusion pass's decisions per region as text, JSON or Graphviz dot.
//!
//! The JSON form is a stable interface (documented in `docs/fuse-report.md`):
//! `{"regions": [{"function", "region", "algorithm", "cost_model", "cost", "cost_singleton",
//! "cost_unit", "optimal_proven", "search_nodes", "solve_ms", "blocks", "contracted", "ops"}]}` with
//! `ops` in region order, each `{"index", "name", "line", "in", "out", "new", "del", "sync"}` and a
//! view `{"base", "offset", "shape", "strides"}` in elements: integers where known (after binding
//! the entry's scalar parameters), strings for symbolic expressions.

use arrayc_passes::wsp::{SymExpr, View};
use arrayc_passes::wsp_fusion::RegionReport;
use serde_json::{json, Value};
use std::collections::HashMap;

/// A symbolic expression as JSON: an integer when `bindings` make it constant, else its text.
fn sym_json(e: &SymExpr, bindings: &HashMap<String, i64>) -> Value {
    let e = e.substitute(bindings);
    match e.as_const() {
        Some(c) => json!(c),
        None => json!(e.to_string()),
    }
}

fn view_json(base: &str, v: &View, b: &HashMap<String, i64>) -> Value {
    json!({
        "base": base,
        "offset": sym_json(&v.offset, b),
        "shape": v.shape.iter().map(|s| sym_json(s, b)).collect::<Vec<_>>(),
        "strides": v.strides.iter().map(|s| sym_json(s, b)).collect::<Vec<_>>(),
    })
}

/// The JSON document for `reports`.
pub fn to_json(reports: &[RegionReport], bindings: &HashMap<String, i64>) -> Value {
    let regions: Vec<Value> = reports
        .iter()
        .map(|r| {
            json!({
                "function": r.function,
                "region": r.region,
                "algorithm": r.algorithm,
                "cost_model": r.cost_model,
                "cost": r.cost,
                "cost_singleton": r.cost_singleton,
                "cost_unit": r.cost_unit,
                "optimal_proven": r.optimal_proven,
                "search_nodes": r.search_nodes,
                "solve_ms": r.solve_ms,
                "blocks": r.blocks,
                "contracted": r.contracted,
                "ops": r.ops.iter().map(|o| json!({
                    "index": o.index,
                    "name": o.name,
                    "line": o.line,
                    "in": o.ins.iter().map(|(b, v)| view_json(b, v, bindings)).collect::<Vec<_>>(),
                    "out": o.outs.iter().map(|(b, v)| view_json(b, v, bindings)).collect::<Vec<_>>(),
                    "new": o.new,
                    "del": o.del,
                    "sync": o.sync,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "regions": regions })
}

fn op_label(r: &RegionReport, i: usize) -> String {
    let o = &r.ops[i];
    let arrays: Vec<String> = o
        .outs
        .iter()
        .chain(&o.ins)
        .map(|(b, _)| b.clone())
        .chain(o.new.iter().chain(&o.del).chain(&o.sync).cloned())
        .collect();
    let line = o.line.map(|l| format!(" (line {l})")).unwrap_or_default();
    format!("{} {}{line}", o.name, arrays.join(", "))
}

/// The human-readable report.
pub fn to_text(reports: &[RegionReport]) -> String {
    let mut s = String::new();
    for r in reports {
        s += &format!(
            "{} region {}: {} under {}: cost {} {} (singleton {}), {} blocks; {}; {} search nodes in {:.3} ms\n",
            r.function,
            r.region,
            r.algorithm,
            r.cost_model,
            r.cost,
            r.cost_unit,
            r.cost_singleton,
            r.blocks.len(),
            if r.optimal_proven { "optimality proven" } else { "optimality NOT proven" },
            r.search_nodes,
            r.solve_ms
        );
        for (k, b) in r.blocks.iter().enumerate() {
            let ops: Vec<String> = b.iter().map(|&i| op_label(r, i)).collect();
            s += &format!("  block {k}: {}\n", ops.join("; "));
        }
        if !r.contracted.is_empty() {
            s += &format!("  contracted: {}\n", r.contracted.join(", "));
        }
        if !r.defaulted_symbols.is_empty() {
            s += &format!("  (sizes unknown at compile time counted as 1024: {})\n", r.defaulted_symbols.join(", "));
        }
    }
    s
}

/// Graphviz: one cluster per block (as in the paper's Figs. 4, 8-12), dependency edges solid,
/// fuse-preventing edges dashed red and undirected.
pub fn to_dot(reports: &[RegionReport]) -> String {
    let mut s = String::from("digraph fusion {\n  compound=true;\n  node [shape=box, fontname=\"monospace\"];\n");
    for r in reports {
        let id = |i: usize| format!("r{}_{}", r.region, i);
        s += &format!(
            "  subgraph cluster_region{} {{\n    label=\"{} region {} ({} / {}, cost {})\";\n",
            r.region, r.function, r.region, r.algorithm, r.cost_model, r.cost
        );
        for (k, b) in r.blocks.iter().enumerate() {
            s += &format!("    subgraph cluster_r{}_b{k} {{\n      label=\"block {k}\"; style=rounded;\n", r.region);
            for &i in b {
                s += &format!("      {} [label=\"{}\"];\n", id(i), op_label(r, i).replace('"', "'"));
            }
            s += "    }\n";
        }
        for (a, b) in &r.dep_edges {
            s += &format!("    {} -> {};\n", id(*a), id(*b));
        }
        for (a, b) in &r.fp_edges {
            s += &format!("    {} -> {} [dir=none, style=dashed, color=red, constraint=false];\n", id(*a), id(*b));
        }
        s += "  }\n";
    }
    s + "}\n"
}
