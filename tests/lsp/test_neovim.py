"""One scripted run through a real editor: Neovim's built-in LSP client (Debian 12's `neovim`,
0.7) starts `arrayc lsp`, opens a broken example, and the diagnostics the editor received are
checked against `arrayc check`. Skipped, saying what to install, where Neovim is absent."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ARRAYC, ROOT, arrayc

NVIM = shutil.which("nvim")


@pytest.mark.skipif(NVIM is None, reason="Neovim is not installed: `apt-get install neovim` (Debian 12: 0.7) "
                                        "to run the editor test")
def test_neovim_receives_the_diagnostics(tmp_path: Path):
    broken = tmp_path / "heat.arr"
    broken.write_text((ROOT / "examples" / "heat.arr").read_text().replace("center[:] = work", "center[:] = wrok"))
    out = tmp_path / "diagnostics.json"
    env = dict(os.environ, ARRAYC=ARRAYC, ARRAYC_TEST_FILE=str(broken), ARRAYC_TEST_OUT=str(out))
    subprocess.run([NVIM, "--headless", "--clean", "-u", str(Path(__file__).with_name("neovim_diagnostics.vim"))],
                   env=env, timeout=60, check=True, stdin=subprocess.DEVNULL, capture_output=True)
    got = json.loads(out.read_text())
    assert got["waited"], "Neovim received no diagnostics within 20 s"
    [d] = got["diagnostics"]
    reference = arrayc("check", str(broken)).stderr
    assert "[E0201] Error: undefined variable `wrok`" in reference
    assert f"heat.arr:{d['lnum'] + 1}:{d['col'] + 1} ]" in reference
    assert d["code"] == "E0201" and d["source"] == "arrayc" and d["severity"] == 1
    assert d["message"].startswith("undefined variable `wrok`") and "help: " in d["message"]
    assert (d["end_lnum"], d["end_col"]) == (d["lnum"], d["col"] + len("wrok"))
