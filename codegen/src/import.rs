//! Reads MLIR text back into arrayc's typed [`ir::Module`](arrayc_dialect::ir::Module): the inverse of
//! `arrayc_dialect::print`. The text is parsed and verified by MLIR (with the `arr` dialect loaded, see
//! [`crate::mlir`]); the resulting module is then walked with melior and every operation the printer
//! writes is rebuilt (`func`, `arith`, `math`, `scf`, `cf.assert` and all `arr` operations).
//!
//! Values get fresh dense [`ValueId`]s per function in order of definition; value names are not
//! kept (MLIR drops SSA names when it parses). Source locations `loc("file":line:col)` become
//! [`Loc`]s; locations MLIR invents for operations written without one are ignored.

use crate::mlir::{self, MlirError};
use arrayc_core::DType;
use arrayc_dialect::ir::*;
use melior::{ir::attribute::AttributeLike, StringRef};
use melior::{
    ir::{
        attribute::{
            BoolAttribute, DenseI64ArrayAttribute, FlatSymbolRefAttribute, FloatAttribute, IntegerAttribute,
            StringAttribute, TypeAttribute,
        },
        operation::OperationLike,
        r#type::{FunctionType, IntegerType, MemRefType},
        Attribute, BlockLike, BlockRef, Location, OperationRef, RegionLike, ShapedTypeLike, Type as MType, ValueLike,
    },
    Context,
};
use std::collections::HashMap;

/// Why a module could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// MLIR itself rejected the text (its diagnostics are in the message).
    #[error(transparent)]
    Mlir(#[from] MlirError),
    /// An operation arrayc's IR has no counterpart for.
    #[error("{at}unsupported operation `{op}`: {why}")]
    Unsupported {
        /// The operation's name, e.g. `memref.load`.
        op: String,
        /// What is missing or different.
        why: String,
        /// The operation's location (`file:line:col: `), or empty.
        at: String,
    },
    /// A value whose MLIR type has no arrayc type.
    #[error("{at}unsupported type `{ty}` in `{op}` (arrayc supports f64, f32, i64, i1 and memrefs of them)")]
    Type {
        /// The MLIR type as text.
        ty: String,
        /// The operation that defines or uses the value.
        op: String,
        /// The operation's location (`file:line:col: `), or empty.
        at: String,
    },
    /// The module breaks a rule of the `arr` dialect that MLIR's verifier does not check (a rank,
    /// an axis, a permutation, an operand count: `verify::verify_module`).
    #[error("invalid arr module: {0}")]
    Invalid(
        /// The function, operation, line and rule.
        #[from]
        arrayc_dialect::verify::VerifyError,
    ),
}

/// Parses and verifies `text` with MLIR, then rebuilds the typed module and checks it with
/// [`arrayc_dialect::verify::verify_module`]. `source_name` becomes [`Module::source_name`]; when it is
/// empty, the file name of the first location found is used. Errors: MLIR's
/// diagnostics, an operation or type arrayc's IR has no counterpart for, or an invalid module.
pub fn import_module(ctx: &Context, text: &str, source_name: &str) -> Result<Module, ImportError> {
    let module = mlir::parse_and_verify(ctx, text)?;
    let mut m = Module { source_name: source_name.to_string(), funcs: vec![] };
    let body = module.body();
    let mut op = body.first_operation();
    while let Some(o) = op {
        let name = op_name(&o);
        if name != "func.func" {
            return Err(unsupported(&o, "only func.func is supported at module level"));
        }
        let mut imp = FuncImporter { values: HashMap::new(), func: Func::new("", false), file: &mut m.source_name };
        imp.func(&o)?;
        m.funcs.push(imp.func);
        op = o.next_in_block();
    }
    arrayc_dialect::verify::verify_module(&m)?;
    Ok(m)
}

/// The text of a string attribute; `None` when the attribute is not a string or not UTF-8
/// (melior's `StringAttribute::value` panics on the latter, and MLIR text may escape any byte).
fn string_attr(a: Attribute) -> Option<String> {
    let s = StringAttribute::try_from(a).ok()?;
    // SAFETY: `s` is a live string attribute; the returned reference lives as long as the context.
    string_of(unsafe { mlir_sys::mlirStringAttrGetValue(s.to_raw()) })
}

/// The name of a flat symbol reference attribute; `None` as for [`string_attr`].
fn symbol_attr(a: Attribute) -> Option<String> {
    let s = FlatSymbolRefAttribute::try_from(a).ok()?;
    // SAFETY: as in `string_attr`.
    string_of(unsafe { mlir_sys::mlirFlatSymbolRefAttrGetValue(s.to_raw()) })
}

/// A string MLIR returned, `None` when not UTF-8. The empty string is checked first: melior's
/// `StringRef::as_str` indexes its last byte and panics on it (`kind = ""`).
fn string_of(raw: mlir_sys::MlirStringRef) -> Option<String> {
    if raw.length == 0 {
        return Some(String::new());
    }
    // SAFETY: MLIR gave a live string of `length` bytes; it lives as long as the context.
    unsafe { StringRef::from_raw(raw) }.as_str().ok().map(str::to_string)
}

fn op_name<'c, 'a>(o: &OperationRef<'c, 'a>) -> String {
    string_of(o.name().as_string_ref().to_raw()).unwrap_or_else(|| "?".into())
}

fn loc_text(l: Location) -> String {
    if l.is_file_line_col_range() {
        let file = l.file_line_col_range_filename();
        let file = string_of(file.as_string_ref().to_raw()).unwrap_or_default();
        if !file.is_empty() && file != "-" {
            return format!(
                "{}:{}:{}: ",
                file,
                l.file_line_col_range_start_line(),
                l.file_line_col_range_start_column()
            );
        }
    }
    String::new()
}

fn unsupported<'c, 'a>(o: &OperationRef<'c, 'a>, why: &str) -> ImportError {
    ImportError::Unsupported { op: op_name(o), why: why.to_string(), at: loc_text(o.location()) }
}

/// The arr computation named `name` (without `arr.`), apart from `reduce`.
fn compute_fn(name: &str) -> Option<ComputeFn> {
    let simple = [ComputeFn::Fill, ComputeFn::Copy, ComputeFn::Arange, ComputeFn::Random, ComputeFn::Where];
    let bins = BinFn::ALL.map(ComputeFn::Binary);
    let uns = UnFn::ALL.map(ComputeFn::Unary);
    simple.into_iter().chain(bins).chain(uns).find(|f| f.name() == name)
}

/// The `kind` attribute of a reduction (`args`: the arg-reductions too), a scan or an all-reduce.
fn reduce_kind<'c, 'a>(o: &OperationRef<'c, 'a>, args: bool) -> Result<ReduceKind, ImportError> {
    let name = o.attribute("kind").ok().and_then(string_attr);
    ReduceKind::ALL.into_iter().filter(|k| args || !k.is_arg()).find(|k| name.as_deref() == Some(k.name())).ok_or_else(
        || {
            let more = if args { ", \"argmin\" or \"argmax\"" } else { "" };
            let kinds =
                if args { "\"sum\", \"prod\", \"min\", \"max\"" } else { "\"sum\", \"prod\", \"min\" or \"max\"" };
            unsupported(o, &format!("`kind` must be {kinds}{more}"))
        },
    )
}

/// The operation that bridges an unsigned value and the signless integer type `arith` takes, in
/// either direction (`arrayc_dialect::print::BRIDGE`).
const BRIDGE: &str = arrayc_dialect::print::BRIDGE;

/// The type `v` has in arrayc: its MLIR type, or, for a signless integer whose first use bridges
/// it to an unsigned type (the printer writes nothing else there), that unsigned type.
fn bridged_type<'c, V: ValueLike<'c>>(v: &V) -> MType<'c> {
    let t = v.r#type();
    if IntegerType::try_from(t).is_err() || t.to_string().starts_with('u') {
        return t;
    }
    // SAFETY: `v` is a live value of a module the caller holds; its first use (if any) and that
    // use's owner live as long.
    let owner = unsafe {
        let first = mlir_sys::mlirValueGetFirstUse(v.to_raw());
        if mlir_sys::mlirOpOperandIsNull(first) {
            return t;
        }
        OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(first))
    };
    match (op_name(&owner) == BRIDGE, owner.result(0)) {
        (true, Ok(r)) if r.r#type().to_string().starts_with('u') => r.r#type(),
        _ => t,
    }
}

fn scalar_dtype(s: &str) -> Option<DType> {
    DType::ALL.into_iter().find(|&d| arrayc_dialect::print::elem_type(d) == s)
}

/// arrayc type of an MLIR type: scalars of the element types of `arrayc_dialect::print::elem_type`
/// (`f64`, ..., `ui8`, `i1`) and memrefs of them (any layout).
fn ir_type(t: MType) -> Option<Type> {
    if let Ok(mr) = MemRefType::try_from(t) {
        return scalar_dtype(&mr.element().to_string()).map(|d| Type::Array(d, mr.rank()));
    }
    scalar_dtype(&t.to_string()).map(Type::Scalar)
}

/// An imported single-block region: its block arguments, its body, and its terminator unless that
/// is `func.return`.
type ImportedBlock<'c, 'a> = (Vec<ValueId>, Body, Option<OperationRef<'c, 'a>>);

struct FuncImporter<'f> {
    /// MLIR value (raw pointer) to its id.
    values: HashMap<usize, ValueId>,
    func: Func,
    file: &'f mut String,
}

impl FuncImporter<'_> {
    fn ty<'c, 'a>(&self, t: MType<'c>, o: &OperationRef<'c, 'a>) -> Result<Type, ImportError> {
        ir_type(t).ok_or_else(|| ImportError::Type { ty: t.to_string(), op: op_name(o), at: loc_text(o.location()) })
    }

    /// Defines a new value for an MLIR value: of its MLIR type, or where the printer bridged an
    /// unsigned result from `arith`'s signless type (the value's use is a [`BRIDGE`] to `ui64`,
    /// ..., `ui8`), of the bridge's result type.
    fn def<'c, 'a, V: ValueLike<'c>>(&mut self, v: &V, o: &OperationRef<'c, 'a>) -> Result<ValueId, ImportError> {
        let ty = self.ty(bridged_type(v), o)?;
        let id = self.func.new_value(ty, None);
        self.values.insert(v.to_raw().ptr as usize, id);
        Ok(id)
    }

    fn results<'c, 'a>(&mut self, o: &OperationRef<'c, 'a>) -> Result<Vec<ValueId>, ImportError> {
        let rs: Vec<_> = o.results().collect();
        rs.iter().map(|r| self.def(r, o)).collect()
    }

    fn result<'c, 'a>(&mut self, o: &OperationRef<'c, 'a>) -> Result<ValueId, ImportError> {
        let rs = self.results(o)?;
        match rs.as_slice() {
            [r] => Ok(*r),
            _ => Err(unsupported(o, "expected exactly one result")),
        }
    }

    fn operands<'c, 'a>(&self, o: &OperationRef<'c, 'a>) -> Result<Vec<ValueId>, ImportError> {
        o.operands()
            .map(|v| {
                self.values
                    .get(&(v.to_raw().ptr as usize))
                    .copied()
                    .ok_or_else(|| unsupported(o, "an operand is defined outside this function"))
            })
            .collect()
    }

    fn block_args<'c, 'a>(
        &mut self,
        b: &BlockRef<'c, 'a>,
        o: &OperationRef<'c, 'a>,
    ) -> Result<Vec<ValueId>, ImportError> {
        (0..b.argument_count())
            .map(|i| {
                let a = b.argument(i).map_err(|_| unsupported(o, "bad block argument"))?;
                self.def(&a, o)
            })
            .collect()
    }

    fn loc(&mut self, l: Location) -> Option<Loc> {
        if !l.is_file_line_col_range() {
            return None;
        }
        let file = l.file_line_col_range_filename();
        let file = string_of(file.as_string_ref().to_raw())?;
        if file.is_empty() || file == "-" {
            return None;
        }
        if self.file.is_empty() {
            *self.file = file;
        }
        Some(Loc { line: l.file_line_col_range_start_line() as u32, col: l.file_line_col_range_start_column() as u32 })
    }

    fn func<'c, 'a>(&mut self, o: &OperationRef<'c, 'a>) -> Result<(), ImportError> {
        let name = o
            .attribute("sym_name")
            .ok()
            .and_then(string_attr)
            .ok_or_else(|| unsupported(o, "func.func without a UTF-8 sym_name"))?;
        self.func.name = name;
        self.func.kernel = o.has_attribute("arr.kernel");
        if let Ok(a) = o.attribute("arr.inner_strides") {
            let arr = DenseI64ArrayAttribute::try_from(a)
                .map_err(|_| unsupported(o, "`arr.inner_strides` must be array<i64: ...>"))?;
            self.func.inner_strides =
                (0..arr.len()).map(|i| arr.element(i).ok().filter(|s| *s == 0 || *s == 1)).collect();
        }
        let fty = o
            .attribute("function_type")
            .ok()
            .and_then(|a| TypeAttribute::try_from(a).ok())
            .and_then(|t| FunctionType::try_from(t.value()).ok())
            .ok_or_else(|| unsupported(o, "func.func without function_type"))?;
        for i in 0..fty.result_count() {
            let t = fty.result(i).map_err(|_| unsupported(o, "bad function type"))?;
            let t = self.ty(t, o)?;
            self.func.results.push(t);
        }
        let region = o.region(0).map_err(|_| unsupported(o, "no body"))?;
        let block =
            region.first_block().ok_or_else(|| unsupported(o, "function declarations (no body) are not supported"))?;
        if block.next_in_region().is_some() {
            return Err(unsupported(o, "functions with several blocks are not supported"));
        }
        let params = self.block_args(&block, o)?;
        self.func.param_names = (0..params.len()).map(|i| format!("arg{i}")).collect();
        self.func.param_defaults = vec![None; params.len()];
        if !self.func.inner_strides.is_empty() && self.func.inner_strides.len() != params.len() {
            return Err(unsupported(o, "`arr.inner_strides` needs one entry per parameter"));
        }
        self.func.params = params;
        let (mut body, term) = self.block(&block, o)?;
        if let Some(t) = term {
            return Err(unsupported(&t, "unexpected terminator in a function body"));
        }
        // arrayc's kernels end without a return; the printer adds one (see `print::print_func`).
        if self.func.kernel
            && matches!(body.last(), Some(Op { kind: OpKind::Return { values }, .. }) if values.is_empty())
        {
            body.pop();
        }
        self.func.body = body;
        Ok(())
    }

    /// The single block of region `index` of `o`: its arguments, body and terminator (which is
    /// returned instead of being imported, unless it is `func.return`).
    fn region<'c, 'a>(
        &mut self,
        o: &OperationRef<'c, 'a>,
        index: usize,
    ) -> Result<Option<ImportedBlock<'c, 'a>>, ImportError> {
        let region = o.region(index).map_err(|_| unsupported(o, "missing region"))?;
        let Some(block) = region.first_block() else { return Ok(None) };
        if block.next_in_region().is_some() {
            return Err(unsupported(o, "regions with several blocks are not supported"));
        }
        let args = self.block_args(&block, o)?;
        let (body, term) = self.block(&block, o)?;
        Ok(Some((args, body, term)))
    }

    /// Imports the operations of a block; an `scf.yield`/`scf.condition` terminator is returned.
    fn block<'c, 'a>(
        &mut self,
        b: &BlockRef<'c, 'a>,
        _parent: &OperationRef<'c, 'a>,
    ) -> Result<(Body, Option<OperationRef<'c, 'a>>), ImportError> {
        let mut body = vec![];
        let mut op = b.first_operation();
        while let Some(o) = op {
            let name = op_name(&o);
            if name == "scf.yield" || name == "scf.condition" {
                if o.next_in_block().is_some() {
                    return Err(unsupported(&o, "terminator in the middle of a block"));
                }
                return Ok((body, Some(o)));
            }
            if name == BRIDGE {
                // The printer's bridge between an unsigned value and the signless type `arith`
                // needs (`arrayc_dialect::print`): the result is the operand's value.
                let from = self.operands(&o)?;
                let (Ok(r), [v]) = (o.result(0), from.as_slice()) else {
                    return Err(unsupported(&o, "expected one operand and one result"));
                };
                self.values.insert(r.to_raw().ptr as usize, *v);
                op = o.next_in_block();
                continue;
            }
            if name == "arr.contracted" {
                // A kernel-local temporary: a value of the kernel with no operation of its own.
                self.result(&o)?;
                op = o.next_in_block();
                continue;
            }
            let kind = self.op(&o, &name)?;
            let loc = self.loc(o.location());
            let block = match o.attribute("arr.block") {
                Err(_) => None,
                Ok(_) => {
                    let b = self.int_attr(&o, "arr.block")?;
                    let ok = matches!(
                        kind,
                        OpKind::New { .. } | OpKind::Compute { .. } | OpKind::Sync { .. } | OpKind::Del { .. }
                    );
                    Some(u32::try_from(b).ok().filter(|_| ok).ok_or_else(|| {
                        unsupported(
                            &o,
                            "`arr.block` must be a non-negative i64 on arr.new, a computation, arr.sync or arr.del",
                        )
                    })?)
                }
            };
            body.push(Op { kind, loc, block });
            op = o.next_in_block();
        }
        Ok((body, None))
    }

    fn yield_operands<'c, 'a>(
        &self,
        t: Option<OperationRef<'c, 'a>>,
        want: &str,
        o: &OperationRef<'c, 'a>,
    ) -> Result<Vec<ValueId>, ImportError> {
        match t {
            Some(t) if op_name(&t) == want => self.operands(&t),
            Some(t) => Err(unsupported(&t, &format!("expected {want} here"))),
            None => Err(unsupported(o, &format!("region without {want}"))),
        }
    }

    fn int_attr<'c, 'a>(&self, o: &OperationRef<'c, 'a>, name: &str) -> Result<i64, ImportError> {
        o.attribute(name)
            .ok()
            .and_then(|a| IntegerAttribute::try_from(a).ok())
            .map(|i| i.value())
            .ok_or_else(|| unsupported(o, &format!("missing integer attribute `{name}`")))
    }

    fn op<'c, 'a>(&mut self, o: &OperationRef<'c, 'a>, name: &str) -> Result<OpKind, ImportError> {
        let ops = self.operands(o)?;
        let n = ops.len();
        let want =
            |k: usize| if n == k { Ok(()) } else { Err(unsupported(o, &format!("expected {k} operands, found {n}"))) };
        if let Some(arr) = name.strip_prefix("arr.") {
            return self.arr_op(o, arr, ops);
        }
        if let Some(b) = arrayc_dialect::ops::binary_of_mlir(name, None) {
            want(2)?;
            return Ok(OpKind::Binary { res: self.result(o)?, op: b, lhs: ops[0], rhs: ops[1] });
        }
        if let Some(u) = arrayc_dialect::ops::unary_of_mlir(name) {
            want(1)?;
            return Ok(OpKind::Unary { res: self.result(o)?, op: u, arg: ops[0] });
        }
        Ok(match name {
            "arith.constant" => {
                want(0)?;
                let res = self.result(o)?;
                let attr: Attribute = o.attribute("value").map_err(|_| unsupported(o, "no value"))?;
                let value = match self.func.ty(res) {
                    Type::Scalar(DType::F64) => {
                        Scalar::F64(FloatAttribute::try_from(attr).map_err(|_| unsupported(o, "bad f64"))?.value())
                    }
                    Type::Scalar(DType::F32) => Scalar::F32(
                        FloatAttribute::try_from(attr).map_err(|_| unsupported(o, "bad f32"))?.value() as f32,
                    ),
                    Type::Scalar(DType::Bool) => Scalar::Bool(
                        IntegerAttribute::try_from(attr).map_err(|_| unsupported(o, "bad i1"))?.value() != 0,
                    ),
                    // The attribute holds the bits (of a signless type where an unsigned value is
                    // bridged, `arrayc_dialect::print`), which the cast wraps to the dtype.
                    Type::Scalar(d) => Scalar::I64(
                        IntegerAttribute::try_from(attr)
                            .map_err(|_| unsupported(o, &format!("bad {}", arrayc_dialect::print::elem_type(d))))?
                            .value(),
                    )
                    .cast(d),
                    Type::Array(..) => return Err(unsupported(o, "array constants are not supported")),
                };
                OpKind::Const { res, value }
            }
            "arith.cmpf" | "arith.cmpi" => {
                want(2)?;
                let p = self.int_attr(o, "predicate")?;
                let b = arrayc_dialect::ops::binary_of_mlir(name, Some(p))
                    .ok_or_else(|| unsupported(o, &format!("predicate {p} is not supported")))?;
                OpKind::Binary { res: self.result(o)?, op: b, lhs: ops[0], rhs: ops[1] }
            }
            "arith.select" => {
                want(3)?;
                OpKind::Select { res: self.result(o)?, cond: ops[0], lhs: ops[1], rhs: ops[2] }
            }
            cast if arrayc_dialect::ops::is_cast(cast) => {
                want(1)?;
                OpKind::Cast { res: self.result(o)?, arg: ops[0] }
            }
            "func.call" => {
                let callee = o
                    .attribute("callee")
                    .ok()
                    .and_then(symbol_attr)
                    .ok_or_else(|| unsupported(o, "no UTF-8 callee"))?;
                OpKind::Call { callee, args: ops, results: self.results(o)? }
            }
            "func.return" => OpKind::Return { values: ops },
            "cf.assert" => {
                want(1)?;
                let msg =
                    o.attribute("msg").ok().and_then(string_attr).ok_or_else(|| unsupported(o, "no UTF-8 msg"))?;
                OpKind::Assert { cond: ops[0], msg }
            }
            "scf.for" => {
                if n < 3 {
                    return Err(unsupported(o, "expected lower bound, upper bound and step"));
                }
                let (args, body, term) = self.region(o, 0)?.ok_or_else(|| unsupported(o, "empty body"))?;
                let yields = self.yield_operands(term, "scf.yield", o)?;
                let (iv, carried) = args.split_first().ok_or_else(|| unsupported(o, "no induction variable"))?;
                OpKind::For {
                    iv: *iv,
                    lo: ops[0],
                    hi: ops[1],
                    step: ops[2],
                    inits: ops[3..].to_vec(),
                    carried: carried.to_vec(),
                    body,
                    yields,
                    results: self.results(o)?,
                }
            }
            "scf.while" => {
                let (before_args, before, term) =
                    self.region(o, 0)?.ok_or_else(|| unsupported(o, "empty before region"))?;
                let cond_ops = self.yield_operands(term, "scf.condition", o)?;
                let (cond, forwarded) =
                    cond_ops.split_first().ok_or_else(|| unsupported(o, "scf.condition without a condition"))?;
                if forwarded != before_args.as_slice() {
                    return Err(unsupported(o, "scf.condition must forward the before region's arguments unchanged"));
                }
                let (after_args, after, term) =
                    self.region(o, 1)?.ok_or_else(|| unsupported(o, "empty after region"))?;
                let yields = self.yield_operands(term, "scf.yield", o)?;
                OpKind::While {
                    inits: ops,
                    before_args,
                    before,
                    cond: *cond,
                    after_args,
                    after,
                    yields,
                    results: self.results(o)?,
                }
            }
            "scf.if" => {
                want(1)?;
                let (_, then_body, term) = self.region(o, 0)?.ok_or_else(|| unsupported(o, "empty then region"))?;
                let then_yields = self.yield_operands(term, "scf.yield", o)?;
                let (else_body, else_yields) = match self.region(o, 1)? {
                    Some((_, b, term)) => (b, self.yield_operands(term, "scf.yield", o)?),
                    None => (vec![], vec![]),
                };
                OpKind::If { cond: ops[0], then_body, then_yields, else_body, else_yields, results: self.results(o)? }
            }
            _ => return Err(unsupported(o, "arrayc's IR has no such operation")),
        })
    }

    fn arr_op<'c, 'a>(
        &mut self,
        o: &OperationRef<'c, 'a>,
        name: &str,
        ops: Vec<ValueId>,
    ) -> Result<OpKind, ImportError> {
        let n = ops.len();
        let want =
            |k: usize| if n == k { Ok(()) } else { Err(unsupported(o, &format!("expected {k} operands, found {n}"))) };
        let at_least = |k: usize| {
            if n >= k {
                Ok(())
            } else {
                Err(unsupported(o, &format!("expected at least {k} operands, found {n}")))
            }
        };
        let no_results = || if o.result_count() == 0 { Ok(()) } else { Err(unsupported(o, "expected no results")) };
        Ok(match name {
            "new" => OpKind::New { res: self.result(o)?, sizes: ops },
            "view" => {
                at_least(1)?;
                let attr = o.attribute("index").map_err(|_| unsupported(o, "no `index` attribute"))?;
                let arr = DenseI64ArrayAttribute::try_from(attr)
                    .map_err(|_| unsupported(o, "`index` must be array<i64: ...>"))?;
                let index = (0..arr.len())
                    .map(|i| {
                        let c = arr.element(i).unwrap_or(-1);
                        IndexEntry::from_code(c).ok_or_else(|| unsupported(o, &format!("bad index code {c}")))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let k: usize = index.iter().map(|e| e.num_operands()).sum();
                if k != n - 1 {
                    return Err(unsupported(o, &format!("the index codes take {k} operands but {} are given", n - 1)));
                }
                OpKind::View { res: self.result(o)?, src: ops[0], index, operands: ops[1..].to_vec() }
            }
            "broadcast" => {
                at_least(1)?;
                OpKind::Broadcast { res: self.result(o)?, src: ops[0], sizes: ops[1..].to_vec() }
            }
            "transpose" => {
                want(1)?;
                let attr = o.attribute("perm").map_err(|_| unsupported(o, "no `perm` attribute"))?;
                let arr = DenseI64ArrayAttribute::try_from(attr)
                    .map_err(|_| unsupported(o, "`perm` must be array<i64: ...>"))?;
                let perm: Vec<usize> = (0..arr.len()).map(|i| arr.element(i).unwrap_or(-1).max(-1) as usize).collect();
                let mut seen = perm.clone();
                seen.sort_unstable();
                if seen != (0..perm.len()).collect::<Vec<_>>() {
                    return Err(unsupported(o, &format!("`perm` must be a permutation of 0..{}", perm.len())));
                }
                OpKind::Transpose { res: self.result(o)?, src: ops[0], perm }
            }
            "diagonal" => {
                want(1)?;
                OpKind::Diagonal { res: self.result(o)?, src: ops[0] }
            }
            "reshape" => {
                at_least(1)?;
                OpKind::Reshape { res: self.result(o)?, src: ops[0], sizes: ops[1..].to_vec() }
            }
            "contiguous" => {
                want(1)?;
                OpKind::Contiguous { res: self.result(o)?, src: ops[0] }
            }
            "reshapable" => {
                at_least(1)?;
                OpKind::Reshapable { res: self.result(o)?, src: ops[0], sizes: ops[1..].to_vec() }
            }
            "dim" => {
                want(1)?;
                let axis = self.int_attr(o, "axis")?;
                OpKind::Dim { res: self.result(o)?, src: ops[0], axis: axis as usize }
            }
            "load" => {
                want(1)?;
                OpKind::Load { res: self.result(o)?, src: ops[0] }
            }
            "del" => {
                want(1)?;
                no_results()?;
                OpKind::Del { base: ops[0] }
            }
            "sync" => {
                want(1)?;
                no_results()?;
                OpKind::Sync { base: ops[0] }
            }
            "sort" => {
                want(2)?;
                no_results()?;
                let axis = self.int_attr(o, "axis")? as usize;
                let indices = o
                    .attribute("indices")
                    .ok()
                    .and_then(|a| BoolAttribute::try_from(a).ok())
                    .ok_or_else(|| unsupported(o, "`indices` must be a bool"))?
                    .value();
                OpKind::Sort { out: ops[0], src: ops[1], axis, indices }
            }
            "convolve" => {
                want(4)?;
                no_results()?;
                OpKind::Convolve { out: ops[0], a: ops[1], v: ops[2], off: ops[3] }
            }
            "linalg" => {
                let func = o
                    .attribute("func")
                    .ok()
                    .and_then(string_attr)
                    .and_then(|a| LinAlgFn::from_name(&a))
                    .ok_or_else(|| unsupported(o, "`func` must name a `LinAlgFn` (\"solve\", \"det\", ...)"))?;
                no_results()?;
                match (func, ops.len()) {
                    (_, 3) if func.takes_b() => OpKind::LinAlg { func, out: ops[0], a: ops[1], b: Some(ops[2]) },
                    (_, 2) if !func.takes_b() => OpKind::LinAlg { func, out: ops[0], a: ops[1], b: None },
                    _ => {
                        return Err(unsupported(o, "`solve` and `pinv` take (out, a, b), the other functions (out, a)"))
                    }
                }
            }
            "matmul" => {
                want(3)?;
                no_results()?;
                OpKind::MatMul { out: ops[0], lhs: ops[1], rhs: ops[2] }
            }
            "print" => {
                want(1)?;
                no_results()?;
                let end =
                    o.attribute("end").ok().and_then(string_attr).ok_or_else(|| unsupported(o, "no `end` text"))?;
                let spec = o.attribute("spec").ok().and_then(string_attr);
                OpKind::Print { value: ops[0], spec, end }
            }
            "print_text" => {
                want(0)?;
                no_results()?;
                let end =
                    o.attribute("end").ok().and_then(string_attr).ok_or_else(|| unsupported(o, "no `end` text"))?;
                let text =
                    o.attribute("text").ok().and_then(string_attr).ok_or_else(|| unsupported(o, "no UTF-8 text"))?;
                OpKind::PrintText { text, end }
            }
            "exchange" => {
                want(1)?;
                no_results()?;
                OpKind::Exchange { view: ops[0] }
            }
            "allreduce" => {
                want(1)?;
                no_results()?;
                let kind = reduce_kind(o, false)?;
                OpKind::AllReduce { view: ops[0], kind }
            }
            "reduce" | "scan" => {
                want(2)?;
                no_results()?;
                let kind = reduce_kind(o, name == "reduce")?;
                let axis = if o.has_attribute("axis") { Some(self.int_attr(o, "axis")?) } else { None };
                let axis = axis
                    .map(|a| usize::try_from(a).map_err(|_| unsupported(o, "`axis` must not be negative")))
                    .transpose()?;
                let func = match (name, axis) {
                    ("reduce", axis) => ComputeFn::Reduce(kind, axis),
                    (_, Some(axis)) => ComputeFn::Scan(kind, axis),
                    (_, None) => return Err(unsupported(o, "a scan needs `axis`")),
                };
                OpKind::Compute { func, out: ops[0], ins: ops[1..].to_vec() }
            }
            "scatter" => {
                want(3)?;
                no_results()?;
                let attr = |name: &str| o.attribute(name).ok().and_then(string_attr);
                let kind = [ScatterKind::Set, ScatterKind::Add]
                    .into_iter()
                    .find(|k| attr("kind").as_deref() == Some(k.name()))
                    .ok_or_else(|| unsupported(o, "`kind` must be \"set\" or \"add\""))?;
                let mode = [ScatterMode::Raise, ScatterMode::Drop]
                    .into_iter()
                    .find(|m| attr("mode").as_deref() == Some(m.name()))
                    .ok_or_else(|| unsupported(o, "`mode` must be \"raise\" or \"drop\""))?;
                OpKind::Compute { func: ComputeFn::Scatter(kind, mode), out: ops[0], ins: ops[1..].to_vec() }
            }
            "gather" => {
                no_results()?;
                let axis = self.int_attr(o, "axis")?;
                let axis = usize::try_from(axis).map_err(|_| unsupported(o, "`axis` must not be negative"))?;
                OpKind::Compute { func: ComputeFn::Gather(axis), out: ops[0], ins: ops[1..].to_vec() }
            }
            other => {
                let func = compute_fn(other).ok_or_else(|| unsupported(o, "unknown arr operation"))?;
                at_least(1)?;
                no_results()?;
                OpKind::Compute { func, out: ops[0], ins: ops[1..].to_vec() }
            }
        })
    }
}
