# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
"""resize_tensor_input then allocate_tensors compiles for the new shape."""
import numpy as np
import pytest

import annrt
from conftest import (REFERENCE_DIR, TOLERANCE, load_reference, model_path, oracle_input, run,
                      worst_error)


def test_dynamic_batch_resized_to_two_matches_tensorflow_lite():
    # The copy of the model with shape_signature[0] = -1 that
    # scripts/oracle-reference.sh writes, and TFLite's outputs of it at batch 1.
    reference = load_reference("hand_landmark_lite_dynamic_batch")
    path = REFERENCE_DIR / "dynamic" / "hand_landmark_lite.tflite"
    assert path.exists(), f"{path} was not written by scripts/oracle-reference.sh"
    interpreter = annrt.Interpreter(model_path=str(path))
    details = interpreter.get_input_details()[0]
    assert details["shape_signature"][0] == -1
    assert list(details["shape"]) == [1, 224, 224, 3]
    interpreter.resize_tensor_input(details["index"], [2, 224, 224, 3], strict=True)
    assert list(interpreter.get_input_details()[0]["shape"]) == [2, 224, 224, 3]
    with pytest.raises(RuntimeError, match="allocate_tensors"):
        interpreter.invoke()  # resizing drops the allocation, as in TFLite
    interpreter.allocate_tensors()
    outputs = run(interpreter, [oracle_input(details, 0, batch=2)])
    for output, expected in zip(outputs, reference["outputs"]):
        assert output.shape[0] == 2
        for half in output:
            assert worst_error(half, expected["values"]) <= TOLERANCE, expected["name"]


def test_strict_resize_of_a_fixed_dim_raises():
    interpreter = annrt.Interpreter(model_path=str(model_path("hand_landmark_lite")))
    with pytest.raises(ValueError):
        interpreter.resize_tensor_input(0, [2, 224, 224, 3], strict=True)
    assert list(interpreter.get_input_details()[0]["shape"]) == [1, 224, 224, 3]


def test_resize_of_a_fixed_batch_runs_each_item_as_batch_one():
    # A fully convolutional model: any batch works (resize_tensor_input's
    # default strict=False lets a fixed dim change, as in TFLite).
    path = str(model_path("selfie_segmentation"))
    single = annrt.Interpreter(model_path=path)
    single.allocate_tensors()
    details = single.get_input_details()[0]
    expected = run(single, [oracle_input(details, 0)])
    batched = annrt.Interpreter(model_path=path)
    batched.resize_tensor_input(0, np.array([2, 256, 256, 3], np.int32))
    batched.allocate_tensors()
    assert list(batched.get_output_details()[0]["shape"])[0] == 2
    for output, one in zip(run(batched, [oracle_input(details, 0, batch=2)]), expected):
        for half in output:
            np.testing.assert_allclose(half, one[0], rtol=1e-4, atol=1e-4)


def test_resize_to_an_impossible_shape_raises_and_keeps_the_model():
    interpreter = annrt.Interpreter(model_path=str(model_path("hand_landmark_lite")))
    with pytest.raises(ValueError):
        interpreter.resize_tensor_input(0, [1, 224, 3])
    with pytest.raises(ValueError, match="dimension 1"):
        interpreter.resize_tensor_input(0, [1, 0, 224, 3])
    interpreter.allocate_tensors()
    interpreter.invoke()
