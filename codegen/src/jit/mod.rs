//! Compilation of a module's kernels to native object code with LLVM's C API, loaded with LLVM's
//! ORC `LLJIT`.
//!
//! [`compile`] first looks each kernel up in the kernel cache ([`DiskCache`]) by the hash of its
//! IR (without its name) and of the compilation's settings ([`kernel_key`]); the entry names an
//! object file in the cache and the kernel's symbol in it, and a hit loads that file into an
//! `LLJIT` (no MLIR at all, no LLVM optimisation). The other kernels are split into groups, one per
//! core; each group is built as MLIR (`kernel_codegen`), verified, lowered to the LLVM dialect
//! ([`PIPELINE`]), translated to LLVM IR and compiled at optimisation level
//! [`OPT_LEVEL`] to one position-independent object file ([`object_file`]), which is loaded and
//! stored in the cache.
//! Each kernel is then called through its packed entry `_mlir_<name>(void **args)` (MLIR's
//! `ExecutionEngine` convention, [`add_packed_entries`]) by `arrayc_runtime::launch`, once per
//! chunk of its iteration space — one compiled kernel per fused block, as in Bohrium (Kristensen
//! et al. 2016, Sec. IV).

mod kernel_cache;
mod strength_reduction;

pub use kernel_cache::kernel_key;
use kernel_cache::{kernel_entry, load_cached};

use crate::kernel_codegen::{self, CodegenError};
use arrayc_dialect::ir;
use arrayc_passes::disk_cache::{DiskCache, Key};
use arrayc_passes::kernel_layout::{launch_plan, LaunchPlan};
use arrayc_runtime::launch::{CpuKernels, LaunchError, PackedFn, PackedKernel};
use arrayc_runtime::value::{KernelLauncher, RtValue};
use melior::{
    ir::{operation::OperationLike, Module},
    pass::PassManager,
    utility::{parse_pass_pipeline, register_all_llvm_translations},
    Context,
};
use std::sync::{Arc, Mutex};

/// The lowering pipeline from `func`/`scf`/`memref`/`arith`/`math` to the LLVM dialect (MLIR 22).
/// First the kernels' `scf.parallel` loops (none carries a reduction: `kernel_codegen` builds
/// reductions as `scf.for` nests) become `scf.for` nests, whose `loop_annotation` attributes
/// `convert-scf-to-cf` carries to LLVM's loop metadata.
pub const PIPELINE: &str = "builtin.module(\
    func.func(scf-parallel-for-to-nested-fors), \
    convert-math-to-funcs, \
    expand-strided-metadata, lower-affine, convert-scf-to-cf, \
    convert-math-to-llvm, convert-math-to-libm, \
    finalize-memref-to-llvm, convert-arith-to-llvm, convert-index-to-llvm, \
    convert-cf-to-llvm, convert-func-to-llvm, convert-arith-to-llvm, reconcile-unrealized-casts)";

/// The LLVM optimisation level of compiled kernels.
pub const OPT_LEVEL: i32 = 3;

/// Why kernels could not be compiled. All of these are compiler bugs (the generated MLIR should
/// always be valid), reported with MLIR's diagnostics rather than a panic.
#[derive(Debug, thiserror::Error)]
pub enum JitError {
    #[error(transparent)]
    Codegen(#[from] CodegenError),
    #[error("MLIR verification of the kernel module failed:\n{diagnostics}")]
    Verify { diagnostics: String },
    #[error("MLIR lowering pipeline failed: {message}\n{diagnostics}")]
    Pipeline { message: String, diagnostics: String },
    #[error("translation to LLVM IR failed:\n{diagnostics}")]
    Translate { diagnostics: String },
    #[error("compiling the kernels to native code failed:\n{diagnostics}")]
    Engine { diagnostics: String },
    #[error("kernel @{0} not found in the JIT-compiled code")]
    Lookup(String),
    #[error(
        "the GPU kernels call math functions of NVIDIA's libdevice ({functions}), and no CUDA toolkit with \
         nvvm/libdevice/libdevice.10.bc was found. Looked at:\n{}\n\
         Fix: install the nvidia-cuda-nvcc-cu12 wheel for the Python named by $PYTHON (default python3): \
         `bash scripts/setup.sh` does, or `python3 -m pip install nvidia-cuda-nvcc-cu12`; or set ARRAYC_CUDA_PATH \
         to a directory with nvvm/libdevice/libdevice.10.bc (a CUDA toolkit, or that wheel's nvidia/cuda_nvcc)",
        places.iter().map(|p| format!("  {p}")).collect::<Vec<_>>().join("\n")
    )]
    /// `functions`: the libdevice functions the PTX would call; `places`: every place looked at for
    /// libdevice, with what was found there (`crate::cuda_toolkit::search`).
    NoLibdevice { functions: String, places: Vec<String> },
}

/// The owner of compiled kernel code: an ORC `LLJIT` holding one object file ([`object_file`], or
/// one read from the cache), with the process's symbols (for the math library).
pub(crate) struct Code(llvm_sys::orc2::lljit::LLVMOrcLLJITRef);

impl Drop for Code {
    fn drop(&mut self) {
        // SAFETY: created by `LLVMOrcCreateLLJIT`, disposed once; a disposal error is dropped.
        unsafe {
            let err = llvm_sys::orc2::lljit::LLVMOrcDisposeLLJIT(self.0);
            if !err.is_null() {
                llvm_sys::error::LLVMConsumeError(err);
            }
        }
    }
}

impl Code {
    /// The packed entry `_mlir_<name>(void **args)` of function `name` ([`object_file`] gives every
    /// function one), or `None`.
    pub(crate) fn packed(&self, name: &str) -> Option<PackedFn> {
        let name = std::ffi::CString::new(format!("_mlir_{name}")).ok()?;
        let mut addr: llvm_sys::orc2::LLVMOrcExecutorAddress = 0;
        // SAFETY: a valid LLJIT; the name is a NUL-terminated string alive for the call.
        let err = unsafe { llvm_sys::orc2::lljit::LLVMOrcLLJITLookup(self.0, &mut addr, name.as_ptr()) };
        if llvm_error(err).is_some() || addr == 0 {
            return None;
        }
        // SAFETY: `_mlir_<name>` is a packed wrapper `void(void**)` made by `add_packed_entries`.
        Some(unsafe { std::mem::transmute::<usize, PackedFn>(addr as usize) })
    }
}

/// What [`compile`] did with the kernel cache (shown by `arrayc run --time`).
#[derive(Clone, Debug, PartialEq)]
pub enum CacheOutcome {
    /// No cache was given.
    Off,
    /// The object code came from the cache: nothing was compiled.
    Hit,
    /// Compiled and stored.
    Miss,
    /// The entry was corrupt (the reason) or could not be loaded: removed, compiled and stored again.
    Replaced(String),
    /// Compiled, but storing failed (the reason); the run goes on.
    NotStored(String),
}

/// A module's JIT-compiled kernels: the engine that owns their code, and per kernel name its packed
/// entry and its launch plan (parameter types and block structure, computed once here, which `launch`
/// checks arguments against).
///
/// `Send + Sync`: after [`compile`] returns, the JITs holding the code are not touched again;
/// launches only call the packed entries, which are plain code pointers, valid while `self` lives,
/// and safe to call from any thread (rayon workers).
pub struct JitKernels {
    kernels: CpuKernels,
    /// What the kernel cache gave, per kernel in module order (empty without kernels).
    pub cache: Vec<CacheOutcome>,
    /// How many groups of kernels were compiled (in parallel; 0 when the cache had every kernel).
    pub groups: usize,
    /// How many object files were read from the cache.
    pub objects_read: usize,
    _code: Vec<Code>,
}

// SAFETY: see the type's docs — the JITs holding the code are only used during `compile` (on one
// thread) and when dropped; the kernel code is immutable and reentrant.
unsafe impl Send for JitKernels {}
// SAFETY: as for `Send`: shared references reach only the immutable, reentrant kernel code (through
// the packed entries), never the JITs.
unsafe impl Sync for JitKernels {}

impl std::fmt::Debug for JitKernels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names: Vec<_> = self.kernels.names().collect();
        names.sort();
        f.debug_struct("JitKernels").field("kernels", &names).finish()
    }
}

impl JitKernels {
    /// The packed entry of kernel `name` and its launch plan, if the module had such a kernel.
    pub fn get(&self, name: &str) -> Option<(PackedKernel, &LaunchPlan)> {
        self.kernels.get(name)
    }
    /// Names of the compiled kernels.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.kernels.names()
    }
}

/// Launches through [`CpuKernels`] (which counts the traffic).
impl JitKernels {
    /// The compiled kernels with their launch plans (for a launcher that runs them its own way, the
    /// distributed one of `arrayc_dist`).
    pub fn cpu(&self) -> &CpuKernels {
        &self.kernels
    }
}

impl KernelLauncher for JitKernels {
    fn launch(&self, kernel: &str, args: &[RtValue]) -> Result<(), LaunchError> {
        self.kernels.launch(kernel, args)
    }

    fn traffic(&self) -> Option<(u64, u64)> {
        self.kernels.traffic()
    }
}

/// The process-wide registrations, once, before any JIT thread needs them (MLIR's pass registry
/// and LLVM's native target are global and not safe to fill from several threads at once).
pub(crate) fn register_once() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        register_pipeline_passes();
        // SAFETY: LLVM's native target initialisation, on one thread.
        unsafe {
            llvm_sys::target::LLVM_InitializeNativeTarget();
            llvm_sys::target::LLVM_InitializeNativeAsmPrinter();
        }
    });
}

/// Registers the MLIR passes that [`PIPELINE`] and the GPU target's pipelines
/// (`crate::ptx`) name, so that `parse_pass_pipeline` finds them: only these, as registering all of
/// MLIR's passes costs every compiling process 2.5 M instructions (about 1 ms; callgrind,
/// `benchmarks/REPORT-compile.md`). A pass added to a pipeline must be added here; every pipeline
/// is parsed by the tests (`codegen/tests/kernels.rs`, the PTX tests).
fn register_pipeline_passes() {
    use melior::pass::{conversion, gpu, memref, scf, transform};
    scf::register_scf_parallel_for_to_nested_fors();
    memref::register_expand_strided_metadata_pass();
    conversion::register_math_to_funcs();
    conversion::register_lower_affine();
    conversion::register_scf_to_control_flow();
    conversion::register_math_to_llvm();
    conversion::register_math_to_libm();
    conversion::register_finalize_mem_ref_to_llvm();
    conversion::register_arith_to_llvm();
    conversion::register_index_to_llvm();
    conversion::register_control_flow_to_llvm();
    conversion::register_func_to_llvm();
    conversion::register_reconcile_unrealized_casts();
    conversion::register_gpu_ops_to_nvvm_ops();
    transform::register_canonicalizer();
    transform::register_cse();
    gpu::register_gpu_nvvm_attach_target();
    gpu::register_gpu_module_to_binary_pass();
}

/// A context with the kernels' dialects (with the GPU's when `gpu`: [`kernel_codegen::context`])
/// and every LLVM translation, the pipelines' passes registered ([`register_once`]), and a
/// diagnostics sink.
pub(crate) fn context(gpu: bool) -> (Context, Arc<Mutex<String>>) {
    register_once();
    let context = kernel_codegen::context(gpu);
    register_all_llvm_translations(&context);
    let diags = Arc::new(Mutex::new(String::new()));
    let sink = diags.clone();
    context.attach_diagnostic_handler(move |d| {
        let mut s = sink.lock().unwrap();
        s.push_str(&format!("{}: {}\n", d.location(), d));
        true
    });
    (context, diags)
}

/// The diagnostics collected so far (emptying the sink).
pub(crate) fn take(d: &Arc<Mutex<String>>) -> String {
    std::mem::take(&mut *d.lock().unwrap())
}

/// Builds `kernels` for the CPU ([`kernel_codegen::cpu_kernels_module`]) and verifies them, then
/// (if `lower`) runs [`PIPELINE`] on them.
fn build_and_lower<'c>(
    context: &'c Context,
    diags: &Arc<Mutex<String>>,
    kernels: &[&ir::Func],
    lower: bool,
) -> Result<Module<'c>, JitError> {
    let mut module = kernel_codegen::cpu_kernels_module(context, kernels, host().lanes_64())?;
    if !module.as_operation().verify() {
        return Err(JitError::Verify { diagnostics: take(diags) });
    }
    if lower {
        lower_to_llvm(context, diags, &mut module)?;
    }
    Ok(module)
}

/// Runs the pass pipeline `text` on `module`, with MLIR's verifier after each pass when `verify`.
pub(crate) fn run_passes(
    context: &Context,
    diags: &Arc<Mutex<String>>,
    module: &mut Module,
    text: &str,
    verify: bool,
) -> Result<(), JitError> {
    let pm = PassManager::new(context);
    pm.enable_verifier(verify);
    parse_pass_pipeline(pm.as_operation_pass_manager(), text)
        .map_err(|e| JitError::Pipeline { message: e.to_string(), diagnostics: take(diags) })?;
    pm.run(module).map_err(|e| JitError::Pipeline { message: e.to_string(), diagnostics: take(diags) })
}

/// Lowers `module` (verified by its caller) to the LLVM dialect: [`PIPELINE`], with the result
/// verified once, not after each of its 14 passes (MLIR's default, 1.5 M of the 41 M
/// instructions of leibnitz_pi's compile: `benchmarks/REPORT-compile.md`).
pub(crate) fn lower_to_llvm(
    context: &Context,
    diags: &Arc<Mutex<String>>,
    module: &mut Module,
) -> Result<(), JitError> {
    run_passes(context, diags, module, PIPELINE, false)?;
    if !module.as_operation().verify() {
        return Err(JitError::Pipeline {
            message: "the lowered module does not verify".into(),
            diagnostics: take(diags),
        });
    }
    Ok(())
}

/// The kernels of `m` as MLIR text before lowering (`func`/`scf`/`memref`/`arith`/`math`), printed
/// after verification (for `arrayc emit --stage=mlir`).
///
/// Errors: a kernel the code generator rejects, or MLIR that does not verify.
pub fn kernels_mlir(m: &ir::Module) -> Result<String, JitError> {
    let (context, diags) = context(false);
    let module = build_and_lower(&context, &diags, &kernel_codegen::kernels_of(m), false)?;
    Ok(module.as_operation().to_string())
}

/// LLVM IR text of the kernels of `m` after the lowering pipeline (for `arrayc emit --stage=llvm`).
///
/// Errors: as [`kernels_mlir`], a pipeline failure, or a failed translation to LLVM IR.
pub fn llvm_ir(m: &ir::Module) -> Result<String, JitError> {
    let (context, diags) = context(false);
    let module = build_and_lower(&context, &diags, &kernel_codegen::kernels_of(m), true)?;
    let ll = LlvmModule::translate(&module, &diags)?;
    // SAFETY: a valid module; the string is copied before `LLVMDisposeMessage`.
    unsafe {
        let s = llvm_sys::core::LLVMPrintModuleToString(ll.module);
        let out = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
        llvm_sys::core::LLVMDisposeMessage(s);
        Ok(out)
    }
}

/// JIT-compiles every kernel of `m` (functions with `kernel == true`; host functions are ignored),
/// or loads their object code from `cache` (see the module docs). A module without kernels gives
/// an empty [`JitKernels`] (no engine is created).
///
/// Each kernel is first looked up in `cache` by its [`kernel_key`], which leads to the object file
/// that holds it; each such object file is loaded once. Kernels with the same key (the same code
/// under two names) are compiled once. The rest are split into [`compile_groups`], one per core at
/// most, each compiled on its own thread in its own MLIR context and stored as one object file,
/// with one small entry per kernel naming that file and the kernel's symbol in it.
///
/// Errors: see [`JitError`]; MLIR diagnostics are included in the message. A cache entry that is
/// corrupt or cannot be loaded, or a cache that cannot be written, is not an error (it is reported
/// in [`JitKernels::cache`]).
pub fn compile(m: &ir::Module, cache: Option<&DiskCache>) -> Result<JitKernels, JitError> {
    let kernels = kernel_codegen::kernels_of(m);
    register_once();
    let keys: Vec<Key> = kernels.iter().map(|f| kernel_key(f)).collect();
    let mut entries = vec![0usize; kernels.len()];
    let mut outcomes = vec![if cache.is_some() { CacheOutcome::Miss } else { CacheOutcome::Off }; kernels.len()];
    let mut code = vec![];
    let objects_read = match cache {
        Some(c) => load_cached(c, &keys, &mut entries, &mut outcomes, &mut code),
        None => 0,
    };
    // The kernels still without code, one of each key; `same[i]`: the kernel whose code `i` takes.
    let mut first: std::collections::HashMap<&Key, usize> = std::collections::HashMap::new();
    let mut same: Vec<usize> = (0..kernels.len()).collect();
    let mut todo = vec![];
    for i in (0..kernels.len()).filter(|&i| entries[i] == 0) {
        match first.get(&keys[i]) {
            Some(&j) => same[i] = j,
            None => {
                first.insert(&keys[i], i);
                todo.push(i);
            }
        }
    }
    let todo_kernels: Vec<&ir::Func> = todo.iter().map(|&i| kernels[i]).collect();
    let groups: Vec<Vec<usize>> =
        compile_groups(&todo_kernels, std::thread::available_parallelism().map_or(1, |n| n.get()))
            .into_iter()
            .map(|g| g.into_iter().map(|t| todo[t]).collect())
            .collect();
    let parts: Vec<Result<Part, JitError>> = std::thread::scope(|s| {
        let handles: Vec<_> = groups
            .iter()
            .map(|g| {
                let group: Vec<(&ir::Func, &Key)> = g.iter().map(|&i| (kernels[i], &keys[i])).collect();
                std::thread::Builder::new()
                    .name("arrayc-jit".into())
                    .stack_size(JIT_STACK_BYTES)
                    .spawn_scoped(s, move || compile_group(&group, cache))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| match h {
                Ok(h) => {
                    h.join().unwrap_or_else(|_| Err(JitError::Engine { diagnostics: "a JIT thread panicked".into() }))
                }
                Err(e) => Err(JitError::Engine { diagnostics: format!("cannot start a JIT thread: {e}") }),
            })
            .collect()
    });
    for (group, part) in groups.iter().zip(parts) {
        let part = part?;
        for (&i, p) in group.iter().zip(part.entries) {
            entries[i] = p;
            if let Some(why) = &part.not_stored {
                outcomes[i] = CacheOutcome::NotStored(why.clone());
            }
        }
        code.push(part.code);
    }
    let mut jk =
        JitKernels { kernels: CpuKernels::default(), cache: vec![], groups: groups.len(), objects_read, _code: code };
    for (i, f) in kernels.iter().enumerate() {
        let p = entries[same[i]];
        if p == 0 {
            return Err(JitError::Lookup(f.name.clone()));
        }
        // SAFETY: `_mlir_<name>` is the packed wrapper `void(void**)` of `add_packed_entries`
        // (possibly compiled in an earlier process and loaded from its object file).
        let entry: PackedFn = unsafe { std::mem::transmute::<usize, PackedFn>(p) };
        let plan = launch_plan(f).map_err(|e| CodegenError { kernel: f.name.clone(), msg: e.0 })?;
        jk.kernels.insert(PackedKernel(entry), plan);
        jk.cache.push(outcomes[same[i]].clone());
    }
    Ok(jk)
}

/// The host LLVM compiles kernels for: the target triple, CPU name and CPU features that
/// [`object_file`] creates its target machine with, and that every [`kernel_key`] includes, so a
/// key names exactly the target of its object code. Queried once per process.
pub(crate) struct Host {
    pub triple: std::ffi::CString,
    pub cpu: std::ffi::CString,
    pub features: std::ffi::CString,
}

impl Host {
    /// How many 64-bit lanes the host's widest vector registers hold, from its CPU features: 8
    /// with AVX-512, 4 with AVX, else 2 (SSE2, NEON). The CPU target fixes the vector width of
    /// loops with long bodies to it (`kernel_codegen::cpu::lower_to_chunks`).
    pub fn lanes_64(&self) -> u32 {
        let has = |f: &str| self.features.to_bytes().split(|&b| b == b',').any(|x| x == f.as_bytes());
        if has("+avx512f") {
            8
        } else if has("+avx") {
            4
        } else {
            2
        }
    }
}

/// The [`Host`] of this process.
pub(crate) fn host() -> &'static Host {
    static HOST: std::sync::OnceLock<Host> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        use llvm_sys::target_machine::{LLVMGetDefaultTargetTriple, LLVMGetHostCPUFeatures, LLVMGetHostCPUName};
        let owned = |p: *mut std::ffi::c_char| {
            if p.is_null() {
                return std::ffi::CString::default();
            }
            // SAFETY: `p` is a non-null message LLVM allocated; copied, then disposed once.
            unsafe {
                let s = std::ffi::CStr::from_ptr(p).to_owned();
                llvm_sys::core::LLVMDisposeMessage(p);
                s
            }
        };
        // SAFETY: plain queries of LLVM's host description.
        unsafe {
            Host {
                triple: owned(LLVMGetDefaultTargetTriple()),
                cpu: owned(LLVMGetHostCPUName()),
                features: owned(LLVMGetHostCPUFeatures()),
            }
        }
    })
}

/// The stack of a JIT thread (bytes): MLIR's passes recurse over large kernels.
const JIT_STACK_BYTES: usize = 64 << 20;

/// Splits `kernels` into at most `n` groups of about equal work (longest processing time first,
/// work counted in kernel body ops), each a list of indices into `kernels` in increasing order.
/// Deterministic for given `n`.
pub fn compile_groups(kernels: &[&ir::Func], n: usize) -> Vec<Vec<usize>> {
    let n = n.clamp(1, kernels.len().max(1));
    let mut order: Vec<usize> = (0..kernels.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(kernels[i].body.len()));
    let mut load = vec![0usize; n];
    let mut member: Vec<Vec<usize>> = vec![vec![]; n];
    for i in order {
        let g = (0..n).min_by_key(|&g| (load[g], g)).expect("at least one group");
        load[g] += kernels[i].body.len() + 1;
        member[g].push(i);
    }
    member
        .into_iter()
        .filter(|g| !g.is_empty())
        .map(|mut g| {
            g.sort_unstable();
            g
        })
        .collect()
}

/// One compiled group of kernels: its code, the packed entry of each kernel of the group, in order
/// (0: not found), and why it could not be stored in the cache, if it could not.
struct Part {
    entries: Vec<usize>,
    code: Code,
    not_stored: Option<String>,
}

// SAFETY: a part moves from its JIT thread to the caller once; its JIT is not used again until it
// is dropped (see [`JitKernels`]).
unsafe impl Send for Part {}

/// Compiles one group of kernels (each with its [`kernel_key`]) to one object file, loads it, and
/// stores it in `cache` under the group's key, with each kernel's entry ([`kernel_entry`]) under
/// its own key; see [`compile`].
fn compile_group(group: &[(&ir::Func, &Key)], cache: Option<&DiskCache>) -> Result<Part, JitError> {
    let kernels: Vec<&ir::Func> = group.iter().map(|(f, _)| *f).collect();
    let names: Vec<&str> = kernels.iter().map(|f| f.name.as_str()).collect();
    let object = {
        let (context, diags) = context(false);
        let mut module = build_and_lower(&context, &diags, &kernels, false)?;
        lower_to_llvm(&context, &diags, &mut module)?;
        object_file(&module, &diags, &names)?
    };
    let code = load_object(&object).map_err(|e| JitError::Engine { diagnostics: e.to_string() })?;
    let entries = names.iter().map(|n| code.packed(n).map_or(0, |p| p as usize)).collect();
    let mut not_stored = None;
    if let Some(c) = cache {
        // The object file's key: its kernels' keys and names (its symbols).
        let mut parts: Vec<&[u8]> = vec![b"arrayc kernel object v4"];
        for ((_, key), name) in group.iter().zip(&names) {
            parts.extend([&key.as_bytes()[..], name.as_bytes()]);
        }
        let object_key = Key::of(&parts);
        let stored = c.put(&object_key, &object).and_then(|()| {
            group.iter().zip(&names).try_for_each(|((_, key), name)| c.put(key, &kernel_entry(&object_key, name)))
        });
        not_stored = stored.err().map(|e| e.to_string());
    }
    Ok(Part { entries, code, not_stored })
}

/// The object code (an ELF relocatable file for this host, position-independent) of every kernel of
/// `m`, compiled as for the JIT ([`PIPELINE`] at [`OPT_LEVEL`]), with each kernel's packed entry
/// `_mlir_<name>(void **args)` a global symbol; for `arrayc build`, which links it into an
/// executable. Also returns the kernels' launch plans, in module order.
///
/// Errors: as [`compile`]; a kernel missing from the compiled code; the object file could not be
/// written (`JitError::Engine` with the reason).
pub fn object_code(m: &ir::Module) -> Result<(Vec<u8>, Vec<LaunchPlan>), JitError> {
    register_once();
    let kernels = kernel_codegen::kernels_of(m);
    let (context, diags) = context(false);
    let mut module = build_and_lower(&context, &diags, &kernels, false)?;
    lower_to_llvm(&context, &diags, &mut module)?;
    let names: Vec<&str> = kernels.iter().map(|f| f.name.as_str()).collect();
    let object = object_file(&module, &diags, &names)?;
    let plans = kernels
        .iter()
        .map(|f| launch_plan(f).map_err(|e| JitError::from(CodegenError { kernel: f.name.clone(), msg: e.0 })))
        .collect::<Result<_, _>>()?;
    Ok((object, plans))
}

/// An LLVM module translated from an MLIR module in the LLVM dialect, with the LLVM context that
/// owns it; both are disposed on drop.
struct LlvmModule {
    ctx: llvm_sys::prelude::LLVMContextRef,
    module: llvm_sys::prelude::LLVMModuleRef,
}

impl LlvmModule {
    /// `module` translated to LLVM IR. Errors: the translation failed (`JitError::Translate` with
    /// MLIR's diagnostics from `diags`).
    fn translate(module: &Module, diags: &Arc<Mutex<String>>) -> Result<LlvmModule, JitError> {
        // SAFETY: a fresh LLVM context, owned by the result (or disposed here when the translation
        // fails); `module` is a valid MLIR module.
        unsafe {
            let ctx = llvm_sys::core::LLVMContextCreate();
            let llmod = mlir_sys::mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), ctx as _);
            if llmod.is_null() {
                llvm_sys::core::LLVMContextDispose(ctx);
                return Err(JitError::Translate { diagnostics: take(diags) });
            }
            Ok(LlvmModule { ctx, module: llmod as _ })
        }
    }
}

impl Drop for LlvmModule {
    fn drop(&mut self) {
        // SAFETY: created by `translate`, disposed once, the module before its context.
        unsafe {
            llvm_sys::core::LLVMDisposeModule(self.module);
            llvm_sys::core::LLVMContextDispose(self.ctx);
        }
    }
}

/// The object file of `module` (lowered to the LLVM dialect): translated to LLVM IR, given a
/// packed entry `_mlir_<f>(void **args)` per function ([`add_packed_entries`]), optimised by LLVM's
/// `default<O`[`OPT_LEVEL`]`>` pipeline and compiled (at the same level) for the host CPU and its
/// features: an ELF relocatable file, position-independent, so that it can be loaded at any address
/// ([`load_object`]) or linked into an executable (`arrayc build`).
///
/// This is what MLIR's `ExecutionEngine` does, done with LLVM's C API directly: measured, the
/// engine took about twice as long for the same object code (`benchmarks/REPORT-compile.md`).
///
/// Errors: the translation to LLVM IR failed (`JitError::Translate` with MLIR's diagnostics); a
/// function of `entries` got no packed entry (`JitError::Lookup`); LLVM could not create the host's
/// target machine, optimise or emit (`JitError::Engine`).
pub(crate) fn object_file(module: &Module, diags: &Arc<Mutex<String>>, entries: &[&str]) -> Result<Vec<u8>, JitError> {
    use llvm_sys::{core::*, target::*, target_machine::*, transforms::pass_builder::*};
    let engine = |msg: String| JitError::Engine { diagnostics: msg };
    let ll = LlvmModule::translate(module, diags)?;
    // SAFETY: the module and context are valid (`ll`).
    let wrapped = unsafe { add_packed_entries(ll.ctx, ll.module) }.map_err(engine)?;
    if let Some(missing) = entries.iter().find(|e| !wrapped.iter().any(|w| w == *e)) {
        return Err(JitError::Lookup(missing.to_string()));
    }
    strength_reduction::disable_in_codegen();
    let tm = host_target_machine().map_err(engine)?;
    // SAFETY: LLVM C API calls in their documented order on the valid `ll` and `tm`. The pass
    // builder options and every message and buffer are disposed once on every path.
    unsafe {
        let mut err: *mut std::ffi::c_char = std::ptr::null_mut();
        LLVMSetTarget(ll.module, host().triple.as_ptr());
        let layout = LLVMCreateTargetDataLayout(tm.0);
        LLVMSetModuleDataLayout(ll.module, layout);
        LLVMDisposeTargetData(layout);
        let options = LLVMCreatePassBuilderOptions();
        let pipeline = std::ffi::CString::new(format!("default<O{OPT_LEVEL}>")).expect("no NUL");
        let failed = llvm_error(LLVMRunPasses(ll.module, pipeline.as_ptr(), tm.0, options));
        LLVMDisposePassBuilderOptions(options);
        if let Some(e) = failed {
            return Err(engine(format!("LLVM's optimisation pipeline failed: {e}")));
        }
        strength_reduction::reduce_where_cheap(ll.module, tm.0)
            .map_err(|e| engine(format!("LLVM's loop strength reduction failed: {e}")))?;
        let mut buffer: llvm_sys::prelude::LLVMMemoryBufferRef = std::ptr::null_mut();
        if LLVMTargetMachineEmitToMemoryBuffer(
            tm.0,
            ll.module,
            LLVMCodeGenFileType::LLVMObjectFile,
            &mut err,
            &mut buffer,
        ) != 0
        {
            return Err(engine(format!("LLVM could not emit object code: {}", take_message(err))));
        }
        let bytes =
            std::slice::from_raw_parts(LLVMGetBufferStart(buffer) as *const u8, LLVMGetBufferSize(buffer)).to_vec();
        LLVMDisposeMemoryBuffer(buffer);
        Ok(bytes)
    }
}

/// An LLVM target machine, disposed on drop.
pub(crate) struct Tm(pub llvm_sys::target_machine::LLVMTargetMachineRef);

impl Drop for Tm {
    fn drop(&mut self) {
        // SAFETY: a non-null target machine created by `host_target_machine`, disposed once.
        unsafe { llvm_sys::target_machine::LLVMDisposeTargetMachine(self.0) }
    }
}

/// A target machine for the [`host`] (its triple, CPU and features) at [`OPT_LEVEL`], generating
/// position-independent code. Errors: LLVM has no target for the host or could not create one.
pub(crate) fn host_target_machine() -> Result<Tm, String> {
    use llvm_sys::target_machine::*;
    let host = host();
    let mut target: LLVMTargetRef = std::ptr::null_mut();
    let mut err: *mut std::ffi::c_char = std::ptr::null_mut();
    // SAFETY: plain LLVM C API calls on the host's NUL-terminated strings; the message is disposed.
    unsafe {
        if LLVMGetTargetFromTriple(host.triple.as_ptr(), &mut target, &mut err) != 0 {
            return Err(format!("no LLVM target for this host: {}", take_message(err)));
        }
        let level = match OPT_LEVEL {
            0 => LLVMCodeGenOptLevel::LLVMCodeGenLevelNone,
            1 => LLVMCodeGenOptLevel::LLVMCodeGenLevelLess,
            2 => LLVMCodeGenOptLevel::LLVMCodeGenLevelDefault,
            _ => LLVMCodeGenOptLevel::LLVMCodeGenLevelAggressive,
        };
        let tm = LLVMCreateTargetMachine(
            target,
            host.triple.as_ptr(),
            host.cpu.as_ptr(),
            host.features.as_ptr(),
            level,
            LLVMRelocMode::LLVMRelocPIC,
            LLVMCodeModel::LLVMCodeModelDefault,
        );
        if tm.is_null() {
            return Err("LLVM could not create a target machine for this host".into());
        }
        Ok(Tm(tm))
    }
}

/// The text of an LLVM message (disposed), or a placeholder for none.
///
/// # Safety
/// `msg` is null or a message LLVM allocated, not used afterwards.
pub(crate) unsafe fn take_message(msg: *mut std::ffi::c_char) -> String {
    if msg.is_null() {
        return "no reason given".into();
    }
    // SAFETY: per the contract, a NUL-terminated message owned by us; copied, then disposed once.
    unsafe {
        let s = std::ffi::CStr::from_ptr(msg).to_string_lossy().into_owned();
        llvm_sys::core::LLVMDisposeMessage(msg);
        s
    }
}

/// Adds to `module`, for every function `f` it defines that returns nothing, the packed entry `void _mlir_f(void **args)`
/// through which `arrayc_runtime::launch` calls kernels: `args[i]` points to `f`'s `i`-th argument
/// (MLIR's `ExecutionEngine` convention, which the launcher and `arrayc build`'s C glue follow).
/// `f` itself becomes internal: the entries are the object's only symbols. (MLIR's engine keeps
/// `f` external, so LLVM optimises and compiles every kernel twice: inlined into its entry, and on
/// its own.)
///
/// Returns the names of the functions it gave an entry. Errors: a function name that is not a C
/// string.
///
/// # Safety
/// `ctx` owns `module`, both valid.
unsafe fn add_packed_entries(
    ctx: llvm_sys::prelude::LLVMContextRef,
    module: llvm_sys::prelude::LLVMModuleRef,
) -> Result<Vec<String>, String> {
    use llvm_sys::core::*;
    // SAFETY: LLVM C API on the valid `ctx` and `module`; the builder is disposed once.
    unsafe {
        let mut defined = vec![];
        let mut f = LLVMGetFirstFunction(module);
        while !f.is_null() {
            if LLVMIsDeclaration(f) == 0 {
                defined.push(f);
            }
            f = LLVMGetNextFunction(f);
        }
        let ptr = LLVMPointerTypeInContext(ctx, 0);
        let i64t = LLVMInt64TypeInContext(ctx);
        let void = LLVMVoidTypeInContext(ctx);
        let mut wparams = [ptr];
        let wty = LLVMFunctionType(void, wparams.as_mut_ptr(), 1, 0);
        let b = LLVMCreateBuilderInContext(ctx);
        let mut wrapped = vec![];
        for f in defined {
            let mut len = 0usize;
            let name =
                String::from_utf8_lossy(std::slice::from_raw_parts(LLVMGetValueName2(f, &mut len) as *const u8, len))
                    .into_owned();
            let fty = LLVMGlobalGetValueType(f);
            if LLVMGetTypeKind(LLVMGetReturnType(fty)) != llvm_sys::LLVMTypeKind::LLVMVoidTypeKind {
                continue; // a helper (e.g. `math.ipowi`'s), not a kernel: kernels return nothing
            }
            let mut params = vec![std::ptr::null_mut(); LLVMCountParamTypes(fty) as usize];
            LLVMGetParamTypes(fty, params.as_mut_ptr());
            let Ok(wname) = std::ffi::CString::new(format!("_mlir_{name}")) else {
                LLVMDisposeBuilder(b);
                return Err(format!("function name {name:?} holds a NUL byte"));
            };
            let w = LLVMAddFunction(module, wname.as_ptr(), wty);
            LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, w, c"entry".as_ptr()));
            let packed = LLVMGetParam(w, 0);
            let mut args: Vec<_> = params
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    let mut index = [LLVMConstInt(i64t, i as u64, 0)];
                    let slot = LLVMBuildGEP2(b, ptr, packed, index.as_mut_ptr(), 1, c"".as_ptr());
                    let arg = LLVMBuildLoad2(b, ptr, slot, c"".as_ptr());
                    LLVMBuildLoad2(b, t, arg, c"".as_ptr())
                })
                .collect();
            LLVMBuildCall2(b, fty, f, args.as_mut_ptr(), args.len() as u32, c"".as_ptr());
            LLVMBuildRetVoid(b);
            // Reached only through its entry: internal, so that the optimiser inlines it there and
            // drops it, instead of optimising and compiling each kernel twice; `alwaysinline`, so
            // that it is inlined before the function simplification passes run (`default<O3>`
            // runs `always-inline` first), not after they have simplified it once on its own:
            // LLVM's middle end then did 24 % less work on leibnitz_pi's kernel and 15 % less
            // on montecarlo_pi's (callgrind; `benchmarks/REPORT-compile.md`).
            LLVMSetLinkage(f, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
            let kind = LLVMGetEnumAttributeKindForName(c"alwaysinline".as_ptr(), "alwaysinline".len());
            LLVMAddAttributeAtIndex(f, llvm_sys::LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
            wrapped.push(name);
        }
        LLVMDisposeBuilder(b);
        Ok(wrapped)
    }
}

/// The message of an LLVM error (consumed), or `None` for success.
fn llvm_error(err: llvm_sys::error::LLVMErrorRef) -> Option<String> {
    if err.is_null() {
        return None;
    }
    // SAFETY: a non-null error, consumed by `LLVMGetErrorMessage`; the message is copied, then
    // disposed once.
    unsafe {
        let m = llvm_sys::error::LLVMGetErrorMessage(err);
        let s = std::ffi::CStr::from_ptr(m).to_string_lossy().into_owned();
        llvm_sys::error::LLVMDisposeErrorMessage(m);
        Some(s)
    }
}

/// Why LLVM's ORC JIT could not load an object file ([`load_object`]): LLVM's message and the step.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct LoadError(String);

/// Loads the object file `object` into a new ORC `LLJIT`, with the process's symbols (for the math
/// library); its entries are looked up with [`Code::packed`].
pub(crate) fn load_object(object: &[u8]) -> Result<Code, LoadError> {
    use llvm_sys::orc2::{lljit::*, *};
    // SAFETY: LLVM C API calls in their documented order: the builder is consumed by
    // `LLVMOrcCreateLLJIT`, the generator by `LLVMOrcJITDylibAddGenerator` and the memory buffer
    // (a copy of `object`) by `LLVMOrcLLJITAddObjectFile`; the LLJIT is owned by the returned
    // `Code` (disposed on every error path here by dropping it).
    unsafe {
        let mut jit: LLVMOrcLLJITRef = std::ptr::null_mut();
        if let Some(e) = llvm_error(LLVMOrcCreateLLJIT(&mut jit, LLVMOrcCreateLLJITBuilder())) {
            return Err(LoadError(format!("creating the JIT: {e}")));
        }
        let code = Code(jit);
        let dylib = LLVMOrcLLJITGetMainJITDylib(jit);
        let mut generator: LLVMOrcDefinitionGeneratorRef = std::ptr::null_mut();
        let prefix = LLVMOrcLLJITGetGlobalPrefix(jit);
        let err =
            LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&mut generator, prefix, None, std::ptr::null_mut());
        if let Some(e) = llvm_error(err) {
            return Err(LoadError(format!("resolving the process's symbols: {e}")));
        }
        LLVMOrcJITDylibAddGenerator(dylib, generator);
        let buffer = llvm_sys::core::LLVMCreateMemoryBufferWithMemoryRangeCopy(
            object.as_ptr() as *const _,
            object.len(),
            c"arrayc-kernels.o".as_ptr(),
        );
        if let Some(e) = llvm_error(LLVMOrcLLJITAddObjectFile(jit, dylib, buffer)) {
            return Err(LoadError(format!("adding the object file: {e}")));
        }
        Ok(code)
    }
}
