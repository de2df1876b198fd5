# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
"""annrt.devices() and running on a chosen device."""
import numpy as np

import annrt
from conftest import model_path, oracle_input, run


def test_devices_lists_annrt_cpu_and_reference():
    devices = {d["name"]: d for d in annrt.devices()}
    assert {"annrt-cpu", "nnapi-reference"} <= devices.keys(), devices
    for device in devices.values():
        assert set(device) == {"name", "type", "feature_level", "version"}
        assert device["type"] in {"CPU", "GPU", "ACCELERATOR", "OTHER", "UNKNOWN"}
        assert device["feature_level"] > 0
        assert device["version"]
    assert devices["annrt-cpu"]["type"] == "CPU"


def test_each_device_gives_the_same_outputs():
    path = str(model_path("selfie_segmentation_landscape"))
    results = []
    for device in ["annrt-cpu", "nnapi-reference"]:
        interpreter = annrt.Interpreter(model_path=path, devices=[device], num_threads=2)
        interpreter.allocate_tensors()
        results.append(run(interpreter, [oracle_input(interpreter.get_input_details()[0], 0)]))
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, atol=5e-3)
