# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures: the default models, TensorFlow Lite's reference outputs
(written by scripts/oracle-reference.sh, as for tests/tflite/accuracy_test.cpp)
and the oracle's deterministic inputs."""
import json
import os
import pathlib

import numpy as np
import pytest

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[2]
MODELS_DIR = pathlib.Path(os.environ.get("ANNRT_MODELS_DIR", SOURCE_DIR / "models"))
REFERENCE_DIR = pathlib.Path(os.environ.get("ANNRT_TFLITE_REFERENCE_DIR", SOURCE_DIR / "build" / "tflite-reference"))

# The accuracy tests' limit: max|annrt - TFLite| <= TOLERANCE * max(1, max|TFLite|).
TOLERANCE = 5e-3

DEFAULT_MODELS = [
    "face_detection_short_range", "face_detection_full_range", "face_detection_full_range_sparse",
    "hand_landmark_lite", "hand_landmark_full", "pose_landmark_lite",
    "pose_landmark_full", "selfie_segmentation", "selfie_segmentation_landscape",
]


def model_path(name):
    path = MODELS_DIR / f"{name}.tflite"
    if not path.exists():
        pytest.skip(f"{path} not found: run scripts/fetch-models.sh")
    return path


def load_reference(name):
    """TFLite's outputs for `name`, or a skip saying why there are none."""
    path = REFERENCE_DIR / f"{name}.json"
    if not path.exists():
        skipped = REFERENCE_DIR / "SKIPPED"
        reason = skipped.read_text().splitlines()[0] if skipped.exists() else "run scripts/oracle-reference.sh"
        pytest.skip(f"no TFLite reference {path}: {reason}")
    return json.loads(path.read_text())


def oracle_input(details, k, batch=1):
    """The tflite-oracle's input k (its `input_formula`), repeated `batch` times."""
    one = [1] + list(details["shape"][1:])
    count = int(np.prod(one))
    i = np.arange(count, dtype=np.float64)
    if details["dtype"] == np.float32:
        values = (np.sin(i * 0.01 + k) * 0.5 + 0.5).astype(np.float32)
    else:
        offset = 128 if details["dtype"] == np.int8 else 0
        values = ((np.arange(count) * 7 + 13 * k) % 256 - offset).astype(details["dtype"])
    return np.concatenate([values.reshape(one)] * batch)


def worst_error(actual, expected_values):
    """max|actual - expected| / max(1, max|expected|) over one output."""
    expected = np.asarray(expected_values, dtype=np.float64)
    assert actual.size == expected.size
    difference = np.abs(actual.astype(np.float64).ravel() - expected)
    if np.isnan(difference).any():
        return np.inf
    return difference.max() / max(1.0, np.abs(expected).max())


def run(interpreter, inputs):
    """Sets every input, invokes, returns every output (copies)."""
    for details, value in zip(interpreter.get_input_details(), inputs):
        interpreter.set_tensor(details["index"], value)
    interpreter.invoke()
    return [interpreter.get_tensor(d["index"]) for d in interpreter.get_output_details()]
