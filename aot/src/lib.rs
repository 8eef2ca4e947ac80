//! The run time of an executable or a shared library made by `arrayc build`. Either carries its
//! program (host functions, entry, launch plans: `arrayc_exec::aot::Program`) as data, and its
//! kernels as compiled code in a table of packed entries, both emitted by `arrayc build` into a
//! small C file linked with this archive. The program runs on the host executor (the same one
//! `arrayc run` uses) with the linked kernels ([`CpuKernels`]). No MLIR and no LLVM are linked:
//! nothing is compiled at run time.
//!
//! * An executable's `main` calls [`arrayc_aot_main`]: it takes `--arg`/`--out`/`--time` like
//!   `arrayc run`, runs the entry function and prints or writes the results.
//! * A library (`--lib`) exports the C interface of [`capi`]: `arrayc_call` runs any host function
//!   on plain buffers, `arrayc_release` frees a result.
//!
//! * An executable of `arrayc build --distributed` links `libarrayc_aot_dist.a` instead (crate
//!   `arrayc-aot-dist`), whose `main` runs the same [`main_with`] on every rank of an MPI job
//!   through a [`Spread`] of its own; this archive links no MPI.
//!
//! The crate is empty when compiled for its own unit tests (whose harness has a `main` of its own);
//! executables are tested end to end (`tests/examples/test_aot.py`).
#![cfg(not(test))]

use arrayc_core::Type;
use arrayc_exec::aot::Program;
use arrayc_exec::exec::Executor;
use arrayc_exec::{entry_arguments, on_driver_stack, output, remove_stale_results, RunArgs, UserError};
use arrayc_runtime::launch::{CpuKernels, PackedFn, PackedKernel};
use arrayc_runtime::value::{KernelLauncher, RtValue};
use clap::{CommandFactory, FromArgMatches, Parser};
use std::path::PathBuf;
use std::time::Instant;

extern "C" {
    /// The serialised [`Program`] (`Program::encode`) and its length in bytes.
    static arrayc_payload: u8;
    static arrayc_payload_len: usize;
    /// The packed entries `_mlir_<name>(void **args)` of the kernels, in the order of
    /// `Program::plans`, and their number.
    static arrayc_kernels: PackedFn;
    static arrayc_kernel_count: usize;
}

/// The executable's options (its name and description come from the program).
#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    run: RunArgs,
    /// Print the time of each phase to stderr.
    #[arg(long)]
    time: bool,
    /// The most memory the program's arrays may take together, e.g. `4GiB` (default: the machine's
    /// physical memory).
    #[arg(long, value_name = "SIZE")]
    max_memory: Option<bytesize::ByteSize>,
}

mod capi;

/// The run of the entry function on the launcher given: its results, or its error's message.
pub type EntryRun<'a> = dyn FnMut(&dyn KernelLauncher) -> Result<Vec<RtValue>, String> + 'a;

/// How an executable runs its program's kernels across processes: in this one process (the
/// executables of `arrayc build`), or on every rank of an MPI job (`arrayc-aot-dist`, for
/// `arrayc build --distributed`).
pub trait Spread {
    /// Whether this process prints and writes the results (rank 0 of a job).
    fn prints(&self) -> bool;
    /// Runs `body` (the entry function) with a launcher over `cpu`'s kernels, then brings its
    /// results to the process that prints them ([`prints`](Self::prints)); `args` are the entry's
    /// arguments. Returns the results and, when `time`, extra lines for `--time`. Errors: `body`'s
    /// or the results' transfer; a job of several ranks may instead print the error, run
    /// `before_abort` and stop every rank.
    fn run(
        &self,
        cpu: &CpuKernels,
        args: &[RtValue],
        time: bool,
        before_abort: &mut dyn FnMut(),
        body: &mut EntryRun,
    ) -> Result<(Vec<RtValue>, Vec<String>), String>;
}

/// One process: the kernels run here, on all its cores.
struct Alone;

impl Spread for Alone {
    fn prints(&self) -> bool {
        true
    }
    fn run(
        &self,
        cpu: &CpuKernels,
        _args: &[RtValue],
        _time: bool,
        _before_abort: &mut dyn FnMut(),
        body: &mut EntryRun,
    ) -> Result<(Vec<RtValue>, Vec<String>), String> {
        let results = body(cpu)?;
        output::sync_results(&results, cpu).map_err(|e| e.0)?;
        Ok((results, vec![]))
    }
}

/// The program and its kernels, read from the linked data once per process.
fn program() -> Result<&'static (Program, CpuKernels), UserError> {
    static LINKED: std::sync::OnceLock<Result<(Program, CpuKernels), String>> = std::sync::OnceLock::new();
    LINKED
        .get_or_init(|| {
            let (program, table) = linked().map_err(|e| e.0)?;
            let mut kernels = CpuKernels::default();
            for (entry, plan) in table.into_iter().zip(program.plans.iter().cloned()) {
                kernels.insert(PackedKernel(entry), plan);
            }
            Ok((program, kernels))
        })
        .as_ref()
        .map_err(|e| UserError(e.clone()))
}

/// The program and kernel table linked into this executable or library.
fn linked() -> Result<(Program, Vec<PackedFn>), UserError> {
    // SAFETY: `arrayc build` defines these symbols: `arrayc_payload` is the first of
    // `arrayc_payload_len` bytes, `arrayc_kernels` the first of `arrayc_kernel_count` entries.
    let (payload, table) = unsafe {
        (
            std::slice::from_raw_parts(&raw const arrayc_payload, arrayc_payload_len),
            std::slice::from_raw_parts(&raw const arrayc_kernels, arrayc_kernel_count),
        )
    };
    let program = Program::decode(payload).map_err(|e| UserError(format!("error: this executable cannot run: {e}")))?;
    if program.plans.len() != table.len() {
        return Err(UserError("error: this executable is damaged: its kernel table does not match its program".into()));
    }
    Ok((program, table.to_vec()))
}

fn run(make_spread: &(dyn Fn() -> Result<Box<dyn Spread>, String> + Sync)) -> Result<(), UserError> {
    let start = Instant::now();
    let (program, kernels) = program()?;
    let f = program.module.func(&program.entry).ok_or_else(|| UserError("error: damaged: no entry function".into()))?;
    let params: Vec<String> = f
        .param_names
        .iter()
        .zip(&f.params)
        .map(|(n, &p)| match f.ty(p) {
            Type::Scalar(d) => format!("{n}: {}", d.name()),
            Type::Array(d, r) => format!("{n}: {}-d {} array (--arg {n}=@file.npy)", r, d.name()),
        })
        .collect();
    let about = format!(
        "Runs `{}` of {}, compiled ahead of time by `arrayc build`. Parameters: {}.",
        program.entry,
        program.module.source_name,
        if params.is_empty() { "none".to_string() } else { params.join(", ") }
    );
    // Once per process: clap names commands with `'static` strings.
    let name: &'static str = Box::leak(program.entry.clone().into_boxed_str());
    let matches = Cli::command().name(name).about(about).get_matches();
    let cli = Cli::from_arg_matches(&matches).map_err(|e| UserError(e.to_string()))?;
    if let Some(m) = cli.max_memory {
        arrayc_runtime::array::set_memory_limit(m.as_u64());
    }
    // Started before the arguments are read: a rank of a job reads only its own blocks.
    let spread = make_spread().map_err(UserError)?;
    let argv = entry_arguments(&program.module, &program.entry, &cli.run.args)?;
    program.check_fixed(&argv)?;
    let load = start.elapsed();
    let mut out: Box<dyn std::io::Write> =
        if spread.prints() { Box::new(std::io::stdout()) } else { Box::new(std::io::sink()) };
    let args = argv.clone();
    // A `--generic` executable may carry versions of the entry partitioned under assumptions
    // about its arguments (`n % 2 == 0`); the first that holds runs, else the entry.
    let func = program.entry_for(&argv).to_string();
    let mut argv = Some(argv);
    let mut body = |launcher: &dyn KernelLauncher| {
        let argv = argv.take().expect("the entry runs once");
        Executor::new(&program.module, launcher, &mut out).call(&func, argv).map_err(|e| e.to_string())
    };
    let mut clean = || {
        if let Some(dir) = &cli.run.out {
            let _ = remove_stale_results(dir, 0);
        }
    };
    let (results, lines) = spread.run(kernels, &args, cli.time, &mut clean, &mut body).map_err(UserError)?;
    let ran = start.elapsed();
    if !spread.prints() {
        return Ok(());
    }
    output::print_results(&results);
    if let Some(dir) = &cli.run.out {
        output::write_results(&results, dir)?;
    }
    if cli.time {
        for line in &lines {
            eprintln!("{line}");
        }
        eprintln!("time: {:<32} {:>10.3} ms", "start + arguments", load.as_secs_f64() * 1e3);
        eprintln!("time: {:<32} {:>10.3} ms", "run", (ran - load).as_secs_f64() * 1e3);
        eprintln!("time: {:<32} {:>10.3} ms", "results", (start.elapsed() - ran).as_secs_f64() * 1e3);
    }
    Ok(())
}

/// The executable's entry point (its generated `main` calls it): runs [`run`] on a large stack,
/// prints an error and returns 1 on failure, 0 on success. A failed run removes the result files in
/// `--out DIR`. The arguments are the process's (Rust's `std::env::args` reads them).
#[no_mangle]
pub extern "C" fn arrayc_aot_main(_argc: std::ffi::c_int, _argv: *const *const std::ffi::c_char) -> std::ffi::c_int {
    main_with(&|| Ok(Box::new(Alone)))
}

/// [`arrayc_aot_main`] with the kernels run through the [`Spread`] that `start` makes (after the
/// command line is read, before the arguments are): the executable's whole run, returning its exit
/// status.
pub fn main_with(start: &(dyn Fn() -> Result<Box<dyn Spread>, String> + Sync)) -> std::ffi::c_int {
    let r = on_driver_stack(|| run(start)).unwrap_or_else(|e| Err(UserError(format!("error: cannot start: {e}"))));
    match r {
        Ok(()) => 0,
        Err(e) => {
            if let Some(dir) = out_dir_arg() {
                let _ = remove_stale_results(&dir, 0);
            }
            eprintln!("{}", e.0.trim_end());
            1
        }
    }
}

/// The `--out DIR` of the command line, if any (for clean-up after a failure).
fn out_dir_arg() -> Option<PathBuf> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == "--out")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from)
        .or_else(|| args.iter().find_map(|a| a.strip_prefix("--out=")).map(PathBuf::from))
}
