"""End-to-end tests of `arrayc lsp` through a real LSP client (pytest-lsp over stdio): diagnostics on
the examples and on every malformed input of the front-end tests, checked against `arrayc check`;
incremental and full changes; hover, definition, references, symbols; inlay hints checked against
`arrayc fuse-report --format json`; code lenses and their commands checked against `arrayc run`."""
import asyncio
import json
import re
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import ROOT, arrayc, change, diagnostics_of, open_doc, position_of, uri_of, utf16_offset

MALFORMED = sorted((ROOT / "grammar" / "tests" / "malformed").glob("*.arr"))
EXAMPLES = sorted((ROOT / "examples").glob("*.arr")) + sorted((ROOT / "examples" / "features").glob("*.arr"))


def check_reference(path: Path):
    """`arrayc check`'s diagnostics: (code, message, line, column), positions 1-based in characters."""
    out = arrayc("check", str(path)).stderr
    heads = re.findall(r"^\[(E\d{4})\] (?:Error|Warning): (.*)$", out, re.M)
    # With source excerpts `,-[ FILE:L:C ]`; without (lines longer than 400 bytes) `  at FILE:L:C: ...`.
    places = re.findall(r"^(?:\s*,-\[ .*:(\d+):(\d+) \]|  at [^\n]*?:(\d+):(\d+): .*)$", out, re.M)
    places = [(a or c, b or d) for a, b, c, d in places]
    assert len(heads) == len(places), out
    return [(c, m, int(l), int(k)) for (c, m), (l, k) in zip(heads, places)]


def lsp_position_to_line_col(text: str, pos: types.Position):
    """1-based line and character column of an LSP position, computed from the text in Python."""
    i = utf16_offset(text, pos.line, pos.character)
    return pos.line + 1, i - (text.rfind("\n", 0, i) + 1) + 1


async def test_capabilities(client: LanguageClient):
    caps = client.server_capabilities
    assert caps.hover_provider and caps.definition_provider and caps.references_provider
    assert caps.document_symbol_provider and caps.inlay_hint_provider and caps.code_lens_provider
    assert caps.text_document_sync == types.TextDocumentSyncKind.Incremental


@pytest.mark.parametrize("path", MALFORMED, ids=lambda p: p.stem)
async def test_malformed_inputs_match_arrayc_check(client: LanguageClient, path: Path):
    """Every malformed input gives exactly `arrayc check`'s diagnostics: codes, messages and primary
    positions; the expected code's range starts at the `# at:` text."""
    text = path.read_text()
    diags = await open_doc(client, uri_of(path), text)
    expect = text.splitlines()[0].removeprefix("# expect: ").strip()
    reference = check_reference(path)
    got = [(d.code, d.message.split("\n")[0], *lsp_position_to_line_col(text, d.range.start)) for d in diags]
    assert [(c, l, k) for c, _, l, k in got] == [(c, l, k) for c, _, l, k in reference]
    for (_, m, _, _), (_, ref_m, _, _) in zip(got, reference):
        assert m.startswith(ref_m)
    assert all(d.source == "arrayc" and d.severity == types.DiagnosticSeverity.Error for d in diags)
    d = next(d for d in diags if d.code == expect)
    at = text.splitlines()[1].removeprefix("# at: ") if text.splitlines()[1].startswith("# at: ") else None
    if at is not None:
        assert text[utf16_offset(text, d.range.start.line, d.range.start.character):].startswith(at.rstrip())


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
async def test_examples_have_no_diagnostics(client: LanguageClient, path: Path):
    assert arrayc("check", str(path)).returncode == 0
    assert await open_doc(client, uri_of(path), path.read_text()) == []


async def test_related_information_help_and_notes(client: LanguageClient):
    """A diagnostic with secondary labels has them as related information; help and notes are in
    the message (E0313: the function's name is the related place, the fix is `return`)."""
    text = "fn f(x: f64) -> f64 {\n    let y = x;\n}\n"
    uri = "file:///tmp/related.arr"
    [d] = await open_doc(client, uri, text)
    assert d.code == "E0313"
    [rel] = d.related_information
    assert rel.location.uri == uri and rel.location.range.start == position_of(text, "f(")
    assert "declared to return f64" in rel.message
    assert "\nhelp: end the body with a `return`" in d.message


async def test_utf16_ranges(client: LanguageClient):
    """Columns count UTF-16 code units: after `𝑥` (two units) and `é` (one) in a comment-free line."""
    text = "fn f() { let é𝑥 = 1; }\n"
    uri = "file:///tmp/utf16.arr"
    diags = await open_doc(client, uri, text)
    d = diags[0]
    assert d.code == "E0001"
    assert d.range.start == position_of(text, "é")
    assert text[utf16_offset(text, 0, d.range.start.character)] == "é"
    # The end is in UTF-16 units too: exactly after the characters the span covers.
    covered = text[utf16_offset(text, 0, d.range.start.character):utf16_offset(text, 0, d.range.end.character)]
    assert covered and set(covered) <= {"é", "𝑥"}


async def test_incremental_and_full_changes_clear_diagnostics(client: LanguageClient):
    path = ROOT / "examples" / "heat.arr"
    text = path.read_text()
    uri = "file:///tmp/heat.arr"
    assert await open_doc(client, uri, text) == []
    # Rename one use of `work` to `wrok`: E0201 exactly there, with a "did you mean" fix.
    pos = position_of(text, "center[:] = work") 
    pos = types.Position(line=pos.line, character=pos.character + len("center[:] = "))
    end = types.Position(line=pos.line, character=pos.character + 4)
    [d] = await change(client, uri, 2, [(types.Range(start=pos, end=end), "wrok")])
    assert d.code == "E0201" and d.range == types.Range(start=pos, end=end)
    assert "help: " in d.message and "`work`" in d.message
    # Two edits in one change: fix the typo, then break line 1 of the body; then a full replacement.
    fixed_end = types.Position(line=pos.line, character=pos.character + 4)
    diags = await change(client, uri, 3, [
        (types.Range(start=pos, end=fixed_end), "work"),
        (types.Range(start=position_of(text, "let grid"), end=position_of(text, "let grid")), "$"),
    ])
    assert [d.code for d in diags] == ["E0001"]
    assert await change(client, uri, 4, [(None, text)]) == []


async def test_documents_are_independent(client: LanguageClient):
    bad = "fn f() -> f64 { return y; }\n"
    good = (ROOT / "examples" / "synthetic.arr").read_text()
    assert [d.code for d in await open_doc(client, "file:///tmp/a/bad.arr", bad)] == ["E0201"]
    assert await open_doc(client, "file:///tmp/b/good.arr", good) == []
    assert [d.code for d in client.diagnostics["file:///tmp/a/bad.arr"]] == ["E0201"]
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri="file:///tmp/a/bad.arr")))
    assert await diagnostics_of(client, "file:///tmp/a/bad.arr", None) == []
    assert list(client.diagnostics["file:///tmp/b/good.arr"]) == []


async def hover_at(client, uri, pos):
    h = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=pos))
    return h.contents.value if h else None


async def test_hover(client: LanguageClient):
    path = ROOT / "examples" / "heat.arr"
    text = path.read_text()
    uri = uri_of(path)
    await open_doc(client, uri, text)
    grid = await hover_at(client, uri, position_of(text, "grid = zeros"))
    assert "let grid: f64[n+2, n+2]" in grid
    center = await hover_at(client, uri, position_of(text, "center[:]"))
    assert "let center: f64[n, n]" in center and "view of `grid`" in center
    param = await hover_at(client, uri, position_of(text, "epsilon: f64"))
    assert "param epsilon: f64" in param
    zeros = await hover_at(client, uri, position_of(text, "zeros("))
    # The builtin's row of docs/language.md, and the call's type here.
    assert "new array of shape" in zeros and "f64[n+2, n+2]" in zeros
    func = await hover_at(client, uri, position_of(text, "heat("))
    assert "fn heat(n: i64 = 100, epsilon: f64 = 0.005, max_iter: i64 = 1000) -> (f64[n+2, n+2], i64, f64)" in func
    # An expression: the subscript's type and that it is a view.
    sub = await hover_at(client, uri, position_of(text, ":-2, 1:-1]"))
    assert "f64[n, n]" in sub and "view of `grid`" in sub


async def test_definition_references_symbols(client: LanguageClient):
    path = ROOT / "examples" / "heat.arr"
    text = path.read_text()
    uri = uri_of(path)
    await open_doc(client, uri, text)
    use = position_of(text, "center[:] = work")
    loc = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=use))
    assert loc.uri == uri and loc.range.start == position_of(text, "center = grid")
    refs = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=use,
        context=types.ReferenceContext(include_declaration=True)))
    assert len(refs) == len(re.findall(r"\bcenter\b", text)) - text.count("# ") * 0
    n_refs = await client.text_document_references_async(types.ReferenceParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position_of(text, "n: i64"),
        context=types.ReferenceContext(include_declaration=False)))
    code = "\n".join(l for l in text.splitlines() if not l.startswith("#"))
    assert len(n_refs) == len(re.findall(r"\bn\b", code)) - 1
    [heat] = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert heat.name == "heat" and heat.kind == types.SymbolKind.Function
    names = [c.name for c in heat.children]
    assert names == ["n", "epsilon", "max_iter", "grid", "center", "north", "south", "west", "east", "delta", "it",
                     "work"]
    assert next(c for c in heat.children if c.name == "grid").detail == "f64[n+2, n+2]"


async def inlay_hints(client, uri, text):
    lines = text.count("\n") + 1
    return await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=lines, character=0))))


async def fusion_hints(client, uri, text, timeout=20.0):
    """The fusion hints by line, once the background fusion pass has delivered them."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        hints = await inlay_hints(client, uri, text)
        fusion = {h.position.line + 1: h.label for h in hints if h.label.startswith("▸")}
        if fusion:
            return fusion
        await asyncio.sleep(0.05)
    raise AssertionError("no fusion hints arrived")


def expected_fusion_hints(path: Path, *flags: str):
    """The fusion hint of each source line from `arrayc fuse-report --format json` (the reference):
    the kernels (blocks with a computation) holding that line's operations, and the arrays
    contracted in them."""
    report = json.loads(arrayc("fuse-report", "--format", "json", *flags, str(path)).stdout)
    expected = {}
    for r in report["regions"]:
        ops = r["ops"]
        kernels = [b for b in r["blocks"] if any(ops[i]["name"] not in ("new", "del", "sync") for i in b)]
        lines = {ops[i]["line"] for b in kernels for i in b}
        for line in lines:
            mine = [k for k, b in enumerate(kernels) if any(ops[i]["line"] == line for i in b)]
            contracted = sorted({n for k in mine for i in kernels[k] for n in ops[i]["new"] if n in r["contracted"]})
            named = [c for c in contracted if not c.startswith("%")]
            unnamed = len(contracted) - len(named)
            which = f"kernel {mine[0] + 1}" if len(mine) == 1 else "kernels " + ", ".join(str(k + 1) for k in mine)
            label = f"▸ {which} of {len(kernels)}"
            if contracted:
                label += " · contracted: " + ", ".join(named)
                if unnamed:
                    label += (" + " if named else "") + f"{unnamed} temporar{'y' if unnamed == 1 else 'ies'}"
            expected[line] = label
    return expected


async def test_shape_and_fusion_hints(client: LanguageClient):
    path = ROOT / "examples" / "synthetic.arr"
    text = path.read_text()
    uri = uri_of(path)
    await open_doc(client, uri, text)
    hints = await inlay_hints(client, uri, text)
    shapes = {text.splitlines()[h.position.line].strip(): h.label for h in hints if h.kind == types.InlayHintKind.Type}
    assert shapes["let t = a * b;"] == ": f64[4]"
    assert shapes["let d = zeros(5);"] == ": f64[5]"
    fusion = await fusion_hints(client, uri, text)
    expected = expected_fusion_hints(path)
    assert fusion == {line: expected[line] for line in fusion}
    assert fusion[15] == "▸ kernel 3 of 4 · contracted: a, b"  # `let t = a * b;`: a and b never reach memory
    # Every statement line with a computation has its hint.
    assert set(fusion) == set(expected)


async def test_fusion_setting_changes_hints(client: LanguageClient):
    path = ROOT / "examples" / "heat.arr"
    text = path.read_text()
    uri = uri_of(path)
    await open_doc(client, uri, text)
    assert await fusion_hints(client, uri, text) == expected_fusion_hints(path)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"arrayc": {"fusion": {"algorithm": "singleton", "costModel": "max-locality"}}}))
    expected = expected_fusion_hints(path, "--fuse", "singleton", "--cost", "max-locality")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 20
    while (got := await fusion_hints(client, uri, text)) != expected and loop.time() < deadline:
        await asyncio.sleep(0.05)
    assert got == expected
    assert got[21].startswith("▸ kernels 1, 2, 3")


async def execute(client, uri, command, function):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=command, arguments=[uri, function]))


async def test_code_lenses_and_commands(client: LanguageClient):
    path = ROOT / "examples" / "synthetic.arr"
    text = path.read_text()
    uri = uri_of(path)
    await open_doc(client, uri, text)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    titles = [(text.splitlines()[l.range.start.line].split("(")[0], l.command.title) for l in lenses]
    assert titles == [("fn synthetic", "fuse-report"), ("fn synthetic", "▶ run with defaults"),
                      ("fn synthetic_nonzero", "fuse-report"), ("fn synthetic_nonzero", "▶ run with defaults")]
    report = await execute(client, uri, "arrayc.fuseReport", "synthetic_nonzero")
    assert report["ok"]
    reference = arrayc("fuse-report", "--entry", "synthetic_nonzero", str(path)).stdout
    # The same report except for the search time.
    strip = lambda s: re.sub(r"in [0-9.]+ ms", "", s).strip()
    assert strip(report["output"]) == strip(reference)
    assert client.messages[-1].type == types.MessageType.Info and "optimality proven" in client.messages[-1].message
    run = await execute(client, uri, "arrayc.run", "synthetic_nonzero")
    assert run["ok"] and run["output"] == arrayc("run", "--entry", "synthetic_nonzero", str(path)).stdout


async def test_runs_are_bounded_and_cancelled(client: LanguageClient):
    slow = "fn spin(n: i64 = 1000000000) -> i64 {\n    let s = 0;\n    for i in 0..n {\n        s += i;\n    }\n    return s;\n}\n"
    uri = "file:///tmp/spin.arr"
    await open_doc(client, uri, slow)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"run": {"timeoutMs": 300}}))
    run = await execute(client, uri, "arrayc.run", "spin")
    assert not run["ok"] and "time limit" in run["output"]
    assert client.messages[-1].type == types.MessageType.Error
    # A change of the document cancels a run in flight.
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"run": {"timeoutMs": 60000}}))
    task = asyncio.ensure_future(execute(client, uri, "arrayc.run", "spin"))
    await asyncio.sleep(0.3)
    await change(client, uri, 2, [(None, slow + "\n")])
    run = await asyncio.wait_for(task, 10)
    assert not run["ok"] and "cancelled" in run["output"]
    # A memory limit too small for the program's arrays is the driver's error, not a crash.
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"run": {"maxMemory": "1KiB"}}))
    big = "fn big() -> f64[1000, 1000] {\n    return ones(1000, 1000);\n}\n"
    await open_doc(client, "file:///tmp/big.arr", big)
    run = await execute(client, "file:///tmp/big.arr", "arrayc.run", "big")
    assert not run["ok"] and "exceeds the memory limit of 1024 bytes" in run["output"]


async def test_types_while_the_file_has_errors(client: LanguageClient):
    """A type error leaves the rest typed: hover and shape hints go on, fusion hints stop (the
    fusion pass runs on programs without errors only)."""
    clean = (ROOT / "examples" / "heat.arr").read_text()
    text = clean.replace("center[:] = work", "center[:] = wrok")
    uri = "file:///tmp/errors/heat.arr"
    assert await open_doc(client, uri, clean) == []
    assert await fusion_hints(client, uri, clean)
    [d] = await change(client, uri, 2, [(None, text)])
    assert d.code == "E0201"
    assert "let center: f64[n, n]" in await hover_at(client, uri, position_of(text, "center[:]"))
    hints = await inlay_hints(client, uri, text)
    assert ": f64[n+2, n+2]" in [h.label for h in hints]
    assert not any(h.label.startswith("▸") for h in hints)


async def test_rank_generic_functions(client: LanguageClient):
    """A call of a rank-generic function goes to its definition (not to the instance the checker
    made for the call's ranks), the call's type is the instance's result in the caller's sizes,
    and neither the instances nor the generic function (no entry) show as functions of their own."""
    text = ("fn lap(x: f64[...]) -> f64[...] {\n    return x[..., :-2] - 2.0 * x[..., 1:-1] + x[..., 2:];\n}\n"
            "fn main(n: i64 = 6) -> f64 {\n    let y = lap(zeros(n, n));\n    let z = lap(zeros(n));\n"
            "    return sum(y) + sum(z);\n}\n")
    uri = "file:///tmp/generic/prog.arr"
    assert await open_doc(client, uri, text) == []
    loc = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=position_of(text, "lap(zeros(n))")))
    assert loc.uri == uri and loc.range.start == position_of(text, "lap(x")
    assert "let y: f64[n, n-2]" in await hover_at(client, uri, position_of(text, "y = lap"))
    assert "let z: f64[n-2]" in await hover_at(client, uri, position_of(text, "z = lap"))
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert [s.name for s in symbols] == ["lap", "main"]
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert {text.splitlines()[l.range.start.line].split("(")[0] for l in lenses} == {"fn main"}
