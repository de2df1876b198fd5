# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
"""pytest set-up for the PyTorch NNAPI tests: loads annrt's library before
PyTorch looks for one, and prints the summary line and the table of cases."""
import collections
import ctypes
import os

import pytest

# PyTorch's NNAPI runtime (aten/src/ATen/nnapi/nnapi_wrapper.cpp) calls
# dlopen("libneuralnetworks.so"). Loading annrt's library first by its path
# makes that call return it (the dynamic loader matches the SONAME of objects
# already loaded), the way PyTorch's own test_nnapi.py uses
# LIBNEURALNETWORKS_PATH; LD_LIBRARY_PATH, which ctest also sets, is the
# fallback for a process started by hand.
LIBRARY = os.environ.get("LIBNEURALNETWORKS_PATH")


def loaded_nnapi_libraries():
    """Paths of every libneuralnetworks.so mapped into this process."""
    with open("/proc/self/maps") as maps:
        return {line.split()[-1] for line in maps if "libneuralnetworks.so" in line}


@pytest.fixture(scope="session", autouse=True)
def annrt_library():
    if LIBRARY:
        ctypes.CDLL(LIBRARY, mode=ctypes.RTLD_GLOBAL)
        expected = os.path.realpath(LIBRARY)
        loaded = {os.path.realpath(path) for path in loaded_nnapi_libraries()}
        assert loaded == {expected}, f"expected only {expected} loaded, found {loaded}"
    return LIBRARY


# Outcome of every case, reported at the end: name -> "passed" / "failed" / ...
RESULTS = collections.OrderedDict()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        if hasattr(report, "wasxfail"):
            outcome = "xfailed"
        else:
            outcome = "skipped" if report.skipped else report.outcome
        case = item.callspec.params.get("case") if hasattr(item, "callspec") else None
        if outcome == "passed" and getattr(case, "rejected_because", None):
            outcome = "passed (refused as Android does: " + case.rejected_because + ")"
        if outcome == "passed" and getattr(case, "converter_wrong", None):
            outcome = "passed (matches the converted model, not eager: " + case.converter_wrong + ")"
        RESULTS[item.callspec.id if hasattr(item, "callspec") else item.name] = outcome


def pytest_terminal_summary(terminalreporter):
    counts = collections.Counter(outcome.split()[0] for outcome in RESULTS.values())
    write = terminalreporter.write_line
    write("")
    write("op x dtype x layout x shapes:")
    for name, outcome in RESULTS.items():
        write(f"  {outcome:8} {name}")
    devices = ("without " + os.environ["ANNRT_DISABLE_DEVICES"]
               if os.environ.get("ANNRT_DISABLE_DEVICES") else "default plan")
    write(f"PyTorch NNAPI: {len(RESULTS)} models, {counts['passed']} passed, "
          f"{counts['failed']} failed, {counts['xfailed']} xfailed (converter gaps), "
          f"{counts['skipped']} skipped ({devices})")
