//! The pass registry and the pipeline: every arrayc pass by its name (each pass module's `NAME`,
//! which is also its `arrayc-opt --pass` flag), run in order with the project's IR invariants
//! checked after each (`verify::verify_module`) and, with `--verify-each`, MLIR's verifier too.
//!
//! `lower-ast` -> (`expand-matmul` and `expand-sort`, on the GPU targets) -> `fold-filters` -> `sink-loads` ->
//! (`distribute`, in distributed runs) -> `insert-del-sync` -> `wsp-fusion` -> `outline-kernels` -> `dce`, then kernel code
//! generation and the JIT (`arrayc_codegen::jit`, not run through this registry: their input is the
//! outlined kernels, their output machine code).

use crate::{check_source, render_diagnostics, UserError};
use arrayc_codegen::mlir;
use arrayc_core::error::InternalError;
use arrayc_dialect::{
    ir::{Func, Module},
    print, verify,
};
use arrayc_passes::wsp_fusion::{self, versions, FusionOptions, RegionReport, Specialization};
use arrayc_passes::{
    dce, distribute, expand_arg_reductions, expand_matmul, expand_sort, fold_filters, insert_del_sync, lower_ast,
    outline, sink_loads,
};

/// Every pass of the pipeline, in pipeline order, with a one-line description. `lower-ast` reads
/// source text (`arrayc-opt` accepts it only as the first pass, on a `.arr` file); every other pass
/// rewrites an `arr` module.
pub const PASSES: &[(&str, &str)] = &[
    (lower_ast::NAME, "the checked program (.arr source) to an arr module; only as the first pass"),
    (
        expand_matmul::NAME,
        "turn each arr.matmul into the fused kernel's form (targets without a matrix-product library)",
    ),
    (expand_sort::NAME, "turn each arr.sort into a bitonic sorting network of kernels (the GPU targets)"),
    (
        expand_arg_reductions::NAME,
        "compose argmin/argmax of a min and a position search where kernels do not run them in one pass",
    ),
    (fold_filters::NAME, "reduce a filter's input under its mask where the filter's result is only reduced"),
    (sink_loads::NAME, "move each host read of a reduction's value down to its first use (regions grow)"),
    (
        distribute::NAME,
        "insert arr.exchange before reads of other rows and arr.allreduce after partial results (distributed runs)",
    ),
    (insert_del_sync::NAME, "add arr.sync before host reads and arr.del after each base array's last use"),
    (
        wsp_fusion::NAME,
        "partition each region into blocks (WSP, --fuse/--cost) and record them as arr.block attributes",
    ),
    (outline::NAME, "outline each arr.block (or each unfused computation) into an arr.kernel function and a call"),
    (dce::NAME, "remove unused views and sizes, and the allocations of arrays contracted into kernels"),
];

/// How to run passes: the fusion options `wsp-fusion` and `outline-kernels` use, and whether MLIR
/// verifies the module after every pass (`--verify-each`; the project's own invariants are always
/// checked).
#[derive(Clone, Debug, Default)]
pub struct PassOptions {
    pub fusion: FusionOptions,
    pub verify_each: bool,
    /// Run `expand-matmul` and `expand-sort` first ([`prepare`]): the kernels run on a device (the
    /// GPU targets), where the host's matrix-product library and sort do not.
    pub device: bool,
    /// Run `distribute` ([`prepare`]): a distributed run (`--distributed`). Set it with
    /// [`PassOptions::distributed`].
    pub distribute: bool,
}

impl PassOptions {
    /// Whether `expand-arg-reductions` composes every arg-reduction: on the GPU targets (those
    /// that also expand matrix products) and in distributed runs, whose reductions combine single
    /// values; on the CPU only those the kernels cannot run in one pass.
    pub fn all_arg_reductions_composed(&self) -> bool {
        self.device || self.distribute
    }

    /// These options for a distributed run (`--distributed`) when `on`: the `distribute` pass, and a
    /// partition that is the same on every rank. Every rank compiles the program itself (SPMD, no
    /// master), and the ranks' collectives (halo exchanges, all-gathers of partial results) follow
    /// the kernels, so a rank that chose another partition would call other collectives (MPI's
    /// `MPI_ERR_TRUNCATE`, or a hang). A search stopped by its time budget depends on the machine's
    /// load; so, distributed, only the node budget (`--fuse-budget-nodes`, deterministic) bounds it.
    pub fn distributed(mut self, on: bool) -> PassOptions {
        self.distribute = on;
        if on {
            self.fusion.budget.max_ms = None;
        }
        self
    }
}

/// Front end and `lower-ast`: source text to an `arr` module, verified.
pub fn lower_source(src: &str, file: &str) -> Result<Module, UserError> {
    let checked = check_source(src, file)?;
    let m = lower_ast::lower_program(&checked, src, file).map_err(|diags| {
        UserError(format!("{}error: could not compile `{file}`", render_diagnostics(&diags, file, src)))
    })?;
    verify::verify_module(&m).map_err(|e| InternalError::new(format!("after `{}`: {e}", lower_ast::NAME)))?;
    Ok(m)
}

/// [`lower_source`] and the entry function ([`crate::choose_entry`]). A rank-generic entry
/// function (`x: f64[...]`) is compiled for the ranks of the arrays its `[...]` parameters are
/// given with `--arg NAME=@file.npy` in `args`: the entry is then that instance (`lap.r2`).
pub fn lower_source_for_entry(
    src: &str,
    file: &str,
    entry: Option<&str>,
    args: &[String],
) -> Result<(Module, String), UserError> {
    let m = lower_source(src, file)?;
    let refused = match crate::choose_entry(&m, entry) {
        Ok(e) => return Ok((m, e)),
        Err(e) => e,
    };
    let Some(name) = entry else { return Err(refused) };
    let Some(ranks) = entry_ranks(src, name, args)? else { return Err(refused) };
    let checked = crate::check_source_for_entry(src, file, name, &ranks)?;
    let m = lower_ast::lower_program(&checked, src, file).map_err(|diags| {
        UserError(format!("{}error: could not compile `{file}`", render_diagnostics(&diags, file, src)))
    })?;
    verify::verify_module(&m).map_err(|e| InternalError::new(format!("after `{}`: {e}", lower_ast::NAME)))?;
    Ok((m, arrayc_grammar::check::generic::instance_name(name, &ranks)))
}

/// The ranks of the arrays given for the `[...]` parameters of `entry`, when it is a rank-generic
/// function of the program (`None` when it is not); an error names a parameter not given.
fn entry_ranks(src: &str, entry: &str, args: &[String]) -> Result<Option<Vec<usize>>, UserError> {
    let (Some(program), _) = arrayc_grammar::parse(src) else { return Ok(None) };
    let Some(f) = program.functions.iter().find(|f| f.name.name == entry && f.is_rank_generic()) else {
        return Ok(None);
    };
    let mut ranks = vec![];
    for p in f.params.iter().filter(|p| p.ty.is_any_rank()) {
        let name = &p.name.name;
        let given = args.iter().find_map(|a| a.split_once('=').filter(|(k, _)| k == name).map(|(_, v)| v));
        let Some(path) = given.and_then(|v| v.strip_prefix('@')) else {
            return Err(UserError(format!(
                "error: `{entry}` is rank-generic: its parameter `{name}: {}[...]` takes the rank of the array \
                 given for it; pass one with --arg {name}=@file.npy",
                p.ty.dtype.name()
            )));
        };
        let v = arrayc_runtime::npy::read_npy(std::path::Path::new(path))
            .map_err(|e| UserError(format!("error: --arg {name}: {e}")))?;
        ranks.push(v.rank());
    }
    Ok(Some(ranks))
}

/// Runs one named pass with the default options. `entry` is the function whose results the host
/// reads.
pub fn run_pass(m: &mut Module, name: &str, entry: &str) -> Result<(), UserError> {
    run_pass_with(m, name, entry, &PassOptions::default()).map(|_| ())
}

/// Runs one named pass of the registry on `m` (not `lower-ast`, whose input is source text); returns
/// `wsp-fusion`'s region reports (empty for the other passes). The module is verified after the pass
/// (`verify::verify_module`, plus MLIR's verifier under `opts.verify_each`): a violation is a
/// compiler bug, reported as an internal error naming the pass. Errors: an unknown pass name; a
/// partition that cannot be scheduled.
pub fn run_pass_with(
    m: &mut Module,
    name: &str,
    entry: &str,
    opts: &PassOptions,
) -> Result<Vec<RegionReport>, UserError> {
    let reports = match name {
        expand_matmul::NAME => {
            expand_matmul::run(m);
            vec![]
        }
        expand_sort::NAME => {
            expand_sort::run(m);
            vec![]
        }
        expand_arg_reductions::NAME => {
            expand_arg_reductions::run(m, opts.all_arg_reductions_composed());
            vec![]
        }
        fold_filters::NAME => {
            fold_filters::run(m);
            vec![]
        }
        sink_loads::NAME => {
            sink_loads::run(m);
            vec![]
        }
        distribute::NAME => {
            distribute::run(m, &opts.fusion);
            vec![]
        }
        insert_del_sync::NAME => {
            insert_del_sync::run(m, entry);
            vec![]
        }
        wsp_fusion::NAME => wsp_fusion::run(m, &opts.fusion).map_err(InternalError::new)?,
        outline::NAME => {
            outline::run(m, &opts.fusion);
            vec![]
        }
        dce::NAME => {
            dce::run(m);
            vec![]
        }
        lower_ast::NAME => {
            return Err(UserError(format!(
                "error: `{name}` reads source text, not an arr module: run it first, on a .arr file"
            )))
        }
        _ => {
            let names: Vec<&str> = PASSES.iter().map(|(n, _)| *n).collect();
            return Err(UserError(format!("error: unknown pass `{name}`; passes: {}", names.join(", "))));
        }
    };
    verify::verify_module(m).map_err(|e| InternalError::new(format!("after pass `{name}`: {e}")))?;
    if opts.verify_each {
        verified_text(m).map_err(|e| UserError(format!("{} (after pass `{name}`)", e.0)))?;
    }
    Ok(reports)
}

/// The passes from the lowering to `emit --stage=arr`: `expand-matmul` and `expand-sort` where `opts` asks for them,
/// `expand-arg-reductions`, then `fold-filters`, `sink-loads`, `distribute` where `opts` asks for it, and `insert-del-sync`.
pub fn prepare(m: &mut Module, entry: &str, opts: &PassOptions) -> Result<(), UserError> {
    if opts.device {
        run_pass_with(m, expand_matmul::NAME, entry, opts)?;
        run_pass_with(m, expand_sort::NAME, entry, opts)?;
    }
    run_pass_with(m, expand_arg_reductions::NAME, entry, opts)?;
    run_pass_with(m, fold_filters::NAME, entry, opts)?;
    run_pass_with(m, sink_loads::NAME, entry, opts)?;
    if opts.distribute {
        run_pass_with(m, distribute::NAME, entry, opts)?;
    }
    run_pass_with(m, insert_del_sync::NAME, entry, opts).map(|_| ())
}

/// The passes from an `arr` module to kernels: [`prepare`], `wsp-fusion`, `outline-kernels` and
/// `dce`. Returns the fusion reports.
pub fn to_kernels(m: &mut Module, entry: &str, opts: &PassOptions) -> Result<Vec<RegionReport>, UserError> {
    prepare(m, entry, opts)?;
    let reports = run_pass_with(m, wsp_fusion::NAME, entry, opts)?;
    run_pass_with(m, outline::NAME, entry, opts)?;
    run_pass_with(m, dce::NAME, entry, opts)?;
    Ok(reports)
}

/// [`to_kernels`] for a `--generic` entry, with versions of it partitioned under assumptions about
/// its integer parameters (`wsp_fusion::versions`: `n % 2 == 0` where sizes such as `ceil(n / 2)`
/// and `ceil((n - 1) / 2)` keep the generic partition apart). Each candidate is a copy of the
/// prepared entry, partitioned with its assumption (in a second fusion of the module, made only
/// when there are candidates); the copies with fewer kernels than the generic entry stay in `m`
/// (named by [`versions::version_name`]) and are returned with their assumptions, in the order the
/// run should try them. Returns the fusion reports too (the kept versions' regions last).
pub fn to_kernels_versioned(
    m: &mut Module,
    entry: &str,
    opts: &PassOptions,
) -> Result<(Vec<RegionReport>, Vec<Specialization>), UserError> {
    prepare(m, entry, opts)?;
    let prepared = m.clone();
    let mut reports = run_pass_with(m, wsp_fusion::NAME, entry, opts)?;
    let f = prepared.func(entry).expect("the entry exists");
    let candidates = versions::candidates(f, &reports);
    let mut kept = vec![];
    if !candidates.is_empty() {
        let mut trial = prepared.clone();
        let mut trial_opts = opts.clone();
        for args in candidates {
            let name = versions::version_name(f, &args, &|n| trial.func(n).is_some());
            trial.funcs.push(Func { name: name.clone(), ..f.clone() });
            trial_opts.fusion.specialize.push(Specialization { func: name, args });
        }
        let trial_reports = run_pass_with(&mut trial, wsp_fusion::NAME, entry, &trial_opts)?;
        let generic = versions::kernel_count(&reports, entry);
        for spec in trial_opts.fusion.specialize.into_iter().filter(|s| s.func != entry) {
            if versions::kernel_count(&trial_reports, &spec.func) < generic {
                let func = trial.func(&spec.func).expect("the version exists").clone();
                m.funcs.push(func);
                reports.extend(trial_reports.iter().filter(|r| r.function == spec.func).cloned());
                kept.push(spec);
            }
        }
    }
    let mut opts = opts.clone();
    opts.fusion.specialize.extend(kept.iter().cloned());
    run_pass_with(m, outline::NAME, entry, &opts)?;
    run_pass_with(m, dce::NAME, entry, &opts)?;
    Ok((reports, kept))
}

/// The `arr` module as MLIR text, after MLIR has parsed and verified it against the IRDL dialect.
/// A failure here is a compiler bug; the error carries MLIR's diagnostics.
pub fn verified_text(m: &Module) -> Result<String, UserError> {
    let text = print::print_module(m);
    let ctx = mlir::new_context().map_err(InternalError::new)?;
    mlir::parse_and_verify(&ctx, &text)
        .map_err(|e| InternalError::new(format!("the arr module does not verify: {e}\n{text}")))?;
    Ok(text)
}
