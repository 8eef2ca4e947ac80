//! Chunked parallel launch of a JIT-compiled kernel.
//!
//! A kernel (an outlined [`ir::Func`] with `kernel == true`, one per block of fused array operations
//! as in Bohrium, Kristensen et al. 2016, Sec. IV) is compiled to a function that runs over rows
//! `[lo, hi)` of dimension 0 of its iteration space (see `arrayc_passes::kernel_codegen`). [`launch`]
//! checks the arguments, splits dimension 0 into chunks and runs the chunks on rayon's pool.
//!
//! The number of chunks depends only on the sizes involved (about [`CHUNK_ELEMS`] elements each),
//! never on the number of threads, and reductions over everything combine per-chunk partial results
//! on the host in chunk order: a launch gives bit-identical results for any thread count.

use crate::array::{Scalar, View};
use crate::value::RtValue;
use arrayc_dialect::ir::{self, ComputeFn, OpKind, ReduceKind, Type, ValueId};
use arrayc_grammar::ast::DType;
use rayon::prelude::*;

/// The packed entry of a compiled kernel, as MLIR's `ExecutionEngine` creates it
/// (`_mlir_<name>(void **args)`): `args[i]` points to the `i`-th LLVM-level argument, where a memref
/// of rank `r` expands to `allocated ptr, aligned ptr, offset, r sizes, r strides` and the kernel's
/// trailing `lo, hi: index` are i64.
pub type PackedFn = unsafe extern "C" fn(*mut *mut ());

/// A compiled kernel's packed entry point: a plain code pointer, `Copy`, `Send` and `Sync`, callable
/// from any rayon worker. It stays valid as long as the JIT engine that produced it lives.
#[derive(Clone, Copy, Debug)]
pub struct PackedKernel(pub PackedFn);

/// Target number of iteration-space elements per chunk.
pub const CHUNK_ELEMS: i64 = 1 << 16;

fn shape_str(s: &[i64]) -> String {
    match s.len() {
        1 => format!("({},)", s[0]),
        _ => format!("({})", s.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ")),
    }
}

/// Checks that every element of `v` lies inside its base buffer.
fn check_in_bounds(v: &View, what: &str) -> Result<(), String> {
    if v.shape.len() != v.strides.len() {
        return Err(format!("{what}: view has {} sizes but {} strides", v.shape.len(), v.strides.len()));
    }
    if v.shape.iter().any(|&d| d < 0) {
        return Err(format!("{what}: negative size in shape {}", shape_str(&v.shape)));
    }
    if v.shape.contains(&0) {
        return Ok(());
    }
    let (mut lo, mut hi) = (v.offset as i128, v.offset as i128);
    for (&d, &s) in v.shape.iter().zip(&v.strides) {
        let ext = (d as i128 - 1) * s as i128;
        if ext < 0 {
            lo += ext
        } else {
            hi += ext
        }
    }
    let n = (v.base.len_bytes() / v.dtype.size_bytes()) as i128;
    if lo < 0 || hi >= n {
        return Err(format!(
            "{what}: view out of bounds (elements {lo}..={hi} of a base array of {n} elements)"
        ));
    }
    Ok(())
}

/// Identity of a reduction in dtype `d`.
pub fn reduce_identity(kind: ReduceKind, d: DType) -> Scalar {
    let s = match kind {
        ReduceKind::Sum => Scalar::I64(0),
        ReduceKind::Prod => Scalar::I64(1),
        ReduceKind::Min => match d {
            DType::I64 => Scalar::I64(i64::MAX),
            DType::Bool => Scalar::Bool(true),
            _ => Scalar::F64(f64::INFINITY),
        },
        ReduceKind::Max => match d {
            DType::I64 => Scalar::I64(i64::MIN),
            DType::Bool => Scalar::Bool(false),
            _ => Scalar::F64(f64::NEG_INFINITY),
        },
    };
    s.cast(d)
}

/// Combines two partial results of a reduction (same dtype); min/max of floats propagate NaN.
pub fn reduce_combine(kind: ReduceKind, a: Scalar, b: Scalar) -> Scalar {
    use ReduceKind::*;
    fn fmin<T: PartialOrd + Copy>(a: T, b: T, nan: bool, want_min: bool) -> Option<T> {
        if nan {
            return None;
        }
        Some(if (b < a) == want_min { b } else { a })
    }
    match (a, b) {
        (Scalar::F64(x), Scalar::F64(y)) => Scalar::F64(match kind {
            Sum => x + y,
            Prod => x * y,
            Min => fmin(x, y, x.is_nan() || y.is_nan(), true).unwrap_or(f64::NAN),
            Max => fmin(x, y, x.is_nan() || y.is_nan(), false).unwrap_or(f64::NAN),
        }),
        (Scalar::F32(x), Scalar::F32(y)) => Scalar::F32(match kind {
            Sum => x + y,
            Prod => x * y,
            Min => fmin(x, y, x.is_nan() || y.is_nan(), true).unwrap_or(f32::NAN),
            Max => fmin(x, y, x.is_nan() || y.is_nan(), false).unwrap_or(f32::NAN),
        }),
        (Scalar::I64(x), Scalar::I64(y)) => Scalar::I64(match kind {
            Sum => x.wrapping_add(y),
            Prod => x.wrapping_mul(y),
            Min => x.min(y),
            Max => x.max(y),
        }),
        (Scalar::Bool(x), Scalar::Bool(y)) => Scalar::Bool(match kind {
            Sum | Max => x | y,
            Prod | Min => x & y,
        }),
        (a, b) => reduce_combine(kind, a, b.cast(a.dtype())),
    }
}

/// What the launcher must know about a kernel's body.
enum Plan {
    /// Elementwise ops over the shape of the first op's `out`.
    Elementwise,
    /// Reduction over everything: per-chunk partials into the 0-d out (parameter position given).
    ReduceAll { kind: ReduceKind, out_pos: usize },
    /// Reduction along an axis: iteration space is out's shape.
    ReduceAxis,
}

/// Launches `kernel` (compiled to `entry`) on `args` (its parameters in order: views and scalars).
///
/// Checks, each an `Err` with a message for the user (never a memory error): argument count, kinds,
/// dtypes and ranks against the kernel's parameter types (scalars are cast to the parameter dtype);
/// every view lies inside its base buffer; elementwise views have the iteration-space shape (the shape
/// of the first op's `out`; 0-d inputs broadcast), e.g. `shape mismatch: operand 2 has shape (3, 4)
/// but the kernel iterates over (3, 5)` (operands numbered from 0 in parameter order); a reduction's
/// output has the input's shape without the reduced axis.
///
/// Dimension 0 of the iteration space is split into chunks of about [`CHUNK_ELEMS`] elements (the
/// count depends only on the sizes), run in parallel on rayon's current pool, or inline when there is
/// one chunk (or sequentially in chunk order when an output has a zero stride, i.e. writes one element
/// many times). A reduction over everything gives every chunk its own partial slot and combines them
/// on the host in chunk order, so its result does not depend on the thread count; an empty input
/// gives the identity (0, 1, +inf/-inf, i64 max/min).
pub fn launch(entry: PackedKernel, kernel: &ir::Func, args: &[RtValue]) -> Result<(), String> {
    let name = &kernel.name;
    if args.len() != kernel.params.len() {
        return Err(format!("kernel @{name} takes {} arguments, got {}", kernel.params.len(), args.len()));
    }
    let pos = |v: ValueId| kernel.params.iter().position(|&p| p == v);
    // Argument checks and descriptor words (one u64 per LLVM-level argument, before lo/hi).
    let mut words: Vec<u64> = vec![];
    let mut word_start: Vec<usize> = vec![];
    for (i, (&p, a)) in kernel.params.iter().zip(args).enumerate() {
        word_start.push(words.len());
        match (kernel.ty(p), a) {
            (Type::Scalar(d), RtValue::Scalar(s)) => words.push(match s.cast(d) {
                Scalar::F64(x) => x.to_bits(),
                Scalar::F32(x) => x.to_bits() as u64,
                Scalar::I64(x) => x as u64,
                Scalar::Bool(x) => x as u64,
            }),
            (Type::Array(d, r), RtValue::View(v)) => {
                if v.dtype != d {
                    return Err(format!("kernel @{name}: operand {i} has dtype {} but the kernel expects {}", v.dtype.name(), d.name()));
                }
                if v.rank() != r {
                    return Err(format!("kernel @{name}: operand {i} has rank {} but the kernel expects rank {r}", v.rank()));
                }
                check_in_bounds(v, &format!("kernel @{name}: operand {i}"))?;
                let ptr = v.base.as_ptr() as u64;
                words.extend([ptr, ptr, v.offset as u64]);
                words.extend(v.shape.iter().map(|&x| x as u64));
                words.extend(v.strides.iter().map(|&x| x as u64));
            }
            (Type::Scalar(_), RtValue::View(_)) => return Err(format!("kernel @{name}: operand {i} is an array but the kernel expects a scalar")),
            (Type::Array(..), RtValue::Scalar(_)) => return Err(format!("kernel @{name}: operand {i} is a scalar but the kernel expects an array")),
        }
    }
    let lo_word = words.len();
    words.extend([0, 0]);

    // The body: Compute ops on parameters.
    let mut ops = vec![];
    for op in &kernel.body {
        match &op.kind {
            OpKind::Compute { func, out, ins } => {
                let mut ps = vec![];
                for &v in std::iter::once(out).chain(ins) {
                    ps.push(pos(v).ok_or_else(|| format!("kernel @{name}: operand %v{v} is not a parameter"))?);
                }
                ops.push((*func, ps));
            }
            OpKind::Return { .. } => {}
            k => return Err(format!("kernel @{name}: unexpected operation {k:?}")),
        }
    }
    if ops.is_empty() {
        return Err(format!("kernel @{name} has no array computation"));
    }
    let view = |p: usize| args[p].view().ok_or_else(|| format!("kernel @{name}: operand {p} must be an array"));
    let mismatch = |p: usize, s: &[i64], space: &[i64]| {
        format!("shape mismatch: operand {p} has shape {} but the kernel iterates over {}", shape_str(s), shape_str(space))
    };
    let (plan, space, work_per_elem): (Plan, Vec<i64>, i64) = match &ops[0] {
        (ComputeFn::Reduce(kind, axis), ps) => {
            if ops.len() != 1 || ps.len() != 2 {
                return Err(format!("kernel @{name}: a reduction must be alone and take one input"));
            }
            let (o, x) = (view(ps[0])?, view(ps[1])?);
            match axis {
                Some(a) if o.rank() > 0 => {
                    let mut expect = x.shape.clone();
                    if *a >= expect.len() {
                        return Err(format!("kernel @{name}: reduction axis {a} out of range for rank {}", x.rank()));
                    }
                    expect.remove(*a);
                    if o.shape != expect {
                        return Err(mismatch(ps[0], &o.shape, &expect));
                    }
                    (Plan::ReduceAxis, o.shape.clone(), x.shape[*a].max(1))
                }
                _ => {
                    if o.rank() != 0 {
                        return Err(format!("kernel @{name}: reduction over everything needs a 0-d output"));
                    }
                    (Plan::ReduceAll { kind: *kind, out_pos: ps[0] }, x.shape.clone(), 1)
                }
            }
        }
        (_, ps) => {
            let space = view(ps[0])?.shape.clone();
            for (func, ps) in &ops {
                if matches!(func, ComputeFn::Reduce(..)) {
                    return Err(format!("kernel @{name}: a reduction must be alone in its kernel"));
                }
                if *func == ComputeFn::Arange && space.len() != 1 {
                    return Err(format!("kernel @{name}: arange output must be 1-d"));
                }
                for (j, &p) in ps.iter().enumerate() {
                    if let RtValue::View(v) = &args[p] {
                        let ok = v.shape == space || (j > 0 && v.rank() == 0);
                        if !ok {
                            return Err(mismatch(p, &v.shape, &space));
                        }
                    }
                }
            }
            (Plan::Elementwise, space, 1)
        }
    };

    let rows = space.first().copied().unwrap_or(1);
    let inner: i64 = space.iter().skip(1).product();
    let total = rows * inner;
    if total == 0 {
        if let Plan::ReduceAll { kind, out_pos } = plan {
            let o = view(out_pos)?;
            o.write_at(o.offset, reduce_identity(kind, o.dtype));
        }
        return Ok(());
    }
    let per_row = (inner * work_per_elem).max(1);
    let rows_per_chunk = (CHUNK_ELEMS / per_row).max(1);
    let nchunks = (rows + rows_per_chunk - 1) / rows_per_chunk;

    // Outputs that write one element many times (zero strides) run sequentially in chunk order.
    let aliased_out = ops.iter().any(|(_, ps)| {
        args[ps[0]].view().is_some_and(|v| v.shape.iter().zip(&v.strides).any(|(&d, &s)| d > 1 && s == 0))
    });

    // Partial slots for a reduction over everything: one 8-byte word per chunk.
    let mut partials: Vec<u64> = vec![];
    let partial_info = if let Plan::ReduceAll { kind, out_pos } = plan {
        partials = vec![0u64; nchunks as usize];
        let d = view(out_pos)?.dtype;
        Some((kind, out_pos, d, word_start[out_pos]))
    } else {
        None
    };
    let partials_ptr = partials.as_mut_ptr() as u64;

    let run_chunk = |c: i64| {
        let mut w = words.clone();
        let lo = c * rows_per_chunk;
        let hi = (lo + rows_per_chunk).min(rows);
        w[lo_word] = lo as u64;
        w[lo_word + 1] = hi as u64;
        if let Some((_, _, d, ws)) = partial_info {
            // 0-d memref: allocated, aligned, offset (elements) -> slot c of the partials.
            w[ws] = partials_ptr;
            w[ws + 1] = partials_ptr;
            w[ws + 2] = (c as usize * (8 / d.size_bytes())) as u64;
        }
        let mut ptrs: Vec<*mut ()> = w.iter_mut().map(|x| x as *mut u64 as *mut ()).collect();
        // SAFETY: the descriptors match the kernel's signature (checked above: count, kinds, dtypes,
        // ranks), every view lies inside its live base buffer, chunks write disjoint rows of the
        // outputs (or run sequentially when an output aliases itself), and partial slots are
        // per-chunk words of `partials`, alive for the whole launch.
        unsafe { (entry.0)(ptrs.as_mut_ptr()) }
    };
    if nchunks == 1 || aliased_out {
        (0..nchunks).for_each(run_chunk);
    } else {
        (0..nchunks).into_par_iter().for_each(run_chunk);
    }

    if let Some((kind, out_pos, d, _)) = partial_info {
        let mut acc = reduce_identity(kind, d);
        for word in &partials {
            let b = word.to_le_bytes();
            let s = match d {
                DType::F64 => Scalar::F64(f64::from_le_bytes(b)),
                DType::F32 => Scalar::F32(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
                DType::I64 => Scalar::I64(i64::from_le_bytes(b)),
                DType::Bool => Scalar::Bool(b[0] != 0),
            };
            acc = reduce_combine(kind, acc, s);
        }
        let o = view(out_pos)?;
        o.write_at(o.offset, acc);
    }
    Ok(())
}
