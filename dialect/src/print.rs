//! Prints an [`ir::Module`](crate::ir::Module) as MLIR text: `func`, `arith`, `math`, `scf`, `cf`
//! in their custom forms and `arr` operations in the generic form (IRDL operations have no custom
//! syntax). The output parses and verifies with the `arr` dialect loaded (see [`crate::mlir`]).

use crate::ir::*;
use crate::ops::{self, Spelling};
use arrayc_core::DType;
use std::fmt::Write;

/// MLIR element type of a dtype (`bool` is `i1`; the unsigned dtypes are MLIR's unsigned integer
/// types `ui64` to `ui8`, so the text keeps their signedness and the importer reads it back).
pub fn elem_type(d: DType) -> &'static str {
    match d {
        DType::F64 => "f64",
        DType::F32 => "f32",
        DType::I64 => "i64",
        DType::I32 => "i32",
        DType::I16 => "i16",
        DType::I8 => "i8",
        DType::U64 => "ui64",
        DType::U32 => "ui32",
        DType::U16 => "ui16",
        DType::U8 => "ui8",
        DType::Bool => "i1",
    }
}

/// The operation that bridges an unsigned host scalar and the signless integer type that MLIR's
/// `arith` and `math` operations take: an operand `%x : ui64` of such an operation is passed as
/// `builtin.unrealized_conversion_cast %x : ui64 to i64`, and its result comes back through the
/// cast the other way. The importer (`arrayc_codegen::import`) reads both casts as the value
/// itself, so the text keeps every value's dtype (ARCHITECTURE.md, "Unsigned dtypes in MLIR").
pub const BRIDGE: &str = "builtin.unrealized_conversion_cast";

/// MLIR type of a dtype in host `arith`/`math` operations: [`elem_type`], but the signless integer
/// of its width for the unsigned dtypes (`i64` for `u64`, `i8` for `u8`), see [`BRIDGE`].
fn arith_type(d: DType) -> &'static str {
    match d {
        DType::U64 => "i64",
        DType::U32 => "i32",
        DType::U16 => "i16",
        DType::U8 => "i8",
        d => elem_type(d),
    }
}

/// MLIR type of a value: scalars as their element type, views as fully dynamic strided memrefs.
pub fn mlir_type(t: Type) -> String {
    match t {
        Type::Scalar(d) => elem_type(d).to_string(),
        Type::Array(d, 0) => format!("memref<{}, strided<[], offset: ?>>", elem_type(d)),
        Type::Array(d, r) => {
            format!(
                "memref<{}x{}, strided<[{}], offset: ?>>",
                "?x".repeat(r).trim_end_matches('x'),
                elem_type(d),
                vec!["?"; r].join(", ")
            )
        }
    }
}

/// An MLIR literal for a scalar constant (floats exactly, as hex bits when decimal would round).
pub fn literal(s: Scalar) -> String {
    match s {
        Scalar::F64(v) => float_lit(v, v.to_bits(), 16),
        Scalar::F32(v) => float_lit(v as f64, v.to_bits() as u64, 8),
        Scalar::U64(v) => v.to_string(),
        Scalar::Bool(b) => b.to_string(),
        s => s.as_i64().to_string(),
    }
}

fn float_lit(v: f64, bits: u64, hex_digits: usize) -> String {
    let dec = format!("{v:?}");
    if v.is_finite() && dec.contains('.') && !dec.contains('e') {
        dec
    } else {
        format!("0x{bits:0hex_digits$X}")
    }
}

struct Printer<'a> {
    f: &'a Func,
    file: &'a str,
    out: String,
    /// The `arr.block` of the operation being printed ([`Op::block`]).
    block: Option<u32>,
    /// The signless names of the unsigned values of the operation being printed ([`BRIDGE`]).
    bridged: Vec<(ValueId, String)>,
    /// How many bridged names the function has used.
    bridges: usize,
}

impl Printer<'_> {
    fn v(&self, v: ValueId) -> String {
        if let Some((_, n)) = self.bridged.iter().find(|b| b.0 == v) {
            return n.clone();
        }
        match &self.f.value_names[v as usize] {
            Some(n) => format!("%{n}_{v}"),
            None => format!("%{v}"),
        }
    }
    fn vs(&self, vs: &[ValueId]) -> String {
        vs.iter().map(|v| self.v(*v)).collect::<Vec<_>>().join(", ")
    }
    fn t(&self, v: ValueId) -> String {
        mlir_type(self.f.ty(v))
    }
    fn ts(&self, vs: &[ValueId]) -> String {
        vs.iter().map(|v| self.t(*v)).collect::<Vec<_>>().join(", ")
    }
    fn loc(&self, op: &Op) -> String {
        match op.loc {
            Some(l) => format!(" loc(\"{}\":{}:{})", self.file, l.line, l.col),
            None => String::new(),
        }
    }
    fn results(&self, rs: &[ValueId]) -> String {
        if rs.is_empty() {
            String::new()
        } else {
            format!("{} = ", self.vs(rs))
        }
    }
    fn line(&mut self, depth: usize, s: &str) {
        let _ = writeln!(self.out, "{}{}", "  ".repeat(depth), s);
    }
    /// A generic-form `arr` operation; `attrs` is its attribute dictionary (` {..}`) or empty, to
    /// which the operation's `arr.block` is added.
    fn generic(&self, name: &str, res: &[ValueId], operands: &[ValueId], attrs: &str) -> String {
        let attrs = match (self.block, attrs.strip_suffix('}')) {
            (None, _) => attrs.to_string(),
            (Some(b), None) => format!(" {{arr.block = {b} : i64}}"),
            (Some(b), Some(open)) => format!("{open}, arr.block = {b} : i64}}"),
        };
        format!(
            "{}\"arr.{name}\"({}){attrs} : ({}) -> ({})",
            self.results(res),
            self.vs(operands),
            self.ts(operands),
            self.ts(res)
        )
    }
    fn body(&mut self, depth: usize, body: &Body) {
        for op in body {
            self.print_op(depth, op);
        }
    }
    fn block_header(&mut self, depth: usize, args: &[ValueId]) {
        let a: Vec<String> = args.iter().map(|v| format!("{}: {}", self.v(*v), self.t(*v))).collect();
        self.line(depth, &format!("^bb0({}):", a.join(", ")));
    }
    fn yield_(&mut self, depth: usize, name: &str, vals: &[ValueId], extra: Option<ValueId>) {
        let mut all: Vec<ValueId> = extra.into_iter().collect();
        all.extend_from_slice(vals);
        self.line(depth, &format!("\"{name}\"({}) : ({}) -> ()", self.vs(&all), self.ts(&all)));
    }
    /// Bridges the unsigned operands and result of a host scalar operation ([`BRIDGE`]): prints the
    /// casts of the operands and gives them and the result signless names. Returns the result's
    /// own name, its signless name and its dtype when it needs the cast back.
    fn bridge_in(&mut self, depth: usize, op: &Op) -> Option<(String, String, DType)> {
        use OpKind::*;
        let (res, args) = match &op.kind {
            Const { res, .. } => (*res, vec![]),
            Binary { res, lhs, rhs, .. } => (*res, vec![*lhs, *rhs]),
            Unary { res, arg, .. } | Cast { res, arg } => (*res, vec![*arg]),
            Select { res, cond, lhs, rhs } => (*res, vec![*cond, *lhs, *rhs]),
            _ => return None,
        };
        for a in args {
            let t = self.f.ty(a).dtype();
            if t.is_unsigned() && !self.bridged.iter().any(|b| b.0 == a) {
                let name = format!("%bridge.{}", self.bridges);
                self.bridges += 1;
                self.line(depth, &format!("{name} = {BRIDGE} {} : {} to {}", self.v(a), elem_type(t), arith_type(t)));
                self.bridged.push((a, name));
            }
        }
        let t = self.f.ty(res).dtype();
        if !t.is_unsigned() {
            return None;
        }
        let (own, signless) = (self.v(res), format!("%bridge.{}", self.bridges));
        self.bridged.push((res, signless.clone()));
        self.bridges += 1;
        Some((own, signless, t))
    }

    fn print_op(&mut self, d: usize, op: &Op) {
        use OpKind::*;
        let loc = self.loc(op);
        self.block = op.block;
        let back = self.bridge_in(d, op);
        let text = match &op.kind {
            // `i1` constants print as `true`/`false`, whose type MLIR infers.
            Const { res, value: Scalar::Bool(b) } => format!("{} = arith.constant {b}", self.v(*res)),
            // The signless attribute holds an unsigned constant's bits.
            Const { res, value } if value.dtype().is_unsigned() => {
                let (d, shift) = (value.dtype(), 64 - value.dtype().bits());
                let bits = ((value.to_bits() as i64) << shift) >> shift;
                format!("{} = arith.constant {bits} : {}", self.v(*res), arith_type(d))
            }
            Const { res, value } => format!("{} = arith.constant {} : {}", self.v(*res), literal(*value), self.t(*res)),
            Binary { res, op: b, lhs, rhs } => {
                let dt = self.f.ty(*lhs).dtype();
                format!(
                    "{} = {} {}, {} : {}",
                    self.v(*res),
                    scalar_binary_text(*b, dt),
                    self.v(*lhs),
                    self.v(*rhs),
                    arith_type(dt)
                )
            }
            Unary { res, op: u, arg } => {
                let dt = self.f.ty(*arg).dtype();
                format!(
                    "{} = {} {} : {}",
                    self.v(*res),
                    ops::unary(*u)
                        .spelling(dt)
                        .op_name()
                        .unwrap_or_else(|| panic!("host code applies `{}` to {dt:?}", u.name())),
                    self.v(*arg),
                    arith_type(dt)
                )
            }
            Cast { res, arg } => {
                let (from, to) = (self.f.ty(*arg).dtype(), self.f.ty(*res).dtype());
                format!(
                    "{} = {} {} : {} to {}",
                    self.v(*res),
                    ops::cast(from, to),
                    self.v(*arg),
                    arith_type(from),
                    arith_type(to)
                )
            }
            Select { res, cond, lhs, rhs } => {
                format!(
                    "{} = arith.select {}, {}, {} : {}",
                    self.v(*res),
                    self.v(*cond),
                    self.v(*lhs),
                    self.v(*rhs),
                    arith_type(self.f.ty(*res).dtype())
                )
            }
            For { iv, lo, hi, step, inits, carried, body, yields, results } => {
                self.line(
                    d,
                    &format!(
                        "{}\"scf.for\"({}, {}, {}{}{}) ({{",
                        self.results(results),
                        self.v(*lo),
                        self.v(*hi),
                        self.v(*step),
                        if inits.is_empty() { "" } else { ", " },
                        self.vs(inits)
                    ),
                );
                let mut args = vec![*iv];
                args.extend(carried);
                self.block_header(d + 1, &args);
                self.body(d + 2, body);
                self.yield_(d + 2, "scf.yield", yields, None);
                let mut tys = vec![self.t(*lo), self.t(*hi), self.t(*step)];
                tys.extend(inits.iter().map(|v| self.t(*v)));
                format!("}}) : ({}) -> ({}){loc}", tys.join(", "), self.ts(results))
            }
            While { inits, before_args, before, cond, after_args, after, yields, results } => {
                self.line(d, &format!("{}\"scf.while\"({}) ({{", self.results(results), self.vs(inits)));
                self.block_header(d + 1, before_args);
                self.body(d + 2, before);
                self.yield_(d + 2, "scf.condition", before_args, Some(*cond));
                self.line(d, "}, {");
                self.block_header(d + 1, after_args);
                self.body(d + 2, after);
                self.yield_(d + 2, "scf.yield", yields, None);
                format!("}}) : ({}) -> ({}){loc}", self.ts(inits), self.ts(results))
            }
            If { cond, then_body, then_yields, else_body, else_yields, results } => {
                self.line(d, &format!("{}\"scf.if\"({}) ({{", self.results(results), self.v(*cond)));
                self.body(d + 1, then_body);
                self.yield_(d + 1, "scf.yield", then_yields, None);
                self.line(d, "}, {");
                self.body(d + 1, else_body);
                self.yield_(d + 1, "scf.yield", else_yields, None);
                format!("}}) : (i1) -> ({}){loc}", self.ts(results))
            }
            Call { callee, args, results } => {
                format!(
                    "{}func.call @{callee}({}) : ({}) -> ({})",
                    self.results(results),
                    self.vs(args),
                    self.ts(args),
                    self.ts(results)
                )
            }
            Return { values } => {
                if values.is_empty() {
                    "func.return".to_string()
                } else {
                    format!("func.return {} : {}", self.vs(values), self.ts(values))
                }
            }
            Assert { cond, msg } => format!("cf.assert {}, {:?}", self.v(*cond), msg),
            New { res, sizes } => self.generic("new", &[*res], sizes, ""),
            View { res, src, index, operands } => {
                let codes: Vec<String> = index.iter().map(|e| e.code().to_string()).collect();
                let mut ops = vec![*src];
                ops.extend(operands);
                self.generic("view", &[*res], &ops, &format!(" {{index = array<i64: {}>}}", codes.join(", ")))
            }
            Broadcast { res, src, sizes } => {
                let mut ops = vec![*src];
                ops.extend(sizes);
                self.generic("broadcast", &[*res], &ops, "")
            }
            Transpose { res, src, perm } => {
                let p: Vec<String> = perm.iter().map(|a| a.to_string()).collect();
                self.generic("transpose", &[*res], &[*src], &format!(" {{perm = array<i64: {}>}}", p.join(", ")))
            }
            Diagonal { res, src } => self.generic("diagonal", &[*res], &[*src], ""),
            Contiguous { res, src } => self.generic("contiguous", &[*res], &[*src], ""),
            Reshape { res, src, sizes } | Reshapable { res, src, sizes } => {
                let name = if matches!(op.kind, Reshape { .. }) { "reshape" } else { "reshapable" };
                let mut ops = vec![*src];
                ops.extend(sizes);
                self.generic(name, &[*res], &ops, "")
            }
            Dim { res, src, axis } => self.generic("dim", &[*res], &[*src], &format!(" {{axis = {axis} : i64}}")),
            Load { res, src } => self.generic("load", &[*res], &[*src], ""),
            Del { base } => self.generic("del", &[], &[*base], ""),
            Sync { base } => self.generic("sync", &[], &[*base], ""),
            Print { value, spec, end } => {
                let spec = spec.as_ref().map(|s| format!(", spec = {}", mlir_string(s))).unwrap_or_default();
                self.generic("print", &[], &[*value], &format!(" {{end = {}{spec}}}", mlir_string(end)))
            }
            PrintText { text, end } => {
                let (end, text) = (mlir_string(end), mlir_string(text));
                self.generic("print_text", &[], &[], &format!(" {{end = {end}, text = {text}}}"))
            }
            MatMul { out, lhs, rhs } => self.generic("matmul", &[], &[*out, *lhs, *rhs], ""),
            Sort { out, src, axis, indices } => {
                self.generic("sort", &[], &[*out, *src], &format!(" {{axis = {axis} : i64, indices = {indices}}}"))
            }
            Convolve { out, a, v, off } => self.generic("convolve", &[], &[*out, *a, *v, *off], ""),
            LinAlg { func, out, a, b } => {
                let operands: Vec<ValueId> = [*out, *a].into_iter().chain(*b).collect();
                self.generic("linalg", &[], &operands, &format!(" {{func = \"{}\"}}", func.name()))
            }
            Exchange { view } => self.generic("exchange", &[], &[*view], ""),
            AllReduce { view, kind } => {
                self.generic("allreduce", &[], &[*view], &format!(" {{kind = \"{}\"}}", kind.name()))
            }
            Compute { func, out, ins } => {
                let mut ops = vec![*out];
                ops.extend(ins);
                let attrs = match func {
                    ComputeFn::Reduce(k, None) => format!(" {{kind = \"{}\"}}", k.name()),
                    ComputeFn::Reduce(k, Some(a)) => format!(" {{kind = \"{}\", axis = {a} : i64}}", k.name()),
                    ComputeFn::Gather(a) => format!(" {{axis = {a} : i64}}"),
                    ComputeFn::Scatter(k, m) => format!(" {{kind = \"{}\", mode = \"{}\"}}", k.name(), m.name()),
                    ComputeFn::Scan(k, a) => format!(" {{kind = \"{}\", axis = {a} : i64}}", k.name()),
                    _ => String::new(),
                };
                self.generic(func.name(), &[], &ops, &attrs)
            }
        };
        self.line(
            d,
            &format!("{text}{}", if matches!(op.kind, For { .. } | While { .. } | If { .. }) { "" } else { &loc }),
        );
        if let Some((own, signless, t)) = back {
            self.line(d, &format!("{own} = {BRIDGE} {signless} : {} to {}", arith_type(t), elem_type(t)));
        }
        self.bridged.clear();
    }
}

/// The host scalar operation `b` on operands of dtype `dt`, as written before its operands: an
/// operation name, or `arith.cmpf <predicate>,` for a comparison (from the op table, [`ops::binary`]).
fn scalar_binary_text(b: BinFn, dt: DType) -> String {
    match ops::binary(b).spelling(dt) {
        Spelling::CmpF(p, _) => format!("arith.cmpf {p},"),
        Spelling::CmpI(p, _) => format!("arith.cmpi {p},"),
        s => s.op_name().unwrap_or_else(|| panic!("host code applies `{}` to {dt:?}", b.name())).to_string(),
    }
}

/// The module as MLIR text.
pub fn print_module(m: &Module) -> String {
    let mut out = String::from("module {\n");
    for f in &m.funcs {
        out.push_str(&print_func(f, &m.source_name));
    }
    out.push_str("}\n");
    out
}

/// One function as MLIR text (indented for a module body).
pub fn print_func(f: &Func, file: &str) -> String {
    let mut p = Printer { f, file, out: String::new(), block: None, bridged: vec![], bridges: 0 };
    let params: Vec<String> = f.params.iter().map(|v| format!("{}: {}", p.v(*v), p.t(*v))).collect();
    let results: Vec<String> = f.results.iter().map(|t| mlir_type(*t)).collect();
    let attrs = match (f.kernel, f.inner_strides.is_empty()) {
        (false, _) => String::new(),
        (true, true) => " attributes {arr.kernel}".to_string(),
        (true, false) => {
            let s: Vec<String> = f.inner_strides.iter().map(|s| s.unwrap_or(-1).to_string()).collect();
            format!(" attributes {{arr.inner_strides = array<i64: {}>, arr.kernel}}", s.join(", "))
        }
    };
    p.line(1, &format!("func.func @{}({}) -> ({}){attrs} {{", f.name, params.join(", "), results.join(", ")));
    if f.kernel {
        // Kernel-local temporaries (contracted arrays) are the array values that are not parameters.
        for v in 0..f.value_types.len() as ValueId {
            if f.ty(v).is_array() && !f.params.contains(&v) {
                p.line(2, &format!("{} = \"arr.contracted\"() : () -> ({})", p.v(v), p.t(v)));
            }
        }
    }
    p.body(2, &f.body);
    // Kernels hold only their computations; MLIR needs the terminator.
    if !matches!(f.body.last().map(|o| &o.kind), Some(OpKind::Return { .. })) {
        p.line(2, "func.return");
    }
    p.line(1, "}");
    p.out
}

/// `s` as an MLIR string literal: quoted, with `"` and `\` escaped, and newlines, tabs and other
/// control characters as MLIR's `\n`, `\t` and two-hex-digit escapes (`\1B`).
fn mlir_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
