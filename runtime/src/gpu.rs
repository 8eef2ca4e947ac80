//! GPU execution: PTX kernels (`arrayc_codegen::ptx`) loaded and launched through the CUDA driver
//! API, with arrays kept in device memory between kernels.
//!
//! The driver is `cudarc`'s binding, loaded when [`Gpu::open`] runs (`dynamic-loading`): arrayc
//! builds, links and runs on machines without CUDA, and only `--target gpu` needs `libcuda.so` and
//! a device. [`Gpu::open`] says which of the two is missing.
//!
//! # Memory model (Kristensen et al. 2016, Sec. IV: SYNC)
//!
//! The host owns every base array ([`Buffer`]); the device holds a *mirror* of each base array a
//! kernel has used, and each side knows whether its copy is current:
//! * a launch first uploads the base arrays of its views whose device copy is stale (or missing),
//!   and afterwards marks the host copies of the arrays it writes stale;
//! * the host reading an array (SYNC: `arr.load`, printing, the results the driver prints or writes
//!   as `.npy`) downloads it first if its host copy is stale ([`KernelLauncher::host_read`]);
//! * the host writing an element makes its host copy current, writes it, and marks the device copy
//!   stale ([`KernelLauncher::host_write`]);
//! * a new array (`arr.new`: unspecified contents) needs no upload: its device copy is as good as
//!   the host's ([`KernelLauncher::fresh`]).
//!
//! So between two host reads, a sequence of kernels moves no data between host and device. Copies
//! are whole base arrays. The mirror of a base array the host has freed goes to a pool of device
//! allocations, which new mirrors reuse (as the CPU side pools huge-page mappings).
//!
//! # Launch
//!
//! Launches are asynchronous: they queue on the device (the context's default stream, so they run
//! in order) and the host goes on. Each launch of a kernel that can fault gets a cell of its own in
//! the fault slots ([`FAULT_SLOTS`] `i64`s on the device, all [`NO_FAULT`] while nothing faulted).
//! The host waits ([`KernelLauncher::finish`]) only where it must: before it reads or writes array
//! elements (a copy to the host, a scalar read, a host operation), before it prints, before it
//! reports an error of its own, at the end of the run, and when the slots are all in use. A wait
//! reads the slots back and reports the fault of the first launch, in launch order, that faulted,
//! with its own source line: what a launch-by-launch synchronisation would have reported, since
//! nothing the host did in between is visible (issue 33). With `CUDA_LAUNCH_BLOCKING=1` in the
//! environment (CUDA's own switch for synchronous launches) every launch is waited for at once.
//!
//! [`geometry`] picks the grid: thread blocks of up to [`BLOCK_THREADS`] threads along the
//! iteration space's last dimension, blocks along x over it and along y over the other dimensions
//! (flattened); the kernels' grid-stride loops cover any space with any grid
//! (`arrayc_codegen::kernel_codegen::gpu`). A reduction over everything runs in two launches: the
//! kernel, which writes one partial result per thread block into a device buffer, then
//! `<name>_combine` ([`COMBINE_SUFFIX`]) on one block of [`BLOCK_THREADS`], which combines them. A
//! chunked scan ([`KernelLayout::chunked_scan`]) runs its kernel twice: the totals pass, whose
//! per-thread totals the host turns into carries ([`scan_carries`]), then the final pass.

use crate::array::{Buffer, Traffic, View};
use crate::launch::{out_param, packed_words, scan_carries, validate, LaunchError};
use crate::value::{DeviceTime, KernelLauncher, RtValue};
use arrayc_core::abi::{
    acc_dtype, fault_cell_descriptor, vector_descriptor, KernelArg, KernelFault, KernelLayout, LaunchPlan, Target,
    NO_FAULT,
};
use cudarc::driver::{result, sys};
use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

pub use arrayc_core::abi::COMBINE_SUFFIX;

/// Threads per block at most (a multiple of the warp size, 32).
pub const BLOCK_THREADS: u32 = 256;

/// Thread blocks per launch at most: enough to fill an H100 (132 multiprocessors of up to 8 blocks
/// of 256 threads each) twice; the grid-stride loops do the rest. This also bounds the partial
/// results of a reduction over everything.
pub const MAX_BLOCKS: u32 = 2048;

/// The size (bytes) from which a copy to the host first touches its destination's pages in
/// parallel ([`prefault`]).
const PREFAULT_BYTES: usize = 16 << 20;

/// Touches every 4 KiB page of `host`, a buffer of at least [`PREFAULT_BYTES`] about to be
/// overwritten whole, from all cores, so that the operating system maps (and zeroes) its pages in
/// parallel rather than page by page inside the driver's copy. A kernel's result is often a new
/// array the host never touched: on an H100 machine with 16 cores, copying heat's 269 MB of results
/// took 62-77 ms without this and 24-27 ms with it (pinning the pages as well, `cuMemHostRegister`,
/// gained 1-3 ms more and was not kept; `docs/gpu.md`).
fn prefault(host: &mut [u8]) {
    if host.len() >= PREFAULT_BYTES {
        use rayon::prelude::*;
        host.par_chunks_mut(4096).for_each(|page| page[0] = 0);
    }
}

/// Bytes of freed device allocations kept for reuse at most; beyond it they are freed.
const POOL_MAX_BYTES: usize = 4 << 30;

/// Launches that may be in flight with a fault cell each before the host waits for them (see
/// "Launch" in the module docs): 8 KiB of device memory.
pub const FAULT_SLOTS: usize = 1024;

/// Why the GPU cannot be used or a CUDA call failed.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    #[error(
        "--target gpu needs the NVIDIA driver, but libcuda.so was not found (install the NVIDIA driver, or run with --target cpu)"
    )]
    NoDriver,
    #[error("--target gpu needs a CUDA device, but the driver reports none: {0} (run with --target cpu)")]
    NoDevice(String),
    #[error("CUDA: {0}")]
    Driver(String),
}

/// [`GpuError::NoDriver`] unless `libcuda.so` can be loaded.
fn driver_present() -> Result<(), GpuError> {
    // SAFETY: only tries to load the library.
    if unsafe { sys::is_culib_present() } {
        Ok(())
    } else {
        Err(GpuError::NoDriver)
    }
}

/// A driver error with its name and description.
fn driver(what: &str, e: result::DriverError) -> GpuError {
    GpuError::Driver(format!("{what}: {e:?}"))
}

/// What a kernel's launches may use of the device (from [`Gpu::device_shape`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeviceShape {
    /// The threads of the kernel the device runs at once: the most a launch runs.
    pub resident_threads: u64,
    /// The device's multiprocessors: a launch over a small space uses blocks small enough (down to
    /// one warp) to give each of them a block where the space allows.
    pub multiprocessors: u64,
}

/// The shape assumed where the device's own is not known (the emulation, a failed query):
/// [`MAX_BLOCKS`] blocks of [`BLOCK_THREADS`], one multiprocessor.
pub const UNKNOWN_DEVICE: DeviceShape =
    DeviceShape { resident_threads: MAX_BLOCKS as u64 * BLOCK_THREADS as u64, multiprocessors: 1 };

/// The grid and block of a launch over an iteration space of `space` (elements per dimension) on a
/// device of shape `device`: `(grid x, grid y, threads per block)`; `None` for an empty space.
/// Blocks are of 32 to [`BLOCK_THREADS`] threads (a power of two covering the last dimension, halved
/// while the grid has fewer blocks than the device has multiprocessors), and a launch runs at most
/// `device.resident_threads` threads in at most [`MAX_BLOCKS`] blocks; the kernels' grid-stride
/// loops cover the rest of the space.
pub fn geometry(space: &[i64], device: DeviceShape) -> Option<(u32, u32, u32)> {
    if space.contains(&0) {
        return None;
    }
    let inner = space.last().copied().unwrap_or(1) as u64;
    let rows: u64 = space.iter().rev().skip(1).map(|&n| n as u64).product();
    let mut threads = inner.next_power_of_two().clamp(32, BLOCK_THREADS as u64);
    while threads > 32 && inner.div_ceil(threads).saturating_mul(rows) < device.multiprocessors {
        threads /= 2;
    }
    let max_blocks = (device.resident_threads / threads).clamp(1, MAX_BLOCKS as u64);
    let gx = inner.div_ceil(threads).min(max_blocks);
    let gy = rows.min((max_blocks / gx).max(1)).min(65535);
    Some((gx as u32, gy as u32, threads as u32))
}

/// The grid and block of a launch of a kernel of layout `layout` over the iteration space `space`
/// on a device of shape `device`: [`geometry`] of its [`grid_space`], or one thread for a block
/// that runs in order ([`KernelLayout::in_order_on_gpu`]: a scatter that sets; its grid-stride
/// loops then visit the space in row-major order). `None` for an empty space.
pub fn launch_geometry(layout: &KernelLayout, space: &[i64], device: DeviceShape) -> Option<(u32, u32, u32)> {
    let g = geometry(&grid_space(layout, space), device)?;
    Some(if layout.in_order_on_gpu() { (1, 1, 1) } else { g })
}

/// The elements of its 1-d space that one thread of a [`KernelLayout::chunked_scan`] takes, about.
pub const SCAN_THREAD_ELEMS: i64 = 256;

/// The space a kernel's grid covers (elements per dimension), for a block of layout `layout` over
/// the iteration space `space`: the space itself, or, for reductions along an axis and for scans,
/// the space less the axis (each thread loops over the axis), or, for a chunked scan, one element
/// per [`SCAN_THREAD_ELEMS`] of the space (each thread takes a range of it).
pub fn grid_space(layout: &KernelLayout, space: &[i64]) -> Vec<i64> {
    if layout.chunked_scan {
        return space.iter().map(|&n| (n + SCAN_THREAD_ELEMS - 1) / SCAN_THREAD_ELEMS).collect();
    }
    let axis = match layout.reduce {
        Some(r) if !layout.reduces_all => {
            Some(r.axis.expect("a reduction that does not reduce everything has an axis"))
        }
        Some(_) => None,
        None => layout.scan_axis(),
    };
    match axis {
        Some(a) => space.iter().enumerate().filter(|&(d, _)| d != a).map(|(_, &n)| n).collect(),
        None => space.to_vec(),
    }
}

/// A [`Gpu::open`] under way on a thread of its own ([`Gpu::open_in_background`]). Dropped without
/// [`wait`](Self::wait), it still waits for the thread (and closes what it opened), so that no
/// thread is inside the CUDA driver when the process exits.
pub struct GpuOpening(Option<std::thread::JoinHandle<Result<Gpu, GpuError>>>);

impl GpuOpening {
    /// The opened GPU, once the thread is done.
    ///
    /// Errors: as [`Gpu::open`]; [`GpuError::Driver`] if the thread panicked.
    pub fn wait(mut self) -> Result<Gpu, GpuError> {
        let thread = self.0.take().expect("waited for once");
        thread.join().unwrap_or_else(|_| Err(GpuError::Driver("the thread opening the GPU panicked".into())))
    }
}

impl Drop for GpuOpening {
    fn drop(&mut self) {
        if let Some(thread) = self.0.take() {
            let _ = thread.join();
        }
    }
}

/// The device copy of one base array.
struct Mirror {
    /// The host array; dead once the host freed it (the mirror then goes to the pool).
    host: Weak<Buffer>,
    ptr: sys::CUdeviceptr,
    bytes: usize,
    /// The host's copy is older than the device's (a kernel wrote the array since the last download).
    host_stale: bool,
    /// The device's copy is older than the host's (the host wrote since the last upload).
    device_stale: bool,
}

/// Device memory: the mirrors by base array (the address of its `Arc`, kept alive by the `Weak`),
/// and freed allocations `(bytes, pointer)` for reuse.
#[derive(Default)]
struct Memory {
    mirrors: HashMap<usize, Mirror>,
    pool: Vec<(usize, sys::CUdeviceptr)>,
    pool_bytes: usize,
    /// The copies and kernel runs so far.
    time: DeviceTime,
    /// The fault slots ([`FAULT_SLOTS`] `i64`s), allocated at the first launch that needs one.
    fault_slots: Option<sys::CUdeviceptr>,
    /// The kernels (indices into [`Gpu::kernels`]) of the launches not yet waited for that have a
    /// fault cell: launch `i` uses slot `i`.
    pending: Vec<usize>,
    /// When the device got work after the host last waited for it (`None`: idle).
    busy_since: Option<Instant>,
    /// The last kernel launched (an index into [`Gpu::kernels`]), named by a driver error that a
    /// wait reports.
    last_kernel: Option<usize>,
}

/// The GPU, its loaded kernels and its memory: a [`KernelLauncher`] for the executor.
pub struct Gpu {
    context: sys::CUcontext,
    device: sys::CUdevice,
    name: String,
    module: Option<sys::CUmodule>,
    /// The loaded kernels, in load order: the kernel, its `_combine` kernel, its plan, and what its
    /// launches may use of the device ([`device_shape`](Self::device_shape)).
    kernels: Vec<(sys::CUfunction, Option<sys::CUfunction>, LaunchPlan, DeviceShape)>,
    /// Each kernel's index in `kernels`, by name.
    by_name: HashMap<String, usize>,
    /// The device's multiprocessors (`None`: the driver cannot say), queried once at open.
    multiprocessors: Option<u64>,
    /// `ARRAYC_GPU_MAX_BLOCKS=N`, read once at open: a fixed grid of N blocks instead of the
    /// occupancy's ([`device_shape`](Self::device_shape)).
    max_blocks: Option<u64>,
    memory: Mutex<Memory>,
    traffic: Traffic,
    /// `CUDA_LAUNCH_BLOCKING=1`: wait for every launch at once.
    blocking: bool,
}

// SAFETY: the driver's handles may be used from any thread once the context is current there
// (`Gpu::current`, called before every use); the memory state is behind a mutex.
unsafe impl Send for Gpu {}
// SAFETY: as for `Send`: every method makes the context current on its thread first, and the only
// mutable state (`memory`) is behind a mutex.
unsafe impl Sync for Gpu {}

impl Gpu {
    /// Opens device 0 (its primary context).
    ///
    /// Errors: [`GpuError::NoDriver`] without `libcuda.so`; [`GpuError::NoDevice`] when the driver
    /// finds no device; [`GpuError::Driver`] for another failure.
    pub fn open() -> Result<Gpu, GpuError> {
        driver_present()?;
        result::init().map_err(|e| GpuError::NoDevice(format!("{e:?}")))?;
        let count = result::device::get_count().map_err(|e| GpuError::NoDevice(format!("{e:?}")))?;
        if count < 1 {
            return Err(GpuError::NoDevice("0 devices".into()));
        }
        let device = result::device::get(0).map_err(|e| driver("cuDeviceGet", e))?;
        // SAFETY: `device` is a valid device handle.
        let context =
            unsafe { result::primary_ctx::retain(device) }.map_err(|e| driver("cuDevicePrimaryCtxRetain", e))?;
        let name = result::device::get_name(device).unwrap_or_else(|_| "CUDA device 0".into());
        // SAFETY: `device` is a valid device handle.
        let sms = unsafe {
            result::device::get_attribute(device, sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        };
        let gpu = Gpu {
            context,
            device,
            name,
            module: None,
            kernels: vec![],
            by_name: HashMap::new(),
            multiprocessors: sms.ok().filter(|&s| s > 0).map(|s| s as u64),
            max_blocks: std::env::var("ARRAYC_GPU_MAX_BLOCKS").ok().and_then(|v| v.trim().parse::<u64>().ok()),
            memory: Mutex::default(),
            traffic: Traffic::default(),
            blocking: std::env::var("CUDA_LAUNCH_BLOCKING").is_ok_and(|v| v.trim() == "1"),
        };
        gpu.current()?;
        Ok(gpu)
    }

    /// Starts [`open`](Self::open) on a thread of its own, so that a driver can compile while the
    /// CUDA driver initialises (0.2-0.34 s per process on an H100 machine); [`GpuOpening::wait`]
    /// gives the result.
    ///
    /// Errors: [`GpuError::NoDriver`] at once, without `libcuda.so`; the other errors of `open`
    /// come from `wait`.
    pub fn open_in_background() -> Result<GpuOpening, GpuError> {
        driver_present()?;
        let thread = std::thread::Builder::new()
            .name("arrayc-gpu-open".into())
            .spawn(Gpu::open)
            .map_err(|e| GpuError::Driver(format!("cannot start a thread to open the GPU: {e}")))?;
        Ok(GpuOpening(Some(thread)))
    }

    /// The device's name (e.g. `NVIDIA H100 80GB HBM3`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Makes the context current on the calling thread.
    fn current(&self) -> Result<(), GpuError> {
        // SAFETY: `context` is the retained primary context, alive until `drop`.
        unsafe { result::ctx::set_current(self.context) }.map_err(|e| driver("cuCtxSetCurrent", e))
    }

    /// Loads `ptx` (one module with every kernel of `plans`, and `<name>_combine` for each that
    /// reduces over everything); the driver compiles it for the device.
    ///
    /// Errors: the driver rejects the PTX or a kernel is missing from it.
    pub fn load(&mut self, ptx: &str, plans: Vec<LaunchPlan>) -> Result<(), GpuError> {
        self.current()?;
        let image = CString::new(ptx).map_err(|_| GpuError::Driver("PTX with a NUL byte".into()))?;
        // SAFETY: `image` is a NUL-terminated PTX text, alive for the call.
        let module = unsafe { result::module::load_data(image.as_ptr() as *const c_void) }
            .map_err(|e| driver("cuModuleLoadData (the driver's PTX compiler)", e))?;
        self.module = Some(module);
        for plan in plans {
            let function = |name: &str| {
                let c = CString::new(name).expect("a kernel name without NUL");
                // SAFETY: `module` was just loaded and is not unloaded before `self` drops.
                unsafe { result::module::get_function(module, c) }.map_err(|e| driver(&format!("kernel @{name}"), e))
            };
            let main = function(&plan.name)?;
            let combine = if plan.layout.partials_reductions().is_empty() {
                None
            } else {
                Some(function(&format!("{}{COMBINE_SUFFIX}", plan.name))?)
            };
            let shape = self.device_shape(main);
            self.by_name.insert(plan.name.clone(), self.kernels.len());
            self.kernels.push((main, combine, plan, shape));
        }
        Ok(())
    }

    /// What kernel `f`'s launches may use of the device: its multiprocessors, and the threads of
    /// `f` it runs at once, in blocks of [`BLOCK_THREADS`] (the multiprocessors times the blocks of
    /// `f` each holds, `cuOccupancyMaxActiveBlocksPerMultiprocessor`, from `f`'s registers). A
    /// launch of that many threads fills the device in one wave, and its grid-stride loops do the
    /// rest, with no second wave that leaves part of the device idle. `ARRAYC_GPU_MAX_BLOCKS=N`
    /// sets N blocks of any multiprocessor instead (the fixed grid of before, to compare);
    /// [`UNKNOWN_DEVICE`] when the driver cannot say. The multiprocessors and the variable are read
    /// once, at [`open`](Self::open); the occupancy once per kernel, here at load.
    fn device_shape(&self, f: sys::CUfunction) -> DeviceShape {
        if let Some(n) = self.max_blocks {
            return DeviceShape { resident_threads: n.max(1) * BLOCK_THREADS as u64, multiprocessors: 1 };
        }
        // SAFETY: `f` is a function of the loaded module.
        let per_sm = unsafe { result::occupancy::max_active_block_per_multiprocessor(f, BLOCK_THREADS as i32, 0) };
        match (self.multiprocessors, per_sm) {
            (Some(s), Ok(b)) if b > 0 => {
                DeviceShape { resident_threads: s * b as u64 * BLOCK_THREADS as u64, multiprocessors: s }
            }
            _ => UNKNOWN_DEVICE,
        }
    }

    /// A device allocation of `bytes` bytes (at least 1), from the pool when one fits.
    fn alloc(memory: &mut Memory, bytes: usize) -> Result<sys::CUdeviceptr, GpuError> {
        let bytes = bytes.max(1);
        let best = memory
            .pool
            .iter()
            .enumerate()
            .filter(|(_, &(b, _))| b >= bytes && b <= bytes.saturating_mul(2))
            .min_by_key(|(_, &(b, _))| b)
            .map(|(i, _)| i);
        if let Some(i) = best {
            let (b, ptr) = memory.pool.swap_remove(i);
            memory.pool_bytes -= b;
            return Ok(ptr);
        }
        // SAFETY: a plain allocation in the current context.
        unsafe { result::malloc_sync(bytes) }
            .map_err(|e| driver(&format!("allocating {bytes} bytes of device memory"), e))
    }

    /// Returns the mirrors of freed host arrays to the pool (freeing beyond [`POOL_MAX_BYTES`]).
    fn sweep(memory: &mut Memory) {
        let dead: Vec<usize> =
            memory.mirrors.iter().filter(|(_, m)| m.host.strong_count() == 0).map(|(&k, _)| k).collect();
        for k in dead {
            let m = memory.mirrors.remove(&k).expect("a mirror just found");
            if memory.pool_bytes + m.bytes <= POOL_MAX_BYTES {
                memory.pool.push((m.bytes, m.ptr));
                memory.pool_bytes += m.bytes;
            } else {
                // SAFETY: allocated by `alloc`, no longer referenced.
                let _ = unsafe { result::free_sync(m.ptr) };
            }
        }
    }

    /// The mirror of `v`'s base array, created (without copying) when missing; `fresh` marks a new
    /// mirror's device copy current (a new array: unspecified contents), else stale.
    fn mirror<'m>(memory: &'m mut Memory, v: &View, fresh: bool) -> Result<&'m mut Mirror, GpuError> {
        let key = Arc::as_ptr(&v.base) as usize;
        if !memory.mirrors.contains_key(&key) {
            let bytes = v.base.len_bytes();
            let ptr = Gpu::alloc(memory, bytes)?;
            let host = Arc::downgrade(&v.base);
            memory.mirrors.insert(key, Mirror { host, ptr, bytes, host_stale: false, device_stale: !fresh });
        }
        Ok(memory.mirrors.get_mut(&key).expect("inserted above"))
    }

    /// Makes the device copy of `v`'s base array current; returns its device address.
    fn to_device(memory: &mut Memory, v: &View) -> Result<u64, GpuError> {
        let m = Gpu::mirror(memory, v, false)?;
        let (ptr, bytes) = (m.ptr, m.bytes);
        if m.device_stale {
            // SAFETY: the host buffer is `bytes` long and alive (`v` holds it); the device
            // allocation is at least as long.
            let host = unsafe { std::slice::from_raw_parts(v.base.as_ptr(), bytes) };
            let start = Instant::now();
            // SAFETY: `ptr` is a live device allocation of at least `bytes` bytes (the mirror's),
            // and `host` is `bytes` long.
            unsafe { result::memcpy_htod_sync(ptr, host) }.map_err(|e| driver("copy to the device", e))?;
            m.device_stale = false;
            memory.time.to_device += bytes as u64;
            memory.time.copy_s += start.elapsed().as_secs_f64();
        }
        Ok(ptr)
    }

    /// Launches `kernel` (see the module docs) after [`validate`]: uploads stale inputs, runs, marks
    /// the outputs' host copies stale, and reports a kernel fault.
    fn run(&self, kernel: &str, args: &[RtValue]) -> Result<(), LaunchError> {
        let gpu_err = |e: GpuError| LaunchError::Invalid(e.to_string());
        self.current().map_err(gpu_err)?;
        let index =
            *self.by_name.get(kernel).ok_or_else(|| LaunchError::Invalid(format!("no GPU kernel @{kernel}")))?;
        let (main, combine, plan, shape) = &self.kernels[index];
        let checked = validate(plan, args)?;
        let Some(space) = checked.space else { return Ok(()) };
        let layout = &plan.layout;
        let mut memory = self.memory()?;
        Gpu::sweep(&mut memory);
        let abi = plan.abi(Target::Gpu);
        let mut failed = None;
        let mut words = packed_words(&abi, args, |v| match Gpu::to_device(&mut memory, v) {
            Ok(p) => p,
            Err(e) => {
                failed.get_or_insert(e);
                0
            }
        });
        if let Some(e) = failed {
            return Err(gpu_err(e));
        }
        if memory.pending.len() == FAULT_SLOTS {
            self.wait(&mut memory)?;
        }
        let mut scratch: Vec<(usize, sys::CUdeviceptr)> = vec![];
        let result = (|| -> Result<(), GpuError> {
            if abi.slot(KernelArg::FaultCell).is_some() {
                let slots = match memory.fault_slots {
                    Some(p) => p,
                    None => {
                        // SAFETY: a plain allocation in the current context, freed by `drop`.
                        let p = unsafe { result::malloc_sync(FAULT_SLOTS * 8) }
                            .map_err(|e| driver("allocating the fault slots", e))?;
                        // SAFETY: `p` holds FAULT_SLOTS i64s.
                        unsafe { result::memcpy_htod_sync(p, &[NO_FAULT; FAULT_SLOTS]) }
                            .map_err(|e| driver("fault slots", e))?;
                        *memory.fault_slots.insert(p)
                    }
                };
                let cell = slots + 8 * memory.pending.len() as u64;
                abi.put(&mut words, KernelArg::FaultCell, &fault_cell_descriptor(cell));
                memory.pending.push(index);
            }
            let geometry = launch_geometry(layout, &space, *shape);
            // A chunked scan's carries: one per scan and thread (`scan_carries`).
            let scan_kinds = if layout.chunked_scan { layout.scan_kinds() } else { vec![] };
            let threads = geometry.map_or(0, |(gx, gy, t)| gx as usize * gy as usize * t as usize);
            let mut carries = vec![0i64; threads * scan_kinds.len()];
            let carry_buf = if abi.slot(KernelArg::ScanCarries).is_some() {
                let bytes = (carries.len() * 8).max(1);
                let p = Gpu::alloc(&mut memory, bytes)?;
                scratch.push((bytes, p));
                abi.put(&mut words, KernelArg::ScanCarries, &vector_descriptor(p, carries.len()));
                abi.set_scan_pass(&mut words, 0, true);
                Some(p)
            } else {
                None
            };
            // One partials buffer per reduction over everything: one element per thread block.
            let mut partials = false;
            for (k, r) in layout.partials_reductions().iter().enumerate() {
                if combine.is_none() || abi.slot(KernelArg::Partials(k)).is_none() {
                    continue;
                }
                let out = args[out_param(plan, r)].view().expect("validated: a view");
                let size = acc_dtype(r.kind, out.dtype).size_bytes();
                let blocks = geometry.map_or(0, |(gx, gy, _)| gx as usize * gy as usize);
                let p = Gpu::alloc(&mut memory, blocks * size)?;
                scratch.push(((blocks * size).max(1), p));
                abi.put(&mut words, KernelArg::Partials(k), &vector_descriptor(p, blocks));
                partials = true;
            }
            let launch = |f: sys::CUfunction, grid: (u32, u32), threads: u32, words: &mut [u64]| {
                let mut params: Vec<*mut c_void> = words.iter_mut().map(|w| w as *mut u64 as *mut c_void).collect();
                // SAFETY: the parameters match the kernel's PTX signature word for word (its
                // `KernelAbi` for `Target::Gpu`, the parameters validated against the plan; each
                // word is a u64 holding the value in its low bytes, as the driver reads u8, f32 and
                // 8-byte parameters; the driver copies them at the launch), and device pointers are
                // live mirrors, scratch allocations or a fault slot. A device allocation goes back
                // to the pool or is reused only by work queued after this launch on the same stream,
                // and freeing one (`cuMemFree`) waits for the device.
                unsafe {
                    result::launch_kernel(f, (grid.0, grid.1, 1), (threads, 1, 1), 0, std::ptr::null_mut(), &mut params)
                }
                .map_err(|e| driver(&format!("launching @{}", plan.name), e))
            };
            memory.busy_since.get_or_insert_with(Instant::now);
            memory.last_kernel = Some(index);
            if let Some((gx, gy, threads)) = geometry {
                if let Some(buf) = carry_buf {
                    // The totals pass, then the carries computed on the host.
                    launch(*main, (gx, gy), threads, &mut words)?;
                    let ctx = |e| driver(&format!("the carries of @{}", plan.name), e);
                    // SAFETY: `buf` holds `carries.len()` i64s; the copies synchronise with the launch.
                    unsafe { result::memcpy_dtoh_sync(&mut carries, buf) }.map_err(ctx)?;
                    scan_carries(&scan_kinds, &mut carries);
                    // SAFETY: as above.
                    unsafe { result::memcpy_htod_sync(buf, &carries) }.map_err(ctx)?;
                    abi.set_scan_pass(&mut words, 0, false);
                }
                launch(*main, (gx, gy), threads, &mut words)?;
            }
            if partials {
                launch(combine.expect("a combine kernel"), (1, 1), BLOCK_THREADS, &mut words)?;
            }
            Ok(())
        })();
        for (bytes, p) in scratch {
            memory.pool.push((bytes, p));
            memory.pool_bytes += bytes;
        }
        result.map_err(gpu_err)?;
        let outs =
            checked.written.into_iter().chain(layout.reduce.iter().chain(&layout.extra).map(|r| out_param(plan, r)));
        for p in outs {
            if let Some(v) = args[p].view() {
                Gpu::mirror(&mut memory, v, false).map_err(gpu_err)?.host_stale = true;
            }
        }
        self.traffic.count(args);
        if self.blocking {
            self.wait(&mut memory)?;
        }
        Ok(())
    }

    /// Waits for every launch so far (see "Launch" in the module docs): adds the time since the
    /// device got work to the kernels' time, reads the fault slots of the pending launches back, and
    /// reports the fault of the first that faulted (resetting its slots).
    ///
    /// Errors: [`LaunchError::Fault`] for a fault; [`LaunchError::Invalid`] when the driver reports
    /// an error of a kernel (named by the last one launched, as the driver cannot say which).
    fn wait(&self, memory: &mut Memory) -> Result<(), LaunchError> {
        let Some(since) = memory.busy_since.take() else { return Ok(()) };
        let gpu_err = |e: GpuError| LaunchError::Invalid(e.to_string());
        self.current().map_err(gpu_err)?;
        let synchronized = result::ctx::synchronize();
        memory.time.kernel_s += since.elapsed().as_secs_f64();
        let last = memory.last_kernel.map_or("", |k| self.kernels[k].2.name.as_str());
        synchronized.map_err(|e| gpu_err(driver(&format!("running the kernels up to @{last}"), e)))?;
        let pending = std::mem::take(&mut memory.pending);
        let Some(slots) = memory.fault_slots.filter(|_| !pending.is_empty()) else { return Ok(()) };
        let mut cells = vec![NO_FAULT; pending.len()];
        // SAFETY: the first `pending.len()` (at most FAULT_SLOTS) i64s of the fault slots, after
        // the launches that use them finished.
        unsafe { result::memcpy_dtoh_sync(&mut cells, slots) }.map_err(|e| gpu_err(driver("fault slots", e)))?;
        let Some((i, &k)) = cells.iter().enumerate().find(|(_, &k)| k != NO_FAULT) else { return Ok(()) };
        // SAFETY: as above; the slots are reset for the launches to come.
        unsafe { result::memcpy_htod_sync(slots, &vec![NO_FAULT; cells.len()]) }
            .map_err(|e| gpu_err(driver("fault slots", e)))?;
        let (_, _, plan, _) = &self.kernels[pending[i]];
        Err(LaunchError::Fault(KernelFault::clone(&plan.layout.faults[k as usize])))
    }

    /// The memory state, locked.
    fn memory(&self) -> Result<std::sync::MutexGuard<'_, Memory>, LaunchError> {
        self.memory.lock().map_err(|_| LaunchError::Invalid("GPU memory state poisoned".into()))
    }
}

impl KernelLauncher for Gpu {
    fn launch(&self, kernel: &str, args: &[RtValue]) -> Result<(), LaunchError> {
        self.run(kernel, args)
    }

    fn device_memory(&self) -> bool {
        true
    }

    fn traffic(&self) -> Option<(u64, u64)> {
        Some(self.traffic.total())
    }

    fn device_time(&self) -> Option<DeviceTime> {
        self.memory.lock().ok().map(|m| m.time)
    }

    fn finish(&self) -> Result<(), LaunchError> {
        let mut memory = self.memory()?;
        self.wait(&mut memory)
    }

    fn host_read(&self, v: &View) -> Result<(), LaunchError> {
        let gpu_err = |e: GpuError| LaunchError::Invalid(e.to_string());
        let mut memory = self.memory()?;
        self.wait(&mut memory)?;
        let key = Arc::as_ptr(&v.base) as usize;
        let Some(m) = memory.mirrors.get_mut(&key) else { return Ok(()) };
        if m.host_stale {
            self.current().map_err(gpu_err)?;
            // SAFETY: the host buffer is `bytes` long and alive (`v` holds it); nothing else
            // accesses it during the copy (the executor runs on this thread).
            let host = unsafe { std::slice::from_raw_parts_mut(v.base.as_ptr(), m.bytes) };
            let start = Instant::now();
            prefault(host);
            // SAFETY: `m.ptr` is the mirror's live device allocation of `m.bytes` bytes, the
            // length of `host`.
            unsafe { result::memcpy_dtoh_sync(host, m.ptr) }.map_err(|e| gpu_err(driver("copy to the host", e)))?;
            m.host_stale = false;
            let bytes = m.bytes as u64;
            memory.time.to_host += bytes;
            memory.time.copy_s += start.elapsed().as_secs_f64();
        }
        Ok(())
    }

    fn host_write(&self, v: &View) -> Result<(), LaunchError> {
        self.host_read(v)?;
        let mut memory = self.memory()?;
        if let Some(m) = memory.mirrors.get_mut(&(Arc::as_ptr(&v.base) as usize)) {
            m.device_stale = true;
        }
        Ok(())
    }

    fn fresh(&self, v: &View) {
        if let Ok(mut memory) = self.memory.lock() {
            // A failed allocation here is retried (and reported) by the first launch that uses it.
            let _ = Gpu::mirror(&mut memory, v, true);
        }
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        if self.current().is_err() {
            return;
        }
        let _ = result::ctx::synchronize();
        let memory = self.memory.get_mut().map(std::mem::take).unwrap_or_default();
        let pool = memory.pool.iter().map(|&(_, p)| p);
        for ptr in memory.mirrors.values().map(|m| m.ptr).chain(pool).chain(memory.fault_slots) {
            // SAFETY: allocated by `alloc`; nothing uses it any more.
            let _ = unsafe { result::free_sync(ptr) };
        }
        // SAFETY: loaded by `load`, released once; the primary context retained by `open`.
        unsafe {
            if let Some(m) = self.module {
                let _ = result::module::unload(m);
            }
            let _ = result::primary_ctx::release(self.device);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid covers the space with blocks of whole warps, within the hardware's limits (grid y at
    /// most 65535), at most `MAX_BLOCKS` blocks (which bounds the partial results) and at most the
    /// threads asked for (one block at least).
    #[test]
    fn geometry_stays_within_limits() {
        let u = UNKNOWN_DEVICE;
        assert_eq!(geometry(&[0], u), None);
        assert_eq!(geometry(&[7, 0, 3], u), None);
        assert_eq!(geometry(&[], u), Some((1, 1, 32)));
        assert_eq!(geometry(&[100], u), Some((1, 1, 128)));
        assert_eq!(geometry(&[1000], u), Some((4, 1, 256)));
        assert_eq!(geometry(&[102, 102], u), Some((1, 102, 128)));
        // An H100 holds 132 x 8 blocks of 256 threads of a small kernel: one wave of them, and a
        // small space in blocks small enough to reach every multiprocessor.
        let h100 = DeviceShape { resident_threads: 132 * 8 * 256, multiprocessors: 132 };
        assert_eq!(geometry(&[100_000_000], h100), Some((1056, 1, 256)));
        assert_eq!(geometry(&[5802, 5802], h100), Some((23, 45, 256)));
        assert_eq!(geometry(&[102, 102], h100), Some((2, 102, 64)));
        assert_eq!(geometry(&[3000], h100), Some((94, 1, 32)));
        assert_eq!(geometry(&[40_000], h100), Some((157, 1, 256)));
        assert_eq!(geometry(&[20_000], h100), Some((157, 1, 128)));
        for device in [
            DeviceShape { resident_threads: 1, multiprocessors: 1 },
            DeviceShape { resident_threads: 256, multiprocessors: 1000 },
            h100,
            u,
            DeviceShape { resident_threads: u64::MAX, multiprocessors: u64::MAX },
        ] {
            for space in
                [vec![1_i64 << 40], vec![3, 1 << 20], vec![1 << 20, 3], vec![5, 7, 11, 13, 17], vec![1 << 31, 1 << 31]]
            {
                let (gx, gy, t) = geometry(&space, device).expect("a non-empty space");
                assert!(t % 32 == 0 && (32..=BLOCK_THREADS).contains(&t), "{space:?}: {t} threads");
                assert!(gx >= 1 && (1..=65535).contains(&gy), "{space:?}: grid {gx} x {gy}");
                let blocks = gx as u64 * gy as u64;
                assert!(blocks <= MAX_BLOCKS as u64, "{space:?}: grid {gx} x {gy}");
                assert!(
                    blocks == 1 || blocks * t as u64 <= device.resident_threads,
                    "{space:?}: {blocks} x {t} > {device:?}"
                );
            }
        }
    }

    /// Without libcuda, opening the GPU is the one-line error that names what is missing.
    #[test]
    fn no_driver_is_a_clear_error() {
        if driver_present().is_ok() {
            eprintln!("skipped: a CUDA driver (libcuda.so) is installed here");
            return;
        }
        let e = Gpu::open().err().expect("no driver, no GPU");
        assert!(matches!(e, GpuError::NoDriver));
        assert!(e.to_string().contains("libcuda.so") && e.to_string().contains("--target cpu"));
    }
}
