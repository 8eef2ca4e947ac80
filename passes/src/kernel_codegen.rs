//! Kernel code generation: an outlined kernel function ([`ir::Func`] with `kernel == true`) becomes
//! one MLIR `func.func` of `scf`/`memref`/`arith`/`math` operations that runs over one chunk of the
//! kernel's iteration space.
//!
//! One kernel per block of fused array operations, launched once over its whole iteration space, is
//! Bohrium's execution model (Kristensen et al. 2016, Sec. IV): the fusion pass decides which array
//! operations share a loop nest, and this module writes that loop nest.
//!
//! # Calling convention
//!
//! `func.func @<name>(%p0: <ty0>, ..., %lo: index, %hi: index)`, one parameter per kernel parameter in
//! order, then the chunk bounds. A view of dtype `T` and rank `r` is
//! `memref<?x..x?xT, strided<[?, .., ?], offset: ?>>` (rank 0: `memref<T, strided<[], offset: ?>>`),
//! with `T` one of `f64`, `f32`, `i64`, `i1` (a bool is stored in one byte per element, as in NumPy);
//! a scalar is passed as its element type. Offsets, sizes and strides are in elements.
//!
//! Parameters are the kernel's parameters in order (as the outline pass builds them: views and
//! scalars), then the chunk bounds `%lo, %hi`: dimension 0 of the chunked space runs over
//! `[%lo, %hi)` (the chunk the runtime assigned, see `arrayc_runtime::launch`), inner dimensions over
//! their full size; a rank-0 iteration space runs the body once when `%lo < %hi`.
//!
//! # Fused blocks and array contraction (Kristensen et al. 2016, Sec. IV-A, Fig. 1)
//!
//! A kernel body is one fused block of the WSP partition: `Compute` ops in execution order, analysed
//! by [`kernel_layout`] (shared with the launcher, so both agree on the iteration space). Supported
//! forms (anything else is a [`CodegenError`]; [`fusible_block`] tells the outline pass beforehand):
//!
//! * **Elementwise block**: any number of non-reduction ops over one iteration space, the shape of
//!   the first view parameter of the iteration-space rank among the ops' operands (all such views and
//!   all contracted temporaries have that shape; 0-d views may be read-only broadcast inputs). A
//!   block with no view parameter at all does nothing (its function body is empty and the launcher
//!   returns `Ok`).
//! * **Fused reduction**: an elementwise block (possibly empty) followed by one or more
//!   `Reduce(kind, axis)` ops at the END (several only along one common axis, over inputs of one
//!   rank), each output a parameter used by no other op of the block, each input `x` a parameter or
//!   a contracted temporary. The iteration space is `x`'s
//!   shape (taken from `x`, or from the first elementwise view parameter of its rank when `x` is
//!   contracted; without such a view the block is rejected). `axis = None` (or a 0-d output): one loop
//!   nest over `x`'s shape, dimension 0 chunked, carrying the accumulator; the chunk's result goes to
//!   the 0-d `out` (the runtime gives each chunk its own partial slot and combines the partials in
//!   chunk order). `axis = Some(a)`: loops over `out`'s dimensions (the first one chunked), then the
//!   input's axis `a` innermost carrying the accumulator; the elementwise ops run inside the innermost
//!   loop at the full input index.
//!
//! Not supported (errors): an op after the reductions, two whole-array reductions or reductions
//! along different axes, a reduction output
//! that is not a parameter or is an operand of the block's elementwise ops, a temporary read before
//! it is written, a non-parameter scalar, ranks that do not fit one iteration space, a 0-d view
//! written in a higher-rank space.
//!
//! Within one iteration, following Sec. IV-A2 (every array "loaded and stored once per element"):
//!
//! * a **contracted temporary** (an array-typed value that is not a parameter: created and deleted
//!   inside the block) is one SSA scalar, updated in op order (e.g. `fill t 0; add t t a; mul o t b`
//!   of Fig. 1) — never allocated, loaded or stored;
//! * a **view parameter** is loaded at most once (the first time an op reads it; 0-d views at `[]`),
//!   a parameter written by an op and read by a later op gets the written scalar forwarded (converted
//!   to its dtype, as a store and re-load would), and every written parameter is stored once, with its
//!   final value, at the end of the iteration.
//!
//! Consequently two *different* parameters must not alias the same elements (the fusion pass only
//! fuses ops whose views are identical or disjoint; the same host array is the same parameter).
//!
//! # Semantics (NumPy)
//!
//! Inputs are converted to the op's compute dtype: the out dtype for arithmetic, min/max, `where`
//! branches, unary functions, copy and fill (bool arithmetic is computed in i64, float-only functions
//! on a non-float out in f64); the promoted dtype of both inputs for comparisons; `i1` for and/or/not.
//! `%` follows NumPy (sign of the divisor, integer `x % 0 == 0`, no trap). Integer `**` with a negative
//! exponent gives 0, except base 1 (gives 1) and base -1 (gives ±1 by parity) — NumPy raises instead;
//! we pick a total, trap-free definition. Random is Philox4x32-10 in MLIR, bit-identical to
//! `arrayc_runtime::rng::uniform_f64`.

use crate::kernel_layout::{kernel_layout, KernelLayout, Reduction};
use arrayc_core::DType;
use arrayc_dialect::ir::{self, BinFn, ComputeFn, ReduceKind, Type, UnFn, ValueId};
use std::collections::HashMap;
use std::fmt::Write;

/// A kernel that this back end cannot compile (malformed kernel IR: a compiler bug upstream).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("kernel codegen for @{kernel}: {msg}")]
pub struct CodegenError {
    pub kernel: String,
    pub msg: String,
}

pub use arrayc_dialect::print::{elem_type, mlir_type as param_type};

/// The dtype a reduction accumulates in: the out dtype, except that a bool sum/product accumulates
/// in i64.
fn acc_dtype(kind: ReduceKind, out: DType) -> DType {
    match (kind, out) {
        (ReduceKind::Sum | ReduceKind::Prod, DType::Bool) => DType::I64,
        _ => out,
    }
}

struct Gen<'f> {
    f: &'f ir::Func,
    s: String,
    next: usize,
    indent: usize,
    /// Per iteration: the current scalar of every parameter view loaded or written so far and of
    /// every contracted temporary written so far (array contraction, Sec. IV-A).
    cur: HashMap<ValueId, V>,
    /// Per iteration: parameter views written so far, in order of first write (stored once, with
    /// their final value, at the end of the iteration).
    dirty: Vec<ValueId>,
    /// Inside the loop nest specialised to [`ir::Func::inner_strides`]: per hinted parameter, the
    /// name and type of its `memref.cast` to a static last-dimension stride.
    fast: HashMap<ValueId, (String, String)>,
}

/// A generated SSA value and its dtype.
#[derive(Clone)]
struct V {
    name: String,
    d: DType,
}

impl<'f> Gen<'f> {
    fn err<T>(&self, msg: impl Into<String>) -> Result<T, CodegenError> {
        Err(CodegenError { kernel: self.f.name.clone(), msg: msg.into() })
    }
    fn line(&mut self, l: &str) {
        for _ in 0..self.indent {
            self.s.push_str("  ");
        }
        self.s.push_str(l);
        self.s.push('\n');
    }
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%t{}", self.next)
    }
    fn op(&mut self, rhs: &str) -> String {
        let v = self.fresh();
        self.line(&format!("{v} = {rhs}"));
        v
    }
    fn idx_const(&mut self, c: i64) -> String {
        self.op(&format!("arith.constant {c} : index"))
    }
    /// A constant of dtype `d` from an f64 (floats) / i64 (ints, bool) value.
    fn constf(&mut self, d: DType, x: f64) -> V {
        let name = match d {
            DType::F64 => self.op(&format!("arith.constant 0x{:016X} : f64", x.to_bits())),
            DType::F32 => self.op(&format!("arith.constant 0x{:08X} : f32", (x as f32).to_bits())),
            DType::I64 => self.op(&format!("arith.constant {} : i64", x as i64)),
            DType::Bool => self.op(&format!("arith.constant {}", x != 0.0)),
        };
        V { name, d }
    }
    fn consti(&mut self, d: DType, x: i64) -> V {
        match d {
            DType::I64 => V { name: self.op(&format!("arith.constant {x} : i64")), d },
            DType::Bool => V { name: self.op(&format!("arith.constant {}", x != 0)), d },
            _ => self.constf(d, x as f64),
        }
    }
    fn var(&self, v: ValueId) -> String {
        format!("%v{v}")
    }
    /// Name and memref type through which the loop nest accesses view parameter `v`.
    fn view_ref(&self, v: ValueId) -> (String, String) {
        self.fast.get(&v).cloned().unwrap_or_else(|| (self.var(v), param_type(self.ty(v))))
    }
    fn ty(&self, v: ValueId) -> Type {
        self.f.ty(v)
    }

    /// Converts `v` to dtype `to` (NumPy `astype`: float to int truncates, anything to bool is `!= 0`).
    fn convert(&mut self, v: &V, to: DType) -> V {
        use DType::*;
        if v.d == to {
            return v.clone();
        }
        let (a, fe, te) = (v.name.clone(), elem_type(v.d), elem_type(to));
        let name = match (v.d, to) {
            (I64, Bool) => {
                let z = self.consti(I64, 0);
                self.op(&format!("arith.cmpi ne, {a}, {} : i64", z.name))
            }
            (F64 | F32, Bool) => {
                let z = self.constf(v.d, 0.0);
                self.op(&format!("arith.cmpf une, {a}, {} : {fe}", z.name))
            }
            (Bool, I64) => self.op(&format!("arith.extui {a} : i1 to i64")),
            (Bool, _) => self.op(&format!("arith.uitofp {a} : i1 to {te}")),
            (I64, _) => self.op(&format!("arith.sitofp {a} : i64 to {te}")),
            (_, I64) => self.op(&format!("arith.fptosi {a} : {fe} to i64")),
            (F32, F64) => self.op(&format!("arith.extf {a} : f32 to f64")),
            (F64, F32) => self.op(&format!("arith.truncf {a} : f64 to f32")),
            _ => unreachable!(),
        };
        V { name, d: to }
    }

    fn is_param(&self, v: ValueId) -> bool {
        self.f.params.contains(&v)
    }

    /// Index list for a view of rank `r` at iteration index `idx` (0-d views at `[]`).
    fn index_of(&self, v: ValueId, r: usize, idx: &[String]) -> Result<String, CodegenError> {
        if r == 0 {
            Ok(String::new())
        } else if r == idx.len() {
            Ok(idx.join(", "))
        } else {
            self.err(format!("operand %v{v} has rank {r} but the iteration space has rank {}", idx.len()))
        }
    }

    /// Value of operand `v` in the current iteration: a scalar parameter directly; a view parameter
    /// loaded at `idx` (`[]` for 0-d) the first time the iteration needs it, its cached or last
    /// written scalar afterwards; a contracted temporary's current scalar (never loaded).
    fn read(&mut self, v: ValueId, idx: &[String]) -> Result<V, CodegenError> {
        match self.ty(v) {
            Type::Scalar(d) if self.is_param(v) => Ok(V { name: self.var(v), d }),
            Type::Scalar(_) => self.err(format!("scalar %v{v} is not a kernel parameter")),
            Type::Array(d, r) => {
                if let Some(x) = self.cur.get(&v) {
                    return Ok(x.clone());
                }
                if !self.is_param(v) {
                    return self.err(format!("contracted temporary %v{v} is read before it is written"));
                }
                let ix = self.index_of(v, r, idx)?;
                let (m, t) = self.view_ref(v);
                let name = self.op(&format!("memref.load {m}[{ix}] : {t}"));
                let x = V { name, d };
                self.cur.insert(v, x.clone());
                Ok(x)
            }
        }
    }

    /// Sets `out` (converted to its dtype) for the rest of the iteration; a parameter is stored by
    /// [`flush`](Self::flush), a contracted temporary never.
    fn write(&mut self, out: ValueId, idx: &[String], val: &V) -> Result<(), CodegenError> {
        let Type::Array(d, r) = self.ty(out) else {
            return self.err(format!("output %v{out} is not a view"));
        };
        if r != idx.len() {
            return self.err(format!("output %v{out} has rank {r} but the iteration space has rank {}", idx.len()));
        }
        let val = self.convert(val, d);
        self.cur.insert(out, val);
        if self.is_param(out) && !self.dirty.contains(&out) {
            self.dirty.push(out);
        }
        Ok(())
    }

    /// Stores `val` (converted to the dtype of view `out`) at `idx`.
    fn store(&mut self, out: ValueId, idx: &[String], val: &V) -> Result<(), CodegenError> {
        let Type::Array(d, r) = self.ty(out) else {
            return self.err(format!("output %v{out} is not a view"));
        };
        let ix = self.index_of(out, r, idx)?;
        let val = self.convert(val, d);
        let (m, t) = self.view_ref(out);
        self.line(&format!("memref.store {}, {m}[{ix}] : {t}", val.name));
        Ok(())
    }

    /// End of an iteration: stores every written parameter once, with its final value.
    fn flush(&mut self, idx: &[String]) -> Result<(), CodegenError> {
        for p in std::mem::take(&mut self.dirty) {
            let v = self.cur[&p].clone();
            self.store(p, idx, &v)?;
        }
        self.cur.clear();
        Ok(())
    }

    /// Binary function on two values already in compute dtype `d` (for comparisons the result is i1).
    fn binary(&mut self, op: BinFn, a: &V, b: &V) -> Result<V, CodegenError> {
        use BinFn::*;
        let d = a.d;
        let t = elem_type(d);
        let fl = d.is_float();
        let (x, y) = (a.name.clone(), b.name.clone());
        let simple =
            |fop: &str, iop: &str| if fl { format!("{fop} {x}, {y} : {t}") } else { format!("{iop} {x}, {y} : {t}") };
        let name = match op {
            Add => self.op(&simple("arith.addf", "arith.addi")),
            Sub => self.op(&simple("arith.subf", "arith.subi")),
            Mul => self.op(&simple("arith.mulf", "arith.muli")),
            Div => {
                if !fl {
                    return self.err("integer true division (operands must be converted to a float)");
                }
                self.op(&format!("arith.divf {x}, {y} : {t}"))
            }
            Minimum => match d {
                DType::Bool => self.op(&format!("arith.minui {x}, {y} : i1")),
                _ => self.op(&simple("arith.minimumf", "arith.minsi")),
            },
            Maximum => match d {
                DType::Bool => self.op(&format!("arith.maxui {x}, {y} : i1")),
                _ => self.op(&simple("arith.maximumf", "arith.maxsi")),
            },
            Rem => return self.rem(a, b),
            Pow => return self.pow(a, b),
            Eq | Ne | Lt | Le | Gt | Ge => {
                let pred = match (op, fl, d == DType::Bool) {
                    (Eq, true, _) => "oeq",
                    (Ne, true, _) => "une",
                    (Lt, true, _) => "olt",
                    (Le, true, _) => "ole",
                    (Gt, true, _) => "ogt",
                    (Ge, true, _) => "oge",
                    (Eq, false, _) => "eq",
                    (Ne, false, _) => "ne",
                    (Lt, false, false) => "slt",
                    (Le, false, false) => "sle",
                    (Gt, false, false) => "sgt",
                    (Ge, false, false) => "sge",
                    (Lt, false, true) => "ult",
                    (Le, false, true) => "ule",
                    (Gt, false, true) => "ugt",
                    (Ge, false, true) => "uge",
                    _ => unreachable!(),
                };
                let cmp = if fl { "arith.cmpf" } else { "arith.cmpi" };
                let n = self.op(&format!("{cmp} {pred}, {x}, {y} : {t}"));
                return Ok(V { name: n, d: DType::Bool });
            }
            And => self.op(&format!("arith.andi {x}, {y} : {t}")),
            Or => self.op(&format!("arith.ori {x}, {y} : {t}")),
        };
        Ok(V { name, d })
    }

    /// NumPy remainder: `r = fmod/srem(a, b)`, then `r += b` when `r != 0` and its sign differs
    /// from `b`'s. Integer `b == 0` gives 0 and `b == -1` is routed through `b = 1` (no trap).
    fn rem(&mut self, a: &V, b: &V) -> Result<V, CodegenError> {
        let d = a.d;
        let t = elem_type(d);
        if d.is_float() {
            let r = self.op(&format!("arith.remf {}, {} : {t}", a.name, b.name));
            let z = self.constf(d, 0.0);
            let nz = self.op(&format!("arith.cmpf one, {r}, {} : {t}", z.name));
            let rneg = self.op(&format!("arith.cmpf olt, {r}, {} : {t}", z.name));
            let bneg = self.op(&format!("arith.cmpf olt, {}, {} : {t}", b.name, z.name));
            let diff = self.op(&format!("arith.xori {rneg}, {bneg} : i1"));
            let fix = self.op(&format!("arith.andi {nz}, {diff} : i1"));
            let radj = self.op(&format!("arith.addf {r}, {} : {t}", b.name));
            let name = self.op(&format!("arith.select {fix}, {radj}, {r} : {t}"));
            Ok(V { name, d })
        } else if d == DType::I64 {
            let z = self.consti(d, 0);
            let one = self.consti(d, 1);
            let m1 = self.consti(d, -1);
            let bz = self.op(&format!("arith.cmpi eq, {}, {} : i64", b.name, z.name));
            let bm1 = self.op(&format!("arith.cmpi eq, {}, {} : i64", b.name, m1.name));
            let bad = self.op(&format!("arith.ori {bz}, {bm1} : i1"));
            let sb = self.op(&format!("arith.select {bad}, {}, {} : i64", one.name, b.name));
            let r = self.op(&format!("arith.remsi {}, {sb} : i64", a.name));
            let nz = self.op(&format!("arith.cmpi ne, {r}, {} : i64", z.name));
            let rneg = self.op(&format!("arith.cmpi slt, {r}, {} : i64", z.name));
            let bneg = self.op(&format!("arith.cmpi slt, {sb}, {} : i64", z.name));
            let diff = self.op(&format!("arith.xori {rneg}, {bneg} : i1"));
            let fix = self.op(&format!("arith.andi {nz}, {diff} : i1"));
            let radj = self.op(&format!("arith.addi {r}, {sb} : i64"));
            let name = self.op(&format!("arith.select {fix}, {radj}, {r} : i64"));
            Ok(V { name, d })
        } else {
            self.err("remainder on bool (should have been promoted to i64)")
        }
    }

    /// `a ** b`: `math.powf` for floats; `math.ipowi` for integers with a non-negative exponent,
    /// and for `b < 0`: 1 if `a == 1`, ±1 by parity if `a == -1`, else 0.
    fn pow(&mut self, a: &V, b: &V) -> Result<V, CodegenError> {
        let d = a.d;
        let t = elem_type(d);
        if d.is_float() {
            let name = self.op(&format!("math.powf {}, {} : {t}", a.name, b.name));
            return Ok(V { name, d });
        }
        if d != DType::I64 {
            return self.err("power on bool (should have been promoted to i64)");
        }
        let z = self.consti(d, 0);
        let one = self.consti(d, 1);
        let m1 = self.consti(d, -1);
        let neg = self.op(&format!("arith.cmpi slt, {}, {} : i64", b.name, z.name));
        let se = self.op(&format!("arith.select {neg}, {}, {} : i64", z.name, b.name));
        let p = self.op(&format!("math.ipowi {}, {se} : i64", a.name));
        // Negative exponent: a == 1 -> 1; a == -1 -> (b odd ? -1 : 1); else 0.
        let is1 = self.op(&format!("arith.cmpi eq, {}, {} : i64", a.name, one.name));
        let ism1 = self.op(&format!("arith.cmpi eq, {}, {} : i64", a.name, m1.name));
        let odd = self.op(&format!("arith.andi {}, {} : i64", b.name, one.name));
        let oddb = self.op(&format!("arith.cmpi ne, {odd}, {} : i64", z.name));
        let sgn = self.op(&format!("arith.select {oddb}, {}, {} : i64", m1.name, one.name));
        let r1 = self.op(&format!("arith.select {ism1}, {sgn}, {} : i64", z.name));
        let r2 = self.op(&format!("arith.select {is1}, {}, {r1} : i64", one.name));
        let name = self.op(&format!("arith.select {neg}, {r2}, {p} : i64"));
        Ok(V { name, d })
    }

    fn unary(&mut self, op: UnFn, a: &V) -> Result<V, CodegenError> {
        use UnFn::*;
        let d = a.d;
        let t = elem_type(d);
        let x = a.name.clone();
        let name = match op {
            Neg => match d {
                DType::F64 | DType::F32 => self.op(&format!("arith.negf {x} : {t}")),
                DType::I64 => {
                    let z = self.consti(d, 0);
                    self.op(&format!("arith.subi {}, {x} : i64", z.name))
                }
                DType::Bool => return self.err("negation of bool"),
            },
            Not => match d {
                DType::Bool => {
                    let tr = self.consti(d, 1);
                    self.op(&format!("arith.xori {x}, {} : i1", tr.name))
                }
                DType::I64 => {
                    let m1 = self.consti(d, -1);
                    self.op(&format!("arith.xori {x}, {} : i64", m1.name))
                }
                _ => return self.err("`~` of a float"),
            },
            Abs => match d {
                DType::F64 | DType::F32 => self.op(&format!("math.absf {x} : {t}")),
                DType::I64 => self.op(&format!("math.absi {x} : i64")),
                DType::Bool => return Ok(a.clone()),
            },
            Ceil => match d {
                DType::F64 | DType::F32 => self.op(&format!("math.ceil {x} : {t}")),
                _ => return Ok(a.clone()),
            },
            Exp if d == DType::F64 => self.exp_f64(&x),
            Log if d == DType::F64 => self.log_f64(&x),
            Sqrt | Exp | Log | Sin | Cos | Tanh => {
                if !d.is_float() {
                    return self.err("float function on a non-float value");
                }
                let f = match op {
                    Sqrt => "sqrt",
                    Exp => "exp",
                    Log => "log",
                    Sin => "sin",
                    Cos => "cos",
                    _ => "tanh",
                };
                self.op(&format!("math.{f} {x} : {t}"))
            }
        };
        Ok(V { name, d })
    }

    /// `c0 + z (c1 + z (c2 + ...))` in f64 with fused multiply-adds.
    fn horner_f64(&mut self, z: &str, coeffs: &[f64]) -> String {
        let mut acc = self.constf(DType::F64, *coeffs.last().expect("a coefficient")).name;
        for &c in coeffs.iter().rev().skip(1) {
            let c = self.constf(DType::F64, c).name;
            acc = self.op(&format!("math.fma {acc}, {z}, {c} : f64"));
        }
        acc
    }
    fn f64_op(&mut self, op: &str, a: &str, b: &str) -> String {
        self.op(&format!("arith.{op} {a}, {b} : f64"))
    }
    fn i64_op(&mut self, op: &str, a: &str, b: &str) -> String {
        self.op(&format!("arith.{op} {a}, {b} : i64"))
    }
    fn select_f64(&mut self, c: &str, a: &str, b: &str) -> String {
        self.op(&format!("arith.select {c}, {a}, {b} : f64"))
    }

    /// `exp(x)` for f64 as straight-line arithmetic that LLVM vectorises (a call to libm's `exp`
    /// does not): `x = k ln2 + r` with `k = roundeven(x / ln2)` and `ln2` split in two (Cody-Waite),
    /// `exp(r)` by its Taylor polynomial of degree 13 (truncation below 1e-17 for `|r| <= ln2 / 2`),
    /// times `2^k` built from exponent bits in two halves (so subnormal results come out right).
    /// Overflow gives `inf`, underflow `0`, NaN stays NaN. Within a few ulp of libm.
    fn exp_f64(&mut self, x: &str) -> String {
        let nan = self.op(&format!("arith.cmpf uno, {x}, {x} : f64"));
        let zero = self.constf(DType::F64, 0.0).name;
        let xn = self.select_f64(&nan, &zero, x);
        let (lo, hi) = (self.constf(DType::F64, -746.0).name, self.constf(DType::F64, 710.0).name);
        let xc = self.f64_op("maximumf", &xn, &lo);
        let xc = self.f64_op("minimumf", &xc, &hi);
        let log2e = self.constf(DType::F64, std::f64::consts::LOG2_E).name;
        let t = self.f64_op("mulf", &xc, &log2e);
        let kf = self.op(&format!("math.roundeven {t} : f64"));
        let (ln2_hi, ln2_lo) = (
            self.constf(DType::F64, -6.931_471_803_691_238e-1).name,
            self.constf(DType::F64, -1.908_214_929_270_587_7e-10).name,
        );
        let r = self.op(&format!("math.fma {kf}, {ln2_hi}, {xc} : f64"));
        let r = self.op(&format!("math.fma {kf}, {ln2_lo}, {r} : f64"));
        let mut coeffs = vec![1.0f64];
        for n in 1..=13 {
            let prev = coeffs[n - 1];
            coeffs.push(prev / n as f64);
        }
        let p = self.horner_f64(&r, &coeffs);
        let k = self.op(&format!("arith.fptosi {kf} : f64 to i64"));
        let one = self.consti(DType::I64, 1).name;
        let k1 = self.i64_op("shrsi", &k, &one);
        let k2 = self.i64_op("subi", &k, &k1);
        let (bias, shift) = (self.consti(DType::I64, 1023).name, self.consti(DType::I64, 52).name);
        let scale = |s: &mut Self, k: &str| {
            let b = s.i64_op("addi", k, &bias);
            let b = s.i64_op("shli", &b, &shift);
            s.op(&format!("arith.bitcast {b} : i64 to f64"))
        };
        let (s1, s2) = (scale(self, &k1), scale(self, &k2));
        let y = self.f64_op("mulf", &p, &s1);
        let y = self.f64_op("mulf", &y, &s2);
        let (big, small) =
            (self.constf(DType::F64, 709.782_712_893_384).name, self.constf(DType::F64, -745.133_219_101_941_2).name);
        let inf = self.constf(DType::F64, f64::INFINITY).name;
        let over = self.op(&format!("arith.cmpf ogt, {x}, {big} : f64"));
        let y = self.select_f64(&over, &inf, &y);
        let under = self.op(&format!("arith.cmpf olt, {x}, {small} : f64"));
        let y = self.select_f64(&under, &zero, &y);
        self.select_f64(&nan, x, &y)
    }

    /// `log(x)` for f64 as straight-line arithmetic that LLVM vectorises: `x = m 2^e` from the bits
    /// (subnormals scaled by 2^54 first) with `m` in `[sqrt(1/2), sqrt(2))`, `log(m) = 2 atanh(s)`
    /// with `s = (m - 1) / (m + 1)` by its odd series to `s^23` (`|s| <= 0.172`: truncation below
    /// 1e-18), plus `e ln2` in two parts. `log(0) = -inf`, negative gives NaN, `log(inf) = inf`,
    /// NaN stays NaN. Within a few ulp of libm.
    fn log_f64(&mut self, x: &str) -> String {
        let tiny_c = self.constf(DType::F64, f64::MIN_POSITIVE).name;
        let tiny = self.op(&format!("arith.cmpf olt, {x}, {tiny_c} : f64"));
        let two54 = self.constf(DType::F64, 2f64.powi(54)).name;
        let xs = self.f64_op("mulf", x, &two54);
        let xs = self.select_f64(&tiny, &xs, x);
        let (m54, z0) = (self.consti(DType::I64, -54).name, self.consti(DType::I64, 0).name);
        let eadj = self.op(&format!("arith.select {tiny}, {m54}, {z0} : i64"));
        let bits = self.op(&format!("arith.bitcast {xs} : f64 to i64"));
        let (shift, emask) = (self.consti(DType::I64, 52).name, self.consti(DType::I64, 0x7ff).name);
        let e = self.i64_op("shrui", &bits, &shift);
        let e = self.i64_op("andi", &e, &emask);
        let bias = self.consti(DType::I64, 1023).name;
        let e = self.i64_op("subi", &e, &bias);
        let e = self.i64_op("addi", &e, &eadj);
        let (mmask, one_bits) =
            (self.consti(DType::I64, 0x000f_ffff_ffff_ffff).name, self.consti(DType::I64, 0x3ff0_0000_0000_0000).name);
        let mb = self.i64_op("andi", &bits, &mmask);
        let mb = self.i64_op("ori", &mb, &one_bits);
        let m = self.op(&format!("arith.bitcast {mb} : i64 to f64"));
        let sqrt2 = self.constf(DType::F64, std::f64::consts::SQRT_2).name;
        let big = self.op(&format!("arith.cmpf ogt, {m}, {sqrt2} : f64"));
        let half = self.constf(DType::F64, 0.5).name;
        let mh = self.f64_op("mulf", &m, &half);
        let m = self.select_f64(&big, &mh, &m);
        let i1 = self.consti(DType::I64, 1).name;
        let e1 = self.i64_op("addi", &e, &i1);
        let e = self.op(&format!("arith.select {big}, {e1}, {e} : i64"));
        let one = self.constf(DType::F64, 1.0).name;
        let two = self.constf(DType::F64, 2.0).name;
        let f = self.f64_op("subf", &m, &one);
        let den = self.f64_op("addf", &f, &two);
        let s = self.f64_op("divf", &f, &den);
        let z = self.f64_op("mulf", &s, &s);
        let coeffs: Vec<f64> = (0..12).map(|k| 1.0 / (2 * k + 1) as f64).collect();
        let p = self.horner_f64(&z, &coeffs);
        let s2 = self.f64_op("addf", &s, &s);
        let lm = self.f64_op("mulf", &s2, &p);
        let ef = self.op(&format!("arith.sitofp {e} : i64 to f64"));
        let (ln2_hi, ln2_lo) = (
            self.constf(DType::F64, 6.931_471_803_691_238e-1).name,
            self.constf(DType::F64, 1.908_214_929_270_587_7e-10).name,
        );
        let y = self.op(&format!("math.fma {ef}, {ln2_lo}, {lm} : f64"));
        let y = self.op(&format!("math.fma {ef}, {ln2_hi}, {y} : f64"));
        let zero = self.constf(DType::F64, 0.0).name;
        let (ninf, inf, qnan) = (
            self.constf(DType::F64, f64::NEG_INFINITY).name,
            self.constf(DType::F64, f64::INFINITY).name,
            self.constf(DType::F64, f64::NAN).name,
        );
        let is0 = self.op(&format!("arith.cmpf oeq, {x}, {zero} : f64"));
        let y = self.select_f64(&is0, &ninf, &y);
        let neg = self.op(&format!("arith.cmpf olt, {x}, {zero} : f64"));
        let y = self.select_f64(&neg, &qnan, &y);
        let isinf = self.op(&format!("arith.cmpf oeq, {x}, {inf} : f64"));
        let y = self.select_f64(&isinf, &inf, &y);
        let nan = self.op(&format!("arith.cmpf uno, {x}, {x} : f64"));
        self.select_f64(&nan, x, &y)
    }

    /// Philox4x32-10 uniform double for linear position `k` (i64) under `seed` (i64); matches
    /// `arrayc_runtime::rng::uniform_f64` bit for bit.
    fn philox(&mut self, k: &str, seed: &str) -> V {
        let c32 = self.op("arith.constant 32 : i64");
        let k0 = self.op(&format!("arith.trunci {k} : i64 to i32"));
        let kh = self.op(&format!("arith.shrui {k}, {c32} : i64"));
        let k1 = self.op(&format!("arith.trunci {kh} : i64 to i32"));
        let s0 = self.op(&format!("arith.trunci {seed} : i64 to i32"));
        let sh = self.op(&format!("arith.shrui {seed}, {c32} : i64"));
        let s1 = self.op(&format!("arith.trunci {sh} : i64 to i32"));
        let zero = self.op("arith.constant 0 : i32");
        let m0 = self.op(&format!("arith.constant {} : i32", 0xD251_1F53u32 as i32));
        let m1 = self.op(&format!("arith.constant {} : i32", 0xCD9E_8D57u32 as i32));
        let w0 = self.op(&format!("arith.constant {} : i32", 0x9E37_79B9u32 as i32));
        let w1 = self.op(&format!("arith.constant {} : i32", 0xBB67_AE85u32 as i32));
        let mut c = [k0, k1, zero.clone(), zero];
        let mut key = [s0, s1];
        for round in 0..10 {
            if round > 0 {
                key[0] = self.op(&format!("arith.addi {}, {w0} : i32", key[0]));
                key[1] = self.op(&format!("arith.addi {}, {w1} : i32", key[1]));
            }
            let p0 = self.fresh();
            self.line(&format!("{p0}:2 = arith.mului_extended {m0}, {} : i32", c[0]));
            let p1 = self.fresh();
            self.line(&format!("{p1}:2 = arith.mului_extended {m1}, {} : i32", c[2]));
            let a = self.op(&format!("arith.xori {p1}#1, {} : i32", c[1]));
            let n0 = self.op(&format!("arith.xori {a}, {} : i32", key[0]));
            let b = self.op(&format!("arith.xori {p0}#1, {} : i32", c[3]));
            let n2 = self.op(&format!("arith.xori {b}, {} : i32", key[1]));
            c = [n0, format!("{p1}#0"), n2, format!("{p0}#0")];
        }
        let o0 = self.op(&format!("arith.extui {} : i32 to i64", c[0]));
        let o1 = self.op(&format!("arith.extui {} : i32 to i64", c[1]));
        let hi = self.op(&format!("arith.shli {o0}, {c32} : i64"));
        let bits = self.op(&format!("arith.ori {hi}, {o1} : i64"));
        let c11 = self.op("arith.constant 11 : i64");
        let top = self.op(&format!("arith.shrui {bits}, {c11} : i64"));
        let fl = self.op(&format!("arith.uitofp {top} : i64 to f64"));
        let scale = self.constf(DType::F64, 1.0 / (1u64 << 53) as f64);
        let name = self.op(&format!("arith.mulf {fl}, {} : f64", scale.name));
        V { name, d: DType::F64 }
    }

    /// One elementwise op at loop indices `idx` (with the iteration-space sizes `dims`, `dims[0]`
    /// unused except for the linear position of Random).
    fn elementwise(
        &mut self,
        func: ComputeFn,
        out: ValueId,
        ins: &[ValueId],
        idx: &[String],
        dims: &[String],
    ) -> Result<(), CodegenError> {
        let od = self.ty(out).dtype();
        let nins = |n: usize, g: &Self| -> Result<(), CodegenError> {
            if ins.len() != n {
                return g.err(format!("`{}` takes {n} inputs, got {}", func.name(), ins.len()));
            }
            Ok(())
        };
        // Compute dtype for arithmetic: out dtype, bool computed in i64.
        let arith_dt = if od == DType::Bool { DType::I64 } else { od };
        let float_dt = if od.is_float() { od } else { DType::F64 };
        let val = match func {
            ComputeFn::Fill | ComputeFn::Copy => {
                nins(1, self)?;
                self.read(ins[0], idx)?
            }
            ComputeFn::Arange => {
                nins(2, self)?;
                if idx.len() != 1 {
                    return self.err("arange over a non-1-d iteration space");
                }
                let start = self.read(ins[0], idx)?;
                let step = self.read(ins[1], idx)?;
                let start = self.convert(&start, arith_dt);
                let step = self.convert(&step, arith_dt);
                let i = self.op(&format!("arith.index_cast {} : index to i64", idx[0]));
                let i = self.convert(&V { name: i, d: DType::I64 }, arith_dt);
                let m = self.binary(BinFn::Mul, &i, &step)?;
                self.binary(BinFn::Add, &start, &m)?
            }
            ComputeFn::Random => {
                nins(1, self)?;
                let seed = self.read(ins[0], idx)?;
                let seed = self.convert(&seed, DType::I64);
                // Row-major linear position of the element in the iteration space.
                let mut k = if idx.is_empty() { self.idx_const(0) } else { idx[0].clone() };
                for j in 1..idx.len() {
                    let m = self.op(&format!("arith.muli {k}, {} : index", dims[j]));
                    k = self.op(&format!("arith.addi {m}, {} : index", idx[j]));
                }
                let k = self.op(&format!("arith.index_cast {k} : index to i64"));
                self.philox(&k, &seed.name)
            }
            ComputeFn::Where => {
                nins(3, self)?;
                let c = self.read(ins[0], idx)?;
                let c = self.convert(&c, DType::Bool);
                let a = self.read(ins[1], idx)?;
                let a = self.convert(&a, od);
                let b = self.read(ins[2], idx)?;
                let b = self.convert(&b, od);
                let name = self.op(&format!("arith.select {}, {}, {} : {}", c.name, a.name, b.name, elem_type(od)));
                V { name, d: od }
            }
            ComputeFn::Binary(op) => {
                nins(2, self)?;
                let a = self.read(ins[0], idx)?;
                let b = self.read(ins[1], idx)?;
                let ct = match op {
                    _ if op.is_comparison() => a.d.promote(b.d),
                    BinFn::And | BinFn::Or => DType::Bool,
                    BinFn::Div => float_dt,
                    BinFn::Minimum | BinFn::Maximum => od,
                    _ => arith_dt,
                };
                let a = self.convert(&a, ct);
                let b = self.convert(&b, ct);
                self.binary(op, &a, &b)?
            }
            ComputeFn::Unary(op) => {
                nins(1, self)?;
                let a = self.read(ins[0], idx)?;
                let ct = match op {
                    UnFn::Not | UnFn::Abs | UnFn::Ceil => od,
                    UnFn::Neg => arith_dt,
                    _ => float_dt,
                };
                let a = self.convert(&a, ct);
                self.unary(op, &a)?
            }
            ComputeFn::Reduce(..) => return self.err("a reduction must be the last op of its block"),
        };
        self.write(out, idx, &val)
    }

    fn dim(&mut self, v: ValueId, axis: usize) -> String {
        let c = self.idx_const(axis as i64);
        let t = param_type(self.ty(v));
        self.op(&format!("memref.dim {}, {c} : {t}", self.var(v)))
    }

    fn identity(&mut self, kind: ReduceKind, d: DType) -> V {
        match (kind, d) {
            (ReduceKind::Sum, _) => self.consti(d, 0),
            (ReduceKind::Prod, _) => self.consti(d, 1),
            (ReduceKind::Min, DType::I64) => self.consti(d, i64::MAX),
            (ReduceKind::Max, DType::I64) => self.consti(d, i64::MIN),
            (ReduceKind::Min, DType::Bool) => self.consti(d, 1),
            (ReduceKind::Max, DType::Bool) => self.consti(d, 0),
            (ReduceKind::Min, _) => self.constf(d, f64::INFINITY),
            (ReduceKind::Max, _) => self.constf(d, f64::NEG_INFINITY),
        }
    }

    /// `acc (+ or * or min or max) x`, in order: no reassociation, so a sum comes out the same
    /// whichever partition computed its input (`tests/examples/test_fusion.py` checks bit equality).
    fn combine(&mut self, kind: ReduceKind, acc: &V, x: &V) -> Result<V, CodegenError> {
        let op = match kind {
            ReduceKind::Sum => BinFn::Add,
            ReduceKind::Prod => BinFn::Mul,
            ReduceKind::Min => BinFn::Minimum,
            ReduceKind::Max => BinFn::Maximum,
        };
        self.binary(op, acc, x)
    }

    /// One iteration of the block at full iteration index `idx`: every elementwise op in order (on
    /// loaded/cached parameter scalars and contracted scalars), then the input value of each of the
    /// block's reductions (in its accumulator dtype), then one store per written parameter.
    fn iteration(&mut self, l: &KernelLayout, idx: &[String], dims: &[String]) -> Result<Vec<V>, CodegenError> {
        self.cur.clear();
        self.dirty.clear();
        for (func, out, ins) in &l.ops {
            self.elementwise(*func, *out, ins, idx, dims)?;
        }
        let mut xs = vec![];
        for r in reductions(l) {
            let x = self.read(r.input, idx)?;
            let ad = acc_dtype(r.kind, self.ty(r.out).dtype());
            xs.push(self.convert(&x, ad));
        }
        self.flush(idx)?;
        Ok(xs)
    }

    /// The block's loop nest (see the module docs).
    fn gen_block(&mut self, l: &KernelLayout) -> Result<(), CodegenError> {
        let Some(sp) = l.space else {
            // No view parameter: nothing to iterate over (the launcher returns at once, too).
            return Ok(());
        };
        let r = l.rank;
        let (kind, ad) = match &l.reduce {
            Some(red) => (red.kind, acc_dtype(red.kind, self.ty(red.out).dtype())),
            None => (ReduceKind::Sum, DType::F64),
        };
        let all = l.reduces_all;
        let axis = if l.reduce.is_some() && !all { l.reduce.and_then(|x| x.axis) } else { None };
        // Sizes of the iteration space (dimension 0 only when a reduction axis moves it inward).
        let mut dims = vec![String::new(); r];
        for (d, dim) in dims.iter_mut().enumerate() {
            if d > 0 || axis.is_some() {
                *dim = self.dim(sp, d);
            }
        }
        if r == 0 {
            let go = self.op("arith.cmpi slt, %lo, %hi : index");
            self.line(&format!("scf.if {go} {{"));
            self.indent += 1;
            let x = self.iteration(l, &[], &[])?.into_iter().next();
            if let (Some(red), Some(x)) = (&l.reduce, x) {
                let init = self.identity(kind, ad);
                let v = self.combine(kind, &init, &x)?;
                self.store(red.out, &[], &v)?;
            }
            self.indent -= 1;
            self.line("}");
            return Ok(());
        }
        let idx: Vec<String> = (0..r).map(|d| format!("%i{d}")).collect();
        let hinted: Vec<(ValueId, i64)> =
            self.f.params.iter().zip(&self.f.inner_strides).filter_map(|(&p, s)| s.map(|s| (p, s))).collect();
        if hinted.is_empty() {
            return self.loops(l, &idx, &dims, axis);
        }
        // Loop versioning: when every hinted view has its expected last-dimension stride, run a copy
        // of the loop nest on views cast to that static stride, which LLVM vectorises (a dynamic
        // stride makes every access a gather); otherwise the generic nest.
        let mut ok: Option<String> = None;
        for &(p, s) in &hinted {
            let Type::Array(_, pr) = self.ty(p) else { continue };
            let m = self.fresh();
            self.line(&format!(
                "{m}_base, {m}_off, {m}_sz:{pr}, {m}_st:{pr} = memref.extract_strided_metadata {} : {} -> memref<{}>, index{}",
                self.var(p),
                param_type(self.ty(p)),
                elem_type(self.ty(p).dtype()),
                ", index".repeat(2 * pr)
            ));
            let want = self.idx_const(s);
            let eq = self.op(&format!("arith.cmpi eq, {m}_st#{}, {want} : index", pr - 1));
            ok = Some(match ok {
                None => eq,
                Some(prev) => self.op(&format!("arith.andi {prev}, {eq} : i1")),
            });
        }
        let ok = ok.expect("a hinted parameter");
        self.line(&format!("scf.if {ok} {{"));
        self.indent += 1;
        for &(p, s) in &hinted {
            let from = param_type(self.ty(p));
            let to = static_last_stride(&from, s);
            let c = self.op(&format!("memref.cast {} : {from} to {to}", self.var(p)));
            self.fast.insert(p, (c, to));
        }
        self.loops(l, &idx, &dims, axis)?;
        self.fast.clear();
        self.indent -= 1;
        self.line("} else {");
        self.indent += 1;
        self.loops(l, &idx, &dims, axis)?;
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// Opens one `scf.for` per dimension in `ds`, in order, with index `idx[d]`: dimension `chunked`
    /// over the launch's chunk `[%lo, %hi)`, the others over `[0, dims[d])`.
    fn open_loops(&mut self, ds: &[usize], chunked: usize, idx: &[String], dims: &[String]) {
        let (c0, c1) = (self.idx_const(0), self.idx_const(1));
        for &d in ds {
            let (lo, hi) = if d == chunked { ("%lo", "%hi") } else { (c0.as_str(), dims[d].as_str()) };
            self.line(&format!("scf.for {} = {lo} to {hi} step {c1} {{", idx[d]));
            self.indent += 1;
        }
    }
    /// Closes `n` loops opened by [`open_loops`](Self::open_loops).
    fn close_loops(&mut self, n: usize) {
        for _ in 0..n {
            self.indent -= 1;
            self.line("}");
        }
    }

    /// The loop nest of a block of rank >= 1 at indices `idx` over sizes `dims` (see the module docs).
    fn loops(
        &mut self,
        l: &KernelLayout,
        idx: &[String],
        dims: &[String],
        axis: Option<usize>,
    ) -> Result<(), CodegenError> {
        let r = l.rank;
        let (kind, ad, at) = match &l.reduce {
            Some(red) => {
                let ad = acc_dtype(red.kind, self.ty(red.out).dtype());
                (red.kind, ad, elem_type(ad))
            }
            None => (ReduceKind::Sum, DType::F64, "f64"),
        };
        let c0 = self.idx_const(0);
        let c1 = self.idx_const(1);
        match (&l.reduce, axis) {
            (None, _) => {
                let all: Vec<usize> = (0..r).collect();
                self.open_loops(&all, 0, idx, dims);
                self.iteration(l, idx, dims)?;
                self.close_loops(r);
            }
            (Some(red), None) => {
                // Reduction over everything: nested loops carrying the accumulator.
                let init = self.identity(kind, ad);
                let mut results = vec![];
                let mut acc = init.name.clone();
                for d in 0..r {
                    let res = self.fresh();
                    let a = format!("%acc{d}");
                    let (lo, hi) =
                        if d == 0 { ("%lo".to_string(), "%hi".to_string()) } else { (c0.clone(), dims[d].clone()) };
                    self.line(&format!(
                        "{res} = scf.for {} = {lo} to {hi} step {c1} iter_args({a} = {acc}) -> ({at}) {{",
                        idx[d]
                    ));
                    self.indent += 1;
                    results.push(res);
                    acc = a;
                }
                let x = self.iteration(l, idx, dims)?.swap_remove(0);
                let n = self.combine(kind, &V { name: acc, d: ad }, &x)?;
                let mut y = n.name;
                for d in (0..r).rev() {
                    self.line(&format!("scf.yield {y} : {at}"));
                    self.indent -= 1;
                    self.line("}");
                    y = results[d].clone();
                }
                self.store(red.out, &[], &V { name: y, d: ad })?;
            }
            (Some(_), Some(a))
                if a + 1 < r
                    && reductions(l)
                        .all(|red| acc_dtype(red.kind, self.ty(red.out).dtype()) == self.ty(red.out).dtype()) =>
            {
                // Reductions along an axis that is not the last: accumulate in each `out` itself,
                // with the axis loop just outside the last dimension's loop, so the innermost loop
                // walks the input's rows contiguously (vectorisable, where an innermost axis loop
                // would stride through memory) and the out rows it updates stay in cache. Each out
                // element still sums the axis in order 0, 1, ... (NumPy's order for C-contiguous input).
                let reds: Vec<Reduction> = reductions(l).copied().collect();
                let odims: Vec<usize> = (0..r).filter(|&d| d != a).collect();
                self.open_loops(&odims, odims[0], idx, dims);
                let oidx: Vec<String> = odims.iter().map(|&d| idx[d].clone()).collect();
                for red in &reds {
                    let init = self.identity(red.kind, self.ty(red.out).dtype());
                    self.store(red.out, &oidx, &init)?;
                }
                self.close_loops(odims.len());
                let order: Vec<usize> = odims[..odims.len() - 1].iter().copied().chain([a, r - 1]).collect();
                self.open_loops(&order, odims[0], idx, dims);
                let xs = self.iteration(l, idx, dims)?;
                for (red, x) in reds.iter().zip(xs) {
                    let (m, t) = self.view_ref(red.out);
                    let acc = self.op(&format!("memref.load {m}[{}] : {t}", oidx.join(", ")));
                    let n = self.combine(red.kind, &V { name: acc, d: x.d }, &x)?;
                    self.store(red.out, &oidx, &n)?;
                }
                self.close_loops(order.len());
            }
            (Some(_), Some(a)) => {
                // Reductions along the last axis `a` (or accumulating in another dtype): out's
                // dimensions outside (the first one chunked), axis `a` innermost carrying one
                // accumulator per reduction, the elementwise ops at the full input index inside.
                let reds: Vec<Reduction> = reductions(l).copied().collect();
                let odims: Vec<usize> = (0..r).filter(|&d| d != a).collect();
                self.open_loops(&odims, odims[0], idx, dims);
                let ads: Vec<DType> = reds.iter().map(|red| acc_dtype(red.kind, self.ty(red.out).dtype())).collect();
                let mut args = vec![];
                for (k, (red, &ad)) in reds.iter().zip(&ads).enumerate() {
                    let init = self.identity(red.kind, ad);
                    args.push(format!("%acc{k} = {}", init.name));
                }
                let types: Vec<&str> = ads.iter().map(|&d| elem_type(d)).collect();
                let res = self.fresh();
                self.line(&format!(
                    "{res}:{} = scf.for {} = {c0} to {} step {c1} iter_args({}) -> ({}) {{",
                    reds.len(),
                    idx[a],
                    dims[a],
                    args.join(", "),
                    types.join(", ")
                ));
                self.indent += 1;
                let xs = self.iteration(l, idx, dims)?;
                let mut ys = vec![];
                for (k, (red, x)) in reds.iter().zip(xs).enumerate() {
                    let n = self.combine(red.kind, &V { name: format!("%acc{k}"), d: x.d }, &x)?;
                    ys.push(n.name);
                }
                self.line(&format!("scf.yield {} : {}", ys.join(", "), types.join(", ")));
                self.indent -= 1;
                self.line("}");
                let oidx: Vec<String> = odims.iter().map(|&d| idx[d].clone()).collect();
                for (k, (red, &ad)) in reds.iter().zip(&ads).enumerate() {
                    self.store(red.out, &oidx, &V { name: format!("{res}#{k}"), d: ad })?;
                }
                self.close_loops(odims.len());
            }
        }
        Ok(())
    }
}

/// MLIR text (a `func.func`, no enclosing module) of kernel `f`: see the module docs for the calling
/// convention (views as strided memrefs, scalars as element types, then the chunk `%lo, %hi: index`
/// over the outermost dimension of the chunked space), the supported block forms and the semantics.
///
/// Errors: `f` is not a kernel, its block is not of a supported form ([`kernel_layout`]), an op has
/// the wrong number of inputs, dtypes it does not accept, or ranks that do not fit its iteration
/// space.
pub fn kernel_to_mlir(f: &ir::Func) -> Result<String, CodegenError> {
    if !f.kernel {
        return Err(CodegenError { kernel: f.name.clone(), msg: "not a kernel function".into() });
    }
    let layout = kernel_layout(f).map_err(|msg| CodegenError { kernel: f.name.clone(), msg })?;
    let mut g =
        Gen { f, s: String::new(), next: 0, indent: 0, cur: HashMap::new(), dirty: vec![], fast: HashMap::new() };
    let mut sig = vec![];
    for &p in &f.params {
        sig.push(format!("%v{p}: {}", param_type(f.ty(p))));
    }
    sig.push("%lo: index".into());
    sig.push("%hi: index".into());
    let _ = writeln!(g.s, "func.func @{}({}) {{", f.name, sig.join(", "));
    g.indent = 1;
    g.gen_block(&layout)?;
    g.line("return");
    g.indent = 0;
    g.line("}");
    Ok(g.s)
}

/// Whether this back end can compile kernel `f` as one fused loop nest (the forms of
/// [`kernel_layout`], with every op valid for its dtypes and ranks). The outline pass calls it before
/// committing to a fused block (Kristensen et al. 2016, Sec. IV-A) and falls back to singleton blocks
/// when it is `false`, so an unsupported block never reaches the JIT.
pub fn fusible_block(f: &ir::Func) -> bool {
    kernel_to_mlir(f).is_ok()
}

/// One `module { ... }` with the MLIR function of every kernel of `m` (non-kernel functions are
/// skipped), in module order.
pub fn kernels_module_mlir(m: &ir::Module) -> Result<String, CodegenError> {
    let mut s = String::from("module {\n");
    for f in m.funcs.iter().filter(|f| f.kernel) {
        for l in kernel_to_mlir(f)?.lines() {
            s.push_str("  ");
            s.push_str(l);
            s.push('\n');
        }
    }
    s.push_str("}\n");
    Ok(s)
}

/// The block's reductions in order: the first, then the further ones along the same axis.
fn reductions(l: &KernelLayout) -> impl Iterator<Item = &Reduction> {
    l.reduce.iter().chain(&l.extra)
}

/// `ty` (a strided memref type as [`param_type`] prints it, every stride `?`) with the last stride
/// replaced by the constant `stride`.
fn static_last_stride(ty: &str, stride: i64) -> String {
    let open = ty.find("strided<[").expect("a strided memref type") + "strided<[".len();
    let close = open + ty[open..].find(']').expect("a closed stride list");
    let mut strides: Vec<&str> = ty[open..close].split(", ").collect();
    let last = stride.to_string();
    if let Some(s) = strides.last_mut() {
        *s = &last;
    }
    format!("{}{}{}", &ty[..open], strides.join(", "), &ty[close..])
}
