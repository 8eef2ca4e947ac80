"""One scripted run through a real editor: Neovim's built-in LSP client (Debian 12's `neovim`,
0.7), configured by docs/editors/arrayc.lua as docs/editors.md says, starts `arrayc lsp`, opens a
broken example and a clean one; the diagnostics and inlay hints the editor received are checked
against `arrayc check` and `arrayc fuse-report`. Skipped, saying what to install, where Neovim is
absent."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ARRAYC, ROOT, arrayc
from test_lsp import expected_fusion_hints

NVIM = shutil.which("nvim")


@pytest.mark.skipif(NVIM is None, reason="Neovim is not installed: `apt-get install neovim` (Debian 12: 0.7) "
                                        "to run the editor test")
def test_neovim_shows_diagnostics_and_hints(tmp_path: Path):
    broken = tmp_path / "heat.arr"
    broken.write_text((ROOT / "examples" / "heat.arr").read_text().replace("center[:] = work", "center[:] = wrok"))
    clean = tmp_path / "synthetic.arr"
    shutil.copy(ROOT / "examples" / "synthetic.arr", clean)
    out = tmp_path / "editor.json"
    env = dict(os.environ, ARRAYC_TEST_BROKEN=str(broken), ARRAYC_TEST_CLEAN=str(clean), ARRAYC_TEST_OUT=str(out))
    subprocess.run([NVIM, "--headless", "--clean", "--cmd", f"let g:arrayc_path = '{ARRAYC}'",
                    "-u", str(ROOT / "docs" / "editors" / "arrayc.lua"),
                    "-c", f"luafile {Path(__file__).with_name('neovim_session.lua')}"],
                   env=env, timeout=90, check=True, stdin=subprocess.DEVNULL, capture_output=True, cwd=tmp_path)
    got = json.loads(out.read_text())
    assert got["diagnostics_arrived"], "Neovim received no diagnostics within 20 s"
    [d] = got["diagnostics"]
    reference = arrayc("check", str(broken)).stderr
    assert "[E0201] Error: undefined variable `wrok`" in reference
    assert f"heat.arr:{d['lnum'] + 1}:{d['col'] + 1} ]" in reference
    assert d["code"] == "E0201" and d["source"] == "arrayc" and d["severity"] == 1
    assert d["message"].startswith("undefined variable `wrok`") and "help: did you mean `work`?" in d["message"]
    assert (d["end_lnum"], d["end_col"]) == (d["lnum"], d["col"] + len("wrok"))
    assert got["hints_arrived"], "Neovim received no fusion hints within 20 s"
    fusion = expected_fusion_hints(clean)
    for line, text in got["hints"].items():
        labels = text.split("   ")
        if int(line) in fusion:
            assert fusion[int(line)] in labels
    assert {int(line) for line, text in got["hints"].items() if "▸" in text} == set(fusion)
    assert got["hints"]["15"] == ": f64[4]   " + fusion[15]
