# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
"""Every default model through annrt.Interpreter equals real TensorFlow Lite's
outputs (the tflite-oracle's references) within the accuracy tests' tolerance."""
import numpy as np
import pytest

import annrt
from conftest import (DEFAULT_MODELS, TOLERANCE, load_reference, model_path, oracle_input, run,
                      worst_error)


@pytest.mark.parametrize("devices", [None, ["nnapi-reference"]], ids=["default_plan", "reference"])
@pytest.mark.parametrize("name", DEFAULT_MODELS)
def test_matches_tensorflow_lite(name, devices):
    path = model_path(name)
    reference = load_reference(name)
    interpreter = annrt.Interpreter(model_path=str(path), devices=devices)
    interpreter.allocate_tensors()
    inputs = [oracle_input(d, k) for k, d in enumerate(interpreter.get_input_details())]
    outputs = run(interpreter, inputs)
    assert len(outputs) == len(reference["outputs"])
    for output, expected in zip(outputs, reference["outputs"]):
        error = worst_error(output, expected["values"])
        assert error <= TOLERANCE, f"{name} output {expected['name']}: error {error:.3e}"


def test_model_content_equals_model_path():
    path = model_path("face_detection_short_range")
    by_path = annrt.Interpreter(model_path=str(path))
    by_content = annrt.Interpreter(model_content=path.read_bytes(), num_threads=1)
    results = []
    for interpreter in (by_path, by_content):
        interpreter.allocate_tensors()
        results.append(run(interpreter, [oracle_input(interpreter.get_input_details()[0], 0)]))
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)
