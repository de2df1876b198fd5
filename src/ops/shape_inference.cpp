// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/shape_inference.h"

#include <sys/mman.h>

#include <algorithm>

namespace annrt::ops {
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

// Whether the dims computed for an output agree with the declared ones
// (0 and an unknown rank agree with anything).
bool agrees(const std::vector<uint32_t>& declared, const std::vector<uint32_t>& computed) {
  if (declared.empty()) return true;
  if (declared.size() != computed.size()) return false;
  for (size_t i = 0; i < declared.size(); ++i) {
    if (declared[i] != 0 && declared[i] != computed[i]) return false;
  }
  return true;
}

// One operation seen by its `prepare`: the shapes being inferred, constant
// values, and zeros as the data of non-constant inputs (prepare only reads
// them where dataOnly says their values do not matter).
class InferenceContext final : public ExecutionContext {
 public:
  InferenceContext(const InferenceOperation& operation, std::span<const InferenceOperand> operands,
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
    const InferenceOperand& operand = operands_[operation_.inputs[i]];
    return operand.constant && operand.value == nullptr && !operand.subgraph;
  }
  const void* inputData(uint32_t i) const override {
    const InferenceOperand& operand = operands_[operation_.inputs[i]];
    if (operand.constant) return operand.value;
    return zeros_;  // sized for every input by zeroBytes
  }
  const Shape& outputShape(uint32_t i) const override { return shapes_[operation_.outputs[i]]; }
  Result<void> setOutputShape(uint32_t i, const Shape& shape) override {
    ANNRT_CHECK(i < outputCount(), "no output {}", i);
    Shape& declared = shapes_[operation_.outputs[i]];
    ANNRT_CHECK(shape.type == declared.type, "output {} computed as {}, declared {}", i,
                operandTypeName(shape.type), operandTypeName(declared.type));
    ANNRT_CHECK(agrees(declared.dims, shape.dims), "output {} computed as {}, the model has {}", i,
                toString(shape.dims), toString(declared.dims));
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
  const InferenceOperation& operation_;
  std::span<const InferenceOperand> operands_;
  std::vector<Shape>& shapes_;
  const void* zeros_;
  bool relaxed_;
  std::vector<bool> written_;
};

// Operations whose output shapes depend on values, not only on shapes.
bool valueDependent(const OperationRegistration& registration) {
  if (registration.extension != nullptr) return false;
  return registration.type == OperationType::IF || registration.type == OperationType::WHILE ||
         registration.type == OperationType::BOX_WITH_NMS_LIMIT;
}

// The bytes of the largest non-constant input (0 when one's size overflows).
size_t zeroBytes(const InferenceOperation& operation, std::span<const InferenceOperand> operands,
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

bool inferable(const InferenceOperation& operation, std::span<const InferenceOperand> operands,
               const std::vector<Shape>& shapes) {
  if (operation.registration == nullptr || valueDependent(*operation.registration)) return false;
  for (uint32_t input : operation.inputs) {
    if (operands[input].subgraph) return false;
    if (operands[input].constant) continue;
    if (!known(shapes[input]) || !dataOnly(shapes[input].type)) return false;
  }
  return true;
}

}  // namespace

Result<void> inferShapes(std::span<const InferenceOperation> operations,
                         std::span<const InferenceOperand> operands, std::vector<Shape>& shapes,
                         bool relaxed, const std::function<std::string(size_t)>& describe) {
  ZeroPages zeros;
  for (size_t k = 0; k < operations.size(); ++k) {
    const InferenceOperation& operation = operations[k];
    if (!inferable(operation, operands, shapes)) continue;
    // Where the zeros cannot be had, the outputs stay unknown.
    const size_t bytes = zeroBytes(operation, operands, shapes);
    const void* zeroData = bytes == 0 ? nullptr : zeros.reserve(bytes);
    if (zeroData == nullptr) continue;
    InferenceContext context(operation, operands, shapes, zeroData, relaxed);
    Result<void> prepared = operation.registration->prepare(context);
    if (!prepared.ok() || !context.allWritten()) {
      return makeError(ErrorCode::BAD_DATA, "{}: {}", describe(k),
                       prepared.ok() ? "no output shape computed" : prepared.error().message);
    }
  }
  return {};
}

}  // namespace annrt::ops
