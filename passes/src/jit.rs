//! JIT compilation of a module's kernels with MLIR's `ExecutionEngine`.
//!
//! [`compile`] builds every kernel of a module as MLIR (`kernel_codegen`), verifies it, lowers it to the LLVM dialect with [`PIPELINE`], and JIT-compiles it at optimisation level 3. Each
//! kernel is then called through its packed wrapper `_mlir_<name>(void **args)` (which MLIR's
//! `ExecutionEngine` creates for every function) by `arrayc_runtime::launch`, once per chunk of its
//! iteration space — one compiled kernel per fused block, as in Bohrium (Kristensen et al. 2016,
//! Sec. IV).

use crate::kernel_codegen::{self, CodegenError};
use crate::kernel_layout::{launch_plan, LaunchPlan};
use arrayc_dialect::ir;
use arrayc_runtime::array::launch_traffic;
use arrayc_runtime::launch::{launch, LaunchError, PackedFn, PackedKernel};
use arrayc_runtime::value::{KernelLauncher, RtValue};
use melior::{
    ir::{operation::OperationLike, Module},
    pass::PassManager,
    utility::{parse_pass_pipeline, register_all_llvm_translations, register_all_passes},
    Context,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The lowering pipeline from `func`/`scf`/`memref`/`arith`/`math` to the LLVM dialect (MLIR 22).
pub const PIPELINE: &str = "builtin.module(\
    convert-math-to-funcs, \
    expand-strided-metadata, lower-affine, convert-scf-to-cf, \
    convert-math-to-llvm, convert-math-to-libm, \
    finalize-memref-to-llvm, convert-arith-to-llvm, convert-index-to-llvm, \
    convert-cf-to-llvm, convert-func-to-llvm, convert-arith-to-llvm, reconcile-unrealized-casts)";

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
    #[error("creating the MLIR execution engine failed:\n{diagnostics}")]
    Engine { diagnostics: String },
    #[error("kernel @{0} not found in the JIT-compiled code")]
    Lookup(String),
}

/// Owned `MlirExecutionEngine` (melior's wrapper cannot report a failed creation).
struct Engine(mlir_sys::MlirExecutionEngine);

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: created non-null by `mlirExecutionEngineCreate`, destroyed once.
        unsafe { mlir_sys::mlirExecutionEngineDestroy(self.0) }
    }
}

/// A module's JIT-compiled kernels: the engine that owns their code, and per kernel name its packed
/// entry and its launch plan (parameter types and block structure, computed once here, which `launch`
/// checks arguments against).
///
/// `Send + Sync`: after [`compile`] returns, neither the MLIR context nor the engine is touched
/// again; launches only call the packed entries, which are plain code pointers, valid while `self`
/// lives, and safe to call from any thread (rayon workers).
pub struct JitKernels {
    kernels: HashMap<String, (PackedKernel, LaunchPlan)>,
    traffic: Traffic,
    // Field order matters: the engine is dropped before the context.
    _engine: Option<Engine>,
    _context: Option<Context>,
}

// SAFETY: see the type's docs — the context and engine are only used during `compile` (on one
// thread) and when dropped; the kernel code is immutable and reentrant.
unsafe impl Send for JitKernels {}
unsafe impl Sync for JitKernels {}

impl std::fmt::Debug for JitKernels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names: Vec<_> = self.kernels.keys().collect();
        names.sort();
        f.debug_struct("JitKernels").field("kernels", &names).finish()
    }
}

impl JitKernels {
    /// The packed entry of kernel `name` and its launch plan, if the module had such a kernel.
    pub fn get(&self, name: &str) -> Option<(PackedKernel, &LaunchPlan)> {
        self.kernels.get(name).map(|(k, p)| (*k, p))
    }
    /// `(bytes, launches)` of the kernels launched so far (see [`Traffic`]).
    pub fn traffic(&self) -> (u64, u64) {
        (self.traffic.bytes.load(Ordering::Relaxed), self.traffic.launches.load(Ordering::Relaxed))
    }
    /// Names of the compiled kernels.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.kernels.keys().map(String::as_str)
    }
}

impl KernelLauncher for JitKernels {
    /// Runs kernel `kernel` on `args` with [`arrayc_runtime::launch::launch`] (argument and shape
    /// checks, chunked parallel execution on rayon's current pool); when it succeeds, adds its
    /// array arguments to [`JitKernels::traffic`].
    fn launch(&self, kernel: &str, args: &[RtValue]) -> Result<(), LaunchError> {
        let (entry, plan) = self.get(kernel).ok_or_else(|| format!("no compiled kernel @{kernel}"))?;
        launch(entry, plan, args)?;
        // Counted after the launch's checks: only in-bounds views of a launch that ran.
        let bytes = launch_traffic(args.iter().filter_map(|a| if let RtValue::View(v) = a { Some(v) } else { None }));
        self.traffic.bytes.fetch_add(bytes, Ordering::Relaxed);
        self.traffic.launches.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// Memory traffic of the kernels launched so far: the sum over launches of
/// [`arrayc_runtime::array::launch_traffic`] of the array arguments (an array both read and written
/// counts once, as STREAM counts it). Contracted temporaries never reach memory and are not
/// counted, so this is the cost of the executed partition in bytes: the data a roofline model
/// says the program must move.
#[derive(Debug, Default)]
pub struct Traffic {
    bytes: AtomicU64,
    launches: AtomicU64,
}

/// A context with every dialect, pass and LLVM translation registered, and a diagnostics sink.
fn context() -> (Context, Arc<Mutex<String>>) {
    register_all_passes();
    let context = kernel_codegen::context();
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

fn take(d: &Arc<Mutex<String>>) -> String {
    std::mem::take(&mut *d.lock().unwrap())
}

/// Builds the kernels of `m` for the CPU ([`kernel_codegen::cpu_kernels_module`]) and verifies
/// them, then (if `lower`) runs [`PIPELINE`] on them.
fn build_and_lower<'c>(
    context: &'c Context,
    diags: &Arc<Mutex<String>>,
    m: &ir::Module,
    lower: bool,
) -> Result<Module<'c>, JitError> {
    let mut module = kernel_codegen::cpu_kernels_module(context, m)?;
    if !module.as_operation().verify() {
        return Err(JitError::Verify { diagnostics: take(diags) });
    }
    if lower {
        let pm = PassManager::new(context);
        parse_pass_pipeline(pm.as_operation_pass_manager(), PIPELINE)
            .map_err(|e| JitError::Pipeline { message: e.to_string(), diagnostics: take(diags) })?;
        pm.run(&mut module).map_err(|e| JitError::Pipeline { message: e.to_string(), diagnostics: take(diags) })?;
    }
    Ok(module)
}

/// The kernels of `m` as MLIR text before lowering (`func`/`scf`/`memref`/`arith`/`math`), printed
/// after verification (for `arrayc emit --stage=mlir`).
///
/// Errors: a kernel the code generator rejects, or MLIR that does not verify.
pub fn kernels_mlir(m: &ir::Module) -> Result<String, JitError> {
    let (context, diags) = context();
    let module = build_and_lower(&context, &diags, m, false)?;
    Ok(module.as_operation().to_string())
}

/// LLVM IR text of the kernels of `m` after the lowering pipeline (for `arrayc emit --stage=llvm`).
///
/// Errors: as [`kernels_mlir`], a pipeline failure, or a failed translation to LLVM IR.
pub fn llvm_ir(m: &ir::Module) -> Result<String, JitError> {
    let (context, diags) = context();
    let module = build_and_lower(&context, &diags, m, true)?;
    // SAFETY: plain C API calls; the LLVM module and context are disposed before returning and the
    // string is copied before `LLVMDisposeMessage`.
    unsafe {
        let llctx = mlir_sys::LLVMContextCreate();
        let llmod = mlir_sys::mlirTranslateModuleToLLVMIR(module.as_operation().to_raw(), llctx);
        if llmod.is_null() {
            mlir_sys::LLVMContextDispose(llctx);
            return Err(JitError::Translate { diagnostics: take(&diags) });
        }
        let s = mlir_sys::LLVMPrintModuleToString(llmod);
        let out = std::ffi::CStr::from_ptr(s).to_string_lossy().into_owned();
        mlir_sys::LLVMDisposeMessage(s);
        mlir_sys::LLVMDisposeModule(llmod);
        mlir_sys::LLVMContextDispose(llctx);
        Ok(out)
    }
}

/// JIT-compiles every kernel of `m` (functions with `kernel == true`; host functions are ignored).
/// A module without kernels gives an empty [`JitKernels`] (no engine is created).
///
/// Errors: see [`JitError`]; MLIR diagnostics are included in the message.
pub fn compile(m: &ir::Module) -> Result<JitKernels, JitError> {
    let kernels: Vec<&ir::Func> = m.funcs.iter().filter(|f| f.kernel).collect();
    if kernels.is_empty() {
        return Ok(JitKernels { kernels: HashMap::new(), traffic: Traffic::default(), _engine: None, _context: None });
    }
    let (context, diags) = context();
    let engine = {
        let module = build_and_lower(&context, &diags, m, true)?;
        // SAFETY: the module is a valid LLVM-dialect module; no shared libraries are passed.
        let raw = unsafe { mlir_sys::mlirExecutionEngineCreate(module.to_raw(), 3, 0, std::ptr::null(), false, false) };
        if raw.ptr.is_null() {
            return Err(JitError::Engine { diagnostics: take(&diags) });
        }
        Engine(raw)
    };
    let mut map = HashMap::new();
    for f in kernels {
        let name = format!("_mlir_{}", f.name);
        // SAFETY: valid engine; the string ref points into `name`, alive for the call.
        let p = unsafe {
            mlir_sys::mlirExecutionEngineLookup(
                engine.0,
                mlir_sys::MlirStringRef { data: name.as_ptr() as *const _, length: name.len() },
            )
        };
        if p.is_null() {
            return Err(JitError::Lookup(f.name.clone()));
        }
        // SAFETY: `_mlir_<name>` is the packed wrapper `void(void**)` that the engine generated.
        let entry: PackedFn = unsafe { std::mem::transmute::<*mut std::ffi::c_void, PackedFn>(p) };
        let plan = launch_plan(f).map_err(|msg| CodegenError { kernel: f.name.clone(), msg })?;
        map.insert(f.name.clone(), (PackedKernel(entry), plan));
    }
    Ok(JitKernels { kernels: map, traffic: Traffic::default(), _engine: Some(engine), _context: Some(context) })
}
