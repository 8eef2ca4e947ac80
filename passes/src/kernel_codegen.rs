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
//! The outermost dimension of the iteration space runs over `[%lo, %hi)` (the chunk the runtime
//! assigned, see `arrayc_runtime::launch`); inner dimensions run over their full size. A rank-0
//! iteration space runs the body once when `%lo < %hi`.
//!
//! * Elementwise kernels (any number of non-reduction `Compute` ops): the iteration space is the shape
//!   of the first op's `out`; every op, in order, loads its view inputs at the loop indices (0-d views
//!   are loaded at `[]`, scalars are used directly), computes and stores to its `out`.
//! * Reductions (`ComputeFn::Reduce(kind, axis)`, always alone): with `axis = None` (or a 0-d `out`)
//!   the iteration space is the input's shape, chunked over its dimension 0, and the kernel stores the
//!   reduction of its chunk into the 0-d `out` (the runtime gives each chunk its own partial slot and
//!   combines the partials in chunk order). With `axis = Some(a)` the iteration space is `out`'s
//!   shape and the innermost loop runs over the input's axis `a`.
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

use arrayc_dialect::ir::{self, BinFn, ComputeFn, OpKind, ReduceKind, Type, UnFn, ValueId};
use arrayc_grammar::ast::DType;
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

    /// Reads operand `v` at `idx` (a view of the iteration-space rank), at `[]` (a 0-d view), or
    /// directly (a scalar).
    fn read(&mut self, v: ValueId, idx: &[String]) -> Result<V, CodegenError> {
        match self.ty(v) {
            Type::Scalar(d) => Ok(V { name: self.var(v), d }),
            Type::Array(d, r) => {
                let ix = if r == 0 {
                    String::new()
                } else if r == idx.len() {
                    idx.join(", ")
                } else {
                    return self.err(format!(
                        "operand %v{v} has rank {r} but the iteration space has rank {}",
                        idx.len()
                    ));
                };
                let t = param_type(self.ty(v));
                let name = self.op(&format!("memref.load {}[{ix}] : {t}", self.var(v)));
                Ok(V { name, d })
            }
        }
    }

    fn write(&mut self, out: ValueId, idx: &[String], val: &V) -> Result<(), CodegenError> {
        let Type::Array(d, r) = self.ty(out) else {
            return self.err(format!("output %v{out} is not a view"));
        };
        let ix = if r == 0 {
            String::new()
        } else if r == idx.len() {
            idx.join(", ")
        } else {
            return self.err(format!("output %v{out} has rank {r} but the iteration space has rank {}", idx.len()));
        };
        let val = self.convert(val, d);
        let t = param_type(self.ty(out));
        self.line(&format!("memref.store {}, {}[{ix}] : {t}", val.name, self.var(out)));
        Ok(())
    }

    /// Binary function on two values already in compute dtype `d` (for comparisons the result is i1).
    fn binary(&mut self, op: BinFn, a: &V, b: &V) -> Result<V, CodegenError> {
        use BinFn::*;
        let d = a.d;
        let t = elem_type(d);
        let fl = d.is_float();
        let (x, y) = (a.name.clone(), b.name.clone());
        let simple = |fop: &str, iop: &str| if fl { format!("{fop} {x}, {y} : {t}") } else { format!("{iop} {x}, {y} : {t}") };
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
    fn elementwise(&mut self, func: ComputeFn, out: ValueId, ins: &[ValueId], idx: &[String], dims: &[String]) -> Result<(), CodegenError> {
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
            ComputeFn::Reduce(..) => return self.err("a reduction must be alone in its kernel"),
        };
        self.write(out, idx, &val)
    }

    fn dim(&mut self, v: ValueId, axis: usize) -> String {
        let c = self.idx_const(axis as i64);
        let t = param_type(self.ty(v));
        self.op(&format!("memref.dim {}, {c} : {t}", self.var(v)))
    }

    fn view_rank(&self, v: ValueId) -> Result<usize, CodegenError> {
        match self.ty(v) {
            Type::Array(_, r) => Ok(r),
            Type::Scalar(_) => self.err(format!("%v{v} must be a view")),
        }
    }

    /// The elementwise loop nest over the shape of the first op's out.
    fn gen_elementwise(&mut self, ops: &[(ComputeFn, ValueId, Vec<ValueId>)]) -> Result<(), CodegenError> {
        let out0 = ops[0].1;
        let r = self.view_rank(out0)?;
        for (_, out, _) in ops {
            if self.view_rank(*out)? != r {
                return self.err("fused ops have outputs of different ranks");
            }
        }
        if r == 0 {
            let go = self.op("arith.cmpi slt, %lo, %hi : index");
            self.line(&format!("scf.if {go} {{"));
            self.indent += 1;
            for (func, out, ins) in ops {
                self.elementwise(*func, *out, ins, &[], &[])?;
            }
            self.indent -= 1;
            self.line("}");
            return Ok(());
        }
        let c0 = self.idx_const(0);
        let c1 = self.idx_const(1);
        let mut dims = vec![String::new()];
        for d in 1..r {
            let x = self.dim(out0, d);
            dims.push(x);
        }
        let mut idx = vec![];
        for d in 0..r {
            let i = format!("%i{d}");
            if d == 0 {
                self.line(&format!("scf.for {i} = %lo to %hi step {c1} {{"));
            } else {
                self.line(&format!("scf.for {i} = {c0} to {} step {c1} {{", dims[d]));
            }
            self.indent += 1;
            idx.push(i);
        }
        for (func, out, ins) in ops {
            self.elementwise(*func, *out, ins, &idx, &dims)?;
        }
        for _ in 0..r {
            self.indent -= 1;
            self.line("}");
        }
        Ok(())
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

    fn combine(&mut self, kind: ReduceKind, acc: &V, x: &V) -> Result<V, CodegenError> {
        let op = match kind {
            ReduceKind::Sum => BinFn::Add,
            ReduceKind::Prod => BinFn::Mul,
            ReduceKind::Min => BinFn::Minimum,
            ReduceKind::Max => BinFn::Maximum,
        };
        self.binary(op, acc, x)
    }

    fn gen_reduce(&mut self, kind: ReduceKind, axis: Option<usize>, out: ValueId, input: ValueId) -> Result<(), CodegenError> {
        let rin = self.view_rank(input)?;
        let rout = self.view_rank(out)?;
        let od = self.ty(out).dtype();
        let ad = acc_dtype(kind, od);
        let at = elem_type(ad);
        let all = axis.is_none() || rout == 0;
        if let Some(a) = axis {
            if a >= rin || rout + 1 != rin {
                return self.err(format!("reduce axis {a} of a rank-{rin} input into a rank-{rout} output"));
            }
        } else if rout != 0 {
            return self.err("reduction over all axes into a non-0-d output");
        }
        let c0 = self.idx_const(0);
        let c1 = self.idx_const(1);
        if all {
            if rin == 0 {
                let go = self.op("arith.cmpi slt, %lo, %hi : index");
                self.line(&format!("scf.if {go} {{"));
                self.indent += 1;
                let x = self.read(input, &[])?;
                let x = self.convert(&x, ad);
                let init = self.identity(kind, ad);
                let r = self.combine(kind, &init, &x)?;
                self.write(out, &[], &r)?;
                self.indent -= 1;
                self.line("}");
                return Ok(());
            }
            let mut dims = vec![String::new()];
            for d in 1..rin {
                let x = self.dim(input, d);
                dims.push(x);
            }
            let init = self.identity(kind, ad);
            // Nested loops carrying the accumulator.
            let mut results = vec![];
            let mut acc = init.name.clone();
            let mut idx = vec![];
            for d in 0..rin {
                let res = self.fresh();
                let a = format!("%acc{d}");
                let (lo, hi) = if d == 0 { ("%lo".to_string(), "%hi".to_string()) } else { (c0.clone(), dims[d].clone()) };
                self.line(&format!("{res} = scf.for %i{d} = {lo} to {hi} step {c1} iter_args({a} = {acc}) -> ({at}) {{"));
                self.indent += 1;
                idx.push(format!("%i{d}"));
                results.push(res);
                acc = a;
            }
            let x = self.read(input, &idx)?;
            let x = self.convert(&x, ad);
            let n = self.combine(kind, &V { name: acc, d: ad }, &x)?;
            let mut y = n.name;
            for d in (0..rin).rev() {
                self.line(&format!("scf.yield {y} : {at}"));
                self.indent -= 1;
                self.line("}");
                y = results[d].clone();
            }
            self.write(out, &[], &V { name: y, d: ad })?;
            return Ok(());
        }
        let a = axis.unwrap();
        let mut dims = vec![String::new()];
        for d in 1..rout {
            let x = self.dim(out, d);
            dims.push(x);
        }
        let klen = self.dim(input, a);
        let mut oidx = vec![];
        for d in 0..rout {
            let i = format!("%i{d}");
            if d == 0 {
                self.line(&format!("scf.for {i} = %lo to %hi step {c1} {{"));
            } else {
                self.line(&format!("scf.for {i} = {c0} to {} step {c1} {{", dims[d]));
            }
            self.indent += 1;
            oidx.push(i);
        }
        let init = self.identity(kind, ad);
        let res = self.fresh();
        self.line(&format!("{res} = scf.for %k = {c0} to {klen} step {c1} iter_args(%acc = {}) -> ({at}) {{", init.name));
        self.indent += 1;
        let mut iidx = oidx.clone();
        iidx.insert(a, "%k".to_string());
        let x = self.read(input, &iidx)?;
        let x = self.convert(&x, ad);
        let n = self.combine(kind, &V { name: "%acc".into(), d: ad }, &x)?;
        self.line(&format!("scf.yield {} : {at}", n.name));
        self.indent -= 1;
        self.line("}");
        self.write(out, &oidx, &V { name: res, d: ad })?;
        for _ in 0..rout {
            self.indent -= 1;
            self.line("}");
        }
        Ok(())
    }
}

/// Is this kernel a reduction (its single op is `Reduce`)? Returns the op's parts.
pub fn kernel_ops(f: &ir::Func) -> Result<Vec<(ComputeFn, ValueId, Vec<ValueId>)>, CodegenError> {
    let err = |msg: String| Err(CodegenError { kernel: f.name.clone(), msg });
    let mut ops = vec![];
    for op in &f.body {
        match &op.kind {
            OpKind::Compute { func, out, ins } => {
                for v in std::iter::once(out).chain(ins) {
                    if !f.params.contains(v) {
                        return err(format!("operand %v{v} of `{}` is not a kernel parameter", func.name()));
                    }
                }
                ops.push((*func, *out, ins.clone()))
            }
            OpKind::Return { values } if values.is_empty() => {}
            other => return err(format!("unexpected operation in a kernel body: {other:?}")),
        }
    }
    if ops.is_empty() {
        return err("kernel has no array computation".into());
    }
    if ops.len() > 1 && ops.iter().any(|o| matches!(o.0, ComputeFn::Reduce(..))) {
        return err("a reduction must be alone in its kernel".into());
    }
    Ok(ops)
}

/// MLIR text (a `func.func`, no enclosing module) of kernel `f`: see the module docs for the calling
/// convention (views as strided memrefs, scalars as element types, then the chunk `%lo, %hi: index`
/// over the outermost dimension of the iteration space) and the semantics.
///
/// Errors: `f` is not a kernel, its body holds something other than `Compute` ops on its parameters,
/// an op has the wrong number of inputs or ranks that do not fit its iteration space.
pub fn kernel_to_mlir(f: &ir::Func) -> Result<String, CodegenError> {
    if !f.kernel {
        return Err(CodegenError { kernel: f.name.clone(), msg: "not a kernel function".into() });
    }
    let ops = kernel_ops(f)?;
    let mut g = Gen { f, s: String::new(), next: 0, indent: 0 };
    let mut sig = vec![];
    for &p in &f.params {
        sig.push(format!("%v{p}: {}", param_type(f.ty(p))));
    }
    sig.push("%lo: index".into());
    sig.push("%hi: index".into());
    let _ = writeln!(g.s, "func.func @{}({}) {{", f.name, sig.join(", "));
    g.indent = 1;
    match &ops[0] {
        (ComputeFn::Reduce(kind, axis), out, ins) => {
            if ins.len() != 1 {
                return g.err("a reduction takes one input");
            }
            g.gen_reduce(*kind, *axis, *out, ins[0])?
        }
        _ => g.gen_elementwise(&ops)?,
    }
    g.line("return");
    g.indent = 0;
    g.line("}");
    Ok(g.s)
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
