# -*- Python -*-
# The GoogleTest binaries (bin/MemPlan*Tests) as lit tests, as LLVM's
# unittests/lit.cfg.py does: check-memplan runs them with the lit tests and
# reports their failures the same way.
import os

import lit.formats

config.name = "MEMPLAN-Unit"
config.suffixes = []
config.test_exec_root = config.memplan_tools_dir
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")

# The Core tests read record sets from the shared data; where it is absent
# they skip those tests (TestUtil.h) and say why.
config.environment["MEMPLAN_SHARED_DIR"] = config.shared_dir
for var in ["HOME", "TMP", "TEMP"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
