//! Run-time arrays: reference-counted base arrays and strided views onto them (NumPy's model).
//!
//! A [`Buffer`] is a base array's storage (64-byte aligned, released when the last view of it is
//! dropped). Large buffers are huge-page mappings kept in a pool when freed and reused by a later
//! allocation of about the same size, so a loop that creates and deletes a temporary each
//! iteration (even one that shrinks, as in Gauss elimination) maps and page-faults it once. A [`View`] is `(base, dtype, offset, shape, strides)` with offset and strides in
//! elements, so `x[i0, .., ik]` lives at element `offset + sum(i_j * strides_j)` of the base. Strides may
//! be negative (reversed slices) or zero (broadcasts).

use arrayc_core::shape::{checked_len, element_range, row_major_strides, shape_str};
use arrayc_core::DType;
use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Why a new base array could not be allocated. The executor adds the source line of the
/// allocating operation, the `.npy` reader the file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AllocError {
    /// The element count or the byte size of the shape does not fit in 63 bits.
    #[error("an array of shape {shape} has more elements than a 64-bit size can count")]
    SizeOverflow {
        /// The shape, as NumPy prints it.
        shape: String,
    },
    /// The array would take the live arrays beyond the memory limit ([`set_memory_limit`]).
    #[error("an array of shape {shape} needs {bytes} bytes, which with the {live} bytes of the arrays already live exceeds the memory limit of {limit} bytes; pass a larger --max-memory, or use smaller arrays")]
    OverLimit { shape: String, bytes: u64, live: u64, limit: u64 },
    /// The operating system refused the memory.
    #[error("the system could not provide {bytes} bytes for an array of shape {shape}")]
    Failed { shape: String, bytes: u64 },
}

/// The memory limit in bytes: 0 until [`set_memory_limit`] is called, then the machine's memory.
static MEMORY_LIMIT: AtomicU64 = AtomicU64::new(0);
/// Bytes of the base arrays alive now (pooled mappings not counted).
static LIVE_BYTES: AtomicU64 = AtomicU64::new(0);

/// The machine's physical memory in bytes (`sysconf`, read once per process: glibc answers
/// `_SC_PHYS_PAGES` with a `sysinfo` system call, which every allocation would otherwise pay), or
/// `u64::MAX` when it cannot be read.
pub fn physical_memory() -> u64 {
    static PHYSICAL: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *PHYSICAL.get_or_init(|| {
        // SAFETY: sysconf only reads system configuration.
        let (pages, size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGE_SIZE)) };
        if pages <= 0 || size <= 0 {
            return u64::MAX;
        }
        (pages as u64).saturating_mul(size as u64)
    })
}

/// Sets the most bytes that the live base arrays of this process may take together; an allocation
/// beyond it fails with [`AllocError::OverLimit`] instead of exhausting the machine.
pub fn set_memory_limit(bytes: u64) {
    MEMORY_LIMIT.store(bytes, Ordering::Relaxed);
}

/// The memory limit in bytes ([`set_memory_limit`]; by default the machine's physical memory).
pub fn memory_limit() -> u64 {
    match MEMORY_LIMIT.load(Ordering::Relaxed) {
        0 => physical_memory(),
        n => n,
    }
}

/// Storage of one base array. Kernels write through raw pointers from several threads at once on
/// disjoint elements; all other access goes through [`View`] methods on the host thread.
pub struct Buffer {
    ptr: *mut u8,
    bytes: usize,
    /// For a large buffer: its memory mapping `(address, length)`, which may be longer than `bytes`
    /// (a reused pooled mapping, or the rounding to whole huge pages).
    map: Option<(usize, usize)>,
    /// Memory the caller owns ([`View::borrowed`]): never freed, not counted in the live bytes.
    borrowed: bool,
}

// SAFETY: the buffer is plain memory; concurrent kernel chunks write disjoint elements, and the host
// only reads or writes between kernel launches.
unsafe impl Send for Buffer {}
// SAFETY: as for `Send`: shared references only hand out the pointer, and all writes through it
// are either kernel chunks on disjoint elements or host accesses between launches.
unsafe impl Sync for Buffer {}

const ALIGN: usize = 64;

/// Buffers of at least this many bytes are memory-mapped on 2 MiB boundaries with transparent huge
/// pages (`madvise(MADV_HUGEPAGE)`: 512 times fewer page faults when first touched), and pooled
/// when dropped.
const LARGE_BYTES: usize = 1 << 20;
const HUGE_PAGE: usize = 2 << 20;
/// At most this many bytes are kept in the pool; beyond it dropped buffers are unmapped.
const POOL_MAX_BYTES: usize = 8 << 30;

/// Freed large mappings `(address, length)`, and their total length.
struct Pool {
    free: Vec<(usize, usize)>,
    bytes: usize,
}

static POOL: std::sync::Mutex<Pool> = std::sync::Mutex::new(Pool { free: vec![], bytes: 0 });

/// The heap layout of a small buffer; `bytes` is at most `isize::MAX` ([`View::whole`] checks it).
fn layout(bytes: usize) -> Option<Layout> {
    Layout::from_size_align(bytes.max(1), ALIGN).ok()
}

/// A fresh anonymous mapping of at least `bytes` bytes (zeroed by the kernel on first touch), 2 MiB
/// aligned and advised to use huge pages: `(address, length)`; `None` when the system refuses it.
fn map_large(bytes: usize) -> Option<(usize, usize)> {
    let len = bytes.checked_next_multiple_of(HUGE_PAGE)?;
    // Map one huge page more, then unmap the unaligned head and the tail.
    let over = len.checked_add(HUGE_PAGE)?;
    // SAFETY: an anonymous private mapping; no file, no fixed address.
    let raw = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            over,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if raw == libc::MAP_FAILED {
        return None;
    }
    let start = raw as usize;
    let aligned = start.div_ceil(HUGE_PAGE) * HUGE_PAGE;
    // SAFETY: both ranges lie inside the mapping just made and are page-aligned.
    unsafe {
        if aligned > start {
            libc::munmap(raw, aligned - start);
        }
        let tail = start + over - (aligned + len);
        if tail > 0 {
            libc::munmap((aligned + len) as *mut libc::c_void, tail);
        }
        // Only advice: a failure means 4 KiB pages, nothing worse.
        libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
    Some((aligned, len))
}

impl Buffer {
    /// A zeroed buffer of `bytes` bytes (at least one byte is allocated so the pointer is valid).
    /// Errors: `None` when the system refuses the memory.
    fn zeroed(bytes: usize) -> Option<Buffer> {
        let (b, stale) = Buffer::uninit(bytes)?;
        if stale {
            // SAFETY: the buffer holds `bytes` writable bytes and nothing else refers to it yet.
            unsafe { std::ptr::write_bytes(b.ptr, 0, bytes) };
        }
        Some(b)
    }
    /// A buffer of `bytes` bytes with unspecified contents (NumPy `empty`): for a large buffer, the
    /// smallest pooled mapping that holds it and is at most twice its size, else fresh zeroed memory.
    fn uninitialised(bytes: usize) -> Option<Buffer> {
        Buffer::uninit(bytes).map(|(b, _)| b)
    }
    /// The buffer, and whether it came from the pool (its contents are stale); `None` when the
    /// system refuses the memory.
    fn uninit(bytes: usize) -> Option<(Buffer, bool)> {
        if bytes >= LARGE_BYTES {
            let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
            let best = pool
                .free
                .iter()
                .enumerate()
                .filter(|(_, &(_, len))| len >= bytes && len <= 2 * bytes)
                .min_by_key(|(_, &(_, len))| len)
                .map(|(i, _)| i);
            if let Some(i) = best {
                let (addr, len) = pool.free.swap_remove(i);
                pool.bytes -= len;
                return Some((Buffer { ptr: addr as *mut u8, bytes, map: Some((addr, len)), borrowed: false }, true));
            }
            drop(pool);
            let (addr, len) = map_large(bytes)?;
            return Some((Buffer { ptr: addr as *mut u8, bytes, map: Some((addr, len)), borrowed: false }, false));
        }
        let layout = layout(bytes)?;
        // SAFETY: layout has non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        if ptr.is_null() {
            return None;
        }
        Some((Buffer { ptr, bytes, map: None, borrowed: false }, false))
    }
    /// Base address of the storage.
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr
    }
    /// Size in bytes.
    pub fn len_bytes(&self) -> usize {
        self.bytes
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        if self.borrowed {
            return;
        }
        LIVE_BYTES.fetch_sub(self.bytes as u64, Ordering::Relaxed);
        match self.map {
            Some((addr, len)) => {
                let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
                if pool.bytes + len <= POOL_MAX_BYTES {
                    pool.bytes += len;
                    pool.free.push((addr, len));
                } else {
                    // SAFETY: the mapping was made by `map_large` and nothing refers to it any more.
                    unsafe { libc::munmap(addr as *mut libc::c_void, len) };
                }
            }
            // SAFETY: allocated in `uninit` with the same layout, which was valid then.
            None => unsafe { dealloc(self.ptr, layout(self.bytes).expect("the layout the buffer was allocated with")) },
        }
    }
}

pub use arrayc_core::Scalar;

/// A strided view onto a base array. Shapes and strides are in elements.
#[derive(Clone)]
pub struct View {
    pub base: Arc<Buffer>,
    pub dtype: DType,
    pub offset: i64,
    pub shape: Vec<i64>,
    pub strides: Vec<i64>,
}

impl View {
    /// A new contiguous row-major base array of `shape` (sizes in elements), zero-filled.
    /// Errors: [`AllocError`] when the shape's size overflows, passes the memory limit, or the
    /// system refuses the memory.
    pub fn zeros(dtype: DType, shape: &[i64]) -> Result<View, AllocError> {
        View::whole(dtype, shape, Buffer::zeroed)
    }
    /// A new contiguous row-major base array of `shape` with unspecified contents (`arr.new`).
    /// Errors: as [`View::zeros`].
    pub fn uninitialised(dtype: DType, shape: &[i64]) -> Result<View, AllocError> {
        View::whole(dtype, shape, Buffer::uninitialised)
    }
    /// A view of memory the caller owns (a NumPy array passed to a library from `arrayc build --lib`),
    /// without copying: `data` is the address of the element at index `[0, .., 0]`, `shape` and
    /// `strides` are in elements (strides may be negative or zero). The base array is the span of
    /// bytes the view addresses.
    ///
    /// Errors: a negative size, or a span whose size overflows.
    ///
    /// # Safety
    /// Every element the view addresses must be valid, aligned memory of `dtype` for as long as the
    /// view (or anything made from it) lives, and nothing else may write it meanwhile.
    pub unsafe fn borrowed(dtype: DType, data: *mut u8, shape: &[i64], strides: &[i64]) -> Result<View, String> {
        if shape.len() != strides.len() || shape.iter().any(|&n| n < 0) {
            return Err(format!("bad array layout: shape {shape:?}, strides {strides:?}"));
        }
        let item = dtype.size_bytes() as i128;
        let (lo, hi) = element_range(0, shape, strides).unwrap_or((0, -1));
        let bytes = (hi - lo + 1) * item;
        if bytes > isize::MAX as i128 {
            return Err(format!("an array of shape {shape:?} with strides {strides:?} spans too many bytes"));
        }
        // The span starts `lo` elements (`lo <= 0`) before `data`.
        let base = data.wrapping_offset((lo * item) as isize);
        let buffer = Buffer { ptr: base, bytes: bytes as usize, map: None, borrowed: true };
        Ok(View { base: Arc::new(buffer), dtype, offset: -lo as i64, shape: shape.to_vec(), strides: strides.to_vec() })
    }

    /// The whole of a new row-major base array of `shape`, its storage from `alloc(bytes)`. Every
    /// size is checked: the bytes fit in `isize`, and the live arrays stay within the memory limit.
    fn whole(dtype: DType, shape: &[i64], alloc: fn(usize) -> Option<Buffer>) -> Result<View, AllocError> {
        let bytes = checked_len(shape)
            .and_then(|n| n.checked_mul(dtype.size_bytes() as i64))
            .ok_or_else(|| AllocError::SizeOverflow { shape: shape_str(shape) })?;
        let bytes = bytes as u64;
        let limit = memory_limit();
        let live = LIVE_BYTES.fetch_add(bytes, Ordering::Relaxed);
        if live.saturating_add(bytes) > limit {
            LIVE_BYTES.fetch_sub(bytes, Ordering::Relaxed);
            return Err(AllocError::OverLimit { shape: shape_str(shape), bytes, live, limit });
        }
        let Some(buffer) = alloc(bytes as usize) else {
            LIVE_BYTES.fetch_sub(bytes, Ordering::Relaxed);
            return Err(AllocError::Failed { shape: shape_str(shape), bytes });
        };
        Ok(View { base: Arc::new(buffer), dtype, offset: 0, strides: row_major_strides(shape), shape: shape.to_vec() })
    }
    /// Whether the view's elements lie in row-major order one after another in its base (the
    /// strides of dimensions of size 1 do not matter, and an empty view is contiguous), so that
    /// they are the bytes [`View::contiguous_bytes`] returns.
    pub fn is_contiguous(&self) -> bool {
        if self.is_empty() {
            return true;
        }
        let mut expected = 1;
        for (&n, &s) in self.shape.iter().zip(&self.strides).rev() {
            if n > 1 && s != expected {
                return false;
            }
            expected *= n;
        }
        true
    }
    /// The bytes of the view's elements, in row-major order: `len() * dtype.size_bytes()` bytes
    /// from element `offset` of the base, in the machine's byte order (bool: one byte, 0 or 1).
    /// `None` unless the view [`is_contiguous`](View::is_contiguous).
    pub fn contiguous_bytes(&self) -> Option<&[u8]> {
        let (start, len) = self.contiguous_span()?;
        // SAFETY: the span lies inside the base (`contiguous_span` checks it); kernels write only
        // between host accesses.
        Some(unsafe { std::slice::from_raw_parts(self.base.as_ptr().add(start), len) })
    }
    /// The bytes of [`View::contiguous_bytes`], writable: for filling a new array. `None` unless the
    /// view is contiguous and the only reference to its base (no other view can see the writes).
    pub fn contiguous_bytes_mut(&mut self) -> Option<&mut [u8]> {
        let (start, len) = self.contiguous_span()?;
        let base = Arc::get_mut(&mut self.base)?;
        // SAFETY: as in `contiguous_bytes`; `base` is borrowed exclusively for the slice's lifetime.
        Some(unsafe { std::slice::from_raw_parts_mut(base.as_ptr().add(start), len) })
    }
    /// `(first byte, byte length)` of a contiguous view's elements in its base; `None` for any
    /// other view, or one that does not lie inside its base.
    fn contiguous_span(&self) -> Option<(usize, usize)> {
        if !self.is_contiguous() {
            return None;
        }
        if self.is_empty() {
            return Some((0, 0));
        }
        let size = self.dtype.size_bytes();
        let start = usize::try_from(self.offset).ok()?.checked_mul(size)?;
        let len = usize::try_from(self.len()).ok()?.checked_mul(size)?;
        (start.checked_add(len)? <= self.base.len_bytes()).then_some((start, len))
    }
    /// Bytes of the distinct elements the view addresses: the product of the sizes of the
    /// dimensions with a non-zero stride, times the element size (a broadcast dimension,
    /// stride 0, reads the same elements again).
    pub fn distinct_bytes(&self) -> u64 {
        let n: i64 = self.shape.iter().zip(&self.strides).map(|(&s, &st)| if st == 0 { s.min(1) } else { s }).product();
        n.max(0) as u64 * self.dtype.size_bytes() as u64
    }
    pub fn rank(&self) -> usize {
        self.shape.len()
    }
    /// Number of elements.
    pub fn len(&self) -> i64 {
        self.shape.iter().product()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Element offset (within the base) of the element at multi-index `idx`.
    pub fn element_offset(&self, idx: &[i64]) -> i64 {
        self.offset + idx.iter().zip(&self.strides).map(|(i, s)| i * s).sum::<i64>()
    }
    /// Reads the element at element offset `off` of the base.
    #[inline]
    pub fn read_at(&self, off: i64) -> Scalar {
        let p = self.base.as_ptr();
        // SAFETY: views are validated against their base's size when created (see `views::check_in_bounds`).
        unsafe {
            let bits = match self.dtype.size_bytes() {
                8 => *(p as *const u64).offset(off as isize),
                4 => (*(p as *const u32).offset(off as isize)).into(),
                2 => (*(p as *const u16).offset(off as isize)).into(),
                _ => (*p.offset(off as isize)).into(),
            };
            Scalar::from_bits(self.dtype, bits)
        }
    }
    /// Writes `v` (cast to the view's dtype) at element offset `off` of the base.
    #[inline]
    pub fn write_at(&self, off: i64, v: Scalar) {
        let p = self.base.as_ptr();
        // SAFETY: as in `read_at`.
        unsafe {
            let bits = v.cast(self.dtype).to_bits();
            match self.dtype.size_bytes() {
                8 => *(p as *mut u64).offset(off as isize) = bits,
                4 => *(p as *mut u32).offset(off as isize) = bits as u32,
                2 => *(p as *mut u16).offset(off as isize) = bits as u16,
                _ => *p.offset(off as isize) = bits as u8,
            }
        }
    }
    /// Calls `f` with every element in row-major order of the view.
    pub fn for_each(&self, mut f: impl FnMut(Scalar)) {
        self.for_each_offset(|off| f(self.read_at(off)));
    }
    /// Calls `f` with the base element offset of every element, in row-major order of the view.
    pub fn for_each_offset(&self, mut f: impl FnMut(i64)) {
        if self.is_empty() {
            return;
        }
        let r = self.rank();
        let mut idx = vec![0i64; r];
        loop {
            f(self.element_offset(&idx));
            let mut d = r;
            loop {
                if d == 0 {
                    return;
                }
                d -= 1;
                idx[d] += 1;
                if idx[d] < self.shape[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
    }
    /// The elements in row-major order, as f64.
    pub fn to_f64_vec(&self) -> Vec<f64> {
        let mut v = Vec::with_capacity(self.len() as usize);
        self.for_each(|s| v.push(s.as_f64()));
        v
    }
}

/// Memory traffic of the kernels launched so far: the sum over launches of [`launch_traffic`] of
/// the array arguments (an array both read and written counts once, as STREAM counts it).
/// Contracted temporaries never reach memory and are not counted, so this is the cost of the
/// executed partition in bytes: the data a roofline model says the program must move.
#[derive(Debug, Default)]
pub struct Traffic {
    bytes: AtomicU64,
    launches: AtomicU64,
}

impl Traffic {
    /// Counts one launch on `args` (call it after the launch's checks: only in-bounds views of a
    /// launch that ran).
    pub fn count(&self, args: &[crate::value::RtValue]) {
        let bytes = launch_traffic(args.iter().filter_map(crate::value::RtValue::view));
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        self.launches.fetch_add(1, Ordering::Relaxed);
    }

    /// `(bytes, launches)` so far.
    pub fn total(&self) -> (u64, u64) {
        (self.bytes.load(Ordering::Relaxed), self.launches.load(Ordering::Relaxed))
    }
}

/// The memory traffic, in bytes, of one kernel launch on `views`: for each base array, the bytes
/// of the union of the views' element ranges ([`element_range`]), but no more than the sum of their distinct
/// elements ([`View::distinct_bytes`]). Overlapping views of one base (a stencil's shifted
/// neighbours) count once, as the caches make them cost once; a sparse view (a diagonal) counts
/// its elements, not its span. This is the Bohrium cost model's count of a block's external
/// arrays (Kristensen et al. 2016, Sec. V-A) made exact for overlapping views, in bytes.
pub fn launch_traffic<'v, I>(views: I) -> u64
where
    I: IntoIterator<Item = &'v View>,
    I::IntoIter: Clone,
{
    let views = views.into_iter();
    let mut total = 0;
    for (i, v) in views.clone().enumerate() {
        let key = Arc::as_ptr(&v.base);
        // Each base once, with all its views, at its first view (no allocation in the common case
        // of one view per base: this runs on every launch).
        if views.clone().take(i).any(|w| Arc::as_ptr(&w.base) == key) {
            continue;
        }
        total += base_traffic(views.clone().skip(i).filter(|w| Arc::as_ptr(&w.base) == key), v.dtype.size_bytes());
    }
    total
}

/// The traffic of the views `views` of one base array, whose elements take `elem` bytes: the
/// bytes of the union of their element ranges, but no more than the sum of their distinct
/// elements (see [`launch_traffic`]).
fn base_traffic<'v>(views: impl Iterator<Item = &'v View> + Clone, elem: usize) -> u64 {
    let distinct: u64 = views.clone().map(View::distinct_bytes).sum();
    let range = |v: &View| element_range(v.offset, &v.shape, &v.strides).map(|(lo, hi)| (lo, hi + 1));
    let mut spans: Vec<(i128, i128)> = match views.clone().nth(1) {
        // One view: its range, without a vector.
        None => {
            return views
                .clone()
                .next()
                .and_then(range)
                .map_or(0, |(lo, hi)| ((hi - lo) as u64 * elem as u64).min(distinct))
        }
        Some(_) => views.filter_map(range).collect(),
    };
    spans.sort_unstable();
    let (mut total, mut end) = (0i128, i128::MIN);
    for (lo, hi) in spans {
        let lo = lo.max(end);
        if hi > lo {
            total += hi - lo;
        }
        end = end.max(hi);
    }
    (total as u64 * elem as u64).min(distinct)
}
