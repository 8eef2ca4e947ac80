# lit configuration for arrayc's end-to-end tests: `lit -v lit-tests` from the repository root.
# Binaries come from <repo>/target/release/ unless ARRAYC_BIN_DIR names another directory;
# FileCheck and `not` come from LLVM 22 (override with LLVM_BIN_DIR).
import os
import tempfile

import lit.formats

config.name = "arrayc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".arr", ".mlir"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

repo = os.path.dirname(config.test_source_root)
bin_dir = os.environ.get("ARRAYC_BIN_DIR", os.path.join(repo, "target", "release"))
llvm_bin = os.environ.get("LLVM_BIN_DIR", "/usr/lib/llvm-22/bin")

for tool in ("arrayc", "arrayc-opt"):
    path = os.path.join(bin_dir, tool)
    if not os.path.exists(path):
        lit_config.fatal(f"{path} not found: build it (cargo build --release) or set ARRAYC_BIN_DIR")

# Longest first, so that %arrayc does not match the start of %arrayc-opt.
config.substitutions.append(("%arrayc-opt", os.path.join(bin_dir, "arrayc-opt")))
config.substitutions.append(("%arrayc", os.path.join(bin_dir, "arrayc")))
config.substitutions.append(("%examples", os.path.join(repo, "examples")))
# FileCheck and `not` from LLVM 22 come first on PATH.
config.environment["PATH"] = os.pathsep.join([llvm_bin, os.environ.get("PATH", "")])

# MLIR verifies the module after every pass (arrayc/arrayc-opt --verify-each).
config.environment["ARRAYC_VERIFY_EACH"] = "1"

# A kernel cache of the suite's own, under the temporary directory: the user's is never touched.
config.environment["ARRAYC_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), "arrayc-lit-kernel-cache")

# Plain, uncoloured output.
config.environment["NO_COLOR"] = "1"
config.environment["TERM"] = "dumb"
