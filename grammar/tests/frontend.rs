//! Front-end tests: positive programs with expected shapes, precedence, malformed inputs (from
//! `tests/malformed/*.arr`, each with a `# expect: E0xxx` first line), and a no-panic proptest.

use arrayc_grammar::ast::*;
use arrayc_grammar::types::Ty;
use arrayc_grammar::{frontend, parse, Checked, Diagnostic};

const HEAT: &str = r#"
# Jacobi heat equation (comments start with '#')
fn heat(n: i64 = 100, epsilon: f64 = 0.005, max_iter: i64 = 1000) -> (f64[n+2, n+2], i64) {
    let grid = zeros(n + 2, n + 2);
    grid[0, :] = 40.0;
    let center = grid[1:-1, 1:-1];
    let delta = epsilon + 1.0;
    let it = 0;
    while delta > epsilon & it < max_iter {
        let work = 0.2 * (center + grid[:-2, 1:-1] + grid[2:, 1:-1] + grid[1:-1, :-2] + grid[1:-1, 2:]);
        delta = sum(abs(work - center));
        center[:] = work;
        it += 1;
    }
    return (grid, it);
}
"#;

const SYNTHETIC: &str = r#"
fn synthetic() -> f64[5] {
    let a = zeros(4);  let b = zeros(4);  let d = zeros(5);  let e = zeros(5);
    a += d[:-1];   a[:] = d[:-1];
    b += e[:-1];   b[:] = e[:-1];
    let t = a * b;
    d[1:] = maximum(t, e[1:]);
    e[1:] = minimum(t, d[1:]);
    return d;
}
"#;

fn ok(src: &str) -> Checked {
    let (c, diags) = frontend(src);
    let rendered: Vec<String> = diags.iter().map(|d| d.render("test.arr", src, false)).collect();
    assert!(c.is_some(), "expected success, got:\n{}", rendered.join("\n"));
    c.unwrap()
}

/// Types of all expressions whose source text is exactly `text`.
fn types_of(c: &Checked, src: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut visit = |e: &Expr| {
        if &src[e.span.clone()] == text {
            out.push(c.types[e.id.0 as usize].to_string());
        }
    };
    for f in &c.program.functions {
        walk_block(&f.body, &mut visit);
    }
    out
}

fn walk_block(b: &Block, f: &mut dyn FnMut(&Expr)) {
    for s in &b.stmts {
        match s {
            Stmt::Let { value, .. } | Stmt::Assign { value, .. } => walk_expr(value, f),
            Stmt::SetItem { index, value, .. } | Stmt::AugAssign { index, value, .. } => {
                for i in index {
                    walk_index(i, f);
                }
                walk_expr(value, f)
            }
            Stmt::For { start, end, step, body, .. } => {
                walk_expr(start, f);
                walk_expr(end, f);
                if let Some(s) = step {
                    walk_expr(s, f);
                }
                walk_block(body, f)
            }
            Stmt::While { cond, body, .. } => {
                walk_expr(cond, f);
                walk_block(body, f)
            }
            Stmt::If { cond, then_block, else_block, .. } => {
                walk_expr(cond, f);
                walk_block(then_block, f);
                if let Some(e) = else_block {
                    walk_block(e, f)
                }
            }
            Stmt::Return { values, .. } | Stmt::Print { args: values, .. } => {
                values.iter().for_each(|v| walk_expr(v, f))
            }
            Stmt::Expr(e) | Stmt::Assert { cond: e, .. } => walk_expr(e, f),
            Stmt::Break { .. } | Stmt::Continue { .. } => {}
        }
    }
}

fn walk_index(i: &Index, f: &mut dyn FnMut(&Expr)) {
    match i {
        Index::At(e) => walk_expr(e, f),
        Index::Slice { start, stop, step, .. } => {
            [start, stop, step].into_iter().flatten().for_each(|e| walk_expr(e, f))
        }
        _ => {}
    }
}

fn walk_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Binary(_, a, b) => {
            walk_expr(a, f);
            walk_expr(b, f)
        }
        ExprKind::Unary(_, a) => walk_expr(a, f),
        ExprKind::Call { args, kwargs, .. } => {
            args.iter().for_each(|a| walk_expr(a, f));
            kwargs.iter().for_each(|(_, a)| walk_expr(a, f))
        }
        ExprKind::Subscript { base, index } => {
            walk_expr(base, f);
            index.iter().for_each(|i| walk_index(i, f))
        }
        ExprKind::Tuple(items) | ExprKind::List(items) => items.iter().for_each(|a| walk_expr(a, f)),
        ExprKind::IfElse(parts) | ExprKind::BoolOp(_, parts) => parts.iter().for_each(|a| walk_expr(a, f)),
        _ => {}
    }
}

fn ty1(c: &Checked, src: &str, text: &str) -> String {
    let v = types_of(c, src, text);
    assert!(!v.is_empty(), "no expression `{text}`");
    v[0].clone()
}

#[test]
fn heat_checks_with_shapes() {
    let c = ok(HEAT);
    assert_eq!(ty1(&c, HEAT, "zeros(n + 2, n + 2)"), "f64[n+2, n+2]");
    assert_eq!(ty1(&c, HEAT, "grid[1:-1, 1:-1]"), "f64[n, n]");
    assert_eq!(ty1(&c, HEAT, "grid[:-2, 1:-1]"), "f64[n, n]");
    assert_eq!(ty1(&c, HEAT, "sum(abs(work - center))"), "f64");
    assert_eq!(ty1(&c, HEAT, "delta > epsilon & it < max_iter"), "bool");
    let sig = &c.signatures[0];
    assert_eq!(sig.name, "heat");
    assert_eq!(sig.results[0].to_string(), "f64[n+2, n+2]");
    assert_eq!(sig.results[1], Ty::Scalar(DType::I64));
    assert_eq!(c.types.len(), c.program.num_exprs as usize);
}

#[test]
fn break_and_continue_in_loops() {
    // In `for` and `while` bodies, nested `if`s, and a `for v in x`; the innermost loop's own.
    let src = "fn f(x: f64[N]) -> i64 {
    let k = 0;
    for i in range(N - 1, -1, -2) {
        if x[i] > 0.5 { continue; } else if x[i] < -0.5 { break; }
        while k < 100 { k += 1; if k % 7 == 0 { break; } continue; }
    }
    for v in x { if v == 0.0 { break; } }
    return k;
}";
    let c = ok(src);
    let mut jumps = vec![];
    fn collect(b: &Block, out: &mut Vec<String>) {
        for s in &b.stmts {
            match s {
                Stmt::Break { .. } => out.push("break".into()),
                Stmt::Continue { .. } => out.push("continue".into()),
                Stmt::For { body, .. } | Stmt::While { body, .. } => collect(body, out),
                Stmt::If { then_block, else_block, .. } => {
                    collect(then_block, out);
                    else_block.iter().for_each(|e| collect(e, out));
                }
                _ => {}
            }
        }
    }
    collect(&c.program.functions[0].body, &mut jumps);
    assert_eq!(jumps, ["continue", "break", "break", "continue", "break"]);
    // Outside a loop: E0109, at the statement, in a function's body and in an `if` of it.
    for (src, word) in
        [("fn f() { break; }", "break"), ("fn f(n: i64) { for i in 0..n { } if n > 0 { continue; } }", "continue")]
    {
        let (c, diags) = frontend(src);
        assert!(c.is_none());
        let d = diags.iter().find(|d| d.code == "E0109").expect("E0109");
        assert_eq!(&src[d.primary.span.clone()], format!("{word};"));
        assert!(d.message.contains("outside a loop"), "{}", d.message);
        assert!(d.help.is_some());
    }
    // `break` needs its `;`, as every statement.
    let (_, diags) = frontend("fn f() { while true { break } }");
    assert_eq!(diags[0].code, "E0101");
}

#[test]
fn synthetic_checks_with_shapes() {
    let c = ok(SYNTHETIC);
    assert_eq!(ty1(&c, SYNTHETIC, "d[:-1]"), "f64[4]");
    assert_eq!(ty1(&c, SYNTHETIC, "e[1:]"), "f64[4]");
    assert_eq!(ty1(&c, SYNTHETIC, "maximum(t, e[1:])"), "f64[4]");
    assert_eq!(ty1(&c, SYNTHETIC, "a * b"), "f64[4]");
}

#[test]
fn long_chains_of_step_slices_and_broadcasts_stay_bounded() {
    // Each step slice nests the previous size in a ceiling division, each undecided broadcast the
    // previous set: past MAX_SIZE_WEIGHT the size is a fresh unknown (checked at run time).
    let mut src = String::from("fn f(x: f64[N], y: f64[M]) -> f64 {\n    let a0 = x;\n");
    for k in 1..400 {
        src.push_str(&format!("    let a{k} = a{}[::2] + y[{}:];\n", k - 1, k % 3));
    }
    src.push_str("    return sum(a399);\n}\n");
    let start = std::time::Instant::now();
    let c = ok(&src);
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
    assert_eq!(ty1(&c, &src, "a0[::2]"), "f64[ceil(N/2)]");
    assert!(ty1(&c, &src, "a1[::2] + y[2:]").starts_with("f64[broadcast("));
    let last = ty1(&c, &src, "a398[::2] + y[0:]");
    assert!(last.len() < 400, "{last}");
}

#[test]
fn slice_shapes_symbolic() {
    let src = "fn f(x: f64[N], m: f64[N, M]) -> f64[N-2] {
        let a = x[:-1]; let b = x[1:]; let c = x[1:-1]; let d = x[::-1]; let e = x[::2];
        let g = x[newaxis, :]; let h = m[..., 0]; let k = m[0]; let s = m[1, 2];
        let q = x[2:5]; let r = zeros(7)[::2]; let z = m[:, newaxis, 1:];
        let o = x[1::2]; let hz = zeros(N // 2); let ev = zeros(2 * N)[1::2]; let rv = x[::-2];
        let bs = x[::2] + x[1::2]; let bt = x[1::2] + x[::2] + x[::2];
        let n1 = N - 1; let y = zeros(n1);
        let u = sum(m, axis=0); let v = sum(m, axis=-1); let w = arange(N);
        return c;
    }";
    let c = ok(src);
    let t = |s: &str| ty1(&c, src, s);
    assert_eq!(t("x[:-1]"), "f64[N-1]");
    assert_eq!(t("x[1:]"), "f64[N-1]");
    assert_eq!(t("x[1:-1]"), "f64[N-2]");
    assert_eq!(t("x[::-1]"), "f64[N]");
    // Step slices and `//`: canonical ceiling divisions, so the odd elements `x[1::2]` and
    // `N // 2` have one size, and the even elements of an axis of `2*N` have `N`.
    assert_eq!(t("x[::2]"), "f64[ceil(N/2)]");
    assert_eq!(t("x[1::2]"), "f64[ceil((N+1)/2)-1]");
    assert_eq!(t("zeros(N // 2)"), "f64[ceil((N+1)/2)-1]");
    assert_eq!(t("zeros(2 * N)[1::2]"), "f64[N]");
    assert_eq!(t("x[::-2]"), "f64[ceil(N/2)]");
    // Sizes only the run time can compare broadcast to one set, however they are grouped.
    assert_eq!(t("x[::2] + x[1::2]"), "f64[broadcast(ceil((N+1)/2)-1, ceil(N/2))]");
    assert_eq!(t("x[1::2] + x[::2] + x[::2]"), "f64[broadcast(ceil((N+1)/2)-1, ceil(N/2))]");
    assert_eq!(t("x[newaxis, :]"), "f64[1, N]");
    assert_eq!(t("m[..., 0]"), "f64[N]");
    assert_eq!(t("m[0]"), "f64[M]");
    assert_eq!(t("m[1, 2]"), "f64");
    assert_eq!(t("x[2:5]"), "f64[3]");
    assert_eq!(t("zeros(7)[::2]"), "f64[4]");
    assert_eq!(t("m[:, newaxis, 1:]"), "f64[N, 1, M-1]");
    assert_eq!(t("zeros(n1)"), "f64[N-1]");
    assert_eq!(t("sum(m, axis=0)"), "f64[M]");
    assert_eq!(t("sum(m, axis=-1)"), "f64[N]");
    assert_eq!(t("arange(N)"), "i64[N]");
}

#[test]
fn transpose_and_diagonal_shapes() {
    let src = "fn f(x: f64[N], m: f64[N, M], q: f64[N, N]) -> f64[M, N] {
        let a = m.T; let b = transpose(m); let c = x[newaxis, :].T; let d = diagonal(q);
        let e = diagonal(m); let g = diagonal(zeros(3, 5)); let h = m.T[0]; let k = zeros(2, 3, 4).T;
        return a;
    }";
    let c = ok(src);
    let t = |s: &str| ty1(&c, src, s);
    assert_eq!(t("m.T"), "f64[M, N]");
    assert_eq!(t("transpose(m)"), "f64[M, N]");
    assert_eq!(t("x[newaxis, :].T"), "f64[N, 1]");
    assert_eq!(t("diagonal(q)"), "f64[N]");
    assert!(t("diagonal(m)").starts_with("f64[?"), "min(N, M) is not affine: a fresh size");
    assert_eq!(t("diagonal(zeros(3, 5))"), "f64[3]");
    assert_eq!(t("m.T[0]"), "f64[N]");
    assert_eq!(t("zeros(2, 3, 4).T"), "f64[4, 3, 2]");
    // A function may shadow a builtin's name (`transpose(m)` then calls it), but `.T` and `@` are
    // builtins under names no function can take.
    ok("fn transpose(x: f64[N]) -> f64[N] { return x; }\nfn g(m: f64[2, 3]) -> f64[3, 2] { return m.T; }");
    ok("fn g(m: f64[2, 3]) -> f64[3, 2] { return m.T; }");
    let (c, diags) = frontend("fn g(x: f64[4]) -> f64[4] { return diagonal(x); }");
    assert!(c.is_none() && diags.iter().any(|d| d.code == "E0503"), "diagonal of a 1-d array is an error");
}

#[test]
fn promotion_rules() {
    let src = "fn f(a: f32[N], b: i64[N], c: bool[N], x: i64, y: f32) {
        let p1 = a + 1; let p2 = a + 1.5; let p3 = b + 1.5; let p4 = a + b; let p5 = b / b;
        let p6 = b ** 2; let p7 = c + c; let p8 = a * y; let p9 = x + y; let p10 = a < 1.0;
        let p11 = sqrt(b); let p12 = abs(b); let p13 = sum(c); let p14 = mean(b); let p15 = f64(a);
        let p16 = where(c, a, 0.0); let p17 = x / 2;
    }";
    let c = ok(src);
    let t = |s: &str| ty1(&c, src, s);
    assert_eq!(t("a + 1"), "f32[N]");
    assert_eq!(t("a + 1.5"), "f32[N]");
    assert_eq!(t("b + 1.5"), "f64[N]");
    assert_eq!(t("a + b"), "f64[N]");
    assert_eq!(t("b / b"), "f64[N]");
    assert_eq!(t("b ** 2"), "i64[N]");
    assert_eq!(t("c + c"), "bool[N]"); // NumPy: `+` of bools is logical or
    assert_eq!(t("a * y"), "f32[N]");
    assert_eq!(t("x + y"), "f64");
    assert_eq!(t("a < 1.0"), "bool[N]");
    assert_eq!(t("sqrt(b)"), "f64[N]");
    assert_eq!(t("abs(b)"), "i64[N]");
    assert_eq!(t("sum(c)"), "i64");
    assert_eq!(t("mean(b)"), "f64");
    assert_eq!(t("f64(a)"), "f64[N]");
    assert_eq!(t("where(c, a, 0.0)"), "f32[N]");
    assert_eq!(t("x / 2"), "f64");
}

#[test]
fn user_calls_bind_sizes() {
    let src = "fn inner(x: f64[N], k: i64) -> (f64[N-1], f64[k]) { return (x[1:], zeros(k)); }
    fn caller(y: f64[M]) -> f64[M-1] {
        let (a, b) = inner(y, 3);
        let (p, q) = inner(y[2:], k=M);
        return a;
    }
    fn main() { let z = caller(zeros(6)); print(z); }";
    let c = ok(src);
    let t = |s: &str| ty1(&c, src, s);
    assert_eq!(t("inner(y, 3)"), "(f64[M-1], f64[3])");
    assert_eq!(t("inner(y[2:], k=M)"), "(f64[M-3], f64[M])");
    assert_eq!(t("caller(zeros(6))"), "f64[5]");
    assert_eq!(c.signatures[0].params[0].1.to_string(), "f64[N]");
    let (_, d) = frontend(src);
    assert!(d.is_empty());
}

/// A rank-generic function (`x: f64[...]`) is checked once per tuple of argument ranks: each call
/// gets the result shape of its own instance, in the caller's sizes.
#[test]
fn rank_generic_functions_are_instantiated_per_rank() {
    let src = "fn lap(x: f64[...]) -> f64[...] { return x[..., :-2] - 2.0 * x[..., 1:-1] + x[..., 2:]; }
    fn info(x: f64[...], w: f64[K]) -> (i64, i64, i64) { return (x.ndim, x.shape[-1] + K, len(x)); }
    fn main(n: i64) -> f64 {
        let a = lap(zeros(n));
        let b = lap(zeros(3, n));
        let c = lap(zeros(2, 3, n + 1));
        let d = lap(zeros(4, n));
        let (r, s, l) = info(zeros(2, 5), zeros(7));
        return sum(a) + sum(b) + sum(c) + sum(d);
    }";
    let c = ok(src);
    let t = |s: &str| ty1(&c, src, s);
    assert_eq!(t("lap(zeros(n))"), "f64[n-2]");
    assert_eq!(t("lap(zeros(3, n))"), "f64[3, n-2]");
    assert_eq!(t("lap(zeros(2, 3, n + 1))"), "f64[2, 3, n-1]");
    assert_eq!(t("lap(zeros(4, n))"), "f64[4, n-2]");
    // The generic function's own signature, and one instance per rank (the second 2-d call
    // shares the first one's instance), after the program's functions.
    assert_eq!(c.signatures[0].params[0].1.to_string(), "f64[...]");
    let names: Vec<&str> = c.program.functions.iter().map(|f| f.name.name.as_str()).collect();
    assert_eq!(names, ["lap", "info", "main", "lap.r1", "lap.r2", "lap.r3", "info.r2"]);
    assert_eq!(c.instance_of, [None, None, None, Some(0), Some(0), Some(0), Some(1)]);
    assert_eq!(c.signatures[4].name, "lap");
    assert_eq!(c.signatures[4].params[0].1.to_string(), "f64[x.shape[0], x.shape[1]]");
    assert_eq!(c.signatures[4].results[0].to_string(), "f64[x.shape[0], x.shape[1]-2]");
    assert!(c.program.functions[0].is_rank_generic() && !c.program.functions[4].is_rank_generic());
    // Every expression of an instance has an id of its own.
    assert_eq!(c.types.len(), c.program.num_exprs as usize);
    assert_eq!(c.callees.len(), c.program.num_exprs as usize);
}

/// An error in an instance's body names the instance and the call that made it.
#[test]
fn rank_generic_errors_name_the_instance() {
    let src = "fn f(x: f64[...]) -> f64 { return x[0, 0]; }
fn main() -> f64 { return f(zeros(3, 3)) + f(zeros(3)); }";
    let (c, d) = frontend(src);
    assert!(c.is_none());
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, "E0403");
    assert_eq!(d[0].notes, ["in the instance of `f` for `x: f64[_]`"]);
    let call = src.find("f(zeros(3))").unwrap();
    assert_eq!(d[0].secondary[0].span.start, call);
    let r = d[0].render("t.arr", src, false);
    assert!(r.contains("in the instance of `f` for `x: f64[_]`, called here"), "{r}");
}

#[test]
fn defaults_and_literals_get_param_types() {
    let src = "fn f(a: f64 = 1, b: i64 = -3, c: bool = true, d: f32 = -0.5) -> f64 { return 0; }
    fn g() -> f64 { return f(2, c=false); }";
    let c = ok(src);
    let f = &c.program.functions[0];
    let d0 = f.params[0].default.as_ref().unwrap();
    assert_eq!(c.types[d0.id.0 as usize], Ty::Scalar(DType::F64));
}

fn expr_of(src: &str) -> Expr {
    // `r` bound twice: a tuple bound once would be one name per element (`tuple_names`).
    let prog = format!("fn f(a: f64, b: f64, c: f64, x: f64, p: bool, q: bool) {{ let r = {src}; r = {src}; }}");
    let (p, d) = parse(&prog);
    assert!(d.is_empty(), "{d:?}");
    match &p.unwrap().functions[0].body.stmts[0] {
        Stmt::Let { value, .. } => value.clone(),
        _ => unreachable!(),
    }
}

/// S-expression of an expression for precedence tests.
fn sx(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Float(v) => format!("{v:?}"),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::NoneLit => "None".to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Var(i) => i.name.clone(),
        ExprKind::Binary(op, a, b) => format!("({op:?} {} {})", sx(a), sx(b)),
        ExprKind::Unary(op, a) => format!("({op:?} {})", sx(a)),
        ExprKind::Call { func, args, kwargs } => {
            let mut v: Vec<String> = args.iter().map(sx).collect();
            v.extend(kwargs.iter().map(|(k, e)| format!("{}={}", k.name, sx(e))));
            format!("{}({})", func.name, v.join(", "))
        }
        ExprKind::Subscript { base, index } => format!("{}[{}]", sx(base), index.len()),
        ExprKind::DTypeName(d) => d.name().to_string(),
        ExprKind::Tuple(items) => format!("(tuple {})", items.iter().map(sx).collect::<Vec<_>>().join(" ")),
        ExprKind::List(items) => format!("[{}]", items.iter().map(sx).collect::<Vec<_>>().join(" ")),
        ExprKind::IfElse(parts) => format!("(if {} {} {})", sx(&parts[0]), sx(&parts[1]), sx(&parts[2])),
        ExprKind::BoolOp(op, parts) => {
            format!("({} {})", op.name(), op.operands(parts).into_iter().map(sx).collect::<Vec<_>>().join(" "))
        }
        ExprKind::FString(parts) => {
            let piece = |p: &FPart| match p {
                FPart::Text(t) => format!("{t:?}"),
                FPart::Field { value, spec, .. } => format!("{{{}:{spec}}}", sx(value)),
            };
            format!("(f {})", parts.iter().map(piece).collect::<Vec<_>>().join(" "))
        }
    }
}

#[test]
fn precedence() {
    let cases = [
        ("-x**2", "(Neg (Pow x 2))"),
        (r#"f"a{x + 1:.2f}b{{}}{ c [0] }""#, r#"(f "a" {(Add x 1):.2f} "b{}" {c[1]:})"#),
        ("x**2**3", "(Pow x (Pow 2 3))"),
        ("2**-x", "(Pow 2 (Neg x))"),
        ("a + b * c", "(Add a (Mul b c))"),
        ("a - b - c", "(Sub (Sub a b) c)"),
        ("(a, b + c)", "(tuple a (Add b c))"),
        ("(a)", "a"),
        ("a * b / c % x", "(Rem (Div (Mul a b) c) x)"),
        ("a > 0 & b < 1", "(And (Gt a 0) (Lt b 1))"),
        ("p | q & p", "(Or p (And q p))"),
        ("~p & q", "(And (Not p) q)"),
        ("a + b == c * 2", "(Eq (Add a b) (Mul c 2))"),
        ("(a + b) * c", "(Mul (Add a b) c)"),
        ("-a[0]**2", "(Neg (Pow a[1] 2))"),
        ("sum(a, axis=1) + f64(x)", "(Add sum(a, axis=1) f64(x))"),
        ("zeros(3, dtype=f32)", "zeros(3, dtype=f32)"),
        (".5 + 1e-9 + 2.5e3", "(Add (Add 0.5 1e-9) 2500.0)"),
        // Python's order among `| ^ &`, shifts and `+`; comparisons between `&` and shifts.
        ("a | b ^ c & x", "(Or a (Xor b (And c x)))"),
        ("a ^ b ^ c", "(Xor (Xor a b) c)"),
        ("a << b + c >> x", "(Shr (Shl a (Add b c)) x)"),
        ("a < b << c & p", "(And (Lt a (Shl b c)) p)"),
        ("a // b * c % x", "(Rem (Mul (FloorDiv a b) c) x)"),
        ("-a // b", "(FloorDiv (Neg a) b)"),
        ("a ^ b == c", "(Xor a (Eq b c))"),
        // Python's chained comparisons.
        ("0 < a <= b", "(and (Lt 0 a) (Le a b))"),
        ("a < b == c > x", "(and (and (Lt a b) (Eq b c)) (Gt c x))"),
        // `None`: a new axis in a subscript, left out where it is NumPy's default argument.
        ("clip(a, None, 2)", "np.minimum(a, 2)"),
        ("sum(a, axis=None) + a.sum(None)", "(Add sum(a) .sum(a))"),
        ("sort(a, axis=None)", "sort(np.ravel(a))"),
        // Python's float literals `9.` and `9.e3`, beside the range `0..n` and `x.T`.
        ("9. + 1.e2 * 3.", "(Add 9.0 (Mul 100.0 3.0))"),
        ("f64(2.)", "f64(2.0)"),
        // Attributes and methods (`grammar/src/methods.rs`): calls, `x.shape[k]` is `size(x, axis=k)`.
        ("a.shape[-1] + a.ndim * a.size", "(Add np.size(a, axis=(Neg 1)) (Mul np.ndim(a) np.size(a)))"),
        ("a.sum(axis=0).T", ".T(.sum(a, axis=0))"),
        ("a.astype(f32) ** 2", "(Pow f32(a) 2)"),
        ("-a.max()", "(Neg .max(a))"),
    ];
    for (src, want) in cases {
        assert_eq!(sx(&expr_of(src)), want, "for `{src}`");
    }
}

/// `pi`, `e`, `inf`, `nan` are float literals where no variable of the name is in scope; a
/// parameter, size symbol, `let` or loop variable of that name shadows the constant in its scope only.
#[test]
fn named_constants_and_their_shadowing() {
    assert_eq!(sx(&expr_of("pi * 2.0")), format!("(Mul {:?} 2.0)", std::f64::consts::PI));
    assert_eq!(sx(&expr_of("-inf")), "(Neg inf)");
    let src = "fn f(e: i64, x: f64[inf]) -> f64 {
    let a = e + inf;
    if true { let pi = 3; let b = pi; }
    let c = pi;
    for nan in 0..2 { let d = nan; }
    let g = nan;
    return 0.0;
}";
    let (p, d) = parse(src);
    assert!(d.is_empty(), "{d:?}");
    let mut seen = Vec::new();
    walk_block(&p.unwrap().functions[0].body, &mut |e| match &e.kind {
        ExprKind::Var(i) => seen.push(i.name.clone()),
        ExprKind::Float(v) if !v.is_finite() || *v > 3.0 => seen.push(format!("{v}")),
        _ => {}
    });
    assert_eq!(seen, ["e", "inf", "pi", "3.141592653589793", "nan", "NaN"]);
    // A constant is a weak f64 literal: with an f32 array the result stays f32, as in NumPy 2.
    let c = ok("fn f(x: f32[N]) -> f32[N] { return x * pi; }");
    assert!(c.types.iter().any(|t| t.to_string() == "f32[N]"));
}

/// `9.` is a float, `0..9` a range, `9.T` no float: the lexer splits them as Python would.
#[test]
fn float_literals_with_a_trailing_dot() {
    use arrayc_grammar::lexer::{Lexer, Tok};
    let toks = |s: &str| Lexer::new(s).map(|t| t.map(|(_, t, _)| t)).collect::<Result<Vec<_>, _>>().unwrap();
    assert_eq!(toks("9."), [Tok::Float(9.0)]);
    assert_eq!(toks("9.;"), [Tok::Float(9.0), Tok::Semi]);
    assert_eq!(toks("0..9"), [Tok::Int(Some(0)), Tok::DotDot, Tok::Int(Some(9))]);
    assert_eq!(toks("2.e3 1.5e-1"), [Tok::Float(2000.0), Tok::Float(0.15)]);
    assert_eq!(toks("x[1.]"), [Tok::Ident("x".into()), Tok::LBracket, Tok::Float(1.0), Tok::RBracket]);
    assert_eq!(toks("1.T"), [Tok::Int(Some(1)), Tok::DotT]);
    assert_eq!(toks("x.ndim"), [Tok::Ident("x".into()), Tok::Dot, Tok::Ident("ndim".into())]);
}

/// Method calls resolve to the builtin of their name (never to a function of the program), and
/// each method of NumPy that arrayc lacks, an attribute it lacks, and `len` of a scalar are errors.
#[test]
fn methods_and_attributes() {
    let src = "fn sum2(x: f64[N]) -> f64 { return x.sum(); }
fn f(x: f64[N, M]) -> (f64[M], i64, f64[N]) { return (x.mean(axis=0), x.shape[1] + len(x), zeros(x.shape[0])); }";
    let c = ok(src);
    // A static shape gives the size: `zeros(x.shape[0])` has `x`'s first size, symbolically.
    assert_eq!(ty1(&c, src, "zeros(x.shape[0])"), "f64[N]");
    for (src, code, text) in [
        ("fn f(x: f64[N]) -> f64[N] { return x.sort(); }", "E0207", "`x.sort()` sorts in place and returns None"),
        ("fn f(x: f64[N]) -> i64 { return x.shape; }", "E0207", "`x.shape` is a tuple"),
        ("fn f(x: f64[N]) -> i64 { return x.frobnicate(); }", "E0207", "not an array method"),
        ("fn f(x: f64[N]) -> i64 { return x.dtype; }", "E0207", "arrayc has no type values"),
        ("fn f(x: f64[N]) -> i64 { return x.flags; }", "E0003", "no attribute `flags`"),
        ("fn f(x: f64) -> i64 { return len(x); }", "E0503", "`len` of a f64"),
        ("fn f(x: f64[N]) -> i64 { return x.shape[1]; }", "E0405", ""),
        (
            "fn sort(x: f64[N]) -> f64[N] { return x; }\nfn f(x: f64[N]) -> f64[N] { return x.sort(); }",
            "E0207",
            "a statement, not a value",
        ),
    ] {
        let (_, d) = frontend(src);
        assert!(d.iter().any(|d| d.code == code && d.message.contains(text)), "{src}: {d:?}");
    }
}

/// A tuple assignment is its statements: temporaries for every value, then the assignments in
/// order (Python's semantics), in both spellings, with subscript targets and from a call.
#[test]
fn tuple_assignment_is_temporaries_then_assignments() {
    let src = "fn f(v: f64[3]) { let a = 1; let b = 2; (a, b) = (b, a + 1); a, v[0] = b, 2.0; let (c, e) = (a, b); }";
    let (p, d) = parse(src);
    assert!(d.is_empty(), "{d:?}");
    let stmts = &p.unwrap().functions[0].body.stmts;
    let shape: Vec<String> = stmts
        .iter()
        .map(|s| match s {
            Stmt::Let { names, value, .. } => format!("let {} = {}", names[0].name, sx(value)),
            Stmt::Assign { name, value, .. } => format!("{} = {}", name.name, sx(value)),
            Stmt::SetItem { target, value, .. } => format!("{}[..] = {}", target.name, sx(value)),
            _ => "?".into(),
        })
        .collect();
    let t = |k: usize, o: usize| format!("tuple.{o}.{k}");
    let at = |text: &str| src.find(text).unwrap();
    let (o1, o2, o3) = (at("(a, b) ="), at("a, v[0]"), at("let (c"));
    assert_eq!(
        shape,
        [
            "let a = 1".to_string(),
            "let b = 2".into(),
            format!("let {} = b", t(0, o1)),
            format!("let {} = (Add a 1)", t(1, o1)),
            format!("a = {}", t(0, o1)),
            format!("b = {}", t(1, o1)),
            format!("let {} = b", t(0, o2)),
            format!("let {} = 2.0", t(1, o2)),
            format!("a = {}", t(0, o2)),
            format!("v[..] = {}", t(1, o2)),
            format!("let {} = a", t(0, o3)),
            format!("let {} = b", t(1, o3)),
            format!("let c = {}", t(0, o3)),
            format!("let e = {}", t(1, o3)),
        ]
    );
    expr_ids_are_dense_in(src);
    let (_, d) = parse("fn f() { let a = 1; let b = 2; a, b = 1, 2, 3; }");
    assert_eq!(d[0].code, "E0106", "{d:?}");
}

#[test]
fn expr_ids_are_dense() {
    // Also where the parser rewrites: `x.shape[k]`, `x.astype(d)`, methods, `return (a, b)`.
    let methods = "fn g(x: f64[N]) -> (f32[N], i64) { return (x.astype(f32), x.shape[-1] + x.sum(axis=0).ndim); }";
    let ranges =
        "fn h(n: i64) { for i in range(n) { print(i); } for j in range(1, n) { } for k in range(n, 0, -1) { } }";
    // NumPy's spellings (`np.f(..)`, `np.pi`, `np.float32`, `np.add.at`), chained targets and a
    // positional axis.
    let numpy = "fn k(x: f64[N], m: f64[N, 3], i: i64[2]) -> (f64, f32[N], f64[N]) {
        np.add.at(x, i, 1.0); m[1][2] = 3.0; m[0][1:] += np.pi;
        return (np.sum(x), x.astype(np.float32), np.max(m[:, np.newaxis], -1)[:, 0]); }";
    // And the issue-31 desugarings, which drop expressions: `a = b = e`, `for v in x`, `add.reduce`.
    let issue31 = "fn k(x: f64[N, M], v: i64[N]) -> f64 { let a = b = sum(x); a = b = 1.0; v[0] = v[1] = 2; \
        for r in x { a += add.reduce(r); } for k in [0, 2] { b += multiply.accumulate(x, 1)[k, 0]; } return a + b; }";
    for src in [HEAT, methods, ranges, numpy, issue31] {
        expr_ids_are_dense_in(src);
    }
}

fn expr_ids_are_dense_in(src: &str) {
    let (p, _) = parse(src);
    let p = p.unwrap();
    let mut seen = vec![false; p.num_exprs as usize];
    let mut mark = |e: &Expr| seen[e.id.0 as usize] = true;
    for f in &p.functions {
        walk_block(&f.body, &mut mark);
    }
    for f in &p.functions {
        for prm in &f.params {
            if let Some(d) = &prm.default {
                seen[d.id.0 as usize] = true;
            }
        }
    }
    assert!(seen.iter().all(|s| *s));
}

#[test]
fn statements_parse() {
    let src = "fn f(x: f64[N]) -> (f64[N], i64) {
        let (a, b) = g(x); x[...] = 1.0; x[1:3] += 2.0; x[0] -= 1.0;
        for i in 0..N { x[i] *= 2.0; }
        if b > 0 { print(a, b); } else if b < 0 { return (x, 1); } else { }
        return (x, b);
    }
    fn g(y: f64[N]) -> (f64[N], i64) { return (y, 0); }";
    let c = ok(src);
    assert_eq!(c.signatures.len(), 2);
    assert!(arrayc_grammar::dump_ast(&c.program).contains("SetItem"));
}

#[test]
fn render_and_line_col() {
    let src = "fn f() {\n    let x = y;\n}\n";
    let (c, d) = frontend(src);
    assert!(c.is_none());
    assert_eq!(d[0].code, "E0201");
    assert_eq!(d[0].line_col(src), (2, 13));
    assert_eq!(arrayc_grammar::line_col(src, 0), (1, 1));
    let r = d[0].render("t.arr", src, false);
    assert!(r.contains("E0201") && r.contains("undefined variable `y`") && r.contains("t.arr:2:13"), "{r}");
    assert!(!r.contains('\u{1b}'), "no ANSI escapes without color");
    let rc = d[0].render("t.arr", src, true);
    assert!(rc.contains('\u{1b}'));
}

/// The line index answers exactly as the scan from the file's start, at every byte offset
/// (multi-byte characters, empty lines, a last line without newline, offsets past the end).
#[test]
fn line_index_agrees_with_line_col() {
    let src = "fn f() {\n\n    let é = 1; # ü→\n}\r\nlast";
    let index = arrayc_grammar::LineIndex::new(src);
    for off in 0..src.len() + 3 {
        assert_eq!(index.line_col(off), arrayc_grammar::line_col(src, off), "offset {off}");
    }
    assert_eq!(arrayc_grammar::LineIndex::new("").line_col(0), (1, 1));
}

/// Nesting beyond the limit is E0104 from the parser, before any recursive phase: a long sum, deep
/// calls and deep blocks (each once overflowed the stack of `arrayc check`). The rejection itself
/// needs little stack (it runs on the test thread's 2 MiB); a program at the limit parses and
/// checks on a thread with the drivers' larger stack, as `arrayc` runs the front end.
#[test]
fn nesting_too_deep_is_e0104() {
    use arrayc_grammar::nesting::MAX_NESTING;
    let n = 20_000;
    let sum = format!("fn main(x: f64 = 1.0) -> f64 {{\n    return {};\n}}\n", vec!["x"; n].join(" + "));
    let calls =
        |k: usize| format!("fn main(x: f64 = 1.0) -> f64 {{\n    return {}x{};\n}}\n", "abs(".repeat(k), ")".repeat(k));
    let ifs = format!("fn main(x: f64 = 1.0) {{\n{}print(x);\n{}}}\n", "if x > 0.0 {\n".repeat(n), "}\n".repeat(n));
    for (what, src) in [("sum", &sum), ("calls", &calls(n)), ("ifs", &ifs)] {
        let (p, d) = arrayc_grammar::parse(src);
        assert!(p.is_none(), "{what}");
        assert_eq!(d.len(), 1, "{what}");
        assert_eq!(d[0].code, "E0104", "{what}");
        assert!(d[0].message.contains(&format!("limit {MAX_NESTING}")), "{what}: {}", d[0].message);
        // The rendering quotes no 100 KB line.
        assert!(d[0].render("t.arr", src, false).len() < 1000, "{what}");
    }
    // The function body is level 1 and `return`'s value level 2: `MAX_NESTING - 2` calls put the
    // innermost `x` at level MAX_NESTING.
    let k = MAX_NESTING - 2;
    let (at_limit, over) = (calls(k), calls(k + 1));
    let big_stack = std::thread::Builder::new().stack_size(64 << 20);
    big_stack
        .spawn(move || {
            let (c, d) = frontend(&at_limit);
            assert!(c.is_some(), "{:?}", d.first().map(|d| &d.message));
            assert_eq!(arrayc_grammar::parse(&over).1.first().map(|d| d.code), Some("E0104"));
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn did_you_mean() {
    let src = "fn f() { let delta = 1.0; let y = dleta + 1.0; let z = sqr(y); }";
    let (_, d) = frontend(src);
    assert_eq!(d.len(), 2, "{d:?}");
    assert_eq!(d[0].help.as_deref(), Some("did you mean `delta`?"));
    assert_eq!(d[1].code, "E0202");
    assert_eq!(d[1].help.as_deref(), Some("did you mean `sqrt`?"));
}

/// NumPy's spellings: `np.sum(x)` and `zeros((2, 3))` are accepted; `np` alone, and a size
/// tuple beside other sizes, get a help.
#[test]
fn numpy_spellings_are_taken_or_get_a_help() {
    let (_, d) = frontend(
        "fn f(x: f64[3]) -> (f64, f64[2, 3], f64[2, 3]) { return (np.sum(x), zeros((2, 3)), np.full((2, 3), np.pi)); }",
    );
    assert!(d.is_empty(), "{d:?}");
    let (_, d) = frontend("fn f(x: f64[3]) -> f64 { let m = np; return 0.0; }");
    let np = d.iter().find(|d| d.code == "E0201").expect("`np` is undefined");
    assert!(np.help.as_deref().is_some_and(|h| h.contains("`sum(x)` for `np.sum(x)`")), "{d:?}");
    let (_, d) = frontend("fn f() -> f64[2, 3, 4] { return zeros((2, 3), 4); }");
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, "E0503");
    assert!(d[0].help.as_deref().is_some_and(|h| h.contains("zeros((2, 3))")), "{d:?}");
}

/// A backslash before a character of several bytes in an f-string (found by
/// `random_strings_never_panic`): scanned and escaped by characters, never split.
#[test]
fn fstring_backslash_before_a_wide_character() {
    for src in ["print(f\"\\é\");", "fn f() { print(f\"a\\é{1}\\\u{1F600}\"); }", "f\"\\é", "print(f'''\\é''');"] {
        let (_, d) = frontend(src);
        for x in &d {
            let _ = x.render("f.arr", src, false);
        }
    }
}

#[test]
fn many_errors_reported() {
    let src = "fn f(a: f64[3], b: f64[4]) {
        let x = a + b; let y = x * 2.0; let z = undefined1; let w = z + q;
        if a { } while a > 1.0 { }
    }";
    let (_, d) = frontend(src);
    let codes: Vec<&str> = d.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0401", "E0201", "E0201", "E0302", "E0302"], "{d:?}");
}

/// Reads `tests/malformed/*.arr`: first line `# expect: E0xxx`, and optionally `# at: TEXT` naming
/// the source text the primary span must start at.
#[test]
fn malformed_inputs() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/malformed");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "arr"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "only {} malformed inputs", files.len());
    let mut failures = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let code =
            src.lines().next().and_then(|l| l.strip_prefix("# expect: ")).expect("first line `# expect: E0xxx`").trim();
        let at = src.lines().nth(1).and_then(|l| l.strip_prefix("# at: ")).map(|s| s.to_string());
        let (c, d) = frontend(&src);
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        if c.is_some() {
            failures.push(format!("{name}: accepted"));
            continue;
        }
        let Some(diag): Option<&Diagnostic> = d.iter().find(|x| x.code == code) else {
            failures.push(format!(
                "{name}: expected {code}, got {:?}",
                d.iter().map(|x| (x.code, &x.message)).collect::<Vec<_>>()
            ));
            continue;
        };
        if let Some(at) = at {
            let got = src.get(diag.primary.span.start..).unwrap_or("");
            if !got.starts_with(at.trim_end()) {
                failures.push(format!("{name}: span starts at {:?}, expected {at:?}", &got[..got.len().min(20)]));
            }
        }
        let r = diag.render(&name, &src, false);
        assert!(r.contains(code));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    const TOKENS: &[&str] = &[
        "fn",
        "let",
        "return",
        "for",
        "in",
        "while",
        "break",
        "continue",
        "if",
        "else",
        "print",
        "true",
        "false",
        "newaxis",
        "f64",
        "f32",
        "i64",
        "bool",
        "x",
        "y",
        "N",
        "zeros",
        "sum",
        "f",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ",",
        ";",
        ":",
        "=",
        "==",
        "<",
        "+",
        "-",
        "*",
        "**",
        "/",
        "%",
        "~",
        "&",
        "|",
        "+=",
        "->",
        "..",
        "...",
        "0",
        "1",
        "2.5",
        "-1",
        "axis",
        "dtype",
        "99999999999999999999",
        "@",
        "\n",
        "#c\n",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn random_strings_never_panic(s in "\\PC{0,80}") {
            let (_, d) = frontend(&s);
            for x in &d { let _ = x.render("f.arr", &s, false); }
        }

        #[test]
        fn token_soup_never_panics(toks in proptest::collection::vec(proptest::sample::select(TOKENS), 0..60)) {
            let s = toks.join(" ");
            let (_, d) = frontend(&s);
            for x in &d { let _ = x.render("f.arr", &s, false); }
        }

        #[test]
        fn mutated_programs_never_panic(cut in 0usize..600, ins in proptest::sample::select(TOKENS)) {
            let mut s = HEAT.to_string();
            let k = cut.min(s.len());
            if s.is_char_boundary(k) { s.insert_str(k, ins); }
            let (_, d) = frontend(&s);
            for x in &d { let _ = x.render("f.arr", &s, false); }
        }
    }
}
