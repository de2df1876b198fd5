// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The TFLite importer: turns a .tflite file into a finished
// ANeuralNetworksModel through the public NNAPI C API, the way TFLite's NNAPI
// delegate does. Operators without an NNAPI equivalent become operations of
// the NNAPI extension "com.annrt.tflite" (e.g. MediaPipe's
// Convolution2DTransposeBias). Malformed files are rejected with BAD_DATA and a
// message; they never crash the importer.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"

namespace annrt::tflite {

class ConstantPool;

// The NNAPI extension of TFLite operators with no NNAPI equivalent.
inline constexpr const char* kExtensionName = "com.annrt.tflite";

struct TensorInfo {
  std::string name;
  int32_t type = 0;  // NNAPI OperandCode of the model input/output
  // Dims in the NNAPI model: an input's declared `shape` (or its resized
  // dims; 0 where ImportOptions::keepDynamicDims left a -1 dim unknown), an
  // output's as inferred from them (0 = known at execution time only).
  std::vector<uint32_t> dims;
  // The file's shape_signature (its `shape` when it has none): -1 marks the
  // dims that may be resized.
  std::vector<int32_t> signature{};
  float scale = 0;
  int32_t zeroPoint = 0;
  size_t byteSize() const;  // for fully specified dims
};

// Input shapes follow TensorFlow Lite: by default every input has the
// `shape` the file declares, as the interpreter allocates it, so every
// operand's dims are known (and annrt-cpu can claim the model); a
// shape_signature of -1 only marks a dim that may be resized.
struct ImportOptions {
  bool relaxFloat32toFloat16 = false;  // --nnapi_allow_fp16
  // Resized inputs, one shape per subgraph 0 input (--input_layer_shape), as
  // TFLite's ResizeInputTensor then AllocateTensors: the other tensors' dims
  // are inferred from them; an operation that cannot take them is an error.
  std::vector<std::vector<uint32_t>> inputShapes;
  // As ResizeInputTensorStrict: only dims whose shape_signature is -1 may
  // change. false: any dim may (ResizeInputTensor, what benchmark_model uses).
  bool strictResize = true;
  // The inputs' -1 dims stay unknown (0) in the NNAPI model, to be given at
  // execution time (ANeuralNetworksExecution_setInput with an operand type);
  // the other tensors' dims are then unknown too and the runtime computes
  // them per execution (ANeuralNetworksExecution_getOutputOperandDimensions
  // reports the outputs'). Devices that need static shapes (annrt-cpu) leave
  // such a model to the reference device.
  bool keepDynamicDims = false;
  // Constant float16 weights (DEQUANTIZE of a FLOAT16 constant) stay float16
  // in the model behind an NNAPI CAST, at half the memory; false folds them
  // into float32 constants.
  bool keepFloat16Weights = true;
};

struct OperationInfo {     // one per NNAPI operation in the imported model, in order
  std::string tfliteName;  // e.g. "CONV_2D" or custom op name
  int tfliteIndex = 0;     // operator index in subgraph 0
  std::string nnapiName;   // e.g. "CONV_2D", or "com.annrt.tflite:CONVOLUTION_2D_TRANSPOSE_BIAS"
};

// Owns a *finished* ANeuralNetworksModel (+ the referenced models of IF/WHILE
// and the constant data they use).
class ImportedModel {
 public:
  ImportedModel() = default;
  ImportedModel(const ImportedModel&) = delete;
  ImportedModel& operator=(const ImportedModel&) = delete;
  ~ImportedModel();

  ANeuralNetworksModel* model() const { return models_.empty() ? nullptr : models_.front(); }
  const std::vector<TensorInfo>& inputs() const { return inputs_; }
  const std::vector<TensorInfo>& outputs() const { return outputs_; }
  const std::vector<OperationInfo>& operations() const { return operations_; }
  size_t fileSize() const { return fileSize_; }

 private:
  friend class ImportedModelBuilder;
  std::vector<ANeuralNetworksModel*> models_;  // main model first
  std::vector<TensorInfo> inputs_;
  std::vector<TensorInfo> outputs_;
  std::vector<OperationInfo> operations_;
  size_t fileSize_ = 0;
  // The .tflite file the models' large constants are ranges of (file imports).
  ANeuralNetworksMemory* fileMemory_ = nullptr;
  // The large constants the import computed (destroyed after the models).
  std::unique_ptr<ConstantPool> constants_;
};

annrt::Result<std::unique_ptr<ImportedModel>> importFile(const std::string& path,
                                                         const ImportOptions& options = {});
annrt::Result<std::unique_ptr<ImportedModel>> importBuffer(std::span<const uint8_t> bytes,
                                                           const ImportOptions& options = {});

// Operations of the imported model that no available device supports (from
// ANeuralNetworksModel_getSupportedOperationsForDevices over all devices), as
// lines "unsupported operation NAME (tflite op #i)"; empty when all are
// supported.
std::vector<std::string> unsupportedOperations(const ImportedModel& model);

}  // namespace annrt::tflite
