// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite/importer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "client/devices.h"
#include "tflite/converter.h"
#include "tflite/input_plan.h"
#include "tflite/model_reader.h"

namespace annrt::tflite {

size_t TensorInfo::byteSize() const {
  Shape shape = makeShape(static_cast<OperandType>(type), dims);
  return annrt::byteSize(shape);
}

ImportedModel::~ImportedModel() {
  for (ANeuralNetworksModel* model : models_) ANeuralNetworksModel_free(model);
  // After the models: NNAPI wants a memory to outlive the models using it.
  if (fileMemory_ != nullptr) ANeuralNetworksMemory_free(fileMemory_);
}

// Fills an ImportedModel from a finished conversion.
class ImportedModelBuilder {
 public:
  // `fileMemory` (may be null) is an NNAPI memory holding `bytes`; the
  // result owns it.
  static Result<std::unique_ptr<ImportedModel>> build(std::span<const uint8_t> bytes,
                                                      const ImportOptions& options,
                                                      ANeuralNetworksMemory* fileMemory) {
    auto imported = std::make_unique<ImportedModel>();
    imported->fileMemory_ = fileMemory;
    imported->fileSize_ = bytes.size();
    ANNRT_ASSIGN_OR_RETURN(ModelReader reader, ModelReader::open(bytes));
    const SubgraphView& main = reader.subgraphs()[0];
    ANNRT_ASSIGN_OR_RETURN(InputPlan plan, planInputs(main, options));
    ImportState state = newState(reader, options, bytes, fileMemory, plan);
    imported->constants_ = std::make_unique<ConstantPool>();
    state.pool = imported->constants_.get();
    if (!plan.declaredShapes && plan.allKnown) {
      // Resized inputs: a first conversion infers every operand's dims, which
      // the second one gives the model (NNAPI operands cannot change dims).
      ImportState first = newState(reader, options, bytes, fileMemory, plan);
      first.inferShapes = true;
      Converter inference(first, 0);
      Result<void> converted = inference.run();
      for (ANeuralNetworksModel* model : first.referencedModels) ANeuralNetworksModel_free(model);
      ANNRT_RETURN_IF_ERROR(converted);
      state.inferredDims = std::move(first.inferredDims);
    }
    Converter converter(state, 0);
    Result<void> converted = converter.run();
    imported->constants_->seal();
    // Referenced models belong to the result even when the conversion failed.
    for (ANeuralNetworksModel* model : state.referencedModels) imported->models_.push_back(model);
    if (!converted.ok()) return converted.takeError();
    imported->models_.insert(imported->models_.begin(), converter.writer().release());
    imported->operations_ = std::move(state.operations);
    imported->inputs_ = describe(converter, main, main.inputs, converter.inputOperands());
    imported->outputs_ = describe(converter, main, main.outputs, converter.outputOperands());
    return imported;
  }

 private:
  static ImportState newState(const ModelReader& reader, const ImportOptions& options,
                              std::span<const uint8_t> bytes, ANeuralNetworksMemory* fileMemory,
                              const InputPlan& plan) {
    ImportState state;
    state.reader = &reader;
    state.options = &options;
    state.file = bytes;
    state.fileMemory = fileMemory;
    state.inputDims = plan.dims;
    state.declaredShapes = plan.declaredShapes;
    return state;
  }

  // The model's inputs or outputs, with the dims and types their operands got.
  static std::vector<TensorInfo> describe(Converter& converter, const SubgraphView& subgraph,
                                          const std::vector<int32_t>& tensors,
                                          const std::vector<uint32_t>& operands) {
    std::vector<TensorInfo> infos;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const TensorView& tensor = subgraph.tensors[tensors[i]];
      const Shape& shape = converter.writer().operands()[operands[i]].shape;
      TensorInfo info;
      info.name = tensor.name;
      info.type = static_cast<int32_t>(shape.type);
      info.dims = shape.dims;
      info.signature = tensor.signature;
      info.scale = shape.scale;
      info.zeroPoint = shape.zeroPoint;
      infos.push_back(std::move(info));
    }
    return infos;
  }
};

Result<std::unique_ptr<ImportedModel>> importBuffer(std::span<const uint8_t> bytes,
                                                    const ImportOptions& options) {
  return ImportedModelBuilder::build(bytes, options, nullptr);
}

namespace {

// A read-only mapping of a whole file and an NNAPI memory of the same file.
class MappedFile {
 public:
  ~MappedFile() {
    if (data_ != nullptr) munmap(data_, size_);
    if (memory_ != nullptr) ANeuralNetworksMemory_free(memory_);
  }

  static Result<std::unique_ptr<MappedFile>> open(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    ANNRT_CHECK(fd >= 0, "cannot open {}: {}", path, std::strerror(errno));
    auto mapped = std::unique_ptr<MappedFile>(new MappedFile());
    Result<void> done = mapped->map(fd, path);
    ::close(fd);  // both mappings keep the file
    ANNRT_RETURN_IF_ERROR(done);
    return mapped;
  }

  std::span<const uint8_t> bytes() const { return {static_cast<const uint8_t*>(data_), size_}; }
  ANeuralNetworksMemory* releaseMemory() { return std::exchange(memory_, nullptr); }

 private:
  MappedFile() = default;

  Result<void> map(int fd, const std::string& path) {
    struct stat status {};
    ANNRT_CHECK(fstat(fd, &status) == 0 && S_ISREG(status.st_mode),
                "cannot read {}: not a regular file", path);
    ANNRT_CHECK(status.st_size > 0, "cannot read {}: the file is empty", path);
    size_ = static_cast<size_t>(status.st_size);
    void* data = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    ANNRT_CHECK(data != MAP_FAILED, "cannot map {}: {}", path, std::strerror(errno));
    data_ = data;
    const int created = ANeuralNetworksMemory_createFromFd(size_, PROT_READ, fd, 0, &memory_);
    ANNRT_CHECK(created == ANEURALNETWORKS_NO_ERROR, "cannot create an NNAPI memory of {}", path);
    return {};
  }

  void* data_ = nullptr;
  size_t size_ = 0;
  ANeuralNetworksMemory* memory_ = nullptr;
};

}  // namespace

Result<std::unique_ptr<ImportedModel>> importFile(const std::string& path,
                                                  const ImportOptions& options) {
  // Mapped rather than read: the model's constants stay the file's pages
  // (shared with the page cache, no copy), as TFLite's mmapped models do.
  Result<std::unique_ptr<MappedFile>> mapped = MappedFile::open(path);
  if (!mapped.ok()) return mapped.takeError();
  ANeuralNetworksMemory* memory = (*mapped)->releaseMemory();
  auto imported = ImportedModelBuilder::build((*mapped)->bytes(), options, memory);
  if (!imported.ok()) {
    Error error = imported.takeError();
    error.message = fmt::format("{}: {}", path, error.message);
    return error;
  }
  return imported;
}

std::vector<std::string> unsupportedOperations(const ImportedModel& model) {
  std::vector<std::string> lines;
  auto listed = client::listDevices();
  if (!listed.ok()) return {"cannot list NNAPI devices: " + listed.error().message};
  std::vector<const ANeuralNetworksDevice*> devices;
  for (const client::DeviceInfo& device : *listed) devices.push_back(device.handle);
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
