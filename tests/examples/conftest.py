"""pytest setup for tests/examples: make the helper module `arrayc_examples` and the
NumPy references (examples/reference, for `arrayc_random`) importable in any import mode."""
import atexit
import os
import shutil
import tempfile
import sys
from pathlib import Path

# Every compiler run of these suites verifies the module with MLIR after every pass (--verify-each).
os.environ.setdefault("ARRAYC_VERIFY_EACH", "1")
# A kernel cache of the suite's own (removed at exit): the tests neither read nor fill the user's.
_CACHE = tempfile.mkdtemp(prefix="arrayc-test-cache-")
os.environ.setdefault("ARRAYC_CACHE_DIR", _CACHE)
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)

_HERE = Path(__file__).resolve().parent
for _p in (_HERE, _HERE.parents[1] / "examples" / "reference"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _skip_gpu_target_without_a_gpu(request):
    """A test parametrized over `target` (arrayc_examples.TARGETS) skips its `gpu` case where
    `arrayc run --target gpu` cannot run, with the reason (no driver, no device)."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and callspec.params.get("target") == "gpu":
        from arrayc_examples import skip_without_a_gpu

        skip_without_a_gpu()
