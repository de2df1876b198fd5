// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite/shape_inference.h"

#include <algorithm>

#include "ops/operation.h"

namespace annrt::tflite {
namespace {

bool known(const Shape& shape) {
  return isScalarType(shape.type) || !hasUnknownDims(shape);
}

// Non-constant operands whose values cannot change the output shapes: the
// data of float and quantized tensors.
bool dataOnly(OperandType type) {
  return type == OperandType::TENSOR_FLOAT32 || type == OperandType::TENSOR_FLOAT16 ||
         (isTensorType(type) && isQuantizedType(type));
}

// One operation seen by its `prepare`: shapes of the model being inferred,
// constant values, and zeros as the data of non-constant inputs (prepare
// only reads them where dataOnly says their values do not matter).
class InferenceContext final : public ops::ExecutionContext {
 public:
  InferenceContext(const WrittenOperation& operation, const std::vector<WrittenOperand>& operands,
                   std::vector<Shape>& shapes, std::vector<uint8_t>& zeros, bool relaxed)
      : operation_(operation),
        operands_(operands),
        shapes_(shapes),
        zeros_(zeros),
        relaxed_(relaxed),
        written_(operation.outputs.size(), false) {}

  uint32_t inputCount() const override { return operation_.inputs.size(); }
  uint32_t outputCount() const override { return operation_.outputs.size(); }
  const Shape& inputShape(uint32_t i) const override { return shapes_[operation_.inputs[i]]; }
  bool isOmittedInput(uint32_t i) const override {
    const WrittenOperand& operand = operands_[operation_.inputs[i]];
    return operand.constant && operand.value.empty() && !operand.subgraph;
  }
  const void* inputData(uint32_t i) const override {
    const WrittenOperand& operand = operands_[operation_.inputs[i]];
    if (operand.constant) return operand.value.empty() ? nullptr : operand.value.data();
    const size_t bytes = byteSize(inputShape(i));
    if (zeros_.size() < bytes) zeros_.resize(bytes);
    return zeros_.data();
  }
  const Shape& outputShape(uint32_t i) const override { return shapes_[operation_.outputs[i]]; }
  Result<void> setOutputShape(uint32_t i, const Shape& shape) override {
    ANNRT_CHECK(i < outputCount(), "no output {}", i);
    Shape& declared = shapes_[operation_.outputs[i]];
    ANNRT_CHECK(shape.type == declared.type, "output {} computed as {}, declared {}", i,
                operandTypeName(shape.type), operandTypeName(declared.type));
    ANNRT_CHECK(declared.dims.empty() || declared.dims.size() == shape.dims.size(),
                "output {} computed with rank {}, the model has rank {}", i, shape.dims.size(),
                declared.dims.size());
    declared.dims = shape.dims;
    written_[i] = true;
    return {};
  }
  void* outputData(uint32_t) override { return nullptr; }  // prepare never writes
  bool isRelaxed() const override { return relaxed_; }
  bool allWritten() const {
    return std::all_of(written_.begin(), written_.end(), [](bool w) { return w; });
  }

 private:
  const WrittenOperation& operation_;
  const std::vector<WrittenOperand>& operands_;
  std::vector<Shape>& shapes_;
  std::vector<uint8_t>& zeros_;
  bool relaxed_;
  std::vector<bool> written_;
};

const ops::OperationRegistration* registrationOf(const WrittenOperation& operation) {
  if (operation.extension != nullptr) {
    return ops::findExtensionOperation(operation.extension, operation.extensionCode);
  }
  const auto type = static_cast<OperationType>(operation.type);
  if (type == OperationType::IF || type == OperationType::WHILE ||
      type == OperationType::BOX_WITH_NMS_LIMIT) {
    return nullptr;  // output shapes depend on values
  }
  return ops::findOperation(type);
}

bool inferable(const WrittenOperation& operation, const std::vector<WrittenOperand>& operands,
               const std::vector<Shape>& shapes) {
  for (uint32_t input : operation.inputs) {
    if (operands[input].subgraph) return false;
    if (operands[input].constant) continue;
    if (!known(shapes[input]) || !dataOnly(shapes[input].type)) return false;
  }
  return true;
}

}  // namespace

Result<std::vector<std::vector<uint32_t>>> inferShapes(const NnapiWriter& writer, bool relaxed,
                                                       std::span<const OperationInfo> operations) {
  const std::vector<WrittenOperand>& operands = writer.operands();
  const std::vector<WrittenOperation>& written = writer.operations();
  std::vector<Shape> shapes;
  for (const WrittenOperand& operand : operands) shapes.push_back(operand.shape);
  // Computed operands start unknown: what the file says is for its own input
  // shapes. Model inputs (never an operation's output) keep their dims.
  for (const WrittenOperation& operation : written) {
    for (uint32_t output : operation.outputs) {
      std::fill(shapes[output].dims.begin(), shapes[output].dims.end(), 0);
    }
  }
  std::vector<uint8_t> zeros;
  for (size_t k = 0; k < written.size(); ++k) {
    const WrittenOperation& operation = written[k];
    const ops::OperationRegistration* registration = registrationOf(operation);
    if (registration == nullptr || !inferable(operation, operands, shapes)) continue;
    InferenceContext context(operation, operands, shapes, zeros, relaxed);
    Result<void> prepared = registration->prepare(context);
    if (!prepared.ok() || !context.allWritten()) {
      const std::string where = k < operations.size()
                                    ? fmt::format("{} (tflite op #{})", operations[k].tfliteName,
                                                  operations[k].tfliteIndex)
                                    : std::string(registration->name);
      return makeError(ErrorCode::BAD_DATA, "{} cannot take the resized input shapes: {}", where,
                       prepared.ok() ? "no output shape computed" : prepared.error().message);
    }
  }
  std::vector<std::vector<uint32_t>> dims(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) {
    if (!operands[i].constant && known(shapes[i])) dims[i] = shapes[i].dims;
  }
  return dims;
}

}  // namespace annrt::tflite
