// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Pooling, softmax, reductions, resizing, arg-min/max, batch matmul, and the
// operators the importer folds into constants: DEQUANTIZE of a constant
// (float16 or quantized weights) and DENSIFY.
#include <cstring>

#include "tflite/map_helpers.h"

namespace annrt::tflite::mappers {
namespace {

// Dequantized float32 values of a constant FLOAT16, INT8 or UINT8 tensor.
Result<std::vector<float>> dequantized(const Converter& c, const FoldedConstant& value,
                                       const Quantization& q) {
  const size_t count = value.data.size() / std::max<size_t>(tensorTypeSize(value.type), 1);
  if (value.type == TensorType::FLOAT16) return annrt::halfToFloat(value.data.data(), count);
  if ((value.type != TensorType::INT8 && value.type != TensorType::UINT8) || q.empty()) {
    return c.opError("cannot dequantize a constant of type {}", tensorTypeName(value.type));
  }
  std::vector<float> result(count);
  // Per-channel: the channel of element i is (i / inner) % channels.
  size_t inner = 1;
  for (size_t d = q.dimension + 1; q.perChannel() && d < value.shape.size(); ++d) {
    inner *= static_cast<size_t>(value.shape[d]);
  }
  for (size_t i = 0; i < count; ++i) {
    const size_t channel = q.perChannel() ? (i / inner) % q.scales.size() : 0;
    const int32_t stored = value.type == TensorType::INT8 ? static_cast<int8_t>(value.data[i])
                                                          : static_cast<int32_t>(value.data[i]);
    const int64_t zeroPoint = q.zeroPoints.empty() ? 0 : q.zeroPoints[channel];
    result[i] = static_cast<float>(stored - zeroPoint) * q.scales[channel];
  }
  return result;
}

}  // namespace

Result<void> pool2d(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o,
                         requireOptions(c, c.op().raw->builtin_options_as_Pool2DOptions()));
  std::vector<uint32_t> inputs(6);
  ANNRT_ASSIGN_OR_RETURN(inputs[0], c.input(0));
  ANNRT_ASSIGN_OR_RETURN(inputs[1], c.writer().addInt32(paddingCode(o->padding())));
  const int32_t scalars[] = {o->stride_w(), o->stride_h(), o->filter_width(), o->filter_height()};
  for (size_t i = 0; i < 4; ++i) {
    ANNRT_ASSIGN_OR_RETURN(inputs[2 + i], c.writer().addInt32(scalars[i]));
  }
  ANNRT_ASSIGN_OR_RETURN(ActivationPlan plan, planActivation(c, o->fused_activation_function()));
  inputs.push_back(plan.fuse);
  ANNRT_RETURN_IF_ERROR(c.emit(m.nnapi, inputs, {plan.result}));
  return finishActivation(c, plan);
}

Result<void> softmax(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o,
                         requireOptions(c, c.op().raw->builtin_options_as_SoftmaxOptions()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t beta, c.writer().addFloat32(o->beta()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(OperationType::SOFTMAX, {input, beta}, {output});
}

// MEAN (keep_dims INT32) and REDUCE_* (keep_dims BOOL): (input, axes).
Result<void> reduce(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o,
                         requireOptions(c, c.op().raw->builtin_options_as_ReducerOptions()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> axes, c.constantInts(1));
  ANNRT_ASSIGN_OR_RETURN(uint32_t axesOperand, c.writer().addInt32Tensor(axes));
  uint32_t keepDims;
  if (m.nnapi == OperationType::MEAN) {
    ANNRT_ASSIGN_OR_RETURN(keepDims, c.writer().addInt32(o->keep_dims() ? 1 : 0));
  } else {
    ANNRT_ASSIGN_OR_RETURN(keepDims, c.writer().addBool(o->keep_dims()));
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(m.nnapi, {input, axesOperand, keepDims}, {output});
}

// RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR: (input, size [height, width]).
Result<void> resize(Converter& c, const OpMapping& m) {
  bool alignCorners = false, halfPixelCenters = false;
  const fb::Operator& raw = *c.op().raw;
  if (auto* o = raw.builtin_options_as_ResizeBilinearOptions()) {
    alignCorners = o->align_corners();
    halfPixelCenters = o->half_pixel_centers();
  } else if (auto* o = raw.builtin_options_as_ResizeNearestNeighborOptions()) {
    alignCorners = o->align_corners();
    halfPixelCenters = o->half_pixel_centers();
  }
  ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> size, c.constantInts(1));
  if (size.size() != 2) return c.opError("size must hold [height, width]");
  std::vector<uint32_t> inputs(6);
  ANNRT_ASSIGN_OR_RETURN(inputs[0], c.input(0));
  ANNRT_ASSIGN_OR_RETURN(inputs[1], c.writer().addInt32(size[1]));
  ANNRT_ASSIGN_OR_RETURN(inputs[2], c.writer().addInt32(size[0]));
  ANNRT_ASSIGN_OR_RETURN(inputs[3], c.writer().addBool(false));  // NHWC
  ANNRT_ASSIGN_OR_RETURN(inputs[4], c.writer().addBool(alignCorners));
  ANNRT_ASSIGN_OR_RETURN(inputs[5], c.writer().addBool(halfPixelCenters));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(m.nnapi, inputs, {output});
}

Result<void> argMinMax(Converter& c, const OpMapping& m) {
  if (c.outputTensor(0).type != TensorType::INT32) {
    return c.opError("output type {} is not supported (INT32 only)",
                     tensorTypeName(c.outputTensor(0).type));
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> axis, c.constantInts(1));
  if (axis.size() != 1) return c.opError("axis must hold one value");
  ANNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, c.writer().addInt32(axis[0]));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(m.nnapi, {input, axisOperand}, {output});
}

Result<void> batchMatmul(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o,
                         requireOptions(c, c.op().raw->builtin_options_as_BatchMatMulOptions()));
  std::vector<uint32_t> inputs(4);
  ANNRT_ASSIGN_OR_RETURN(inputs[0], c.input(0));
  ANNRT_ASSIGN_OR_RETURN(inputs[1], c.input(1));
  ANNRT_ASSIGN_OR_RETURN(inputs[2], c.writer().addBool(o->adj_x()));
  ANNRT_ASSIGN_OR_RETURN(inputs[3], c.writer().addBool(o->adj_y()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(OperationType::BATCH_MATMUL, inputs, {output});
}

// DEQUANTIZE of a constant float16 tensor stays float16 in the model (see
// Converter::deferHalfDequantize); of another constant it is folded into a
// float32 constant; otherwise NNAPI DEQUANTIZE.
Result<void> dequantize(Converter& c, const OpMapping& m) {
  if (!c.isConstantInput(0)) return direct(c, m);
  if (c.outputTensor(0).type != TensorType::FLOAT32) {
    return c.opError("constant DEQUANTIZE to {} is not supported",
                     tensorTypeName(c.outputTensor(0).type));
  }
  if (c.inputTensor(0).type == TensorType::FLOAT16 && c.options().keepFloat16Weights) {
    if (c.inputTensor(0).elementCount() != c.outputTensor(0).elementCount()) {
      return c.opError("input has {} values, the output {}", c.inputTensor(0).elementCount(),
                       c.outputTensor(0).elementCount());
    }
    c.deferHalfDequantize();
    return {};
  }
  ANNRT_ASSIGN_OR_RETURN(FoldedConstant value, c.constantInput(0));
  ANNRT_ASSIGN_OR_RETURN(std::vector<float> values,
                         dequantized(c, value, c.inputTensor(0).quantization));
  if (values.size() != c.outputTensor(0).elementCount()) {
    return c.opError("input has {} values, the output {}", values.size(),
                     c.outputTensor(0).elementCount());
  }
  NewConstant result =
      c.newConstant(TensorType::FLOAT32, c.outputTensor(0).shape, values.size() * sizeof(float));
  if (!values.empty()) std::memcpy(result.bytes.data(), values.data(), result.bytes.size());
  c.foldOutput(0, std::move(result.value));
  return {};
}

// DENSIFY of a sparse constant: the dense constant.
Result<void> densify(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(FoldedConstant value, c.constantInput(0));
  const TensorView& output = c.outputTensor(0);
  if (value.type != output.type ||
      value.data.size() != output.elementCount() * tensorTypeSize(output.type)) {
    return c.opError("dense input does not match the output tensor");
  }
  value.shape = output.shape;
  c.foldOutput(0, std::move(value));
  return {};
}

}  // namespace annrt::tflite::mappers
