// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "tflite_model_source.h"

#include <fmt/format.h>

#include "tflite/importer.h"

namespace annrt::tools {
namespace {

TensorDesc toDesc(const annrt::tflite::TensorInfo& info) {
  return TensorDesc{info.name, info.type, info.dims, info.scale, info.zeroPoint};
}

std::vector<TensorDesc> toDescs(const std::vector<annrt::tflite::TensorInfo>& infos) {
  std::vector<TensorDesc> descs;
  descs.reserve(infos.size());
  for (const auto& info : infos) descs.push_back(toDesc(info));
  return descs;
}

// [node type] is the TFLite operator; [Name] says which NNAPI operation it
// became and where it sits in the .tflite ("[CONV_2D]:12").
OperationLabel toLabel(const annrt::tflite::OperationInfo& op) {
  return OperationLabel{op.tfliteName, fmt::format("[{}]:{}", op.nnapiName, op.tfliteIndex)};
}

class TfliteModel : public ModelSource {
 public:
  explicit TfliteModel(std::unique_ptr<annrt::tflite::ImportedModel> imported)
      : imported_(std::move(imported)),
        inputs_(toDescs(imported_->inputs())),
        outputs_(toDescs(imported_->outputs())) {
    for (const auto& op : imported_->operations()) operations_.push_back(toLabel(op));
  }

  ANeuralNetworksModel* model() const override { return imported_->model(); }
  const std::vector<TensorDesc>& inputs() const override { return inputs_; }
  const std::vector<TensorDesc>& outputs() const override { return outputs_; }
  const std::vector<OperationLabel>& operations() const override { return operations_; }
  uint64_t sizeBytes() const override { return imported_->fileSize(); }

 private:
  std::unique_ptr<annrt::tflite::ImportedModel> imported_;
  std::vector<TensorDesc> inputs_;
  std::vector<TensorDesc> outputs_;
  std::vector<OperationLabel> operations_;
};

}  // namespace

Result<std::unique_ptr<ModelSource>> importTfliteModel(const std::string& path,
                                                       const ModelSourceOptions& options) {
  annrt::tflite::ImportOptions importOptions;
  importOptions.relaxFloat32toFloat16 = options.relaxFloat32toFloat16;
  importOptions.inputShapes = options.inputShapes;
  // --input_layer_shape resizes as benchmark_model does, with TFLite's
  // ResizeInputTensor: any dim may change; operations that cannot take the
  // new shapes make the import fail.
  importOptions.strictResize = false;
  auto imported = annrt::tflite::importFile(path, importOptions);
  if (!imported.ok()) {
    Error error = imported.takeError();
    error.message = fmt::format("cannot import {}", error.message);  // it names the file
    return error;
  }
  return std::unique_ptr<ModelSource>(new TfliteModel(std::move(imported).value()));
}

}  // namespace annrt::tools
