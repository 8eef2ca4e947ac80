"""pytest-lsp set-up for tests/lsp: the `client` fixture starts `arrayc lsp` (the binary named by
$ARRAYC, else target/release/arrayc) and initializes a session; helpers open documents and wait
for what the server sends."""
import asyncio
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pygls.protocol import default_converter

ROOT = Path(__file__).resolve().parents[2]
ARRAYC = os.environ.get("ARRAYC", str(ROOT / "target" / "release" / "arrayc"))
# Code-lens runs use a kernel cache of the suite's own (removed at exit), not the user's.
_CACHE = tempfile.mkdtemp(prefix="arrayc-lsp-test-cache-")
os.environ.setdefault("ARRAYC_CACHE_DIR", _CACHE)
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)

if not os.access(ARRAYC, os.X_OK):
    raise pytest.UsageError(f"{ARRAYC} not found: build it with `cargo build --release -p arrayc-tools` (or `make build`)")


def make_client() -> LanguageClient:
    """pytest-lsp's test client, which also records every publishDiagnostics by (uri, version) in
    `published` (waiting for the next notification can miss one that arrives first) and accepts
    inlay-hint refresh requests."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = {}

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams):
        client.diagnostics[params.uri] = params.diagnostics
        client.published[(params.uri, params.version)] = list(params.diagnostics)

    def refresh(client: LanguageClient, params):
        return None

    features = {**DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish,
                types.WORKSPACE_INLAY_HINT_REFRESH: refresh}
    register_lsp_features(client, features)
    return client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[ARRAYC, "lsp"], client_factory=make_client))
async def client(lsp_client: LanguageClient):
    """A session with inlay-hint refresh support and the default settings."""
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(
                workspace=types.WorkspaceClientCapabilities(
                    inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True)
                ),
                window=types.WindowClientCapabilities(show_message=types.ShowMessageRequestClientCapabilities()),
            ),
            root_uri=ROOT.as_uri(),
        )
    )
    lsp_client.server_capabilities = result.capabilities
    yield
    await lsp_client.shutdown_session()


def uri_of(path: Path) -> str:
    return Path(path).resolve().as_uri()


async def open_doc(client: LanguageClient, uri: str, text: str, version: int = 1):
    """Opens a document and returns the diagnostics the server publishes for it."""
    client.published.pop((uri, version), None)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="arrayc", version=version, text=text)))
    return await diagnostics_of(client, uri, version)


async def diagnostics_of(client: LanguageClient, uri: str, version: int, timeout: float = 10.0):
    """Waits for the diagnostics of `version` of `uri`."""
    async def wait():
        while (uri, version) not in client.published:
            await asyncio.sleep(0.002)
        return client.published[(uri, version)]
    return await asyncio.wait_for(wait(), timeout)


async def change(client: LanguageClient, uri: str, version: int, changes):
    """Sends one didChange with `changes` (a list of (range or None, text)) and returns the
    diagnostics of the new version."""
    events = [
        types.TextDocumentContentChangePartial(range=r, text=t) if r is not None
        else types.TextDocumentContentChangeWholeDocument(text=t)
        for r, t in changes
    ]
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version), content_changes=events))
    return await diagnostics_of(client, uri, version)


def utf16_offset(text: str, line: int, character: int) -> int:
    """The index in `text` (a Python str, code points) of an LSP position (UTF-16 columns)."""
    lines = text.split("\n")
    start = sum(len(l) + 1 for l in lines[:line])
    units = 0
    for i, ch in enumerate(lines[line]):
        if units >= character:
            return start + i
        units += 2 if ord(ch) > 0xFFFF else 1
    return start + len(lines[line])


def position_of(text: str, needle: str, nth: int = 0) -> types.Position:
    """The LSP position (UTF-16 columns) of the `nth` occurrence of `needle` in `text`."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    line = text.count("\n", 0, i)
    col = i - (text.rfind("\n", 0, i) + 1)
    before = text[i - col:i]
    return types.Position(line=line, character=sum(2 if ord(c) > 0xFFFF else 1 for c in before))


def arrayc(*args: str) -> subprocess.CompletedProcess:
    """Runs the driver (the independent reference for what the server reports)."""
    return subprocess.run([ARRAYC, *args], capture_output=True, text=True, timeout=120)
