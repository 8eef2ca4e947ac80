//! Compilation of a module's kernels for the GPU target: the `gpu` dialect
//! ([`kernel_codegen::gpu`]) lowered to NVVM and serialised to PTX for `sm_90` by MLIR's
//! `gpu-module-to-binary` (LLVM's NVPTX back end; no CUDA installation needed, except libdevice for
//! math functions). The CUDA driver JIT-compiles the PTX for the device it runs on (`arrayc_runtime::gpu`).
//!
//! Math functions that NVPTX has an instruction for (`abs`, `sqrt`, `fma`, `rint`, `floor`, `ceil`,
//! `trunc`, `copysign`) are built as calls of LLVM's own intrinsics (`kernel_codegen::gpu`), so the
//! PTX uses those instructions. The others (`sin`, `tanh`, `**` of floats, ...) become calls to
//! NVIDIA's libdevice (`__nv_sin`, ...), which `gpu-module-to-binary` links from a CUDA toolkit:
//! [`cuda_toolkit`] finds one (`crate::cuda_toolkit`). Without it, a module that needs libdevice is
//! an error ([`JitError::NoLibdevice`], listing the places looked at) rather than PTX with
//! unresolved functions; a module that needs none compiles without a toolkit.

use crate::jit::{context, run_passes, take, CacheOutcome, JitError};
use crate::kernel_codegen::{self, gpu, CodegenError};
use arrayc_dialect::ir;
use arrayc_passes::disk_cache::{compiler_identity, DiskCache, Key, Lookup};
use arrayc_passes::kernel_layout::{launch_plan, LaunchPlan};
use melior::{
    ir::{
        attribute::{ArrayAttribute, AttributeLike},
        operation::{OperationLike, OperationMutLike, OperationRefMut},
        BlockLike, Module,
    },
    Context,
};

/// The GPU architecture the PTX is generated for (NVIDIA Hopper, H100), and its PTX ISA version.
pub const CHIP: &str = "sm_90";
/// The PTX ISA feature the NVPTX back end targets (PTX 8.0, the first with `sm_90`).
pub const PTX_FEATURES: &str = "+ptx80";

use crate::cuda_toolkit::{cuda_toolkit, cuda_toolkit_or_places};

/// The first part of the lowering: `math.ipowi` to a helper function (`convert-math-to-funcs`, as on
/// the CPU). That pass runs on builtin modules only and puts its helpers there; [`ptx`] moves them
/// into the `gpu.module`, whose kernels call them, before [`pipeline`].
const MATH_TO_FUNCS: &str = "builtin.module(convert-math-to-funcs)";

/// The lowering of the `gpu.module` to NVVM, then PTX (MLIR 22); `toolkit` is `toolkit=<dir>` or empty.
fn pipeline(toolkit: &str) -> String {
    format!(
        "builtin.module(\
         gpu.module(expand-strided-metadata, lower-affine, convert-scf-to-cf, convert-gpu-to-nvvm, \
         convert-arith-to-llvm, convert-index-to-llvm, canonicalize, cse, reconcile-unrealized-casts), \
         nvvm-attach-target{{chip={CHIP} features={PTX_FEATURES} O=3}}, \
         gpu-module-to-binary{{format=isa {toolkit}}})"
    )
}

/// Builds the `gpu` dialect module of `kernels` and verifies it.
fn build<'c>(
    context: &'c Context,
    diags: &std::sync::Arc<std::sync::Mutex<String>>,
    kernels: &[&ir::Func],
) -> Result<Module<'c>, JitError> {
    let module = gpu::gpu_container(context);
    for f in kernels {
        gpu::build_gpu_kernel(context, &module, f)?;
    }
    if !module.as_operation().verify() {
        return Err(JitError::Verify { diagnostics: take(diags) });
    }
    Ok(module)
}

/// The kernels of `m` in the `gpu` dialect, before lowering (for `arrayc emit --stage=gpu`).
///
/// Errors: a kernel the code generator rejects, or MLIR that does not verify.
pub fn gpu_mlir(m: &ir::Module) -> Result<String, JitError> {
    let (context, diags) = context(true);
    let module = build(&context, &diags, &kernel_codegen::kernels_of(m))?;
    Ok(module.as_operation().to_string())
}

/// The PTX of every kernel of `m` ([`ptx`]) and the launch plan of each, for
/// `arrayc_runtime::gpu::Gpu::load`, with what the compile cache did. With `cache`, the PTX is looked
/// up by [`cache_key`] first (a hit runs no MLIR pass) and stored after a miss; a corrupt entry is
/// replaced, a failed store only reported, as for the CPU's object code.
///
/// Errors: as [`ptx`].
pub fn compile(m: &ir::Module, cache: Option<&DiskCache>) -> Result<(String, Vec<LaunchPlan>, CacheOutcome), JitError> {
    let plans = kernel_codegen::kernels_of(m)
        .into_iter()
        .map(|f| launch_plan(f).map_err(|e| CodegenError { kernel: f.name.clone(), msg: e.0 }))
        .collect::<Result<_, _>>()?;
    let Some(cache) = cache else { return Ok((ptx(m)?, plans, CacheOutcome::Off)) };
    let key = cache_key(&gpu_mlir(m)?);
    let mut outcome = match cache.get(&key) {
        Lookup::Hit(bytes) => match String::from_utf8(bytes) {
            Ok(text) => return Ok((text, plans, CacheOutcome::Hit)),
            Err(_) => CacheOutcome::Replaced("cached PTX is not UTF-8".into()),
        },
        Lookup::Miss => CacheOutcome::Miss,
        Lookup::Corrupt(why) => CacheOutcome::Replaced(why),
    };
    let text = ptx(m)?;
    if let Err(e) = cache.put(&key, text.as_bytes()) {
        outcome = CacheOutcome::NotStored(e.to_string());
    }
    Ok((text, plans, outcome))
}

/// The compile cache's key of the PTX of kernels whose `gpu` dialect form is `gpu_mlir`: that form,
/// the lowering pipeline, the chip, the CUDA toolkit whose libdevice is linked, and the compiler.
pub fn cache_key(gpu_mlir: &str) -> Key {
    let toolkit = cuda_toolkit().map(|p| p.display().to_string()).unwrap_or_default();
    Key::of(&[
        b"arrayc PTX v1",
        compiler_identity().as_bytes(),
        CHIP.as_bytes(),
        PTX_FEATURES.as_bytes(),
        toolkit.as_bytes(),
        MATH_TO_FUNCS.as_bytes(),
        pipeline("").as_bytes(),
        gpu_mlir.as_bytes(),
    ])
}

/// The PTX of every kernel of `m` (one PTX module with an `.entry` per kernel, and one more per
/// reduction over everything, `<name>_combine`), for [`CHIP`].
///
/// Errors: as [`gpu_mlir`]; a pipeline failure; [`JitError::NoLibdevice`] when the kernels call
/// libdevice functions and no CUDA toolkit is found ([`cuda_toolkit`]).
pub fn ptx(m: &ir::Module) -> Result<String, JitError> {
    let (context, diags) = context(true);
    let mut module = build(&context, &diags, &kernel_codegen::kernels_of(m))?;
    let toolkit = cuda_toolkit_or_places();
    let option = toolkit.as_ref().map_or(String::new(), |t| format!("toolkit={}", t.display()));
    // Unverified: until the helpers move, the kernels' calls do not resolve inside the gpu.module.
    run_passes(&context, &diags, &mut module, MATH_TO_FUNCS, false)?;
    let mut helpers = vec![];
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        if op.name().as_string_ref().as_str() == Ok("func.func") {
            helpers.push(op.to_raw());
        }
        next = op.next_in_block();
    }
    if let Some(first_kernel) = gpu::gpu_body(&module).first_operation() {
        for raw in helpers {
            // SAFETY: a top-level operation of `module`, alive; moving it transfers it to the
            // gpu.module's block, which `module` owns too.
            unsafe { OperationRefMut::from_raw(raw) }.move_before(first_kernel);
        }
    }
    run_passes(&context, &diags, &mut module, &pipeline(&option), true)?;
    let binary = module.body().first_operation().expect("the gpu.binary");
    let objects = ArrayAttribute::try_from(binary.attribute("objects").map_err(|_| JitError::Pipeline {
        message: "gpu-module-to-binary produced no objects".into(),
        diagnostics: take(&diags),
    })?)
    .map_err(|_| JitError::Pipeline { message: "`objects` is not an array".into(), diagnostics: String::new() })?;
    let object = objects.element(0).map_err(|_| JitError::Pipeline {
        message: "gpu-module-to-binary produced no object".into(),
        diagnostics: String::new(),
    })?;
    // SAFETY: `object` is a `#gpu.object` attribute (the only kind `gpu.binary` holds); the returned
    // string reference lives as long as the context and is copied at once.
    let text = unsafe {
        let s = mlir_sys::mlirGPUObjectAttrGetObject(object.to_raw());
        String::from_utf8_lossy(std::slice::from_raw_parts(s.data as *const u8, s.length)).into_owned()
    };
    let missing: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix(".extern .func"))
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("__nv_")))
        .map(|w| w.trim_end_matches('('))
        .collect();
    if !missing.is_empty() {
        let places = toolkit.err().unwrap_or_default();
        return Err(JitError::NoLibdevice { functions: missing.join(", "), places });
    }
    Ok(text)
}
