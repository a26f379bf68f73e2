# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "MEMPLAN"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.memplan_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "unit", "lib", "Inputs", "README.md"]

# The record sets and networks of MEMPLAN_SHARED_DIR (../shared beside the
# checkout by default): the tests that read them need "shared-data".
if all(os.path.isdir(os.path.join(config.shared_dir, d))
       for d in ("datasets", "models")):
    config.available_features.add("shared-data")
else:
    lit_config.note("no shared data in '%s' (datasets/, models/): the tests "
                    "that need it are UNSUPPORTED; configure with "
                    "-DMEMPLAN_SHARED_DIR=<folder> to run them"
                    % config.shared_dir)

# LLVM_DEBUG traces print only where LLVM has -debug-only (a build with
# assertions; Debian's Release build has none).
import subprocess
try:
    _help = subprocess.run(
        [os.path.join(config.memplan_tools_dir, "memplan-opt"), "--help-hidden"],
        capture_output=True, text=True, timeout=60).stdout
except (OSError, subprocess.SubprocessError):
    _help = ""
if "--debug-only" in _help:
    config.available_features.add("debug-only")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", ".so"))
config.substitutions.append(("%memplan_lib", config.memplan_lib_dir))
config.substitutions.append(("%llvm_lib", config.llvm_lib_dir))
config.substitutions.append(("%shared", config.shared_dir))
config.substitutions.append(("%src", config.memplan_src_root))
config.substitutions.append(("%memplan_obj", config.memplan_obj_root))
config.substitutions.append(("%memplan_version", config.memplan_version))
# Lowering to LLVM for the execution tests (runs with Debian's LLVM/MLIR 22):
# memplan-opt IN <passes> %lower_to_llvm | mlir-runner -e main
#   -entry-point-result=void -shared-libs=%runner_libs
config.substitutions.append(("%lower_to_llvm",
    "--convert-linalg-to-loops --expand-strided-metadata --lower-affine "
    "--convert-scf-to-cf --finalize-memref-to-llvm --convert-arith-to-llvm "
    "--convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts"))
# Networks with batch norm or GELU also need math ops lowered.
config.substitutions.append(("%lower_math",
    "--convert-linalg-to-loops --expand-strided-metadata --lower-affine "
    "--convert-scf-to-cf --convert-math-to-llvm --convert-math-to-libm "
    "--finalize-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm "
    "--convert-cf-to-llvm --reconcile-unrealized-casts"))
config.substitutions.append(("%lower_vector_to_llvm",
    "--convert-linalg-to-loops --expand-strided-metadata --lower-affine "
    "--convert-scf-to-cf --convert-vector-to-llvm --finalize-memref-to-llvm "
    "--convert-arith-to-llvm --convert-func-to-llvm --convert-cf-to-llvm "
    "--reconcile-unrealized-casts"))
config.substitutions.append(("%lower_async",
    "--async-to-async-runtime --async-runtime-ref-counting "
    "--async-runtime-ref-counting-opt --convert-async-to-llvm "
    "--convert-linalg-to-loops --expand-strided-metadata --lower-affine "
    "--convert-scf-to-cf --finalize-memref-to-llvm --convert-arith-to-llvm "
    "--convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts"))
config.substitutions.append(("%runner_libs",
    os.path.join(config.llvm_lib_dir, "libmlir_runner_utils.so") + "," +
    os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils.so")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.memplan_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["memplan-opt", "memplan-solve", "memplan-report-diff", "mlir-opt",
     "mlir-runner"], tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
