// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite/shape_inference.h"

#include <sys/mman.h>

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

// Read-only zeros as the data of non-constant inputs: an anonymous mapping,
// whose pages are the kernel's shared zero page, so a large one costs
// address space, not memory.
class ZeroPages {
 public:
  ZeroPages() = default;
  ZeroPages(const ZeroPages&) = delete;
  ZeroPages& operator=(const ZeroPages&) = delete;
  ~ZeroPages() { release(); }

  // At least `bytes` zeros, or nullptr when they cannot be mapped.
  const void* reserve(size_t bytes) {
    if (bytes <= size_) return data_;
    release();
    void* data =
        mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (data == MAP_FAILED) return nullptr;
    data_ = data;
    size_ = bytes;
    return data_;
  }

 private:
  void release() {
    if (data_ != nullptr) munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
  }

  void* data_ = nullptr;
  size_t size_ = 0;
};

// One operation seen by its `prepare`: shapes of the model being inferred,
// constant values, and zeros as the data of non-constant inputs (prepare
// only reads them where dataOnly says their values do not matter).
class InferenceContext final : public ops::ExecutionContext {
 public:
  InferenceContext(const WrittenOperation& operation, const std::vector<WrittenOperand>& operands,
                   std::vector<Shape>& shapes, const void* zeros, bool relaxed)
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
    return zeros_;  // sized for every input by zeroBytes
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
  const void* zeros_;
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

// The bytes of the largest non-constant input (0 when one's size overflows).
size_t zeroBytes(const WrittenOperation& operation, const std::vector<WrittenOperand>& operands,
                 const std::vector<Shape>& shapes) {
  size_t largest = 1;
  for (uint32_t input : operation.inputs) {
    if (operands[input].constant) continue;
    const size_t bytes = byteSize(shapes[input]);
    if (bytes == 0) return 0;
    largest = std::max(largest, bytes);
  }
  return largest;
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
  ZeroPages zeros;
  for (size_t k = 0; k < written.size(); ++k) {
    const WrittenOperation& operation = written[k];
    const ops::OperationRegistration* registration = registrationOf(operation);
    if (registration == nullptr || !inferable(operation, operands, shapes)) continue;
    // Where the zeros cannot be had, the outputs stay unknown.
    const size_t bytes = zeroBytes(operation, operands, shapes);
    const void* zeroData = bytes == 0 ? nullptr : zeros.reserve(bytes);
    if (zeroData == nullptr) continue;
    InferenceContext context(operation, operands, shapes, zeroData, relaxed);
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
