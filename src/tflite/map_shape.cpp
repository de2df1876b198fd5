// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Shape and data-movement operators: reshapes, concatenation and splits,
// padding, slicing, transposition and gathering. TFLite passes most of their
// parameters as (usually constant) tensors, NNAPI as scalars or INT32 tensors.
#include <cstring>

#include "tflite/map_helpers.h"

namespace annrt::tflite::mappers {
namespace {

// An INT32 scalar operand from the single value of constant input `i`.
Result<uint32_t> scalarFromInput(Converter& c, size_t i) {
  ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> values, c.constantInts(i));
  if (values.size() != 1) return c.opError("input {} must hold one value", i);
  return c.writer().addInt32(values[0]);
}

// Integer input `i` as an NNAPI TENSOR_INT32 (INT64 constants narrowed).
Result<uint32_t> intTensorFromInput(Converter& c, size_t i) {
  if (c.isConstantInput(i) && c.inputTensor(i).type != TensorType::INT32 &&
      c.inputTensor(i).type != TensorType::INT64) {
    return c.opError("input {} must be INT32 or INT64", i);
  }
  return c.input(i);
}

// NNAPI's one-output SLICE of `input` along `axis`: [offset, offset + size).
Result<void> sliceAxis(Converter& c, uint32_t input, size_t rank, int32_t axis, int32_t offset,
                       int32_t size, uint32_t output) {
  std::vector<int32_t> begin(rank, 0), sizes(rank, -1);
  begin[axis] = offset;
  sizes[axis] = size;
  ANNRT_ASSIGN_OR_RETURN(uint32_t beginOperand, c.writer().addInt32Tensor(begin));
  ANNRT_ASSIGN_OR_RETURN(uint32_t sizeOperand, c.writer().addInt32Tensor(sizes));
  return c.emit(OperationType::SLICE, {input, beginOperand, sizeOperand}, {output});
}

}  // namespace

Result<void> reshape(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  uint32_t shape;
  const auto* options = c.op().raw->builtin_options_as_ReshapeOptions();
  if (c.hasInput(1) && c.inputTensor(1).shape.size() == 1) {
    ANNRT_ASSIGN_OR_RETURN(shape, intTensorFromInput(c, 1));
  } else if (options != nullptr && options->new_shape() != nullptr) {
    const auto* values = options->new_shape();
    ANNRT_ASSIGN_OR_RETURN(shape, c.writer().addInt32Tensor({values->begin(), values->end()}));
  } else {
    ANNRT_ASSIGN_OR_RETURN(shape, c.writer().addInt32Tensor(c.outputTensor(0).shape));
  }
  return c.emit(OperationType::RESHAPE, {input, shape}, {output});
}

Result<void> squeeze(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  const auto* options = c.op().raw->builtin_options_as_SqueezeOptions();
  std::vector<int32_t> axes;
  if (options != nullptr && options->squeeze_dims() != nullptr) {
    axes.assign(options->squeeze_dims()->begin(), options->squeeze_dims()->end());
  }
  if (axes.empty()) {  // all dimensions of size 1
    const auto& shape = c.inputTensor(0).shape;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) axes.push_back(static_cast<int32_t>(d));
    }
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t axesOperand, c.writer().addInt32Tensor(axes));
  return c.emit(OperationType::SQUEEZE, {input, axesOperand}, {output});
}

Result<void> expandDims(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t axis, scalarFromInput(c, 1));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(OperationType::EXPAND_DIMS, {input, axis}, {output});
}

Result<void> concatenation(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o,
                         requireOptions(c, c.op().raw->builtin_options_as_ConcatenationOptions()));
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> inputs, allInputs(c));
  ANNRT_ASSIGN_OR_RETURN(int32_t axis, normalizeAxis(c, o->axis(), c.outputTensor(0).shape.size()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, c.writer().addInt32(axis));
  inputs.push_back(axisOperand);
  ANNRT_ASSIGN_OR_RETURN(ActivationPlan plan,
                         planActivation(c, o->fused_activation_function(), false));
  ANNRT_RETURN_IF_ERROR(c.emit(OperationType::CONCATENATION, inputs, {plan.result}));
  return finishActivation(c, plan);
}

// PAD (input, paddings) and PADV2 (input, paddings, constant value).
Result<void> pad(Converter& c, const OpMapping& m) {
  std::vector<uint32_t> inputs(2);
  ANNRT_ASSIGN_OR_RETURN(inputs[0], c.input(0));
  ANNRT_ASSIGN_OR_RETURN(inputs[1], intTensorFromInput(c, 1));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  if (!c.hasInput(2)) return c.emit(OperationType::PAD, inputs, {output});
  ANNRT_ASSIGN_OR_RETURN(FoldedConstant value, c.constantInput(2));
  uint32_t padValue;
  if (value.type == TensorType::FLOAT32 && value.data.size() == 4) {
    float f;
    std::memcpy(&f, value.data.data(), 4);
    ANNRT_ASSIGN_OR_RETURN(padValue, c.writer().addFloat32(f));
  } else if (value.type == TensorType::UINT8 && value.data.size() == 1) {
    ANNRT_ASSIGN_OR_RETURN(padValue, c.writer().addInt32(value.data[0]));
  } else if (value.type == TensorType::INT8 && value.data.size() == 1) {
    ANNRT_ASSIGN_OR_RETURN(padValue, c.writer().addInt32(static_cast<int8_t>(value.data[0])));
  } else {
    return c.opError("constant value of type {} is not supported", tensorTypeName(value.type));
  }
  inputs.push_back(padValue);
  return c.emit(OperationType::PAD_V2, inputs, {output});
}

Result<void> mirrorPad(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o,
                         requireOptions(c, c.op().raw->builtin_options_as_MirrorPadOptions()));
  std::vector<uint32_t> inputs(3);
  ANNRT_ASSIGN_OR_RETURN(inputs[0], c.input(0));
  ANNRT_ASSIGN_OR_RETURN(inputs[1], intTensorFromInput(c, 1));
  ANNRT_ASSIGN_OR_RETURN(inputs[2], c.writer().addInt32(o->mode()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(OperationType::MIRROR_PAD, inputs, {output});
}

Result<void> transpose(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t permutation, intTensorFromInput(c, 1));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(OperationType::TRANSPOSE, {input, permutation}, {output});
}

Result<void> slice(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t begin, intTensorFromInput(c, 1));
  ANNRT_ASSIGN_OR_RETURN(uint32_t size, intTensorFromInput(c, 2));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(OperationType::SLICE, {input, begin, size}, {output});
}

Result<void> stridedSlice(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o,
                         requireOptions(c, c.op().raw->builtin_options_as_StridedSliceOptions()));
  if (o->ellipsis_mask() != 0 || o->new_axis_mask() != 0 || o->offset()) {
    return c.opError("ellipsis_mask, new_axis_mask and offset are not supported");
  }
  std::vector<uint32_t> inputs(7);
  ANNRT_ASSIGN_OR_RETURN(inputs[0], c.input(0));
  for (size_t i = 1; i <= 3; ++i) {
    ANNRT_ASSIGN_OR_RETURN(inputs[i], intTensorFromInput(c, i));
  }
  ANNRT_ASSIGN_OR_RETURN(inputs[4], c.writer().addInt32(o->begin_mask()));
  ANNRT_ASSIGN_OR_RETURN(inputs[5], c.writer().addInt32(o->end_mask()));
  ANNRT_ASSIGN_OR_RETURN(inputs[6], c.writer().addInt32(o->shrink_axis_mask()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(OperationType::STRIDED_SLICE, inputs, {output});
}

// TFLite SPLIT inputs: (axis, input).
Result<void> split(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(1));
  ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> axisValue, c.constantInts(0));
  if (axisValue.size() != 1) return c.opError("axis must hold one value");
  ANNRT_ASSIGN_OR_RETURN(int32_t axis,
                         normalizeAxis(c, axisValue[0], c.inputTensor(1).shape.size()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, c.writer().addInt32(axis));
  ANNRT_ASSIGN_OR_RETURN(uint32_t count,
                         c.writer().addInt32(static_cast<int32_t>(c.outputCount())));
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> outputs, allOutputs(c));
  return c.emit(OperationType::SPLIT, {input, axisOperand, count}, outputs);
}

// SPLIT_V (input, size_splits, axis): one SLICE per output.
Result<void> splitV(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> sizes, c.constantInts(1));
  ANNRT_ASSIGN_OR_RETURN(std::vector<int32_t> axisValue, c.constantInts(2));
  const auto& shape = c.inputTensor(0).shape;
  if (axisValue.size() != 1) return c.opError("axis must hold one value");
  ANNRT_ASSIGN_OR_RETURN(int32_t axis, normalizeAxis(c, axisValue[0], shape.size()));
  if (sizes.size() != c.outputCount()) return c.opError("size_splits does not match the outputs");
  int32_t offset = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const std::vector<int32_t>& outputShape = c.outputTensor(i).shape;
    if (sizes[i] < 0 && static_cast<size_t>(axis) >= outputShape.size()) {
      return c.opError("output {} has rank {}, no axis {} to take its size from", i,
                       outputShape.size(), axis);
    }
    const int32_t size = sizes[i] >= 0 ? sizes[i] : outputShape[axis];
    ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(i));
    ANNRT_RETURN_IF_ERROR(sliceAxis(c, input, shape.size(), axis, offset, size, output));
    offset += size;
  }
  return {};
}

Result<void> gather(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o,
                         requireOptions(c, c.op().raw->builtin_options_as_GatherOptions()));
  if (o->batch_dims() != 0) return c.opError("batch_dims {} is not supported", o->batch_dims());
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t indices, intTensorFromInput(c, 1));
  ANNRT_ASSIGN_OR_RETURN(int32_t axis, normalizeAxis(c, o->axis(), c.inputTensor(0).shape.size()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, c.writer().addInt32(axis));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(OperationType::GATHER, {input, axisOperand, indices}, {output});
}

Result<void> pack(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o, requireOptions(c, c.op().raw->builtin_options_as_PackOptions()));
  ANNRT_ASSIGN_OR_RETURN(int32_t axis, normalizeAxis(c, o->axis(), c.outputTensor(0).shape.size()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t axisOperand, c.writer().addInt32(axis));
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> inputs, allInputs(c));
  inputs.insert(inputs.begin(), axisOperand);
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(OperationType::PACK, inputs, {output});
}

// DEPTH_TO_SPACE and SPACE_TO_DEPTH: (input, block size).
Result<void> blockSize(Converter& c, const OpMapping& m) {
  const fb::Operator& raw = *c.op().raw;
  int32_t block = 0;
  if (auto* o = raw.builtin_options_as_DepthToSpaceOptions()) block = o->block_size();
  if (auto* o = raw.builtin_options_as_SpaceToDepthOptions()) block = o->block_size();
  if (block <= 0) return c.opError("block size {} must be positive", block);
  ANNRT_ASSIGN_OR_RETURN(uint32_t input, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t blockOperand, c.writer().addInt32(block));
  ANNRT_ASSIGN_OR_RETURN(uint32_t output, c.output(0));
  return c.emit(m.nnapi, {input, blockOperand}, {output});
}

}  // namespace annrt::tflite::mappers
