# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
"""invoke() computes without the GIL: Python threads run meanwhile, and two
interpreters in two threads compute at the same time."""
import threading
import time

import numpy as np

import annrt
from conftest import model_path, oracle_input, run

# About 50 ms per invoke on nnapi-reference: long enough to be seen running.
SLOW_MODEL = "face_detection_short_range"


def slow_interpreter():
    interpreter = annrt.Interpreter(model_path=str(model_path(SLOW_MODEL)), devices="nnapi-reference")
    interpreter.allocate_tensors()
    interpreter.set_tensor(0, oracle_input(interpreter.get_input_details()[0], 0))
    return interpreter


def test_python_threads_run_during_invoke():
    interpreter = slow_interpreter()
    stamps = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            stamps.append(time.monotonic_ns())

    counter = threading.Thread(target=count)
    counter.start()
    try:
        while not stamps:
            time.sleep(0.001)
        interpreter.invoke()
    finally:
        stop.set()
        counter.join()
    timing = interpreter.last_invoke_timing()
    # Python code can run while invoke computes only if the GIL was released.
    during = [t for t in stamps if timing.start_ns < t < timing.end_ns]
    assert timing.end_ns - timing.start_ns > 1_000_000
    assert len(during) > 100, f"{len(during)} counts during a {timing.wall_ms:.1f} ms invoke"


def test_two_interpreters_compute_concurrently():
    interpreters = [slow_interpreter(), slow_interpreter()]
    expected = run(interpreters[0], [oracle_input(interpreters[0].get_input_details()[0], 0)])
    windows = [[], []]
    outputs = [None, None]
    barrier = threading.Barrier(2)

    def work(k):
        interpreter = interpreters[k]
        barrier.wait()
        for _ in range(4):
            interpreter.invoke()
            timing = interpreter.last_invoke_timing()
            windows[k].append((timing.start_ns, timing.end_ns))
        outputs[k] = [interpreter.get_tensor(d["index"]) for d in interpreter.get_output_details()]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Two computations overlap in time only if neither held the GIL.
    overlap = sum(max(0, min(a_end, b_end) - max(a_start, b_start))
                  for a_start, a_end in windows[0] for b_start, b_end in windows[1])
    assert overlap > 0, f"no overlap between {windows}"
    for result in outputs:
        for output, one in zip(result, expected):
            np.testing.assert_array_equal(output, one)
