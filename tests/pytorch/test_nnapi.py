# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
"""PyTorch's NNAPI backend as a client of annrt.

Each case converts a small PyTorch model with
torch.backends._nnapi.prepare.convert_model_to_nnapi, runs it through annrt's
libneuralnetworks.so and compares with eager PyTorch on the same inputs:

- float32: |nnapi - eager| <= 1e-4 + 1e-4 * |eager| per element (annrt-cpu's
  XNNPACK kernels sum in another order than PyTorch's);
- quantized (quint8, the qnnpack engine): the integer outputs differ by at
  most one quantum, the tolerance of Android's conformance tests
  (tools/test_generator/test_harness/TestHarness.cpp: quant8Asymm atol 1).
  They differ where a result is exactly half-way between two levels, which
  the implementations round differently: 10-17% of the 2x2 average pool's
  outputs on nnapi-reference; ADD's ties (half of this test's sums, whose
  output scale is twice the inputs') match QNNPACK on nnapi-reference and
  differ in a quarter of the elements on annrt-cpu (XNNPACK's rounding).

Layouts are the backend's two memory formats: NCHW (contiguous inputs) and
NHWC (channels-last inputs marked `nnapi_nhwc`, which the converter keeps in
NHWC for NNAPI). Shapes are fixed, or flexible: the converter gets inputs with
dimensions of size 0, which it serializes as unknown (0) and fills in from the
real inputs when the model is first run.
"""
import dataclasses
import zlib
from typing import Callable, Optional, Tuple

import pytest
import torch
import torch.nn.functional as F
from torch.backends._nnapi.prepare import convert_model_to_nnapi

torch.backends.quantized.engine = "qnnpack"

FLOAT_ATOL = 1e-4
FLOAT_RTOL = 1e-4
QUANT_MAX_QUANTA = 1

# Quantization of every quantized input: [-8, 8) on 256 levels.
INPUT_SCALE = 1.0 / 16
INPUT_ZERO_POINT = 128
# The converter's inputs of the "flexible-other-scale" cases: PyTorch passes
# each run's own scale to setInput; Android checks only the type code, rank
# and fixed dimensions there and computes with the model's scale.
OTHER_SCALE = 1.0 / 8


@dataclasses.dataclass
class Case:
    op: str
    dtype: str  # "float" or "quant"
    layout: str  # "nchw" or "nhwc"
    shapes: str  # "fixed", "flexible" or "flexible-other-scale"
    model: Callable[[], torch.nn.Module]
    inputs: Tuple[Tuple[int, ...], ...]
    flexible_dims: Tuple[int, ...] = (0,)  # dims of size 0 in the converted spec
    # Set where annrt must refuse the model as Android's runtime does, with
    # the operation annrt's error log must name.
    rejected_because: Optional[str] = None
    rejected_operation: Optional[str] = None
    # Set where PyTorch's converter cannot express the model (strict xfail).
    converter_gap: Optional[str] = None
    # Set where the converter emits another model than the PyTorch one: why,
    # and a module computing what the emitted NNAPI model means, which annrt
    # must match instead of eager PyTorch.
    converter_wrong: Optional[str] = None
    converted_as: Optional[Callable[[], torch.nn.Module]] = None

    @property
    def id(self):
        return f"{self.op}-{self.dtype}-{self.layout}-{self.shapes}"


def quantized(module, example_shapes):
    """`module` converted to quantized operators with the qnnpack qconfig,
    calibrated on one random batch."""
    model = torch.nn.Sequential(module).eval()
    model.qconfig = torch.ao.quantization.get_default_qconfig("qnnpack")
    model = torch.ao.quantization.prepare(model)
    model(*[torch.randn(shape) for shape in example_shapes])
    return torch.ao.quantization.convert(model)


class Binary(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x, y):
        return self.fn(x, y)


class QBinary(torch.nn.Module):
    """quantized::add / quantized::mul with a fixed output quantization."""

    def __init__(self, name, scale, zero_point):
        super().__init__()
        self.functional = torch.ao.nn.quantized.QFunctional()
        self.functional.scale = scale
        self.functional.zero_point = zero_point
        self.name = name

    def forward(self, x, y):
        if self.name == "add":
            return self.functional.add(x, y)
        return self.functional.mul(x, y)


class Lambda(torch.nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


class HardswishComposed(torch.nn.Module):
    """hardswish as the NNAPI ops the converter knows: x * relu6(x + 3) / 6
    (ADD, RELU6, MUL, DIV; the constants are 4-D so that NHWC applies)."""

    def __init__(self):
        super().__init__()
        self.three = torch.full((1, 1, 1, 1), 3.0)
        self.six = torch.full((1, 1, 1, 1), 6.0)

    def forward(self, x):
        return x * F.hardtanh(x + self.three, 0.0, 6.0) / self.six


IMAGE = (2, 6, 9, 11)
def conv(in_ch, out_ch, **kwargs):
    return lambda: torch.nn.Conv2d(in_ch, out_ch, 3, **kwargs)


# op -> (float model, quantized too, input shapes, flexible dims or None)
SPATIAL = (0, 2, 3)
OPS = {
    "conv": (conv(6, 8, padding=1), True, (IMAGE,), SPATIAL),
    "conv_stride2": (conv(6, 4, stride=2), True, (IMAGE,), SPATIAL),
    "depthwise_conv": (conv(6, 6, padding=1, groups=6), True, (IMAGE,), SPATIAL),
    # The converter's max_pool2d and hardtanh take fixed shapes only.
    "max_pool": (lambda: torch.nn.MaxPool2d(3, stride=2, padding=1), True, (IMAGE,), None),
    "avg_pool": (lambda: torch.nn.AvgPool2d(2), True, (IMAGE,), SPATIAL),
    "adaptive_avg_pool": (lambda: torch.nn.AdaptiveAvgPool2d(1), True, (IMAGE,), None),
    "add": (lambda: Binary(torch.add), "add", (IMAGE, IMAGE), (0,)),
    "mul": (lambda: Binary(torch.mul), "mul", (IMAGE, IMAGE), (0,)),
    "cat": (lambda: Binary(lambda x, y: torch.cat([x, y], 1)), True, (IMAGE, IMAGE), (0,)),
    "relu": (lambda: torch.nn.ReLU(), True, (IMAGE,), (0,)),
    "sigmoid": (lambda: torch.nn.Sigmoid(), True, (IMAGE,), (0,)),
    # The converter takes flexible heights and widths here, not batches.
    "upsample_nearest": (lambda: torch.nn.Upsample(scale_factor=2, mode="nearest"), True,
                         (IMAGE,), (2, 3)),
    "hardswish_composed": (HardswishComposed, False, (IMAGE,), None),
}
# 2-D and rank-changing cases, NCHW only (the converter keeps NHWC for 4-D).
OPS_2D = {
    "linear": (lambda: torch.nn.Linear(16, 5), True, ((3, 16),), (0,)),
    "softmax": (lambda: torch.nn.Softmax(dim=1), False, ((3, 10),), (0,)),
    "flatten": (lambda: torch.nn.Flatten(), True, (IMAGE,), (0,)),
    "reshape": (lambda: Lambda(lambda x: x.reshape(2, -1)), True, (IMAGE,), None),
}

CONVERTER_GAPS = {
    # torch 1.13's _NnapiSerializer.ADDER_MAP has no entry for these.
    "hardswish": (lambda: torch.nn.Hardswish(), "aten::hardswish is not in the converter"),
    "upsample_bilinear": (
        lambda: torch.nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False),
        "aten::upsample_bilinear2d is not in the converter"),
}


def build_cases():
    cases = []
    for op, (make, quant, shapes, flexible) in OPS.items():
        for dtype in ("float", "quant") if quant else ("float",):
            for layout in ("nchw", "nhwc"):
                for mode in ("fixed", "flexible") if flexible else ("fixed",):
                    cases.append(Case(op, dtype, layout, mode, make, shapes,
                                      flexible or (0,)))
    for op, (make, quant, shapes, flexible) in OPS_2D.items():
        for dtype in ("float", "quant") if quant else ("float",):
            # quantized::linear takes fixed shapes only in the converter.
            flexible_too = flexible and not (op == "linear" and dtype == "quant")
            for mode in ("fixed", "flexible") if flexible_too else ("fixed",):
                cases.append(Case(op, dtype, "nchw", mode, make, shapes, flexible or (0,)))
    for op in ("relu", "cat"):
        make, _, shapes, flexible = OPS[op]
        for layout in ("nchw", "nhwc"):
            cases.append(Case(op, "quant", layout, "flexible-other-scale", make, shapes, flexible))
    cases.append(Case("flatten", "quant", "nchw", "flexible-other-scale", OPS_2D["flatten"][0],
                      (IMAGE,)))
    # The converter flattens NHWC tensors only where C == 1 or H == W == 1.
    for dtype in ("float", "quant"):
        cases.append(Case("pool_flatten", dtype, "nhwc", "fixed",
                          lambda: torch.nn.Sequential(torch.nn.AdaptiveAvgPool2d(1),
                                                      torch.nn.Flatten()), (IMAGE,)))
    # Android's runtime refuses RESHAPE of a rank-5 input at addOperation
    # (validateReshape in common/types/operations/src/Reshape.cpp: input rank
    # at most 4), and so does annrt.
    cases.append(Case("flatten_rank5", "float", "nchw", "flexible", lambda: torch.nn.Flatten(),
                      ((4, 2, 1, 3, 7),), (0,),
                      rejected_because="RESHAPE takes inputs of rank <= 4 in AOSP",
                      rejected_operation="RESHAPE"))
    for op, (make, reason) in CONVERTER_GAPS.items():
        cases.append(Case(op, "float", "nchw", "fixed", make, (IMAGE,), converter_gap=reason))
    cases.append(Case("softmax_4d", "float", "nchw", "fixed", lambda: torch.nn.Softmax(dim=1),
                      (IMAGE,)))
    cases.append(Case("softmax_4d", "float", "nhwc", "fixed", lambda: torch.nn.Softmax(dim=1),
                      (IMAGE,), converter_wrong="add_softmax passes PyTorch's dim (1, channels) "
                      "to SOFTMAX unchanged, which on the NHWC tensor is the height axis",
                      converted_as=lambda: torch.nn.Softmax(dim=2)))
    # Eager PyTorch has no quantized aten::softmax (the model is scripted, not
    # traced); the converter gives the output the input's quantization, where
    # NNAPI requires a scale of 1/256 and zero point 0: Android refuses it.
    cases.append(Case("softmax", "quant", "nchw", "fixed", lambda: torch.nn.Softmax(dim=1),
                      ((3, 10),), rejected_because="quantized SOFTMAX output must have scale "
                      "1/256, zero point 0", rejected_operation="SOFTMAX"))
    return cases


CASES = build_cases()


def make_inputs(case, generator):
    """The real inputs, and the ones the converter sees."""
    real, spec = [], []
    for shape in case.inputs:
        x = torch.randn(shape, generator=generator) * 3
        flex_shape = list(shape)
        if case.shapes.startswith("flexible"):
            for dim in case.flexible_dims:
                flex_shape[dim] = 0
        s = torch.zeros(flex_shape)
        if case.dtype == "quant":
            x = torch.quantize_per_tensor(x, INPUT_SCALE, INPUT_ZERO_POINT, torch.quint8)
            spec_scale = OTHER_SCALE if case.shapes == "flexible-other-scale" else INPUT_SCALE
            s = torch.quantize_per_tensor(s, spec_scale, INPUT_ZERO_POINT, torch.quint8)
        if case.layout == "nhwc":
            x = x.contiguous(memory_format=torch.channels_last)
            s = s.contiguous(memory_format=torch.channels_last)
            x.nnapi_nhwc = True
            s.nnapi_nhwc = True
        real.append(x)
        spec.append(s)
    return real, spec


def make_model(case):
    module = case.model()
    if case.dtype != "quant":
        return module.eval()
    if case.op in ("add", "mul"):
        return QBinary(case.op, 0.125, 120).eval()
    if isinstance(module, (torch.nn.Conv2d, torch.nn.Linear)):
        return quantized(module, case.inputs)
    return module.eval()


def assert_matches(eager, nnapi, scale=None):
    """`scale`: the output scale NNAPI must give where it is not eager's."""
    assert eager.shape == nnapi.shape, f"shape {tuple(nnapi.shape)}, eager {tuple(eager.shape)}"
    if eager.is_quantized:
        assert nnapi.is_quantized
        assert (scale or eager.q_scale(), eager.q_zero_point()) == (nnapi.q_scale(),
                                                                   nnapi.q_zero_point())
        diff = (eager.int_repr().int() - nnapi.int_repr().int()).abs()
        assert diff.max().item() <= QUANT_MAX_QUANTA, (
            f"max difference {diff.max().item()} quanta, "
            f"{(diff > QUANT_MAX_QUANTA).float().mean().item():.1%} of the elements beyond")
        return
    torch.testing.assert_close(nnapi, eager, atol=FLOAT_ATOL, rtol=FLOAT_RTOL)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_model(case, annrt_library, capfd):
    seed = zlib.crc32(case.id.encode())
    torch.manual_seed(seed)  # weights and calibration batches
    generator = torch.Generator().manual_seed(seed)
    real, spec = make_inputs(case, generator)
    model = make_model(case)
    with torch.no_grad():
        if case.rejected_because:
            traced = torch.jit.script(model)
        else:
            traced = torch.jit.trace(model, tuple(spec if case.shapes == "fixed" else real))
        if case.converter_gap:
            if not converts(traced, spec):
                pytest.xfail(case.converter_gap)
            pytest.fail(f"the converter now handles {case.op}: test it as a normal case")
        nnapi = convert_model_to_nnapi(traced, spec)
        if case.rejected_because:
            with pytest.raises(RuntimeError, match="NNAPI returned error"):
                nnapi(*real)
            log = capfd.readouterr().err
            assert f"invalid {case.rejected_operation} operation" in log, log
            return
        eager = (case.converted_as() if case.converter_wrong else model)(*real)
        result = nnapi(*real)
    # Operations whose integer outputs do not depend on the scale, with the
    # input's scale on their output: NNAPI's output has the model's scale.
    assert_matches(eager, result, OTHER_SCALE if case.shapes == "flexible-other-scale" else None)


def converts(traced, spec):
    try:
        convert_model_to_nnapi(traced, spec)
    except Exception:  # the converter raises plain Exceptions and asserts
        return False
    return True
