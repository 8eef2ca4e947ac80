//! Versions of a generic entry function partitioned under assumptions about its integer
//! parameters (issue 32).
//!
//! A `--generic` partition compares sizes as polynomials that are equal for every value of the
//! symbols. Some sizes are equal only for some values: a step slice's length `ceil(n / 2)` and
//! `ceil((n - 1) / 2)` are equal exactly when `n` is even (sor's red and black sub-grids), so the
//! generic partition keeps their operations apart (a run-time broadcast between them). Bohrium
//! fuses at run time with the sizes known (Kristensen et al. 2016, Sec. IV); an ahead-of-time
//! executable can instead carry a few partitions and choose one when it starts, as a JIT's
//! versioning guards do. The candidates are residues of the entry's `i64` parameters modulo the
//! divisor of each ceiling division whose numerator contains the parameter ([`candidates`]); each
//! is partitioned as a copy of the entry with the parameter `m * q + r` ([`KnownArg::Residue`]),
//! and kept when it has fewer kernels than the generic partition ([`kernel_count`]). The
//! executable runs the first kept version whose assumption its arguments satisfy, else the
//! generic entry (`arrayc_exec::aot::Program::versions`).

use super::{KnownArg, RegionReport};
use crate::wsp::sym::{Atom, SymExpr};
use arrayc_dialect::ir::{Func, Type};
use arrayc_grammar::ast::DType;
use std::collections::BTreeSet;

/// The largest modulus tried: a ceiling division by more gives no candidates (each residue is a
/// copy of the entry's kernels in the executable).
pub const MAX_MODULUS: i64 = 4;

/// The most versions tried per entry function.
pub const MAX_CANDIDATES: usize = 8;

/// Assumptions worth a version of `f`, one argument list per candidate (a [`KnownArg::Residue`]
/// for one `i64` parameter, `None` elsewhere): for every parameter whose symbol appears in the
/// numerator of a ceiling division by `d <= MAX_MODULUS` in a view of `f`'s generic partition
/// (`reports`, of every function; those of `f` are read), each residue modulo `d`. In order of
/// parameter, then modulus, then residue; at most [`MAX_CANDIDATES`].
pub fn candidates(f: &Func, reports: &[RegionReport]) -> Vec<Vec<Option<KnownArg>>> {
    let params: Vec<(usize, String)> = f
        .params
        .iter()
        .enumerate()
        .filter(|&(_, &p)| f.ty(p) == Type::Scalar(DType::I64))
        .map(|(i, &p)| (i, super::region::Symbols::name(f, p)))
        .collect();
    let mut found: BTreeSet<(usize, i64)> = BTreeSet::new();
    let mut visit = |e: &SymExpr| {
        for (d, num) in ceil_divisions(e) {
            let syms = num.symbols();
            for (k, name) in &params {
                if d <= MAX_MODULUS && syms.iter().any(|s| s == name) {
                    found.insert((*k, d));
                }
            }
        }
    };
    for r in reports.iter().filter(|r| r.function == f.name) {
        for op in &r.ops {
            for (_, v) in op.ins.iter().chain(&op.outs) {
                visit(&v.offset);
                v.shape.iter().chain(&v.strides).for_each(&mut visit);
            }
        }
    }
    let mut out = vec![];
    for (k, d) in found {
        for r in 0..d {
            let mut args = vec![None; f.params.len()];
            args[k] = Some(KnownArg::Residue { modulus: d, residue: r });
            out.push(args);
        }
    }
    out.truncate(MAX_CANDIDATES);
    out
}

/// Every ceiling division in `e`, nested ones included, as `(divisor, numerator)`.
fn ceil_divisions(e: &SymExpr) -> Vec<(i64, SymExpr)> {
    fn walk(e: &SymExpr, out: &mut Vec<(i64, SymExpr)>) {
        for a in e.atoms() {
            if let Atom::Ceil(num, d) = a {
                walk(&num, out);
                out.push((d, *num));
            }
        }
    }
    let mut out = vec![];
    walk(e, &mut out);
    out
}

/// The kernels of function `func` in `reports`: blocks with at least one computation (an
/// operation other than `new`, `del` and `sync`), each region counted once.
pub fn kernel_count(reports: &[RegionReport], func: &str) -> usize {
    reports
        .iter()
        .filter(|r| r.function == func)
        .map(|r| {
            r.blocks
                .iter()
                .filter(|b| b.iter().any(|&i| !matches!(r.ops[i].name.as_str(), "new" | "del" | "sync")))
                .count()
        })
        .sum()
}

/// The name of the version of `entry` under `args` (`sor.n_mod2_0`): the entry's name and each
/// assumption, distinct from every name `taken`.
pub fn version_name(entry: &Func, args: &[Option<KnownArg>], taken: &dyn Fn(&str) -> bool) -> String {
    let mut name = entry.name.clone();
    for (p, a) in entry.param_names.iter().zip(args) {
        if let Some(KnownArg::Residue { modulus, residue }) = a {
            name.push_str(&format!("__{p}_mod{modulus}_{residue}"));
        }
    }
    let mut out = name.clone();
    let mut k = 1;
    while taken(&out) {
        out = format!("{name}_{k}");
        k += 1;
    }
    out
}
