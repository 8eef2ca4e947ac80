//! The GPU target's mapping run on the CPU, so that it is checked where no GPU is (CI has none):
//! every kernel is built as for the GPU ([`kernel_codegen::gpu`]), but as a plain function whose
//! grid coordinates are arguments ([`gpu::build_emulated_kernel`]), JIT-compiled like the CPU
//! kernels, and launched by calling it once per thread of the grid that `arrayc_runtime::gpu`
//! would launch (or of a given, smaller grid, so that the grid-stride loops go round more than
//! once). Only the thread-block reduction differs: each emulated thread keeps its own partial
//! result, and `<name>_combine` combines them all in order.
//!
//! [`Emulation`] is a [`KernelLauncher`], so the host executor runs whole programs on it; the
//! tests compare those runs with the CPU target's and NumPy (`tests/examples/test_gpu.py`). It
//! reports kernel faults as the GPU's asynchronous launches do (`arrayc_runtime::gpu`, "Launch"):
//! a launch that faults returns, later launches run, and the first fault comes out of the next wait
//! (`host_read`, `host_write`, `finish`), so that the executor's handling of late faults is tested
//! where there is no GPU.

use crate::jit::{context, load_object, lower_to_llvm, object_file, take, Code, JitError};
use crate::kernel_codegen::{self, gpu, CodegenError};
use arrayc_core::abi::{
    acc_dtype, fault_cell_descriptor, vector_descriptor, KernelArg, KernelFault, Target, COMBINE_SUFFIX, GRID_COORDS,
    NO_FAULT,
};
use arrayc_dialect::ir;
use arrayc_passes::kernel_layout::{launch_plan, LaunchPlan};
use arrayc_runtime::array::{Traffic, View};
use arrayc_runtime::gpu::{launch_geometry, UNKNOWN_DEVICE};
use arrayc_runtime::launch::{out_param, packed_words, scan_carries, validate, LaunchError, PackedFn};
use arrayc_runtime::value::{KernelLauncher, RtValue};
use melior::{ir::operation::OperationLike, ir::Module};
use std::collections::HashMap;

/// The grid an [`Emulation`] runs: the one the GPU runtime would choose ([`launch_geometry`] for an [`UNKNOWN_DEVICE`]), or a fixed
/// `(grid x, grid y, threads per block)`.
#[derive(Clone, Copy, Debug)]
pub enum Grid {
    Runtime,
    Fixed(u32, u32, u32),
}

/// Emulated GPU kernels, compiled for the CPU: a [`KernelLauncher`].
pub struct Emulation {
    grid: Grid,
    kernels: HashMap<String, (PackedFn, Option<PackedFn>, LaunchPlan)>,
    traffic: Traffic,
    /// The first fault of the launches since the last wait.
    pending: std::sync::Mutex<Option<KernelFault>>,
    _code: Code,
}

impl Emulation {
    /// Compiles the emulation of every kernel of `m`, to run on `grid`.
    ///
    /// Errors: as `jit::compile`.
    pub fn compile(m: &ir::Module, grid: Grid) -> Result<Emulation, JitError> {
        let (context, diags) = context(true);
        let kernels = kernel_codegen::kernels_of(m);
        let object = {
            let mut module = Module::new(melior::ir::Location::unknown(&context));
            for f in &kernels {
                gpu::build_emulated_kernel(&context, &module, f)?;
            }
            if !module.as_operation().verify() {
                return Err(JitError::Verify { diagnostics: take(&diags) });
            }
            lower_to_llvm(&context, &diags, &mut module)?;
            let names: Vec<&str> = kernels.iter().map(|f| f.name.as_str()).collect();
            object_file(&module, &diags, &names)?
        };
        let code = load_object(&object).map_err(|e| JitError::Engine { diagnostics: e.to_string() })?;
        let mut table = HashMap::new();
        for f in kernels {
            let plan = launch_plan(f).map_err(|e| CodegenError { kernel: f.name.clone(), msg: e.0 })?;
            let lookup = |name: &str| code.packed(name).ok_or_else(|| JitError::Lookup(name.to_string()));
            let main = lookup(&f.name)?;
            let combine = if plan.layout.partials_reductions().is_empty() {
                None
            } else {
                Some(lookup(&format!("{}{COMBINE_SUFFIX}", f.name))?)
            };
            table.insert(f.name.clone(), (main, combine, plan));
        }
        Ok(Emulation { grid, kernels: table, traffic: Traffic::default(), pending: Default::default(), _code: code })
    }
}

impl KernelLauncher for Emulation {
    fn traffic(&self) -> Option<(u64, u64)> {
        Some(self.traffic.total())
    }

    /// True, so that the executor waits ([`host_read`](Self::host_read)) before the host touches
    /// array elements, as on the GPU; the arrays themselves are the host's.
    fn device_memory(&self) -> bool {
        true
    }

    fn finish(&self) -> Result<(), LaunchError> {
        let pending = self.pending.lock().map_err(|_| LaunchError::Invalid("emulation state poisoned".into()))?.take();
        pending.map_or(Ok(()), |f| Err(LaunchError::Fault(f)))
    }

    fn host_read(&self, _v: &View) -> Result<(), LaunchError> {
        self.finish()
    }

    fn host_write(&self, _v: &View) -> Result<(), LaunchError> {
        self.finish()
    }

    /// Runs every thread of the grid, one after the other, as `arrayc_runtime::gpu` launches the
    /// kernel (with the fault cell and the partial results in host memory).
    fn launch(&self, kernel: &str, args: &[RtValue]) -> Result<(), LaunchError> {
        let (main, combine, plan) =
            self.kernels.get(kernel).ok_or_else(|| LaunchError::Invalid(format!("no kernel @{kernel}")))?;
        let checked = validate(plan, args)?;
        let Some(space) = checked.space else { return Ok(()) };
        let layout = &plan.layout;
        let abi = plan.abi(Target::GpuEmulated);
        let mut words = packed_words(&abi, args, |v| v.base.as_ptr() as u64);
        let mut fault = [NO_FAULT];
        abi.put(&mut words, KernelArg::FaultCell, &fault_cell_descriptor(fault.as_mut_ptr() as u64));
        let runtime = launch_geometry(layout, &space, UNKNOWN_DEVICE);
        let (gx, gy, threads) = match (self.grid, runtime) {
            (_, None) => (0, 0, 0),
            (Grid::Runtime, Some(g)) => g,
            (Grid::Fixed(..), Some(g)) if layout.in_order_on_gpu() => g,
            (Grid::Fixed(x, y, t), Some(_)) => (x, y, t),
        };
        let nthreads = gx as usize * gy as usize * threads as usize;
        // A chunked scan's carries: one per scan and thread (`scan_carries`).
        let scan_kinds = if layout.chunked_scan { layout.scan_kinds() } else { vec![] };
        let mut carries = vec![0i64; nthreads * scan_kinds.len()];
        abi.put(&mut words, KernelArg::ScanCarries, &vector_descriptor(carries.as_mut_ptr() as u64, carries.len()));
        abi.set_scan_pass(&mut words, 0, true);
        let mut partials: Vec<View> = vec![];
        for (k, r) in layout.partials_reductions().iter().enumerate() {
            if combine.is_none() || abi.slot(KernelArg::Partials(k)).is_none() {
                continue;
            }
            let out = args[out_param(plan, r)].view().expect("validated: a view");
            let p = View::uninitialised(acc_dtype(r.kind, out.dtype), &[nthreads as i64])
                .map_err(|e| LaunchError::Invalid(e.to_string()))?;
            abi.put(&mut words, KernelArg::Partials(k), &vector_descriptor(p.base.as_ptr() as u64, nthreads));
            partials.push(p);
        }
        // `grid`: the values of `GRID_COORDS`, in order.
        let call = |f: PackedFn, grid: [u64; GRID_COORDS.len()], words: &[u64]| {
            let mut w = words.to_vec();
            for (c, x) in GRID_COORDS.into_iter().zip(grid) {
                abi.put(&mut w, KernelArg::Grid(c), &[x]);
            }
            let mut ptrs: Vec<*mut ()> = w.iter_mut().map(|x| x as *mut u64 as *mut ()).collect();
            // SAFETY: the words are the emulated kernel's arguments as its `KernelAbi` for
            // `Target::GpuEmulated` lays them out (the parameters validated against the plan);
            // every view lies inside its live base array, the fault cell, the partials and the
            // carries outlive the call.
            unsafe { f(ptrs.as_mut_ptr()) }
        };
        let grid = |words: &[u64]| {
            for by in 0..gy as u64 {
                for bx in 0..gx as u64 {
                    for t in 0..threads as u64 {
                        call(*main, [bx, by, t, gx as u64, gy as u64, threads as u64], words);
                    }
                }
            }
        };
        if layout.chunked_scan {
            // The totals pass, then the carries, as `arrayc_runtime::gpu` computes them.
            grid(&words);
            scan_carries(&scan_kinds, &mut carries);
            abi.set_scan_pass(&mut words, 0, false);
        }
        grid(&words);
        if let Some(c) = combine {
            call(*c, [0, 0, 0, 1, 1, 1], &words);
        }
        drop(partials);
        self.traffic.count(args);
        if fault[0] != NO_FAULT {
            let mut pending =
                self.pending.lock().map_err(|_| LaunchError::Invalid("emulation state poisoned".into()))?;
            pending.get_or_insert_with(|| KernelFault::clone(&layout.faults[fault[0] as usize]));
        }
        Ok(())
    }
}
