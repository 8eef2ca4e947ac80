//! `arrayc`: compile and run array programs (see `arrayc --help`).

use arrayc_codegen::gpu_emulation::{Emulation, Grid};
use arrayc_codegen::{jit, ptx};
use arrayc_core::error::InternalError;
use arrayc_exec::RunArgs;
use arrayc_passes::disk_cache::DiskCache;
use arrayc_runtime::{
    gpu::Gpu,
    npy,
    value::{KernelLauncher, RtValue},
};
use arrayc_tools::exec::Executor;
use arrayc_tools::{
    entry_arguments, given_arguments, output, pipeline, read_source, remove_stale_results, report, FuseArgs, Target,
    UserError,
};
use clap::{Parser, Subcommand, ValueEnum};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// arrayc compiles NumPy-style array programs (`.arr` files) into fused kernels through MLIR and
/// runs them on the CPU or, with `--target gpu`, an NVIDIA GPU; `arrayc build` makes native
/// executables and libraries. Array operations are partitioned into kernels by the WSP fusion pass
/// (Kristensen et al. 2016); `arrayc fuse-report` shows what it decided and why.
#[derive(Parser)]
#[command(name = "arrayc", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The most memory the program's arrays may take together, e.g. `4GiB`, `500MB` or a number of
    /// bytes (default: the machine's physical memory). An allocation beyond it is an error naming
    /// the source line, not an abort.
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_memory_size)]
    max_memory: Option<u64>,
    /// Print the first N errors in full, then only how many more there are (0: all of them); for
    /// every command that prints the compiler's diagnostics (check, run, build, emit, fuse-report).
    #[arg(long, global = true, value_name = "N", default_value_t = arrayc_tools::DEFAULT_ERROR_LIMIT)]
    error_limit: usize,
}

/// `--max-memory`'s value: a size with an optional unit (`bytesize`'s syntax: `4GiB`, `4GB`, `4096`).
fn parse_memory_size(s: &str) -> Result<u64, String> {
    match s.trim().parse::<bytesize::ByteSize>() {
        Ok(b) if b.as_u64() > 0 => Ok(b.as_u64()),
        Ok(_) => Err("the memory limit must be more than 0 bytes".into()),
        Err(e) => Err(format!("{e}; write a size such as 4GiB, 500MB or 1000000 (bytes)")),
    }
}

#[derive(Subcommand)]
enum Command {
    /// Compile FILE and run its entry function; print the results and optionally write them as .npy.
    Run {
        /// The source file (`.arr`).
        file: PathBuf,
        /// Function to run (default: `main`, else the only function, else the one named like the file).
        #[arg(long)]
        entry: Option<String>,
        #[command(flatten)]
        run: RunArgs,
        /// Print the time of each phase to stderr, then the memory traffic of the run: the bytes of
        /// the arrays every launched kernel reads or writes (overlapping views counted once); with
        /// --target gpu, also the bytes copied between host and device, the time of the copies and
        /// the time of the kernels.
        #[arg(long)]
        time: bool,
        /// Search every partition and compile every kernel, neither reading nor writing the compile
        /// cache (`arrayc cache`).
        #[arg(long)]
        no_cache: bool,
        /// Where the kernels run: cpu; gpu (an NVIDIA GPU through the CUDA driver, sm_90 PTX);
        /// gpu-emulated (the GPU kernels run on the CPU one thread at a time, to check them without
        /// a GPU; slow).
        #[arg(long, value_enum, default_value = "cpu")]
        target: Target,
        /// Run as one rank of an MPI job (`mpirun -n P arrayc run FILE --distributed`): every rank
        /// runs the program, large arrays are split into blocks of rows along axis 0, each kernel
        /// runs on the rows each rank owns, and the ranks exchange what they read of each other's
        /// blocks (docs/distributed.md). Rank 0 prints and writes the results. CPU only. Arrays
        /// below $ARRAYC_DIST_MIN_BYTES bytes (default 65536) are replicated.
        #[arg(long)]
        distributed: bool,
        #[command(flatten)]
        fuse: FuseArgs,
    },
    /// Compile FILE ahead of time into a native executable OUT, which runs the entry function like
    /// `arrayc run` (same --arg, --out and --time options) with neither MLIR nor LLVM; with --lib,
    /// into a shared library with a C header and a Python module. The partition is chosen without
    /// argument values (as --generic) unless --arg gives some. Links with the C compiler ($CC, else
    /// cc) and libarrayc_aot.a (beside arrayc, or $ARRAYC_AOT_LIB).
    Build {
        /// The source file (`.arr`).
        file: PathBuf,
        /// Function the executable runs (default as for `run`).
        #[arg(long)]
        entry: Option<String>,
        /// Specialise the executable to a parameter's value (NAME=VALUE, or NAME=@file.npy for an
        /// array's shape), as `run` specialises its partition; the executable then refuses other
        /// values of that parameter. Without --arg the partition fits every argument.
        #[arg(long = "arg", value_name = "NAME=VALUE")]
        args: Vec<String>,
        /// The executable to write (with --lib: the library, `lib<NAME>.so`).
        #[arg(short = 'o', long = "output", value_name = "OUT")]
        output: PathBuf,
        /// Build a shared library instead, exporting every function of FILE, with a C header
        /// `NAME.h` and a Python module `NAME.py` (ctypes, NumPy arrays without copies) beside it.
        #[arg(long)]
        lib: bool,
        /// Build an executable that runs SPMD on every rank of an MPI job, `mpirun -n P OUT
        /// --arg ...`, as `run --distributed` does (pass `distribute`, kernels on each rank's own
        /// rows; docs/distributed.md). Links libarrayc_aot_dist.a (beside libarrayc_aot.a) and the
        /// system's MPI (`pkg-config --libs mpi`). Not with --lib.
        #[arg(long)]
        distributed: bool,
        #[command(flatten)]
        fuse: FuseArgs,
    },
    /// Parse and check FILE; print diagnostics only.
    Check {
        /// The source file (`.arr`).
        file: PathBuf,
    },
    /// Print FILE at a stage of the pipeline.
    Emit {
        /// ast: the syntax tree; arr: the arr dialect after insert-del-sync (verified by MLIR);
        /// mlir: host functions calling outlined kernels, and the kernels lowered to scf/memref/arith/math;
        /// llvm: the kernels' LLVM IR after the MLIR pipeline (CPU); gpu: the kernels as gpu.func
        /// of the gpu dialect; ptx: their PTX for sm_90 (gpu and ptx imply --target gpu).
        #[arg(long, value_enum)]
        stage: Stage,
        /// Where the kernels run (default: gpu for the gpu and ptx stages, else cpu).
        #[arg(long, value_enum)]
        target: Option<Target>,
        /// The source file (`.arr`).
        file: PathBuf,
        /// Entry function, whose results the host reads (decides where arr.sync goes).
        #[arg(long)]
        entry: Option<String>,
        /// An argument of the entry (as for `run`); the partition is chosen for these values.
        #[arg(long = "arg", value_name = "NAME=VALUE")]
        args: Vec<String>,
        #[command(flatten)]
        fuse: FuseArgs,
    },
    /// Show the fusion pass's partition of every region: blocks with their source lines, contracted
    /// arrays, cost before and after, search statistics.
    FuseReport {
        /// The source file (`.arr`).
        file: PathBuf,
        /// Entry function (as for `run`).
        #[arg(long)]
        entry: Option<String>,
        /// Arguments of the entry (as for `run`); with sizes bound, views print as integers.
        #[arg(long = "arg", value_name = "NAME=VALUE")]
        args: Vec<String>,
        /// text: readable summary; json: the stable `{"regions": [...]}` document (docs/fuse-report.md);
        /// dot: Graphviz, blocks as clusters, dependency edges solid, fuse-preventing edges dashed red.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Where the kernels would run (decides the default cost model).
        #[arg(long, value_enum, default_value = "cpu")]
        target: Target,
        /// Text only: also say how each kernel runs under `run --distributed` (on each rank's own
        /// rows, with reductions combined across ranks, or whole on every rank and why); the
        /// kernels are the same as in one process.
        #[arg(long)]
        distributed: bool,
        #[command(flatten)]
        fuse: FuseArgs,
    },
    /// Run the language server: LSP over stdin/stdout, for editors (docs/editors.md). Diagnostics as
    /// you type, hover with dtypes and shapes, go to definition, references, document symbols,
    /// shape and fusion inlay hints, fuse-report and run code lenses.
    Lsp,
    /// The compile cache: compiled kernels (object code, PTX) and fusion decisions (partitions) that
    /// `run` stores and reuses, so a second run of a program neither searches nor compiles.
    /// Directory: $ARRAYC_CACHE_DIR, else $XDG_CACHE_HOME/arrayc, else ~/.cache/arrayc; size bound:
    /// $ARRAYC_CACHE_MAX_MB MiB of disk space (default 1024), least recently used entries removed
    /// first.
    Cache {
        #[command(subcommand)]
        action: CacheAction,
    },
}

#[derive(Subcommand)]
enum CacheAction {
    /// Print the cache's directory, number of entries and the disk space they take.
    Stats,
    /// Remove every entry.
    Clear,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Json,
    Dot,
}

#[derive(Clone, Copy, ValueEnum)]
enum Stage {
    Ast,
    Arr,
    Mlir,
    Llvm,
    Gpu,
    Ptx,
}

/// Makes this process the reaper of its orphaned descendants (`PR_SET_CHILD_SUBREAPER`), so that
/// a linker whose `cc` has died stays this process's descendant, where [`stop_descendants`] finds it.
fn become_subreaper() {
    // SAFETY: `prctl` with `PR_SET_CHILD_SUBREAPER` takes one integer argument and touches no memory.
    let _ = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
}

/// Kills every running descendant of this process (`cc`, the linker: `/proc/PID/stat` gives each
/// process's parent and state) and waits, at most `limit`, until none runs, so that none writes a
/// file after the interrupt handler removed it. Reaps nothing: the thread that waits for a child
/// still gets its status.
fn stop_descendants(limit: std::time::Duration) {
    let me = std::process::id() as i32;
    let running = || -> Vec<i32> {
        let Ok(procs) = std::fs::read_dir("/proc") else { return vec![] };
        // (pid, parent, running) of every process.
        let table: Vec<(i32, i32, bool)> = procs
            .filter_map(Result::ok)
            .filter_map(|p| {
                let pid: i32 = p.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(p.path().join("stat")).ok()?;
                // `pid (comm) state ppid ...`: the command name may hold spaces and parentheses.
                let mut fields = stat.rsplit_once(')')?.1.split_whitespace();
                let state = fields.next()?;
                let ppid: i32 = fields.next()?.parse().ok()?;
                Some((pid, ppid, !matches!(state, "Z" | "X")))
            })
            .collect();
        let mut family = vec![me];
        let mut k = 0;
        while k < family.len() {
            let parent = family[k];
            family.extend(
                table.iter().filter(|t| t.1 == parent && !family.contains(&t.0)).map(|t| t.0).collect::<Vec<_>>(),
            );
            k += 1;
        }
        table.iter().filter(|t| t.2 && t.0 != me && family.contains(&t.0)).map(|t| t.0).collect()
    };
    let start = std::time::Instant::now();
    loop {
        let alive = running();
        if alive.is_empty() || start.elapsed() >= limit {
            return;
        }
        for pid in alive {
            // SAFETY: sending a signal to a descendant of this process; no memory is touched.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// Blocks (`true`) or unblocks SIGINT on the calling thread; threads it starts inherit the mask.
/// Child processes do not: `std::process::Command` clears the mask in the child.
fn set_sigint_blocked(blocked: bool) {
    // SAFETY: `sigemptyset`, `sigaddset` and `pthread_sigmask` only touch the local `set`, which
    // is initialised by `sigemptyset` before it is read.
    unsafe {
        let mut set = std::mem::MaybeUninit::<libc::sigset_t>::uninit();
        libc::sigemptyset(set.as_mut_ptr());
        libc::sigaddset(set.as_mut_ptr(), libc::SIGINT);
        let how = if blocked { libc::SIG_BLOCK } else { libc::SIG_UNBLOCK };
        libc::pthread_sigmask(how, set.as_ptr(), std::ptr::null_mut());
    }
}

/// Installs the Ctrl-C handling of the drivers. The signal handler itself sets
/// [`npy::interrupt_flag`] and wakes a thread that, under the lock of the writes in progress, kills
/// every descendant ([`stop_descendants`]: the linker of `arrayc build`, started under that lock by
/// `npy::spawn_recorded`, with arrayc its subreaper), removes the files being written, and exits
/// with 130. Only the main thread takes SIGINT (the cleaning thread and the compiler thread block
/// it), so the flag is set before the compiler thread can see a child die of the same Ctrl-C (a
/// terminal signals the whole process group, and the kernel queues the signal for every process
/// of the group before any can exit): the driver then leaves the exit to the handler instead of
/// reporting the child's failure (issue 34's CI failure, exit 1 instead of 130). Errors: the handler or its thread could not be installed.
fn handle_interrupts() -> std::io::Result<()> {
    use signal_hook::consts::SIGINT;
    signal_hook::flag::register(SIGINT, npy::interrupt_flag())?;
    let mut signals = signal_hook::iterator::Signals::new([SIGINT])?;
    set_sigint_blocked(true);
    let cleaner = std::thread::Builder::new().name("ctrl-c".into()).spawn(move || {
        if signals.forever().next().is_some() {
            npy::abandon_writes_and_exit_after(130, || stop_descendants(std::time::Duration::from_secs(2)))
        }
    });
    set_sigint_blocked(false);
    cleaner.map(drop)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    arrayc_tools::set_error_limit(cli.error_limit);
    if let Some(bytes) = cli.max_memory {
        arrayc_runtime::array::set_memory_limit(bytes);
    }
    // Ctrl-C: remove the .npy files and build outputs being written, then exit with the shell's
    // code for SIGINT (see `handle_interrupts`).
    become_subreaper();
    if let Err(e) = handle_interrupts() {
        eprintln!("warning: Ctrl-C will not remove partial outputs: cannot install its handler: {e}");
    }
    let r = arrayc_tools::on_driver_stack(|| {
        // The compiler thread and the threads it starts never take SIGINT: the main thread does.
        set_sigint_blocked(true);
        match cli.command {
            Command::Run { file, entry, run: RunArgs { args, out }, time, no_cache, target, distributed, fuse } => {
                let fuse = fuse.for_target(target);
                let opts = RunOptions { out: out.as_deref(), time, use_cache: !no_cache, target, distributed };
                let r = run(&file, entry.as_deref(), &args, opts, &fuse);
                // A failed run leaves no results in --out DIR, not even an earlier run's.
                match (r, &out) {
                    (Err(e), Some(dir)) => Err(match remove_stale_results(dir, 0) {
                        Ok(()) => e,
                        Err(also) => UserError(format!("{}\n{}", e.0.trim_end(), also.0)),
                    }),
                    (r, _) => r,
                }
            }
            Command::Check { file } => check(&file),
            Command::Build { file, entry, output, lib, distributed, args, fuse } => {
                arrayc_tools::build::build(&file, entry.as_deref(), &output, lib, distributed, &args, &fuse)
            }
            Command::Emit { stage, target, file, entry, args, fuse } => {
                emit(stage, target, &file, entry.as_deref(), &args, &fuse)
            }
            Command::FuseReport { file, entry, args, format, target, distributed, fuse } => {
                fuse_report(&file, entry.as_deref(), &args, format, distributed, &fuse.for_target(target))
            }
            Command::Lsp => lsp(),
            Command::Cache { action } => cache(action),
        }
    })
    .unwrap_or_else(|e| Err(UserError(format!("error: cannot start the compiler thread: {e}"))));
    // An interrupt handler is running (its child processes failed because of it): it ends the
    // process with status 130, after removing the files being written.
    while npy::interrupted() {
        std::thread::park();
    }
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", e.0.trim_end());
            ExitCode::FAILURE
        }
    }
}

/// `arrayc lsp`: serves one editor on stdin/stdout until it exits. Code-lens runs are this
/// executable's `run` and `fuse-report`, in subprocesses.
fn lsp() -> Result<(), UserError> {
    let options = arrayc_lsp::Options {
        compiler: Some(std::sync::Arc::new(arrayc_tools::editor::Driver)),
        driver: std::env::current_exe().ok(),
        stack_bytes: arrayc_tools::DRIVER_STACK_BYTES,
    };
    arrayc_lsp::serve_stdio(options).map_err(|e| UserError(format!("error: the language server stopped: {e}")))
}

/// `arrayc cache stats|clear`.
fn cache(action: CacheAction) -> Result<(), UserError> {
    let c = DiskCache::from_env().map_err(|e| UserError(format!("error: {e}")))?;
    match action {
        CacheAction::Stats => {
            let s = c.stats();
            let size = bytesize::ByteSize::b(s.bytes).display().iec();
            emit_text(&format!(
                "compile cache: {}\nentries: {}\nsize on disk: {size} ({} bytes)\n",
                c.dir().display(),
                s.entries,
                s.bytes
            ));
        }
        CacheAction::Clear => {
            let n = c.clear().map_err(|e| UserError(format!("error: {e}")))?;
            emit_text(&format!("removed {n} entries from {}\n", c.dir().display()));
        }
    }
    Ok(())
}

/// Writes `text` to stdout; a closed pipe (`arrayc emit ... | head`) is not an error.
fn emit_text(text: &str) {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn file_name(p: &Path) -> String {
    p.display().to_string()
}

fn check(file: &Path) -> Result<(), UserError> {
    let src = read_source(file)?;
    pipeline::lower_source(&src, &file_name(file))?;
    Ok(())
}

fn fuse_report(
    file: &Path,
    entry: Option<&str>,
    args: &[String],
    format: Format,
    distributed: bool,
    fuse: &FuseArgs,
) -> Result<(), UserError> {
    if distributed && !matches!(format, Format::Text) {
        return Err(UserError("error: --distributed goes with --format text only".into()));
    }
    let src = read_source(file)?;
    let (mut m, entry) = pipeline::lower_source_for_entry(&src, &file_name(file), entry, args)?;
    let argv = given_arguments(&m, &entry, args)?;
    // Bind the entry's scalar i64 parameters that have a value (symbols are named `<name>_<value id>`).
    let f = m.func(&entry).expect("entry exists");
    let bindings: HashMap<String, i64> = f
        .params
        .iter()
        .zip(&f.param_names)
        .zip(&argv)
        .filter_map(|((p, n), a)| match a {
            Some(RtValue::Scalar(arrayc_dialect::ir::Scalar::I64(x))) => Some((format!("{n}_{p}"), *x)),
            _ => None,
        })
        .collect();
    let options = fuse.options(&entry, &argv).distributed(distributed);
    // `--generic`: the partitions `arrayc build` makes; of the entry and its versions, those of the
    // function that runs for these arguments (the others' regions are left out).
    let reports = if fuse.generic && !distributed {
        let (reports, specs) = pipeline::to_kernels_versioned(&mut m, &entry, &options)?;
        let versions = arrayc_tools::versions(specs);
        let given: Option<Vec<RtValue>> = argv.iter().cloned().collect();
        let runs =
            given.map_or(entry.clone(), |a| arrayc_exec::aot::Version::choose(&versions, &entry, &a).to_string());
        let skipped: Vec<&str> = std::iter::once(entry.as_str())
            .chain(versions.iter().map(|v| v.func.as_str()))
            .filter(|f| *f != runs)
            .collect();
        reports.into_iter().filter(|r| !skipped.contains(&r.function.as_str())).collect()
    } else {
        pipeline::to_kernels(&mut m, &entry, &options)?
    };
    let text = match format {
        Format::Text => report::to_text(&reports),
        Format::Json => format!("{:#}\n", report::to_json(&reports, &bindings)),
        Format::Dot => report::to_dot(&reports),
    };
    let text = if distributed { text + &distributed_report(&m)? } else { text };
    emit_text(&text);
    Ok(())
}

/// `fuse-report --distributed`'s section: each kernel of `m` (outlined) and its
/// [`arrayc_dist::Placement`]. Errors: a kernel without a launch plan (a compiler bug).
fn distributed_report(m: &arrayc_dialect::ir::Module) -> Result<String, UserError> {
    let mut s = String::from(
        "distributed (run --distributed): the same kernels on every rank; pass `distribute`'s \
         `exchange`s run before their block's kernel and its `allreduce`s after it (in the blocks \
         above); which rows each launch runs and how many elements each exchange moves are decided \
         at run time from its views (ARRAYC_DIST_TRACE=1 prints them)\n",
    );
    for k in m.funcs.iter().filter(|f| f.kernel) {
        let plan = arrayc_passes::kernel_layout::launch_plan(k).map_err(InternalError::new)?;
        let how = match arrayc_dist::placement(&plan.layout) {
            arrayc_dist::Placement::OwnRows => "on each rank's own rows".to_string(),
            arrayc_dist::Placement::OwnRowsCombined => {
                "on each rank's own rows; its reductions combined across ranks in rank order".to_string()
            }
            arrayc_dist::Placement::Whole(why) => format!("whole on every rank: {why}"),
        };
        s += &format!("  @{}: {how}\n", k.name);
    }
    Ok(s)
}

fn emit(
    stage: Stage,
    target: Option<Target>,
    file: &Path,
    entry: Option<&str>,
    args: &[String],
    fuse: &FuseArgs,
) -> Result<(), UserError> {
    let gpu_stage = matches!(stage, Stage::Gpu | Stage::Ptx);
    let fuse = &fuse.for_target(target.unwrap_or(if gpu_stage { Target::Gpu } else { Target::Cpu }));
    match target {
        Some(Target::Cpu) if gpu_stage => {
            return Err(UserError("error: --stage=gpu and --stage=ptx show GPU kernels; drop --target cpu".into()))
        }
        Some(Target::Gpu) if matches!(stage, Stage::Llvm) => {
            return Err(UserError(
                "error: --stage=llvm shows the CPU kernels' LLVM IR; for the GPU use --stage=gpu or --stage=ptx".into(),
            ))
        }
        _ => {}
    }
    let src = read_source(file)?;
    let name = file_name(file);
    if let Stage::Ast = stage {
        let (prog, diags) = arrayc_grammar::parse(&src);
        let prog = prog.ok_or_else(|| UserError(arrayc_tools::render_diagnostics(&diags, &name, &src)))?;
        emit_text(&arrayc_grammar::dump_ast(&prog));
        return Ok(());
    }
    let (mut m, entry) = pipeline::lower_source_for_entry(&src, &name, entry, args)?;
    let opts = fuse.options(&entry, &given_arguments(&m, &entry, args)?);
    pipeline::prepare(&mut m, &entry, &opts)?;
    if let Stage::Arr = stage {
        emit_text(&pipeline::verified_text(&m)?);
        return Ok(());
    }
    for pass in ["wsp-fusion", "outline-kernels", "dce"] {
        pipeline::run_pass_with(&mut m, pass, &entry, &opts)?;
    }
    match stage {
        Stage::Mlir => {
            let host = arrayc_dialect::print::print_module(&arrayc_dialect::ir::Module {
                source_name: m.source_name.clone(),
                funcs: m.funcs.iter().filter(|f| !f.kernel).cloned().collect(),
            });
            let kernels = jit::kernels_mlir(&m).map_err(InternalError::new)?;
            emit_text(&format!(
                "// Host functions (run by the arrayc executor; func.call of a kernel is a launch):\n{host}// Kernels, lowered to scf/memref/arith/math:\n{kernels}"
            ));
        }
        Stage::Gpu => emit_text(&ptx::gpu_mlir(&m).map_err(InternalError::new)?),
        Stage::Ptx => emit_text(&ptx::ptx(&m).map_err(gpu_error)?),
        _ => emit_text(&jit::llvm_ir(&m).map_err(InternalError::new)?),
    }
    Ok(())
}

/// The grid of `--target gpu-emulated`: `$ARRAYC_GPU_EMULATION_GRID` (`X,Y,T`), else the GPU
/// runtime's.
fn emulation_grid() -> Result<Grid, UserError> {
    let Ok(text) = std::env::var("ARRAYC_GPU_EMULATION_GRID") else { return Ok(Grid::Runtime) };
    let n: Vec<u32> = text.split(',').filter_map(|x| x.trim().parse().ok()).filter(|&x| x > 0).collect();
    match n[..] {
        [x, y, t] => Ok(Grid::Fixed(x, y, t)),
        _ => Err(UserError(format!(
            "error: ARRAYC_GPU_EMULATION_GRID=`{text}`: expected three positive numbers X,Y,T (blocks along x and y, threads per block)"
        ))),
    }
}

/// A failed GPU compilation: a missing libdevice is the user's environment, anything else a bug.
fn gpu_error(e: jit::JitError) -> UserError {
    match e {
        jit::JitError::NoLibdevice { .. } => UserError(format!("error: {e}")),
        e => InternalError::new(e).into(),
    }
}

/// The options of `arrayc run` besides the program, its entry and arguments, and fusion.
struct RunOptions<'a> {
    out: Option<&'a Path>,
    time: bool,
    use_cache: bool,
    target: Target,
    /// One rank of an MPI job (`--distributed`).
    distributed: bool,
}

/// MPI for `--distributed` ([`arrayc_dist::Session`]). Errors: a target other than the CPU, or
/// MPI failing to start.
fn start_mpi(target: Target) -> Result<arrayc_dist::Session, UserError> {
    if target != Target::Cpu {
        return Err(UserError(
            "error: --distributed runs kernels on the CPU only; --target gpu with one rank per GPU is not implemented yet"
                .into(),
        ));
    }
    arrayc_dist::Session::start().map_err(UserError)
}

fn run(file: &Path, entry: Option<&str>, args: &[String], opts: RunOptions, fuse: &FuseArgs) -> Result<(), UserError> {
    let RunOptions { out, time, use_cache, target, distributed } = opts;
    let session = if distributed { Some(start_mpi(target)?) } else { None };
    // Rank 0 prints and writes; the others compute.
    let rank0 = session.as_ref().is_none_or(|s| s.prints());
    let mut clock = Instant::now();
    let mut times: Vec<(&str, f64)> = vec![];
    let mut lap = |name: &'static str, clock: &mut Instant| {
        times.push((name, clock.elapsed().as_secs_f64() * 1e3));
        *clock = Instant::now();
    };
    // The GPU opens on a thread of its own while the program compiles (the CUDA driver's
    // initialisation takes 0.2-0.34 s on an H100 machine); without a driver, say so before
    // compiling anything.
    let opening = match target {
        Target::Gpu => Some(Gpu::open_in_background().map_err(|e| UserError(format!("error: {e}")))?),
        _ => None,
    };
    let src = read_source(file)?;
    let name = file_name(file);
    let (mut m, entry) = pipeline::lower_source_for_entry(&src, &name, entry, args)?;
    lap("front end + lower-ast", &mut clock);
    let argv = entry_arguments(&m, &entry, args)?;
    lap("load arguments", &mut clock);
    let given: Vec<Option<RtValue>> = argv.iter().cloned().map(Some).collect();
    let cache =
        if use_cache { Some(DiskCache::from_env().map_err(|e| UserError(format!("error: {e}")))?) } else { None };
    let mut options = fuse.options(&entry, &given).distributed(distributed);
    options.fusion.decisions = cache.clone();
    // `--generic`: the partitions `arrayc build` makes, versions included, and the one it would run.
    let (regions, versions) = if fuse.generic && !distributed {
        pipeline::to_kernels_versioned(&mut m, &entry, &options)?
    } else {
        (pipeline::to_kernels(&mut m, &entry, &options)?, vec![])
    };
    let versions = arrayc_tools::versions(versions);
    let func = arrayc_exec::aot::Version::choose(&versions, &entry, &argv).to_string();
    lap("passes (fusion included)", &mut clock);
    let mut emulation = None;
    let mut ptx_cache = None;
    let (kernels, gpu): (Option<jit::JitKernels>, Option<Gpu>) = match opening {
        None if target == Target::GpuEmulated => {
            emulation = Some(Emulation::compile(&m, emulation_grid()?).map_err(gpu_error)?);
            lap("kernel JIT (GPU mapping, emulated)", &mut clock);
            (None, None)
        }
        None => {
            // Ranks on one machine compile the same kernels: rank 0 compiles them into the cache
            // while the others wait, then read them from it.
            let first = session.as_ref().map(|s| s.mpi()).filter(|m| m.size() > 1 && cache.is_some());
            if let Some(mpi) = first.filter(|m| m.rank() != 0) {
                mpi.barrier();
            }
            let kernels = jit::compile(&m, cache.as_ref()).map_err(InternalError::new);
            if let Some(mpi) = first.filter(|m| m.rank() == 0) {
                mpi.barrier();
            }
            let kernels = kernels?;
            let all_hits = !kernels.cache.is_empty() && kernels.cache.iter().all(|c| *c == jit::CacheOutcome::Hit);
            lap(if all_hits { "kernels (from the cache)" } else { "kernel JIT (MLIR -> LLVM, O3)" }, &mut clock);
            (Some(kernels), None)
        }
        Some(opening) => {
            let (text, plans, outcome) = ptx::compile(&m, cache.as_ref()).map_err(gpu_error)?;
            let hit = outcome == jit::CacheOutcome::Hit;
            ptx_cache = Some(outcome);
            lap(if hit { "PTX (from the cache)" } else { "kernels to PTX (MLIR -> NVPTX)" }, &mut clock);
            let mut gpu = opening.wait().map_err(|e| UserError(format!("error: {e}")))?;
            lap("GPU start (waited for)", &mut clock);
            gpu.load(&text, plans).map_err(|e| UserError(format!("error: {e}")))?;
            lap("PTX load (driver JIT)", &mut clock);
            (None, Some(gpu))
        }
    };
    let launcher: &dyn KernelLauncher = match (&kernels, &gpu, &emulation) {
        (Some(k), _, _) => k,
        (_, Some(g), _) => g,
        (_, _, Some(e)) => e,
        _ => unreachable!("one of the targets"),
    };
    let mut program_out: Box<dyn Write> = if rank0 { Box::new(std::io::stdout()) } else { Box::new(std::io::sink()) };
    let arg_values = argv.clone();
    let body = |launcher: &dyn KernelLauncher| {
        Executor::new(&m, launcher, &mut program_out).call(&func, argv).map_err(|e| e.to_string())
    };
    let (results, dist_lines) = match (&session, &kernels) {
        (Some(session), Some(k)) => {
            // An error on one rank stops every rank (the others may be waiting for it).
            let clean = || {
                if let Some(dir) = out {
                    let _ = remove_stale_results(dir, 0);
                }
            };
            session.run(k.cpu(), &arg_values, time, clean, body).map_err(UserError)?
        }
        _ => {
            let results = body(launcher).map_err(UserError)?;
            output::sync_results(&results, launcher)?;
            (results, vec![])
        }
    };
    lap("run", &mut clock);
    if !rank0 {
        return Ok(());
    }
    output::print_results(&results);
    lap("print results", &mut clock);
    if let Some(dir) = out {
        output::write_results(&results, dir)?;
        lap("write .npy", &mut clock);
    }
    if time {
        for line in &dist_lines {
            eprintln!("{line}");
        }
        for (n, ms) in &times {
            eprintln!("time: {n:<32} {ms:>10.3} ms");
        }
        let dir = cache.as_ref().map(|c| c.dir().display().to_string()).unwrap_or_default();
        if use_cache && !regions.is_empty() {
            let read = regions.iter().filter(|r| r.from_disk).count();
            eprintln!("cache: {read} of {} fusion decisions (regions) read from the cache", regions.len());
        }
        if let Some(g) = &gpu {
            eprintln!("gpu: {}", g.name());
        }
        match &ptx_cache {
            Some(jit::CacheOutcome::Hit) => eprintln!("cache: hit ({dir}): PTX read, no kernel compiled"),
            Some(jit::CacheOutcome::Miss) => eprintln!("cache: miss: PTX compiled and stored in {dir}"),
            Some(jit::CacheOutcome::Replaced(why)) => eprintln!("cache: a bad entry was removed and replaced: {why}"),
            Some(jit::CacheOutcome::NotStored(why)) => eprintln!("cache: the PTX could not be stored: {why}"),
            Some(jit::CacheOutcome::Off) => eprintln!("cache: not used (--no-cache)"),
            None => {}
        }
        if let Some(kernels) = &kernels {
            let (n, groups, files) = (kernels.cache.len(), kernels.groups, kernels.objects_read);
            let hits = kernels.cache.iter().filter(|c| **c == jit::CacheOutcome::Hit).count();
            let counted = |n: usize, noun: &str| format!("{n} {noun}{}", if n == 1 { "" } else { "s" });
            let (compiled, read, all) = (counted(n - hits, "kernel"), counted(hits, "kernel"), counted(n, "kernel"));
            let (groups, files) = (counted(groups, "group"), counted(files, "object file"));
            if n == 0 {
                eprintln!("cache: no kernels to compile");
            } else if !use_cache {
                eprintln!("cache: not used (--no-cache); {compiled} compiled in {groups} in parallel");
            } else if hits == n {
                eprintln!("cache: hit ({dir}): no kernel compiled, {read} read from {files}");
            } else {
                eprintln!(
                    "cache: miss: {} of {all} compiled in {groups} in parallel and stored in {dir}; \
                     {hits} read from {files}",
                    n - hits
                );
            }
            let mut said = std::collections::BTreeSet::new();
            for c in &kernels.cache {
                match c {
                    jit::CacheOutcome::Replaced(why) if said.insert(why) => {
                        eprintln!("cache: a bad entry was removed and replaced: {why}")
                    }
                    jit::CacheOutcome::NotStored(why) if said.insert(why) => {
                        eprintln!("cache: compiled kernels could not be stored: {why}")
                    }
                    _ => {}
                }
            }
        }
        if let Some((bytes, launches)) = launcher.traffic() {
            eprintln!("traffic: {bytes} bytes in {launches} kernel launches");
        }
        if let Some(t) = launcher.device_time() {
            eprintln!(
                "device: {} bytes to the device and {} to the host in {:.3} ms; kernels {:.3} ms (launch to end)",
                t.to_device,
                t.to_host,
                t.copy_s * 1e3,
                t.kernel_s * 1e3
            );
        }
    }
    Ok(())
}
