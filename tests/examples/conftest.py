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
