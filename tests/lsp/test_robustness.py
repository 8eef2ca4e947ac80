"""`arrayc lsp` never crashes: garbage JSON-RPC and bodies that are not UTF-8 (over raw stdio, as no
well-behaved client sends them), every prefix-typing of the malformed inputs and examples (the
front end's fuzz corpus) as incremental edits, and a huge file."""
import asyncio
import json
import queue
import subprocess
import threading
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from conftest import ARRAYC, ROOT, change, diagnostics_of, open_doc, utf16_offset

CORPUS = sorted((ROOT / "grammar" / "tests" / "malformed").glob("*.arr")) + sorted((ROOT / "examples").glob("*.arr"))


class RawServer:
    """`arrayc lsp` over pipes, framed by hand, so that anything can be sent."""

    def __init__(self):
        self.proc = subprocess.Popen([ARRAYC, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.messages = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while (line := out.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if line == b"" or length is None:
                return
            self.messages.put(json.loads(out.read(length)))

    def send_bytes(self, body: bytes, header: bytes | None = None):
        self.proc.stdin.write(header if header is not None else b"Content-Length: %d\r\n\r\n" % len(body))
        self.proc.stdin.write(body)
        self.proc.stdin.flush()

    def send(self, msg: dict):
        self.send_bytes(json.dumps({"jsonrpc": "2.0", **msg}).encode())

    def wait_for(self, pred, timeout=10):
        while True:
            m = self.messages.get(timeout=timeout)
            if pred(m):
                return m

    def response(self, id):
        return self.wait_for(lambda m: m.get("id") == id and "method" not in m)

    def close(self):
        self.send({"id": 9999, "method": "shutdown"})
        self.response(9999)
        self.send({"method": "exit"})
        assert self.proc.wait(timeout=10) == 0
        return self.proc.stderr.read().decode()


def test_garbage_json_rpc_and_invalid_utf8():
    s = RawServer()
    # Garbage before the handshake: a header without a body, a body that is not JSON, a response
    # to nothing, a request before `initialize` (answered: not initialized).
    s.send_bytes(b"this is not a header\r\n\r\n", header=b"")
    s.send_bytes(b"{not json")
    s.send({"id": 40, "result": None})
    s.send({"id": 41, "method": "textDocument/hover", "params": {}})
    assert s.response(41)["error"]["code"] == -32002
    # The handshake, and requests before the `initialized` notification (which comes later).
    s.send({"id": 1, "method": "initialize", "params": {"capabilities": {}}})
    assert "capabilities" in s.response(1)["result"]
    # Not JSON; JSON but not JSON-RPC; a request whose method is not a string (answered: it has an
    # id); a header without a length; a length past the end of the message; a truncated body.
    s.send_bytes(b"\x00\xff{{{")
    s.send_bytes(b'{"hello": "world"}')
    s.send({"id": 2, "method": 5})
    assert s.response(2)["error"]["code"] == -32600
    s.send_bytes(b"", header=b"Content-Type: text/plain\r\n\r\n")
    # Well-formed requests with bad parameters, unknown methods, unknown documents.
    s.send({"id": 3, "method": "textDocument/hover", "params": {"bogus": True}})
    assert s.response(3)["error"]["code"] == -32602
    s.send({"id": 4, "method": "arrayc/noSuchThing", "params": {}})
    assert s.response(4)["error"]["code"] == -32601
    s.send({"id": 5, "method": "textDocument/hover",
            "params": {"textDocument": {"uri": "file:///nowhere.arr"}, "position": {"line": 0, "character": 0}}})
    assert s.response(5)["result"] is None
    s.send({"method": "textDocument/didChange", "params": {"textDocument": {"uri": "file:///nowhere.arr", "version": 2},
                                                            "contentChanges": [{"text": "x"}]}})
    s.send({"method": "initialized", "params": {}})
    # A document that is not UTF-8: decoded lossily, the lexer reports the replacement character.
    doc = b'{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///bad.arr",' \
          b'"languageId":"arrayc","version":1,"text":"fn f() { let x = 1 \xff\xfe 2; }"}}}'
    s.send_bytes(doc)
    published = s.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]
    assert published["uri"] == "file:///bad.arr" and published["diagnostics"][0]["code"] == "E0001"
    # Still serving.
    s.send({"id": 6, "method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": "file:///bad.arr"}}})
    assert "result" in s.response(6)
    log = s.close()
    assert "not JSON-RPC" in log and "without a valid Content-Length" in log


def check_ranges(text: str, diags):
    for d in diags:
        for p in (d.range.start, d.range.end):
            assert 0 <= p.line <= text.count("\n")
            assert utf16_offset(text, p.line, p.character) <= len(text)


async def test_typing_the_corpus(client: LanguageClient):
    """Every malformed input and example typed in about 25 incremental edits (all the half-typed
    programs in between), with hover and inlay hints asked at each step: every version gets
    diagnostics with ranges inside the text, and every request an answer."""
    for k, path in enumerate(CORPUS):
        text = path.read_text()
        uri = f"file:///tmp/typing/{k}-{path.name}"
        await open_doc(client, uri, "")
        step = max(1, len(text) // 25)
        typed = ""
        for version, i in enumerate(range(0, len(text), step), start=2):
            chunk = text[i:i + step]
            end = types.Position(line=typed.count("\n"), character=len(typed) - (typed.rfind("\n") + 1))
            typed += chunk
            diags = await change(client, uri, version, [(types.Range(start=end, end=end), chunk)])
            check_ranges(typed, diags)
            await client.text_document_hover_async(types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri), position=end))
            await client.text_document_inlay_hint_async(types.InlayHintParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=types.Position(line=0, character=0), end=end)))
        assert typed == text
        client.text_document_did_close(types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))


async def test_huge_file(client: LanguageClient):
    """A 100,000-line program (about 3 MB) is analysed, and an edit to it too."""
    lines = ["fn big(a: f64[N]) -> f64[N] {", "    let x0 = a;"]
    lines += [f"    let x{i} = x{i - 1} * 0.5 + a;" for i in range(1, 100_000)]
    lines += ["    return x99999;", "}"]
    text = "\n".join(lines) + "\n"
    uri = "file:///tmp/huge.arr"
    assert await asyncio.wait_for(open_doc(client, uri, text), 60) == []
    pos = types.Position(line=len(lines) - 2, character=len("    return "))
    end = types.Position(line=pos.line, character=pos.character + len("x99999"))
    [d] = await asyncio.wait_for(change(client, uri, 2, [(types.Range(start=pos, end=end), "zzz")]), 60)
    assert d.code == "E0201" and d.range.start == pos


async def test_one_huge_line(client: LanguageClient):
    """A 20,000-statement program on one line (about 500 KB): diagnostics, and a shape hint for
    every binding, come back in time."""
    text = "fn line(a: f64[N]) -> f64[N] { let x0 = a; " + "".join(
        f"let x{i} = x{i - 1} + a; " for i in range(1, 20_000)) + "return x19999; }"
    uri = "file:///tmp/line.arr"
    assert await asyncio.wait_for(open_doc(client, uri, text), 60) == []
    hints = await asyncio.wait_for(client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=1, character=0)))), 60)
    shapes = [h for h in hints if h.kind == types.InlayHintKind.Type]
    assert len(shapes) == 20_000 and shapes[-1].label == ": f64[N]"
    assert shapes[-1].position.character == text.index("x19999 =") + len("x19999")


async def test_hover_on_a_200000_line_document_of_gathers(client: LanguageClient):
    """A 200,000-line document of statements that gather and scatter (about 9 MB). Its lowering
    takes seconds (once hours: it was quadratic, and hovers waited behind it): a hover is answered
    from the checker's analysis while the lowering runs on its own thread; an edit that breaks a
    name is diagnosed without waiting for the stale lowering; the fixed version's diagnostics,
    lowering included, follow."""
    lines = ["fn main() -> f64 {", "    let a = zeros(8);"]
    lines += ["    a[arange(3)] = a[arange(3)[::-1]] + 1.0;"] * 200_000
    lines += ["    return sum(a);", "}"]
    text = "\n".join(lines) + "\n"
    uri = "file:///tmp/gathers.arr"
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="arrayc", version=1, text=text)))
    hover = await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=1, character=9))), 30)
    assert "let a: f64[8]" in hover.contents.value
    at = types.Position(line=len(lines) - 2, character=len("    return sum("))
    name = types.Range(start=at, end=types.Position(line=at.line, character=at.character + 1))

    def edit(version: int, new: str):
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=name, text=new)]))

    edit(2, "b")
    [d] = await diagnostics_of(client, uri, 2, timeout=60)
    assert d.code == "E0201" and d.range.start == at
    edit(3, "a")
    assert await diagnostics_of(client, uri, 3, timeout=180) == []
