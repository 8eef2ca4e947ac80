//! Reading and writing NumPy `.npy` files (format versions 1.0 to 3.0) through the `npyz` crate.
//!
//! Supported element types: `float64` (`<f8`), `float32` (`<f4`), `int64` (`<i8`) and `bool` (`|b1`).
//! Big-endian files of those types are byte-swapped on reading; files are always written
//! little-endian, C order. Fortran-order files are converted to row-major on reading.
//!
//! The data of a file in the machine's byte order and C order is read straight into the new
//! array's buffer (in 8 MiB chunks on all cores), and a contiguous array is written with one write
//! after its header (memory speed, as `numpy.load` and `numpy.save`); only headers, and the files
//! that need converting, go through `npyz`.

use crate::array::{AllocError, Scalar, View};
use arrayc_core::DType;
use npyz::{Endianness, NpyFile, NpyHeader, WriteOptions, WriterBuilder};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Errors from `.npy` I/O. Each message names the file and says how to fix the problem.
#[derive(Debug, thiserror::Error)]
pub enum NpyError {
    /// The file to read does not exist.
    #[error("cannot read '{}': no such file; check the path (relative paths are resolved against the current directory)", path.display())]
    NotFound { path: PathBuf },
    /// The file exists but is not a valid `.npy` file (bad magic, bad header, truncated data).
    #[error("'{}' is not a valid .npy file ({reason}); create it with numpy.save(path, array)", path.display())]
    NotNpy { path: PathBuf, reason: String },
    /// The file's element type is not one arrayc supports.
    #[error("'{}' has dtype {dtype}, which arrayc does not support; supported dtypes are float64, float32, int64, int32, int16, int8, uint64, uint32, uint16, uint8 and bool: convert it, e.g. numpy.save(path, numpy.load(path).astype(numpy.float64))", path.display())]
    UnsupportedDType { path: PathBuf, dtype: String },
    /// The array the file holds cannot be allocated (too large for the memory limit or the system).
    #[error("cannot load '{}': {source}", path.display())]
    Alloc {
        path: PathBuf,
        #[source]
        source: AllocError,
    },
    /// Any other I/O failure (permissions, missing directory, disk full, ...).
    #[error("cannot {action} '{}': {source}; check that the directory exists and is accessible", path.display())]
    Io {
        path: PathBuf,
        /// "read" or "write".
        action: &'static str,
        #[source]
        source: io::Error,
    },
}

fn io_err(path: &Path, action: &'static str, source: io::Error) -> NpyError {
    if source.kind() == io::ErrorKind::NotFound && action == "read" {
        NpyError::NotFound { path: path.to_path_buf() }
    } else {
        NpyError::Io { path: path.to_path_buf(), action, source }
    }
}

fn not_npy(path: &Path, e: impl std::fmt::Display) -> NpyError {
    NpyError::NotNpy { path: path.to_path_buf(), reason: e.to_string() }
}

/// Maps a file's dtype to ours, or `None` if unsupported.
fn dtype_of(d: &npyz::DType) -> Option<DType> {
    use npyz::TypeChar;
    let npyz::DType::Plain(ts) = d else { return None };
    let kind = match ts.type_char() {
        TypeChar::Float => 'f',
        TypeChar::Int => 'i',
        TypeChar::Uint => 'u',
        TypeChar::Bool => 'b',
        _ => return None,
    };
    DType::ALL.into_iter().find(|d| d.kind() == kind && d.size_bytes() as u64 == ts.size_field())
}

fn describe_dtype(d: &npyz::DType) -> String {
    match d {
        npyz::DType::Plain(ts) => format!("'{ts}'"),
        other => format!("{} (a structured or sub-array dtype)", other.descr()),
    }
}

/// The `'descr'` value of a `.npy` file's header (`'<f8'`, `'|O'`, ...), read as text from the
/// start of the file; `None` when there is none. Only for error messages.
fn header_descr(path: &Path) -> Option<String> {
    let mut head = Vec::new();
    File::open(path).ok()?.take(4096).read_to_end(&mut head).ok()?;
    let text = String::from_utf8_lossy(&head);
    let rest = &text[text.find("'descr'")? + "'descr'".len()..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start().strip_prefix('\'')?;
    Some(rest[..rest.find('\'')?].to_string())
}

/// Which elements `[lo, hi)` of an array of this dtype and shape [`read_npy`] reads, when not all.
type ReadPart = Box<dyn Fn(DType, &[i64]) -> Option<(i64, i64)> + Send + Sync>;

static READ_PART: std::sync::OnceLock<ReadPart> = std::sync::OnceLock::new();

/// Makes [`read_npy`] read, of each C-order native-endian file, only the elements `part(dtype,
/// shape)` gives (all where it gives `None`), leaving the others unspecified: a rank of a
/// distributed run reads its own block of rows (offset reads, `arrayc_dist`). Once per process;
/// later calls are ignored. Files read element by element (big-endian, Fortran order) are read
/// whole, which a caller that needs only a part may not tell apart.
pub fn read_only_part(part: ReadPart) {
    let _ = READ_PART.set(part);
}

/// Reads a `.npy` file into a new contiguous row-major array.
///
/// A C-order file in the machine's byte order (what `numpy.save` writes) is read straight into the
/// array's buffer, in chunks on all cores ([`read_parallel`]); a big-endian or Fortran-order file
/// element by element through `npyz`, converted.
///
/// Errors: [`NpyError::NotFound`] if `path` does not exist, [`NpyError::NotNpy`] if it is not a valid
/// `.npy` file (including truncated data, a bool byte other than 0 or 1, and a header whose shape
/// needs more bytes than the file has, found before anything is allocated),
/// [`NpyError::UnsupportedDType`] for element types arrayc has not (float16, complex, ...),
/// [`NpyError::Alloc`] when the array passes the memory limit or the system refuses the memory,
/// [`NpyError::Io`] for other read failures.
pub fn read_npy(path: &Path) -> Result<View, NpyError> {
    let mut file = File::open(path).map_err(|e| io_err(path, "read", e))?;
    let meta = file.metadata().map_err(|e| io_err(path, "read", e))?;
    if meta.is_dir() {
        return Err(not_npy(path, "it is a directory"));
    }
    // Unbuffered, so that the file is left at the first byte of the data.
    let header = NpyHeader::from_reader(&mut file).map_err(|e| match e.kind() {
        // npyz rejects type strings it cannot represent (`|O`, Python objects) as invalid: name the
        // dtype from the header instead, as for the supported-but-unhandled ones.
        io::ErrorKind::InvalidData if e.to_string().contains("type string") => match header_descr(path) {
            Some(dtype) => NpyError::UnsupportedDType { path: path.to_path_buf(), dtype: format!("'{dtype}'") },
            None => not_npy(path, e),
        },
        io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof => not_npy(path, e),
        _ => io_err(path, "read", e),
    })?;
    let file_dtype = header.dtype();
    let dtype = dtype_of(&file_dtype)
        .ok_or_else(|| NpyError::UnsupportedDType { path: path.to_path_buf(), dtype: describe_dtype(&file_dtype) })?;
    let shape: Vec<i64> = header
        .shape()
        .iter()
        .map(|&d| i64::try_from(d).map_err(|_| not_npy(path, format!("dimension {d} is too large"))))
        .collect::<Result<_, _>>()?;
    // The header's shape is checked against the file's length before anything is allocated: the
    // data cannot be longer than the file.
    let bytes = arrayc_core::shape::checked_len(&shape).and_then(|n| n.checked_mul(dtype.size_bytes() as i64));
    match bytes {
        None => return Err(not_npy(path, format!("its header's shape {shape:?} is too large"))),
        Some(b) if b as u64 > meta.len() => {
            return Err(not_npy(
                path,
                format!(
                    "its header's shape {shape:?} needs {b} bytes of data but the file has {} bytes in all",
                    meta.len()
                ),
            ))
        }
        Some(_) => {}
    }
    let fortran = header.order() == npyz::Order::Fortran;
    let native = match &file_dtype {
        npyz::DType::Plain(ts) => {
            ts.endianness() == Endianness::Irrelevant || ts.endianness() == Endianness::of_machine()
        }
        _ => false,
    };
    // Fortran order stores the elements as C order does when at most one dimension is longer than 1.
    let in_order = !fortran || shape.iter().filter(|&&d| d > 1).count() <= 1;
    let alloc = |source| NpyError::Alloc { path: path.to_path_buf(), source };
    if native && in_order {
        let mut out = View::uninitialised(dtype, &shape).map_err(alloc)?;
        let data = out.contiguous_bytes_mut().expect("a new array is contiguous and has no other view");
        // Only the part this process reads (`read_only_part`), the rest left unspecified.
        let es = dtype.size_bytes();
        let data = match READ_PART.get().and_then(|f| f(dtype, &shape)) {
            Some((lo, hi)) => {
                use std::io::Seek;
                file.seek(io::SeekFrom::Current(lo * es as i64)).map_err(|e| io_err(path, "read", e))?;
                &mut data[lo as usize * es..hi as usize * es]
            }
            None => data,
        };
        read_parallel(&mut file, data).map_err(|e| bad_data(path, e))?;
        let bad_bool = if dtype == DType::Bool { data.iter().find(|&&b| b > 1) } else { None };
        if let Some(b) = bad_bool {
            return Err(not_npy(path, format!("data is invalid: {b} is not a bool (0 or 1)")));
        }
        return Ok(out);
    }
    let npy = NpyFile::with_header(header, BufReader::new(file));
    let out = View::zeros(dtype, &shape).map_err(alloc)?;
    // The order in which file elements are stored: row-major for C order; for Fortran order, the
    // row-major order of the transposed view (first axis fastest).
    let target = if fortran {
        View {
            shape: out.shape.iter().rev().copied().collect(),
            strides: out.strides.iter().rev().copied().collect(),
            ..out.clone()
        }
    } else {
        out.clone()
    };
    macro_rules! fill {
        ($t:ty, $wrap:expr) => {{
            let reader = npy.data::<$t>().map_err(|e| not_npy(path, e))?;
            let mut it = reader.into_iter();
            let mut err = None;
            target.for_each_offset(|off| {
                if err.is_some() {
                    return;
                }
                match it.next() {
                    Some(Ok(v)) => out.write_at(off, $wrap(v)),
                    Some(Err(e)) => err = Some(bad_data(path, e)),
                    None => err = Some(not_npy(path, "data ends early")),
                }
            });
            if let Some(e) = err {
                return Err(e);
            }
        }};
    }
    match dtype {
        DType::F64 => fill!(f64, Scalar::F64),
        DType::F32 => fill!(f32, Scalar::F32),
        DType::I64 => fill!(i64, Scalar::I64),
        DType::I32 => fill!(i32, Scalar::I32),
        DType::I16 => fill!(i16, Scalar::I16),
        DType::I8 => fill!(i8, Scalar::I8),
        DType::U64 => fill!(u64, Scalar::U64),
        DType::U32 => fill!(u32, Scalar::U32),
        DType::U16 => fill!(u16, Scalar::U16),
        DType::U8 => fill!(u8, Scalar::U8),
        DType::Bool => fill!(bool, Scalar::Bool),
    }
    Ok(out)
}

/// Bytes of a file read by one thread at a time: a multiple of the 2 MiB huge pages of large
/// arrays, so that no two threads fault in the same page.
const READ_CHUNK: usize = 8 << 20;

/// Fills `data` with the bytes of `file` from its current position: chunks of [`READ_CHUNK`]
/// read (`read_exact_at`) on all cores, so that the copies from the page cache and the first
/// touch of the array's pages run in parallel. Errors: the file ends early (`UnexpectedEof`), or
/// a read fails.
fn read_parallel(file: &mut File, data: &mut [u8]) -> io::Result<()> {
    use rayon::prelude::*;
    use std::io::Seek;
    use std::os::unix::fs::FileExt;
    let start = file.stream_position()?;
    let file = &*file;
    data.par_chunks_mut(READ_CHUNK)
        .enumerate()
        .try_for_each(|(i, chunk)| file.read_exact_at(chunk, start + (i * READ_CHUNK) as u64))
}

/// The error of a failed read of a `.npy` file's data: [`NpyError::NotNpy`] for data that ends
/// early or is invalid, [`NpyError::Io`] otherwise.
fn bad_data(path: &Path, e: io::Error) -> NpyError {
    match e.kind() {
        io::ErrorKind::InvalidData | io::ErrorKind::UnexpectedEof => {
            not_npy(path, format!("data ends early or is invalid: {e}"))
        }
        _ => io_err(path, "read", e),
    }
}

static TMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A temporary path next to `path` (same directory, so the final rename is atomic).
fn temp_path(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out.npy".into());
    let unique = format!(".{name}.tmp-{}-{}", std::process::id(), TMP_COUNTER.fetch_add(1, Ordering::Relaxed));
    path.with_file_name(unique)
}

fn npy_dtype(dtype: DType) -> npyz::DType {
    let order = if dtype.size_bytes() == 1 { '|' } else { '<' };
    let s = format!("{order}{}{}", dtype.kind(), dtype.size_bytes());
    npyz::DType::Plain(s.parse().expect("valid type string"))
}

/// The `.npy` header (by `npyz`) of a little-endian C-order file of `view`'s dtype and shape.
fn header_bytes(view: &View) -> io::Result<Vec<u8>> {
    let shape: Vec<u64> = view.shape.iter().map(|&d| d.max(0) as u64).collect();
    let mut header = Vec::new();
    macro_rules! begin {
        ($t:ty) => {
            // npyz writes the header when the writer begins; the elements follow raw, so the writer
            // is dropped unfinished (its count of pushed elements is checked only by `finish`).
            drop(WriteOptions::<$t>::new().dtype(npy_dtype(view.dtype)).shape(&shape).writer(&mut header).begin_nd()?)
        };
    }
    match view.dtype {
        DType::F64 => begin!(f64),
        DType::F32 => begin!(f32),
        DType::I64 => begin!(i64),
        DType::I32 => begin!(i32),
        DType::I16 => begin!(i16),
        DType::I8 => begin!(i8),
        DType::U64 => begin!(u64),
        DType::U32 => begin!(u32),
        DType::U16 => begin!(u16),
        DType::U8 => begin!(u8),
        DType::Bool => begin!(bool),
    }
    Ok(header)
}

/// Bytes gathered per write for a view whose elements are not contiguous.
const GATHER_BYTES: usize = 1 << 20;

/// Writes `view`'s elements in row-major order, little-endian: a contiguous view on a
/// little-endian machine with one `write_all` of its bytes, any other view in blocks of
/// [`GATHER_BYTES`].
fn write_elements(w: &mut impl Write, view: &View) -> io::Result<()> {
    if let Some(data) = view.contiguous_bytes().filter(|_| cfg!(target_endian = "little")) {
        return w.write_all(data);
    }
    let mut block = Vec::with_capacity(GATHER_BYTES + 8);
    let mut res = Ok(());
    view.for_each(|s| {
        block.extend_from_slice(&s.to_bits().to_le_bytes()[..view.dtype.size_bytes()]);
        if block.len() >= GATHER_BYTES {
            if res.is_ok() {
                res = w.write_all(&block);
            }
            block.clear();
        }
    });
    res?;
    w.write_all(&block)
}

/// Files the write in progress ([`write_npy_all`]) has created: its temporary files, and the final
/// files it has already renamed into place. [`abandon_writes_and_exit`] removes them.
static IN_PROGRESS: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

fn in_progress() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    IN_PROGRESS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every file of the write in progress (after an error).
fn abandon() {
    for p in in_progress().drain(..) {
        let _ = std::fs::remove_file(p);
    }
}

/// Whether an interrupt began ([`interrupt_flag`]): the process is about to exit through
/// [`abandon_writes_and_exit`], and the main thread must leave the exit to it ([`interrupted`]).
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The flag that marks an interrupt: a driver's signal handler sets it (to `true`, in the handler
/// itself, so that it is set before any thread can see a child process die of the same signal),
/// and then ends the process with [`abandon_writes_and_exit`].
pub fn interrupt_flag() -> &'static std::sync::atomic::AtomicBool {
    &INTERRUPTED
}

/// Runs `spawn` (the start of a process that writes a recorded temporary file, such as the linker
/// of `arrayc build`) under the lock of the writes in progress, unless an interrupt began: then it
/// waits for the interrupt handler to end the process.
pub fn spawn_recorded<T>(spawn: impl FnOnce() -> T) -> T {
    let files = in_progress();
    if interrupted() {
        // The handler needs the lock to end the process.
        drop(files);
        loop {
            std::thread::park();
        }
    }
    let started = spawn();
    drop(files);
    started
}

/// Whether an interrupt handler runs ([`interrupt_flag`]): a driver that is about to exit waits
/// for it instead, so the exit status is the interrupt's (130) whichever thread gets there first.
pub fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// Removes every file of the write in progress, so that an interrupted run leaves no temporary
/// and no partial set of outputs, then exits the process with `code`. For a signal handler
/// (SIGINT: 130). The lock on the list of files is held until the exit, so no write can create or
/// rename a file after the removal.
pub fn abandon_writes_and_exit(code: i32) -> ! {
    abandon_writes_and_exit_after(code, || {})
}

/// [`abandon_writes_and_exit`], running `before` first under the lock of the writes in progress:
/// no process that [`spawn_recorded`] starts can start after `before` began (the driver's
/// Ctrl-C handler stops the linker of `arrayc build` there).
pub fn abandon_writes_and_exit_after(code: i32, before: impl FnOnce()) -> ! {
    let mut files = in_progress();
    before();
    for p in files.drain(..) {
        let _ = std::fs::remove_file(p);
    }
    std::process::exit(code)
}

/// Creates `path` and records it as part of the write in progress, under one lock.
fn create_recorded(path: &Path) -> io::Result<File> {
    let mut files = in_progress();
    let f = File::create(path)?;
    files.push(path.to_path_buf());
    Ok(f)
}

/// Renames the recorded temporary file `tmp` (of [`write_npy_all`], or of another all-or-nothing
/// writer: [`create_recorded_temporary`]) to `path`, which an interrupt then removes in its place;
/// under one lock, so that an interrupt sees one or the other.
pub fn rename_recorded(tmp: &Path, path: &Path) -> io::Result<()> {
    let mut files = in_progress();
    std::fs::rename(tmp, path)?;
    files.retain(|p| p != tmp);
    files.push(path.to_path_buf());
    Ok(())
}

/// Creates `path`, a new temporary file of another all-or-nothing writer (`arrayc build`), and
/// records it as part of the write in progress, under one lock, so that an interrupt
/// ([`abandon_writes_and_exit`]) removes it. Errors: `path` exists (`AlreadyExists`), or cannot be
/// created.
pub fn create_recorded_temporary(path: &Path) -> io::Result<File> {
    let mut files = in_progress();
    let f = File::options().write(true).create_new(true).open(path)?;
    files.push(path.to_path_buf());
    Ok(f)
}

/// Ends the write in progress of [`create_recorded_temporary`]: its files are kept (or already removed).
pub fn finish_recorded() {
    in_progress().clear();
}

/// Writes `view` to the new recorded file `tmp`: the header, then the elements; not flushed to
/// the disk (no `fsync`, as `numpy.save` does not), so a write costs a copy to the page cache.
fn write_file(tmp: &Path, view: &View) -> io::Result<()> {
    // The buffer takes the header; the elements of a contiguous view, larger than it, go to the
    // file in one write.
    let mut bw = BufWriter::new(create_recorded(tmp)?);
    bw.write_all(&header_bytes(view)?)?;
    write_elements(&mut bw, view)?;
    bw.flush()
}

/// Writes each `(path, view)` as a little-endian C-order `.npy` file with the view's dtype (any
/// strides, including negative and zero; any rank including 0-d; elements in row-major order of
/// the view), all or nothing: every view goes to a temporary file in its target's directory, and
/// only when all are written are they renamed into place. The files the targets held before are
/// removed meanwhile, on a thread of their own (a rename over a file waits for the file system to
/// free the old file and to start writing back the new one: 0.3 s for 240 MB on ext4). On an
/// error, or through [`abandon_writes_and_exit`] on an interrupt, the temporary files and any
/// target already renamed are removed, so no target holds a file then. The files are not flushed
/// to the disk (no `fsync`, as with `numpy.save`): all or nothing holds against errors and
/// interrupts of this process, not against a crash of the machine. Errors: [`NpyError::Io`]
/// naming the target (e.g. the directory does not exist or is not writable, disk full).
pub fn write_npy_all(items: &[(PathBuf, &View)]) -> Result<(), NpyError> {
    let fail = |path: &Path, e: io::Error| {
        abandon();
        io_err(path, "write", e)
    };
    std::thread::scope(|scope| {
        // A target that cannot be removed (a directory) fails its rename below, with the error.
        let removing = scope.spawn(|| {
            for (path, _) in items {
                let _ = std::fs::remove_file(path);
            }
        });
        let mut temps = Vec::with_capacity(items.len());
        for (path, view) in items {
            let tmp = temp_path(path);
            write_file(&tmp, view).map_err(|e| fail(path, e))?;
            temps.push(tmp);
        }
        // Only a panic of the thread is an error of `join`, and `remove_file` does not panic.
        let _ = removing.join();
        for ((path, _), tmp) in items.iter().zip(&temps) {
            rename_recorded(tmp, path).map_err(|e| fail(path, e))?;
        }
        in_progress().clear();
        Ok(())
    })
}

/// Writes `view` to `path` as [`write_npy_all`] does: an error never leaves a partial file at
/// `path`. Errors: [`NpyError::Io`].
pub fn write_npy(path: &Path, view: &View) -> Result<(), NpyError> {
    write_npy_all(&[(path.to_path_buf(), view)])
}

/// The scalar `s` as a 0-d array of its dtype, to write as `.npy` (`numpy.load` gives a 0-d array).
/// Errors: [`NpyError::Alloc`], naming `path`, if even one element cannot be allocated.
pub fn scalar_view(path: &Path, s: Scalar) -> Result<View, NpyError> {
    let v = View::zeros(s.dtype(), &[]).map_err(|source| NpyError::Alloc { path: path.to_path_buf(), source })?;
    v.write_at(0, s);
    Ok(v)
}

/// Writes the scalar `s` to `path` as a 0-d `.npy` array ([`scalar_view`], [`write_npy`]).
pub fn write_scalar_npy(path: &Path, s: Scalar) -> Result<(), NpyError> {
    write_npy(path, &scalar_view(path, s)?)
}
