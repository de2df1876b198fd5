// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite_delegate/partition_kernel.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <map>

#include "client/result_codes.h"
#include "tflite_delegate/delegate.h"

namespace annrt::tflite::delegate {
namespace {

TfLiteStatus report(TfLiteContext* context, const Result<void>& result) {
  if (result.ok()) return kTfLiteOk;
  context->ReportError(context, "annrt delegate: %s", result.error().message.c_str());
  return kTfLiteError;
}

}  // namespace

Result<std::unique_ptr<PartitionKernel>> PartitionKernel::create(
    const Delegate& delegate, int index, TfLiteContext* context,
    const TfLiteDelegateParams& params) {
  const std::span<const int> nodes(params.nodes_to_replace->data, params.nodes_to_replace->size);
  const std::span<const int> outputs(params.output_tensors->data, params.output_tensors->size);
  ANNRT_ASSIGN_OR_RETURN(WrittenPartition partition,
                         writePartition(context, nodes, outputs, delegate.weights()));
  std::unique_ptr<PartitionKernel> kernel(
      new PartitionKernel(delegate, index, std::move(partition)));
  const auto shapes = kernel->inputShapes(context);
  ANNRT_RETURN_IF_ERROR(kernel->build(shapes));
  const WrittenPartition& written = kernel->partition_;
  std::map<std::string, int> ops;
  for (size_t i = written.weightNodes; i < written.operatorNames.size(); ++i) {
    ++ops[written.operatorNames[i]];
  }
  std::vector<std::string> counts;
  counts.reserve(ops.size());
  for (const auto& [name, count] : ops) counts.push_back(fmt::format("{} x{}", name, count));
  delegate.log(LogLevel::INFO,
               fmt::format("annrt partition {}: {} node(s) ({}) and {} weight node(s) -> {} NNAPI "
                           "operation(s) on {}",
                           index, nodes.size(), fmt::join(counts, ", "), written.weightNodes,
                           kernel->model_->operations().size(),
                           tools::describeSelection(delegate.selection())));
  return kernel;
}

std::vector<std::vector<uint32_t>> PartitionKernel::inputShapes(TfLiteContext* context) const {
  std::vector<std::vector<uint32_t>> shapes;
  for (const int input : partition_.inputs) {
    const TfLiteIntArray* dims = context->tensors[input].dims;
    shapes.emplace_back(dims->data, dims->data + dims->size);
  }
  return shapes;
}

Result<void> PartitionKernel::build(const std::vector<std::vector<uint32_t>>& shapes) {
  const DelegateOptions& options = delegate_.options();
  ImportOptions importOptions;
  importOptions.relaxFloat32toFloat16 = options.allowFp16;
  // The file holds the shapes the partition was written with; later
  // resizes are TFLite's ResizeInputTensor (any dim may change).
  if (!compiledShapes_.empty()) {
    importOptions.inputShapes = shapes;
    importOptions.strictResize = false;
  }
  execution_.reset();  // of the previous compilation
  ANNRT_ASSIGN_OR_RETURN(model_, importBuffer(partition_.file, importOptions));
  tools::CompileSettings settings;
  settings.preference = options.preference;
  settings.numThreads = options.numThreads;
  if (!options.cacheDir.empty()) {
    settings.cacheDir = options.cacheDir;
    // Partitions are distinct models under one model token; the runtime's
    // cache key adds the input shapes.
    settings.cacheToken = fmt::format("{}/partition {}", options.modelToken, index_);
  }
  ANNRT_ASSIGN_OR_RETURN(compilation_,
                         tools::compileModel(model_->model(), delegate_.selection(), settings));
  compiledShapes_ = shapes;
  counters().builds++;
  return {};
}

Result<void> PartitionKernel::prepare(TfLiteContext* context) {
  const auto shapes = inputShapes(context);
  if (shapes != compiledShapes_) ANNRT_RETURN_IF_ERROR(build(shapes));
  for (size_t i = 0; i < partition_.outputs.size(); ++i) {
    TfLiteTensor& tensor = context->tensors[partition_.outputs[i]];
    const std::vector<uint32_t>& dims = model_->outputs()[i].dims;
    const bool same = tensor.dims != nullptr &&
                      tensor.dims->size == static_cast<int>(dims.size()) &&
                      std::equal(dims.begin(), dims.end(), tensor.dims->data);
    if (same) continue;
    // ResizeTensor takes ownership of the array and frees it with free().
    // Allocated here rather than by TfLiteIntArrayCreate, which not every
    // TFLite build exports.
    auto* resized = static_cast<TfLiteIntArray*>(
        std::malloc(sizeof(TfLiteIntArray) + dims.size() * sizeof(int)));
    ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, resized != nullptr, "out of memory");
    resized->size = static_cast<int>(dims.size());
    std::copy(dims.begin(), dims.end(), resized->data);
    ANNRT_CHECK(context->ResizeTensor(context, &tensor, resized) == kTfLiteOk,
                "TFLite could not resize output tensor {}", partition_.outputs[i]);
  }
  return {};
}

std::vector<PartitionKernel::Buffer> PartitionKernel::buffers(TfLiteContext* context) const {
  std::vector<Buffer> result;
  result.reserve(partition_.inputs.size() + partition_.outputs.size());
  for (const int input : partition_.inputs) {
    result.push_back({context->tensors[input].data.raw, context->tensors[input].bytes});
  }
  for (const int output : partition_.outputs) {
    result.push_back({context->tensors[output].data.raw, context->tensors[output].bytes});
  }
  return result;
}

// TFLite's tensors are the execution's buffers: nothing is copied. The
// execution is reusable and kept while TFLite's buffers stay where they are.
Result<void> PartitionKernel::bind(const std::vector<Buffer>& buffers) {
  execution_.reset();
  ANeuralNetworksExecution* raw = nullptr;
  ANNRT_RETURN_IF_ERROR(
      client::checkNnapi(ANeuralNetworksExecution_create(compilation_.get(), &raw),
                         "ANeuralNetworksExecution_create"));
  std::unique_ptr<ANeuralNetworksExecution, ExecutionDeleter> execution(raw);
  ANNRT_RETURN_IF_ERROR(client::checkNnapi(ANeuralNetworksExecution_setReusable(raw, true),
                                           "ANeuralNetworksExecution_setReusable"));
  const size_t inputs = partition_.inputs.size();
  for (size_t i = 0; i < buffers.size(); ++i) {
    const bool input = i < inputs;
    const auto index = static_cast<int32_t>(input ? i : i - inputs);
    const int code = input ? ANeuralNetworksExecution_setInput(raw, index, nullptr, buffers[i].data,
                                                               buffers[i].bytes)
                           : ANeuralNetworksExecution_setOutput(raw, index, nullptr,
                                                                buffers[i].data, buffers[i].bytes);
    ANNRT_RETURN_IF_ERROR(client::checkNnapi(
        code, input ? "ANeuralNetworksExecution_setInput" : "ANeuralNetworksExecution_setOutput"));
  }
  execution_ = std::move(execution);
  bound_ = buffers;
  return {};
}

Result<void> PartitionKernel::invoke(TfLiteContext* context) {
  const std::vector<Buffer> current = buffers(context);
  if (!execution_ || current != bound_) ANNRT_RETURN_IF_ERROR(bind(current));
  ANNRT_RETURN_IF_ERROR(client::checkNnapi(ANeuralNetworksExecution_compute(execution_.get()),
                                           "ANeuralNetworksExecution_compute"));
  counters().invocations++;
  return {};
}

TfLiteRegistration PartitionKernel::registration() {
  TfLiteRegistration registration{};
  registration.init = [](TfLiteContext* context, const char* buffer, size_t) -> void* {
    const auto& params = *reinterpret_cast<const TfLiteDelegateParams*>(buffer);
    Delegate& delegate = *Delegate::of(params.delegate);
    if (auto built = delegate.takeKernel(params.nodes_to_replace->data[0])) return built.release();
    auto kernel = create(delegate, 0, context, params);
    if (!kernel.ok()) {
      context->ReportError(context, "annrt delegate: %s", kernel.error().message.c_str());
      return nullptr;
    }
    return std::move(kernel).value().release();
  };
  registration.free = [](TfLiteContext*, void* kernel) {
    delete static_cast<PartitionKernel*>(kernel);
  };
  registration.prepare = [](TfLiteContext* context, TfLiteNode* node) -> TfLiteStatus {
    auto* kernel = static_cast<PartitionKernel*>(node->user_data);
    if (kernel == nullptr) return kTfLiteError;  // init reported why
    return report(context, kernel->prepare(context));
  };
  registration.invoke = [](TfLiteContext* context, TfLiteNode* node) -> TfLiteStatus {
    auto* kernel = static_cast<PartitionKernel*>(node->user_data);
    if (kernel == nullptr) return kTfLiteError;
    return report(context, kernel->invoke(context));
  };
  registration.custom_name = "annrt";
  registration.builtin_code = 51;  // kTfLiteBuiltinDelegate (builtin_ops.h, not in the C API)
  registration.version = 1;
  return registration;
}

}  // namespace annrt::tflite::delegate
