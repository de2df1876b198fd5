# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
"""Wrong dtypes, shapes, indexes and call orders raise TFLite's exception types
with annrt's message."""
import numpy as np
import pytest

import annrt
from conftest import model_path


@pytest.fixture
def interpreter():
    interpreter = annrt.Interpreter(model_path=str(model_path("hand_landmark_lite")))
    interpreter.allocate_tensors()
    return interpreter


def input_zeros(interpreter, dtype=None, shape=None):
    details = interpreter.get_input_details()[0]
    return np.zeros(details["shape"] if shape is None else shape, dtype or details["dtype"])


def test_wrong_dtype_raises_value_error(interpreter):
    with pytest.raises(ValueError, match=r"Got value of type FLOAT64 but expected type FLOAT32 "
                                         r"for input 0, name: input_1"):
        interpreter.set_tensor(0, input_zeros(interpreter, dtype=np.float64))
    with pytest.raises(ValueError, match="Got value of type UINT8"):
        interpreter.set_tensor(0, input_zeros(interpreter, dtype=np.uint8))


def test_wrong_shape_raises_value_error(interpreter):
    with pytest.raises(ValueError, match="Dimension mismatch. Got 3 but expected 4 for input 0"):
        interpreter.set_tensor(0, np.zeros((224, 224, 3), np.float32))
    with pytest.raises(ValueError, match="Got 2 but expected 1 for dimension 0 of input 0"):
        interpreter.set_tensor(0, input_zeros(interpreter, shape=(2, 224, 224, 3)))


@pytest.mark.parametrize("index", [-1, 5, 1000])
def test_bad_index_raises_value_error(interpreter, index):
    with pytest.raises(ValueError, match=f"Invalid tensor index {index}"):
        interpreter.set_tensor(index, input_zeros(interpreter))
    with pytest.raises(ValueError, match=f"Invalid tensor index {index}"):
        interpreter.get_tensor(index)
    with pytest.raises(ValueError, match=f"Invalid tensor index {index}"):
        interpreter.tensor(index)
    with pytest.raises(ValueError, match="not an input"):
        interpreter.resize_tensor_input(index, [1, 224, 224, 3])


def test_invoke_before_allocate_raises_runtime_error():
    interpreter = annrt.Interpreter(model_path=str(model_path("hand_landmark_lite")))
    with pytest.raises(RuntimeError, match="allocate_tensors"):
        interpreter.invoke()
    with pytest.raises(ValueError, match="unallocated"):
        interpreter.set_tensor(0, np.zeros((1, 224, 224, 3), np.float32))


def test_bad_constructor_arguments_raise_value_error(tmp_path):
    path = str(model_path("hand_landmark_lite"))
    with pytest.raises(ValueError, match="exactly one of model_path and model_content"):
        annrt.Interpreter()
    with pytest.raises(ValueError, match="exactly one"):
        annrt.Interpreter(model_path=path, model_content=b"")
    with pytest.raises(ValueError, match="missing.tflite"):
        annrt.Interpreter(model_path=str(tmp_path / "missing.tflite"))
    with pytest.raises(ValueError):
        annrt.Interpreter(model_content=b"not a flatbuffer at all")
    with pytest.raises(ValueError, match="no NNAPI device named 'gpu0'.*nnapi-reference"):
        annrt.Interpreter(model_path=path, devices=["gpu0"]).allocate_tensors()


def test_no_signatures(interpreter):
    assert interpreter.get_signature_list() == {}
    with pytest.raises(ValueError, match="0 signatures"):
        interpreter.get_signature_runner()


def test_tensor_view_sees_set_tensor_and_outputs(interpreter):
    view = interpreter.tensor(0)
    value = np.random.default_rng(1).random((1, 224, 224, 3), dtype=np.float32)
    interpreter.set_tensor(0, value)
    np.testing.assert_array_equal(view(), value)
    view()[...] = 0.5  # writing through the view sets the input
    interpreter.invoke()
    out_index = interpreter.get_output_details()[0]["index"]
    expected = interpreter.get_tensor(out_index)
    interpreter.set_tensor(0, np.full((1, 224, 224, 3), 0.5, np.float32))
    interpreter.invoke()
    np.testing.assert_array_equal(interpreter.tensor(out_index)(), expected)


def test_tensor_details_are_the_inputs_then_the_outputs(interpreter):
    details = interpreter.get_tensor_details()
    expected = interpreter.get_input_details() + interpreter.get_output_details()
    assert [d["name"] for d in details] == [d["name"] for d in expected]
    assert [d["index"] for d in details] == list(range(len(details)))
    with pytest.raises(ValueError, match="subgraph_index 1"):
        interpreter.get_tensor(0, 1)
