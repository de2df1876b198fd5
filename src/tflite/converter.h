// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Converts one TFLite subgraph into one finished NNAPI model. Tensors become
// operands on first use; operators are translated by the mapping functions of
// op_table.h, which use the helpers below. Constant-only operators (DENSIFY,
// DEQUANTIZE of constants) are folded: their output becomes a constant.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/types.h"
#include "tflite/constant_pool.h"
#include "tflite/importer.h"
#include "tflite/model_reader.h"
#include "tflite/nnapi_writer.h"

namespace annrt::tflite {

// State shared by the conversions of all subgraphs of one file.
struct ImportState {
  const ModelReader* reader = nullptr;
  const ImportOptions* options = nullptr;
  // The mapped file and an NNAPI memory of it, when importing from a file.
  std::span<const uint8_t> file;
  ANeuralNetworksMemory* fileMemory = nullptr;
  // Where large computed constants go (null: each keeps its own bytes).
  ConstantPool* pool = nullptr;
  std::vector<ANeuralNetworksModel*> referencedModels;  // finished, owned by the caller
  std::map<int, ANeuralNetworksModel*> converted;       // subgraph index -> model
  std::vector<int> inProgress;                          // subgraphs being converted
  std::vector<OperationInfo> operations;                // of subgraph 0
  // Dims of subgraph 0's inputs (input_plan.h).
  std::vector<std::vector<uint32_t>> inputDims;
  // The inputs have their declared shapes, so the file's stored shapes of
  // every other tensor hold; otherwise those start unknown.
  bool declaredShapes = true;
  // Infer subgraph 0's shapes into `inferredDims` (a first conversion), or
  // give its operands the `inferredDims` of a first conversion.
  bool inferShapes = false;
  std::vector<std::vector<uint32_t>> inferredDims;
};

// A constant's values as the importer holds them: a range of the model
// file, of the import's constant pool (computed: densified, dequantized or
// narrowed), or of bytes it owns. Copies share the bytes.
struct FoldedConstant {
  TensorType type = TensorType::FLOAT32;
  std::vector<int32_t> shape;
  std::span<const uint8_t> data;
  std::shared_ptr<const std::vector<uint8_t>> owned;  // holds `data` when neither
};

// A constant being computed: `bytes` (zeroed) is where its values go.
struct NewConstant {
  FoldedConstant value;
  std::span<uint8_t> bytes;
};

class Converter {
 public:
  Converter(ImportState& state, int subgraphIndex);

  // Converts the subgraph into a finished model, owned by the writer until
  // `release`d; for subgraph 0 also fills state.operations.
  Result<void> run();
  NnapiWriter& writer() { return writer_; }
  // NNAPI operand indexes of the subgraph inputs and outputs.
  const std::vector<uint32_t>& inputOperands() const { return inputOperands_; }
  const std::vector<uint32_t>& outputOperands() const { return outputOperands_; }
  Result<Shape> operandShape(const TensorView& tensor) const;

  // ---- For mapping functions, about the operator being converted. ----
  const OperatorView& op() const { return *op_; }
  const SubgraphView& subgraph() const { return subgraph_; }
  const ImportOptions& options() const { return *state_.options; }
  // The shapes the file stores for computed tensors hold: the inputs have
  // their declared shapes (not resized).
  bool storedShapesHold() const { return state_.declaredShapes; }
  std::string opName() const;
  size_t inputCount() const { return op_->inputs.size(); }
  size_t outputCount() const { return op_->outputs.size(); }
  bool hasInput(size_t i) const { return i < op_->inputs.size() && op_->inputs[i] >= 0; }
  const TensorView& inputTensor(size_t i) const;
  const TensorView& outputTensor(size_t i) const;
  // The operand of input/output i (created on first use).
  Result<uint32_t> input(size_t i);
  Result<uint32_t> output(size_t i);
  // Bytes of a constant input (folded or from the file), or an error naming it.
  Result<FoldedConstant> constantInput(size_t i) const;
  // The values of a constant integer input (INT32 or INT64).
  Result<std::vector<int32_t>> constantInts(size_t i) const;
  bool isConstantInput(size_t i) const;
  // A new temporary operand.
  Result<uint32_t> temporary(const Shape& shape) { return writer_.addOperand(shape); }
  // Makes output i a constant with the given value; no operation is emitted.
  void foldOutput(size_t i, FoldedConstant value);
  // Room for a computed constant of `size` bytes: in the import's constant
  // pool when NNAPI would copy it at finish (so it is written once and the
  // model references it), else owned by the value.
  NewConstant newConstant(TensorType type, std::vector<int32_t> shape, size_t size) const;
  // Output 0 is input 0, a constant FLOAT16 tensor, dequantized to FLOAT32.
  // Operators taking it as an operand get the float16 constant through an
  // NNAPI CAST, so the model keeps the weights at half their float32 size and
  // devices fold the cast into their own weight layout; a mapper asking for
  // its values (constantInput) gets them dequantized here.
  void deferHalfDequantize();
  // Emits an NNAPI operation for the current operator.
  Result<void> emit(OperationType type, const std::vector<uint32_t>& inputs,
                    const std::vector<uint32_t>& outputs);
  Result<void> emitExtension(uint16_t code, const char* name, const std::vector<uint32_t>& inputs,
                             const std::vector<uint32_t>& outputs);
  // The finished model of another subgraph (IF/WHILE bodies), as an operand.
  Result<uint32_t> subgraphOperand(int32_t subgraphIndex);
  // An error about the current operator: "NAME (tflite op #i): message".
  template <typename... Args>
  Error opError(fmt::format_string<Args...> format, Args&&... args) const {
    return Error{ErrorCode::BAD_DATA,
                 fmt::format("{} (tflite op #{}): {}", opName(), op_->index,
                             fmt::format(format, std::forward<Args>(args)...))};
  }

 private:
  Result<void> convertOperator(const OperatorView& op);
  Result<uint32_t> operandFor(int32_t tensorIndex);
  Result<uint32_t> constantOperand(const TensorView& tensor);
  Result<FoldedConstant> constantOf(int32_t tensorIndex) const;
  Result<uint32_t> halfCastOperand(int32_t tensorIndex);
  Result<void> createInputs();
  Result<void> addInputsAndOutputs();
  void record(std::string nnapiName);

  ImportState& state_;
  int subgraphIndex_;
  const SubgraphView& subgraph_;
  NnapiWriter writer_;
  const OperatorView* op_ = nullptr;
  std::vector<std::optional<uint32_t>> operands_;  // by tensor index
  std::map<int32_t, FoldedConstant> folded_;       // by tensor index
  struct HalfConstant {
    int32_t source;                  // the FLOAT16 constant tensor
    const OperatorView* dequantize;  // the operator the CAST stands for
  };
  std::map<int32_t, HalfConstant> halfConstants_;  // by DEQUANTIZE output tensor
  std::vector<uint32_t> inputOperands_;
  std::vector<uint32_t> outputOperands_;
};

}  // namespace annrt::tflite
