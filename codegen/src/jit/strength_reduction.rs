//! LLVM's loop strength reduction (LSR, `loop-reduce`) only for the kernels where it is cheap.
//!
//! LLVM's code generator runs LSR on every loop just before instruction selection. Its search for
//! the cheapest formulae of a loop's address computations grows much faster than the number of
//! those computations, and a fused kernel reads and writes many views in one loop nest: at `lbm_2d`
//! (SMALL, one iteration) LSR was 1.32 G of the compile's 4.05 G instructions (callgrind), and
//! turning it off everywhere cut them by 39 %, with the run phase of the suite unchanged
//! (geometric mean 0.994 of 23 cases, warm, interleaved) except for a few kernels that it speeds
//! up (`leibnitz_pi` 1.15x and `sor` 1.09x slower without it): `benchmarks/REPORT-compile.md`.
//!
//! LSR's time per function grows with its loops (the vectoriser's main, remainder and
//! runtime-check versions of each loop nest): measured per kernel, functions of one to four loops
//! took 0.3-9 ms of LSR each and hold the kernels that gain from it (sor's stencil 9 % faster with
//! it), while those of five and more took 10-30 ms each (xraysim: 333 of its 403 ms of LSR) for no
//! measured gain. So the code generator's own LSR is turned off once per process
//! ([`disable_in_codegen`]), and [`reduce_where_cheap`] runs the same pass (with the
//! canonicalisation the code generator runs before it) on each function of a module with at most
//! [`MAX_LOOPS`] loops, after the optimisation pipeline, where the code generator would have run it.
//!
//! Only the CPU's object code is affected: a process that JIT-compiles CPU kernels never emits PTX
//! (one target per `arrayc` process), and the option is set by [`super::object_file`] alone.

use llvm_sys::core::{
    LLVMCountBasicBlocks, LLVMGetBasicBlockTerminator, LLVMGetFirstBasicBlock, LLVMGetFirstFunction,
    LLVMGetNextBasicBlock, LLVMGetNextFunction, LLVMGetNumSuccessors, LLVMGetSuccessor,
};
use llvm_sys::prelude::{LLVMModuleRef, LLVMValueRef};
use llvm_sys::target_machine::LLVMTargetMachineRef;
use llvm_sys::transforms::pass_builder::{
    LLVMCreatePassBuilderOptions, LLVMDisposePassBuilderOptions, LLVMRunPassesOnFunction,
};

/// The most loops (counted as [`loops`] does, in the optimised LLVM IR of one function) for which
/// LSR runs (measured: see the module docs).
pub const MAX_LOOPS: usize = 4;

/// The pipeline run on a function that keeps LSR: what LLVM's code generator runs at `-O1` and
/// above (`TargetPassConfig::addIRPasses`: freeze canonicalisation, then LSR).
pub const LSR_PIPELINE: &str = "loop(canon-freeze,loop-reduce)";

/// Turns off the LSR of LLVM's code generator for this process (`-disable-lsr`), once.
pub fn disable_in_codegen() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let args = [c"arrayc".as_ptr(), c"-disable-lsr".as_ptr()];
        // SAFETY: NUL-terminated arguments that outlive the call; LLVM's option parser runs once,
        // before any code generation of this process that reads the option (`object_file`).
        unsafe { llvm_sys::support::LLVMParseCommandLineOptions(args.len() as i32, args.as_ptr(), std::ptr::null()) }
    });
}

/// Runs [`LSR_PIPELINE`] on every function defined in `module` with at most [`MAX_LOOPS`] loops.
/// Errors: LLVM's message, should the pipeline fail.
///
/// # Safety
/// `module` and `tm` are valid and used by no other thread during the call.
pub unsafe fn reduce_where_cheap(module: LLVMModuleRef, tm: LLVMTargetMachineRef) -> Result<(), String> {
    let pipeline = std::ffi::CString::new(LSR_PIPELINE).expect("no NUL");
    // SAFETY: per the contract; the options are disposed once.
    unsafe {
        let options = LLVMCreatePassBuilderOptions();
        let mut f = LLVMGetFirstFunction(module);
        let mut result = Ok(());
        while !f.is_null() && result.is_ok() {
            if LLVMCountBasicBlocks(f) > 0 && loops(f) <= MAX_LOOPS {
                if let Some(e) = super::llvm_error(LLVMRunPassesOnFunction(f, pipeline.as_ptr(), tm, options)) {
                    result = Err(e);
                }
            }
            f = LLVMGetNextFunction(f);
        }
        LLVMDisposePassBuilderOptions(options);
        result
    }
}

/// The loops of function `f`, counted as its back edges: branches to the same block or to one
/// before it in the function's block order (LLVM's optimised code places a loop's header before
/// its latch). An estimate for [`reduce_where_cheap`]'s choice, never for correctness.
///
/// # Safety
/// `f` is a valid function.
pub unsafe fn loops(f: LLVMValueRef) -> usize {
    // SAFETY: walks the valid function's blocks without changing them.
    unsafe {
        let mut position = std::collections::HashMap::new();
        let mut b = LLVMGetFirstBasicBlock(f);
        while !b.is_null() {
            position.insert(b, position.len());
            b = LLVMGetNextBasicBlock(b);
        }
        let mut back = 0;
        for (&b, &at) in &position {
            let t = LLVMGetBasicBlockTerminator(b);
            if t.is_null() {
                continue;
            }
            back += (0..LLVMGetNumSuccessors(t))
                .filter(|&k| position.get(&LLVMGetSuccessor(t, k)).is_some_and(|&to| to <= at))
                .count();
        }
        back
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use llvm_sys::core::{
        LLVMContextCreate, LLVMContextDispose, LLVMCreateMemoryBufferWithMemoryRangeCopy, LLVMDisposeModule,
        LLVMGetNamedFunction,
    };

    /// A function without loops, one with a loop nest of two (a self-loop inside an outer loop),
    /// and one with five loops one after another.
    const IR: &str = r#"
define i64 @none(i64 %a) {
  %b = add i64 %a, 1
  ret i64 %b
}
define void @nest(ptr %p, i64 %n) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i1, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j1, %inner ]
  %k = add i64 %i, %j
  %q = getelementptr double, ptr %p, i64 %k
  store double 1.0, ptr %q
  %j1 = add i64 %j, 1
  %c = icmp slt i64 %j1, %n
  br i1 %c, label %inner, label %outer.latch
outer.latch:
  %i1 = add i64 %i, 1
  %d = icmp slt i64 %i1, %n
  br i1 %d, label %outer, label %exit
exit:
  ret void
}
"#;

    fn five_loops() -> String {
        let mut s = String::from("define void @five(ptr %p, i64 %n) {\nentry:\n  br label %l0\n");
        for k in 0..5 {
            let from = if k == 0 { "entry".to_string() } else { format!("l{}", k - 1) };
            s += &format!(
                "l{k}:\n  %i{k} = phi i64 [ 0, %{from} ], [ %n{k}, %l{k} ]\n  %q{k} = getelementptr double, ptr %p, i64 %i{k}\n  store double 0.0, ptr %q{k}\n  %n{k} = add i64 %i{k}, 1\n  %c{k} = icmp slt i64 %n{k}, %n\n  br i1 %c{k}, label %l{k}, label %{}\n",
                if k == 4 { "exit".to_string() } else { format!("l{}", k + 1) }
            );
        }
        s + "exit:\n  ret void\n}\n"
    }

    #[test]
    fn loops_are_counted_by_back_edges_and_lsr_keeps_the_module_valid() {
        let text = format!("{IR}{}", five_loops());
        // SAFETY: LLVM C API calls on a fresh context and the module parsed into it, disposed once.
        unsafe {
            crate::jit::register_once();
            let ctx = LLVMContextCreate();
            let buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text.as_ptr().cast(), text.len(), c"t.ll".as_ptr());
            let mut module = std::ptr::null_mut();
            let mut err = std::ptr::null_mut();
            assert_eq!(llvm_sys::ir_reader::LLVMParseIRInContext2(ctx, buf, &mut module, &mut err), 0, "IR parses");
            let count = |name: &std::ffi::CStr| loops(LLVMGetNamedFunction(module, name.as_ptr()));
            assert_eq!((count(c"none"), count(c"nest"), count(c"five")), (0, 2, 5));
            let tm = crate::jit::host_target_machine().expect("a target machine for the host");
            reduce_where_cheap(module, tm.0).expect("LSR runs");
            let mut msg = std::ptr::null_mut();
            let broken = llvm_sys::analysis::LLVMVerifyModule(
                module,
                llvm_sys::analysis::LLVMVerifierFailureAction::LLVMReturnStatusAction,
                &mut msg,
            );
            assert_eq!(broken, 0, "{}", crate::jit::take_message(msg));
            LLVMDisposeModule(module);
            LLVMContextDispose(ctx);
        }
    }
}
