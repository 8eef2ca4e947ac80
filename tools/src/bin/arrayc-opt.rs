//! `arrayc-opt`: reads an `arr` module as MLIR text (or a `.arr` program, when the first pass is
//! `lower-ast`), runs named arrayc passes of the registry (`arrayc_tools::pipeline::PASSES`) on it and
//! prints the result (see `arrayc-opt --help`).

use arrayc_codegen::{import::import_module, mlir};
use arrayc_core::error::InternalError;
use arrayc_tools::{choose_entry, given_arguments, pipeline, FuseArgs, UserError};
use clap::Parser;
use std::io::Read;
use std::process::ExitCode;

/// arrayc-opt reads MLIR text with `arr` operations (as `arrayc emit --stage=arr` writes it), runs
/// arrayc's passes on it in the order given and prints the resulting module, verified by MLIR. With
/// `--pass lower-ast` first, the input is a `.arr` program instead.
#[derive(Parser)]
#[command(name = "arrayc-opt", version)]
struct Cli {
    /// The input file (`.mlir`; `.arr` when the first pass is `lower-ast`), or `-` for standard input.
    #[arg(required_unless_present = "list_passes")]
    file: Option<String>,
    /// A pass to run (repeatable; passes run in the order given). See --list-passes.
    #[arg(long = "pass", value_name = "NAME")]
    passes: Vec<String>,
    /// The entry function, whose results the host reads (default: `main`, or the only host function).
    #[arg(long)]
    entry: Option<String>,
    /// List the available passes and exit.
    #[arg(long)]
    list_passes: bool,
    /// Options of `wsp-fusion` (the entry's parameter defaults give the sizes it partitions for,
    /// unless --generic) and of the verification after each pass.
    #[command(flatten)]
    fuse: FuseArgs,
    /// Print the first N errors of `lower-ast`'s diagnostics in full, then only how many more there
    /// are (0: all of them).
    #[arg(long, value_name = "N", default_value_t = arrayc_tools::DEFAULT_ERROR_LIMIT)]
    error_limit: usize,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    arrayc_tools::set_error_limit(cli.error_limit);
    let result = arrayc_tools::on_driver_stack(|| run(&cli))
        .unwrap_or_else(|e| Err(arrayc_tools::UserError(format!("error: cannot start the compiler thread: {e}"))));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", e.0.trim_end());
            ExitCode::FAILURE
        }
    }
}

fn pass_list() -> String {
    pipeline::PASSES.iter().map(|(n, d)| format!("  {n:<18} {d}\n")).collect()
}

fn run(cli: &Cli) -> Result<(), UserError> {
    if cli.list_passes {
        return write_stdout(&pass_list());
    }
    // Reject unknown pass names before doing any work.
    for p in &cli.passes {
        if !pipeline::PASSES.iter().any(|(n, _)| n == p) {
            return Err(UserError(format!("error: unknown pass `{p}`; available passes:\n{}", pass_list())));
        }
    }
    if cli.passes.iter().skip(1).any(|p| p == "lower-ast") {
        return Err(UserError(
            "error: `lower-ast` reads a .arr program, so it can only be the first --pass".to_string(),
        ));
    }
    let file = cli.file.as_deref().unwrap_or("-");
    let text = if file == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| UserError(format!("error: cannot read standard input: {e}")))?;
        s
    } else {
        std::fs::read_to_string(file).map_err(|e| UserError(format!("error: cannot read `{file}`: {e}")))?
    };
    let display = if file == "-" { "<stdin>" } else { file };
    let mut passes = cli.passes.as_slice();
    let mut m = if passes.first().map(String::as_str) == Some("lower-ast") {
        passes = &passes[1..];
        pipeline::lower_source(&text, display)?
    } else {
        let ctx = mlir::new_context().map_err(InternalError::new)?;
        import_module(&ctx, &text, "").map_err(|e| UserError(format!("error: `{display}`: {e}")))?
    };
    if m.source_name.is_empty() {
        m.source_name = display.to_string();
    }
    if !passes.is_empty() {
        let entry = choose_entry(&m, cli.entry.as_deref())?;
        let opts = cli.fuse.options(&entry, &given_arguments(&m, &entry, &[])?);
        for p in passes {
            pipeline::run_pass_with(&mut m, p, &entry, &opts)?;
        }
    }
    write_stdout(&pipeline::verified_text(&m)?)
}

/// Writes to stdout; a closed pipe (`arrayc-opt x.mlir | head`) is not an error.
fn write_stdout(text: &str) -> Result<(), UserError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(UserError(format!("error: cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}
