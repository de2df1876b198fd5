# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
"""Per-operation profiles: the runtime reads ANNRT_PROFILE once, at its first
use, so each case runs in a fresh Python process."""
import subprocess
import sys
import textwrap

from conftest import model_path

PROFILE_RUN = """
import annrt, sys
path = annrt.enable_op_profiling(sys.argv[2])
interpreter = annrt.Interpreter(model_path=sys.argv[1])
interpreter.allocate_tensors()
for _ in range(3):
    interpreter.invoke()
operations = interpreter.get_op_profile()
for op in operations:
    print(op.index, op.type, op.tflite_type, op.device, op.count, op.total_ms)
interpreter.invoke()  # compiles again after the profile
"""

LATE_ENABLE = """
import annrt
annrt.devices()
try:
    annrt.enable_op_profiling()
except RuntimeError as e:
    print("RuntimeError", e)
"""


def python(code, *args):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], check=True,
                          capture_output=True, text=True, env=None).stdout


def test_profile_lists_every_operation_with_its_time(tmp_path):
    path = model_path("face_detection_short_range")
    lines = python(PROFILE_RUN, str(path), str(tmp_path / "profile.json")).splitlines()
    assert len(lines) > 10
    indexes, total_ms = [], 0.0
    for line in lines:
        index, nnapi_type, tflite_type, device, count, ms = line.split()
        indexes.append(int(index))
        assert device in {"annrt-cpu", "nnapi-reference"}
        assert int(count) == 3
        total_ms += float(ms)
    assert sorted(indexes) == list(range(len(lines)))
    assert total_ms > 0


def test_enabling_after_the_runtime_started_raises():
    assert python(LATE_ENABLE).startswith("RuntimeError annrt.enable_op_profiling() must come before")
