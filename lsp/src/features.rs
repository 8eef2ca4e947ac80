//! The answers to requests on one analysed document: diagnostics, hover, definition, references,
//! document symbols, inlay hints (shapes of `let` bindings and fusion hints) and code lenses.

use crate::analysis::{Analysis, Def, DefKind};
use crate::FusionRegion;
use arrayc_grammar::ast::{Block, Expr, ExprKind, Function, Index, Stmt};
use arrayc_grammar::builtin::Callee;
use arrayc_grammar::{Diagnostic as FrontDiagnostic, Severity};
use lsp_types::{
    CodeLens, Command, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DocumentSymbol, Hover,
    HoverContents, InlayHint, InlayHintKind, InlayHintLabel, Location, MarkupContent, MarkupKind, NumberOrString,
    Position, Range, SymbolKind, Uri,
};
use std::collections::BTreeSet;

/// The command of the "fuse-report" code lens (arguments: document URI, function name).
pub const CMD_FUSE_REPORT: &str = "arrayc.fuseReport";
/// The command of the "run with defaults" code lens (arguments: document URI, function name).
pub const CMD_RUN: &str = "arrayc.run";

/// The front end's diagnostics as LSP diagnostics: code, exact UTF-16 range, severity, the message
/// with the primary label, notes and the suggested fix, and every secondary label as related
/// information.
pub fn diagnostics(a: &Analysis, uri: &Uri) -> Vec<Diagnostic> {
    diagnostics_with(a, uri, &[])
}

/// [`diagnostics`], then `more` (the lowering's, which the server computes after the analysis).
pub fn diagnostics_with(a: &Analysis, uri: &Uri, more: &[FrontDiagnostic]) -> Vec<Diagnostic> {
    a.diagnostics.iter().chain(more).map(|d| diagnostic(a, uri, d)).collect()
}

fn diagnostic(a: &Analysis, uri: &Uri, d: &FrontDiagnostic) -> Diagnostic {
    let mut message = d.message.clone();
    if !d.primary.message.is_empty() && d.primary.message != d.message {
        message += &format!(" ({})", d.primary.message);
    }
    for n in &d.notes {
        message += &format!("\nnote: {n}");
    }
    if let Some(h) = &d.help {
        message += &format!("\nhelp: {h}");
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .map(|l| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), a.lines.range(&a.text, &l.span)),
            message: l.message.clone(),
        })
        .collect();
    Diagnostic {
        range: a.lines.range(&a.text, &d.primary.span),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        source: Some("arrayc".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

/// The text of a function's signature (`fn f(a: f64[N]) -> f64`), from the source.
fn signature(a: &Analysis, def: &Def) -> String {
    let Some(f) = a.tree().and_then(|p| p.functions.get(def.function)) else { return def.name.clone() };
    let text = a.text.get(f.span.start..f.body.span.start).unwrap_or("");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How a definition is shown in hovers: a code line and an optional note.
fn describe(a: &Analysis, d: &Def, ty: Option<String>) -> String {
    let ty = ty.or_else(|| d.ty.as_ref().map(|t| t.to_string()));
    let typed = |kw: &str| match &ty {
        Some(t) => format!("{kw}{}: {t}", d.name),
        None => format!("{kw}{} (no type: the checker could not type it)", d.name),
    };
    let mut s = match d.kind {
        DefKind::Function => signature(a, d),
        DefKind::Param => typed("param "),
        DefKind::SizeSymbol => typed("size "),
        DefKind::Let => typed("let "),
        DefKind::LoopVar => typed("for "),
    };
    s = format!("```arrayc\n{s}\n```");
    if let Some(base) = &d.view_of {
        s += &format!("\n\nview of `{base}`: writes through it change `{base}`");
    }
    s
}

/// Hover at `pos`: a name's dtype and symbolic shape (and the base it views), a builtin's
/// documentation, or the type of the smallest expression there.
pub fn hover(a: &Analysis, pos: Position) -> Option<Hover> {
    let off = a.lines.offset(&a.text, pos);
    let (value, span) = if let Some(o) = a.occurrence_at(off) {
        let d = &a.defs[o.def];
        let ty = o.expr.filter(|_| d.kind != DefKind::Function).and_then(|e| a.expr_type(e)).map(|t| t.to_string());
        (describe(a, d, ty), o.span.clone())
    } else {
        let (span, id) = a.expr_at(off)?;
        let ty = a.expr_type(id).map(|t| t.to_string());
        let expr = find_expr(a, id);
        match expr {
            Some(ExprKind::Call { func, .. }) if func.span.start <= off && off <= func.span.end => {
                // The builtin's documentation, from the table `docs/language.md` is generated from.
                let Some(Callee::Builtin(b)) = a.callee(id) else { return None };
                let doc = b.doc();
                let result = ty.map(|t| format!("\n\nhere: `{t}`")).unwrap_or_default();
                (format!("{doc}{result}"), func.span.clone())
            }
            _ => {
                let text = a.text.get(span.clone()).unwrap_or("");
                let view = match expr {
                    Some(ExprKind::Subscript { base, .. }) => {
                        let base = match &base.kind {
                            ExprKind::Var(id) => a.occurrence_at(id.span.start).map(|o| &a.defs[o.def]),
                            _ => None,
                        };
                        match base {
                            Some(d) => {
                                let b = d.view_of.as_ref().unwrap_or(&d.name);
                                format!("\n\nview of `{b}`: writes through it change `{b}`")
                            }
                            None => "\n\na view: writes through it change its base".to_string(),
                        }
                    }
                    _ => String::new(),
                };
                (format!("```arrayc\n{}: {}\n```{view}", short(text), ty?), span)
            }
        }
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }),
        range: Some(a.lines.range(&a.text, &span)),
    })
}

/// `text` on one line, shortened to 60 characters.
fn short(text: &str) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > 60 {
        one.chars().take(57).collect::<String>() + "..."
    } else {
        one
    }
}

/// The kind of expression `id` (found by a walk of the tree; hovers are rare).
fn find_expr(a: &Analysis, id: u32) -> Option<&ExprKind> {
    fn walk(e: &Expr, id: u32) -> Option<&ExprKind> {
        if e.id.0 == id {
            return Some(&e.kind);
        }
        match &e.kind {
            ExprKind::Binary(_, x, y) => walk(x, id).or_else(|| walk(y, id)),
            ExprKind::Unary(_, x) => walk(x, id),
            ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => parts.iter().find_map(|x| walk(x, id)),
            ExprKind::Call { args, kwargs, .. } => {
                args.iter().chain(kwargs.iter().map(|(_, v)| v)).find_map(|x| walk(x, id))
            }
            ExprKind::Subscript { base, index } => {
                walk(base, id).or_else(|| index_exprs(index).into_iter().find_map(|x| walk(x, id)))
            }
            _ => None,
        }
    }
    let program = a.tree()?;
    let mut found = None;
    for_each_stmt(&program.functions, &mut |s| {
        if found.is_none() {
            found = stmt_exprs(s).into_iter().find_map(|e| walk(e, id));
        }
    });
    found.or_else(|| {
        program
            .functions
            .iter()
            .filter(|f| !f.is_instance())
            .flat_map(|f| &f.params)
            .filter_map(|p| p.default.as_ref())
            .find_map(|e| walk(e, id))
    })
}

/// The expressions of a subscript.
fn index_exprs(index: &[Index]) -> Vec<&Expr> {
    index
        .iter()
        .flat_map(|i| match i {
            Index::At(x) => vec![x],
            Index::Slice { start, stop, step, .. } => [start, stop, step].into_iter().flatten().collect(),
            Index::NewAxis(_) | Index::Ellipsis(_) => vec![],
        })
        .collect()
}

/// The expressions directly in a statement (not in nested blocks).
fn stmt_exprs(s: &Stmt) -> Vec<&Expr> {
    match s {
        Stmt::Let { value, .. } | Stmt::Assign { value, .. } => vec![value],
        Stmt::SetItem { index, value, .. } | Stmt::AugAssign { index, value, .. } => {
            let mut v = index_exprs(index);
            v.push(value);
            v
        }
        Stmt::For { start, end, step, .. } => [start, end].into_iter().chain(step.as_deref()).collect(),
        Stmt::While { cond, .. } | Stmt::If { cond, .. } | Stmt::Assert { cond, .. } => vec![cond],
        Stmt::Return { values: v, .. } | Stmt::Print { args: v, .. } => v.iter().collect(),
        Stmt::Expr(e) => vec![e],
        Stmt::Break { .. } | Stmt::Continue { .. } => vec![],
    }
}

/// Calls `f` on every statement of `functions`, nested ones included, in source order.
fn for_each_stmt<'a>(functions: &'a [Function], f: &mut dyn FnMut(&'a Stmt)) {
    fn block<'a>(b: &'a Block, f: &mut dyn FnMut(&'a Stmt)) {
        for s in &b.stmts {
            f(s);
            match s {
                Stmt::For { body, .. } | Stmt::While { body, .. } => block(body, f),
                Stmt::If { then_block, else_block, .. } => {
                    block(then_block, f);
                    if let Some(e) = else_block {
                        block(e, f);
                    }
                }
                _ => {}
            }
        }
    }
    // An instance of a rank-generic function repeats its generic function's statements.
    for func in functions.iter().filter(|f| !f.is_instance()) {
        block(&func.body, f);
    }
}

/// The definition of the name at `pos`.
pub fn definition(a: &Analysis, uri: &Uri, pos: Position) -> Option<Location> {
    let o = a.occurrence_at(a.lines.offset(&a.text, pos))?;
    Some(Location::new(uri.clone(), a.lines.range(&a.text, &a.defs[o.def].span)))
}

/// Every occurrence of the name at `pos`, its definition included when `declaration` is set.
pub fn references(a: &Analysis, uri: &Uri, pos: Position, declaration: bool) -> Vec<Location> {
    let Some(o) = a.occurrence_at(a.lines.offset(&a.text, pos)) else { return vec![] };
    let def_span = &a.defs[o.def].span;
    a.references(o.def)
        .filter(|r| declaration || r.span != *def_span)
        .map(|r| Location::new(uri.clone(), a.lines.range(&a.text, &r.span)))
        .collect()
}

/// Functions, with their parameters, size symbols, `let` bindings and loop variables as children.
pub fn document_symbols(a: &Analysis) -> Vec<DocumentSymbol> {
    let symbol = |d: &Def, children: Option<Vec<DocumentSymbol>>| {
        let (kind, detail) = match d.kind {
            DefKind::Function => (SymbolKind::FUNCTION, Some(signature(a, d))),
            DefKind::SizeSymbol => (SymbolKind::TYPE_PARAMETER, d.ty.as_ref().map(|t| t.to_string())),
            _ => (SymbolKind::VARIABLE, d.ty.as_ref().map(|t| t.to_string())),
        };
        #[allow(deprecated)] // `deprecated` is a required field of the struct
        DocumentSymbol {
            name: d.name.clone(),
            detail,
            kind,
            tags: None,
            deprecated: None,
            range: a.lines.range(&a.text, &d.full_span),
            selection_range: a.lines.range(&a.text, &d.span),
            children,
        }
    };
    a.defs
        .iter()
        .filter(|d| d.kind == DefKind::Function)
        .map(|f| {
            let children = a
                .defs
                .iter()
                .filter(|d| d.function == f.function && d.kind != DefKind::Function)
                .map(|d| symbol(d, None));
            symbol(f, Some(children.collect()))
        })
        .collect()
}

/// Inlay hints in `range`: the type of every `let` binding (`: f64[n, n]`) and, with the fusion
/// pass's partition of the document, a fusion hint at the end of every statement it covers.
pub fn inlay_hints(a: &Analysis, range: Range, fusion: Option<&[FusionRegion]>) -> Vec<InlayHint> {
    let (lo, hi) = (a.lines.offset(&a.text, range.start), a.lines.offset(&a.text, range.end));
    let hint = |position: Position, label: String, kind: InlayHintKind, left: bool| InlayHint {
        position,
        label: InlayHintLabel::String(label),
        kind: Some(kind),
        text_edits: None,
        tooltip: None,
        padding_left: Some(left),
        padding_right: None,
        data: None,
    };
    let mut hints: Vec<InlayHint> = a
        .defs
        .iter()
        .filter(|d| d.kind == DefKind::Let && lo <= d.span.end && d.span.end <= hi)
        .filter_map(|d| {
            let ty = d.ty.as_ref()?;
            Some(hint(a.lines.position(&a.text, d.span.end), format!(": {ty}"), InlayHintKind::TYPE, false))
        })
        .collect();
    if let (Some(regions), Some(program)) = (fusion, a.tree()) {
        for_each_stmt(&program.functions, &mut |s| {
            let span = s.span().clone();
            if matches!(s, Stmt::For { .. } | Stmt::While { .. } | Stmt::If { .. }) || span.end < lo || span.end > hi {
                return;
            }
            let first = a.lines.position(&a.text, span.start).line + 1;
            let last = a.lines.position(&a.text, span.end).line + 1;
            if let Some(label) = fusion_label(regions, first, last) {
                hints.push(hint(a.lines.position(&a.text, span.end), label, InlayHintKind::PARAMETER, true));
            }
        });
    }
    hints.sort_by_key(|h| (h.position.line, h.position.character));
    hints
}

/// The fusion hint of a statement on source lines `first..=last` (1-based): the kernels its array
/// operations run in, out of the kernels of their region, and the arrays contracted there
/// (`▸ kernel 2 of 5 · contracted: t, u`); temporaries without a name are counted.
fn fusion_label(regions: &[FusionRegion], first: u32, last: u32) -> Option<String> {
    let on_lines = |lines: &[u32]| lines.iter().any(|l| (first..=last).contains(l));
    let region = regions.iter().find(|r| r.blocks.iter().any(|b| b.kernel && on_lines(&b.lines)))?;
    let kernels: Vec<_> = region.blocks.iter().filter(|b| b.kernel).collect();
    let mine: Vec<usize> = (0..kernels.len()).filter(|&k| on_lines(&kernels[k].lines)).collect();
    let which = match mine[..] {
        [k] => format!("kernel {}", k + 1),
        _ => format!("kernels {}", mine.iter().map(|k| (k + 1).to_string()).collect::<Vec<_>>().join(", ")),
    };
    let contracted: BTreeSet<&str> =
        mine.iter().flat_map(|&k| kernels[k].contracted.iter().map(String::as_str)).collect();
    let named: Vec<&str> = contracted.iter().copied().filter(|c| !c.starts_with('%')).collect();
    let unnamed = contracted.len() - named.len();
    let mut label = format!("▸ {which} of {}", kernels.len());
    if !contracted.is_empty() {
        label += " · contracted: ";
        label += &named.join(", ");
        if unnamed > 0 {
            let sep = if named.is_empty() { "" } else { " + " };
            label += &format!("{sep}{unnamed} temporar{}", if unnamed == 1 { "y" } else { "ies" });
        }
    }
    Some(label)
}

/// Two code lenses on each function: "fuse-report", and "run with defaults" where every parameter
/// has a default.
pub fn code_lenses(a: &Analysis, uri: &Uri) -> Vec<CodeLens> {
    let Some(program) = a.tree() else { return vec![] };
    let mut lenses = vec![];
    // Neither a rank-generic function (no entry function) nor its instances have lenses.
    for f in program.functions.iter().filter(|f| !f.is_instance() && !f.is_rank_generic()) {
        let range = a.lines.range(&a.text, &f.name.span);
        let args = Some(vec![serde_json::json!(uri.as_str()), serde_json::json!(f.name.name)]);
        let lens = |title: &str, command: &str| CodeLens {
            range,
            command: Some(Command { title: title.into(), command: command.into(), arguments: args.clone() }),
            data: None,
        };
        lenses.push(lens("fuse-report", CMD_FUSE_REPORT));
        if f.params.iter().all(|p| p.default.is_some()) {
            lenses.push(lens("▶ run with defaults", CMD_RUN));
        }
    }
    lenses
}
