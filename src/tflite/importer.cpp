// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite/importer.h"

#include <fstream>
#include <iterator>

#include "tflite/converter.h"
#include "tflite/model_reader.h"

namespace annrt::tflite {

size_t TensorInfo::byteSize() const {
  Shape shape = makeShape(static_cast<OperandType>(type), dims);
  return annrt::byteSize(shape);
}

ImportedModel::~ImportedModel() {
  for (ANeuralNetworksModel* model : models_) ANeuralNetworksModel_free(model);
}

// Fills an ImportedModel from a finished conversion.
class ImportedModelBuilder {
 public:
  static Result<std::unique_ptr<ImportedModel>> build(std::span<const uint8_t> bytes,
                                                      const ImportOptions& options) {
    ANNRT_ASSIGN_OR_RETURN(ModelReader reader, ModelReader::open(bytes));
    ImportState state;
    state.reader = &reader;
    state.options = &options;
    auto imported = std::make_unique<ImportedModel>();
    imported->fileSize_ = bytes.size();
    Converter converter(state, 0);
    Result<void> converted = converter.run();
    // Referenced models belong to the result even when the conversion failed.
    for (ANeuralNetworksModel* model : state.referencedModels) imported->models_.push_back(model);
    if (!converted.ok()) return converted.takeError();
    imported->models_.insert(imported->models_.begin(), converter.writer().release());
    imported->operations_ = std::move(state.operations);
    const SubgraphView& main = reader.subgraphs()[0];
    ANNRT_ASSIGN_OR_RETURN(imported->inputs_, describe(converter, main, main.inputs, options));
    ANNRT_ASSIGN_OR_RETURN(imported->outputs_, describe(converter, main, main.outputs, {}));
    return imported;
  }

 private:
  static Result<std::vector<TensorInfo>> describe(const Converter& converter,
                                                  const SubgraphView& subgraph,
                                                  const std::vector<int32_t>& tensors,
                                                  const ImportOptions& options) {
    std::vector<TensorInfo> infos;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const TensorView& tensor = subgraph.tensors[tensors[i]];
      ANNRT_ASSIGN_OR_RETURN(Shape shape, converter.operandShape(tensor));
      TensorInfo info;
      info.name = tensor.name;
      info.type = static_cast<int32_t>(shape.type);
      for (int32_t extent : tensor.signature) info.dims.push_back(extent < 0 ? 0 : extent);
      if (i < options.inputShapes.size()) info.dims = options.inputShapes[i];
      info.scale = shape.scale;
      info.zeroPoint = shape.zeroPoint;
      infos.push_back(std::move(info));
    }
    return infos;
  }
};

Result<std::unique_ptr<ImportedModel>> importBuffer(std::span<const uint8_t> bytes,
                                                    const ImportOptions& options) {
  return ImportedModelBuilder::build(bytes, options);
}

Result<std::unique_ptr<ImportedModel>> importFile(const std::string& path,
                                                  const ImportOptions& options) {
  std::ifstream file(path, std::ios::binary);
  ANNRT_CHECK(file.good(), "cannot open {}", path);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), {});
  ANNRT_CHECK(!file.bad(), "cannot read {}", path);
  auto imported = importBuffer(bytes, options);
  if (!imported.ok()) {
    Error error = imported.takeError();
    error.message = fmt::format("{}: {}", path, error.message);
    return error;
  }
  return imported;
}

std::vector<std::string> unsupportedOperations(const ImportedModel& model) {
  std::vector<std::string> lines;
  uint32_t deviceCount = 0;
  if (ANeuralNetworks_getDeviceCount(&deviceCount) != ANEURALNETWORKS_NO_ERROR) {
    return {"cannot list NNAPI devices"};
  }
  std::vector<const ANeuralNetworksDevice*> devices;
  for (uint32_t i = 0; i < deviceCount; ++i) {
    ANeuralNetworksDevice* device = nullptr;
    if (ANeuralNetworks_getDevice(i, &device) == ANEURALNETWORKS_NO_ERROR) {
      devices.push_back(device);
    }
  }
  const auto& operations = model.operations();
  std::unique_ptr<bool[]> supported(new bool[operations.size() + 1]());
  if (ANeuralNetworksModel_getSupportedOperationsForDevices(
          model.model(), devices.data(), static_cast<uint32_t>(devices.size()), supported.get()) !=
      ANEURALNETWORKS_NO_ERROR) {
    return {"cannot query the operations the devices support"};
  }
  for (size_t i = 0; i < operations.size(); ++i) {
    if (supported[i]) continue;
    const OperationInfo& op = operations[i];
    lines.push_back(fmt::format("unsupported operation {} (tflite op #{})",
                                op.nnapiName == op.tfliteName
                                    ? op.nnapiName
                                    : fmt::format("{} from {}", op.nnapiName, op.tfliteName),
                                op.tfliteIndex));
  }
  return lines;
}

}  // namespace annrt::tflite
