// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite_delegate/delegate.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "client/devices.h"
#include "client/result_codes.h"
#include "common/log.h"
#include "tflite/importer.h"
#include "tflite/op_table.h"
#include "tflite_delegate/partition_kernel.h"
#include "tflite_delegate/partition_writer.h"

namespace annrt::tflite::delegate {
namespace {

constexpr int32_t kDequantize = 6;
constexpr int32_t kDensify = 124;

Result<tools::DeviceSelection> selectDevices(const std::vector<std::string>& names) {
  tools::DeviceSelection selection;
  if (names.empty()) return selection;
  ANNRT_ASSIGN_OR_RETURN(const auto available, client::listDevices());
  selection.runtimeChooses = false;
  for (const std::string& name : names) {
    ANNRT_ASSIGN_OR_RETURN(const tools::DeviceSelection one,
                           tools::selectDevices(available, name, false, "option devices"));
    selection.devices.push_back(one.devices.front());
  }
  return selection;
}

std::vector<int> toVector(const TfLiteIntArray* array) {
  return std::vector<int>(array->data, array->data + array->size);
}

// A TfLiteIntArray TFLite only reads: { int size; int data[]; } laid out
// in ints.
struct IntArray {
  explicit IntArray(const std::vector<int>& values) : storage(values.size() + 1) {
    storage[0] = static_cast<int>(values.size());
    std::copy(values.begin(), values.end(), storage.begin() + 1);
  }
  TfLiteIntArray* array() { return reinterpret_cast<TfLiteIntArray*>(storage.data()); }
  std::vector<int> storage;
};

// The constant weights TFLite computes of `nodes` (see WeightProducers);
// `nodes` are in execution order, producers first.
Result<WeightProducers> findWeights(TfLiteContext* context, const std::vector<int>& nodes) {
  WeightProducers weights;
  for (const int index : nodes) {
    TfLiteNode* node = nullptr;
    TfLiteRegistration* registration = nullptr;
    ANNRT_CHECK(context->GetNodeAndRegistration(context, index, &node, &registration) == kTfLiteOk,
                "TFLite has no node {}", index);
    const int32_t code = registration->builtin_code;
    if ((code != kDequantize && code != kDensify) || node->inputs->size != 1 ||
        node->outputs->size != 1 || node->inputs->data[0] < 0) {
      continue;
    }
    const int input = node->inputs->data[0];
    const bool constant = context->tensors[input].allocation_type == kTfLiteMmapRo;
    if (constant || weights.count(input) != 0) weights[node->outputs->data[0]] = index;
  }
  return weights;
}

}  // namespace

Counters& counters() {
  static Counters kCounters;
  return kCounters;
}

Result<std::unique_ptr<Delegate>> Delegate::create(DelegateOptions options) {
  ANNRT_ASSIGN_OR_RETURN(tools::DeviceSelection selection, selectDevices(options.devices));
  return std::unique_ptr<Delegate>(new Delegate(std::move(options), std::move(selection)));
}

void Delegate::log(LogLevel level, const std::string& line) const {
  if (level > options_.logLevel) return;
  const char* tag = level == LogLevel::VERBOSE   ? "V"
                    : level == LogLevel::INFO    ? "I"
                    : level == LogLevel::WARNING ? "W"
                                                 : "E";
  logLine(tag, "annrt-tflite-delegate", line);
}

Delegate::Delegate(DelegateOptions options, tools::DeviceSelection selection)
    : base_(), options_(std::move(options)), selection_(std::move(selection)) {
  base_.data_ = this;
  base_.Prepare = &Delegate::prepare;
  // The partitions re-prepare themselves when TFLite resizes their inputs.
  // Without the flag TFLite would also prepare every node before delegating,
  // which fails for MediaPipe's custom operators TFLite itself lacks.
  base_.flags = kTfLiteDelegateFlagsAllowDynamicTensors;
}

TfLiteStatus Delegate::prepare(TfLiteContext* context, TfLiteDelegate* delegate) {
  const Result<void> result = of(delegate)->claimNodes(context);
  if (result.ok()) return kTfLiteOk;
  context->ReportError(context, "annrt delegate: %s", result.error().message.c_str());
  return kTfLiteError;
}

// Why a node stays with TFLite ("" when it is claimed). A node is claimed when the importer
// converts it alone (with its constant float16 weights) and the chosen devices (all devices when
// the runtime chooses) support every NNAPI operation it becomes. The weights' DEQUANTIZE nodes stay
// with TFLite, which computes them once.
Result<std::string> Delegate::refusal(TfLiteContext* context, int index) {
  TfLiteNode* node = nullptr;
  TfLiteRegistration* registration = nullptr;
  ANNRT_CHECK(context->GetNodeAndRegistration(context, index, &node, &registration) == kTfLiteOk,
              "TFLite has no node {}", index);
  const std::string_view custom = registration->custom_name ? registration->custom_name : "";
  if (options_.skipOps.count(registration->builtin_code) != 0 ||
      options_.skipCustomOps.count(std::string(custom)) != 0) {
    return std::string("skip_ops");
  }
  const OpMapping* mapping = findMapping(registration->builtin_code, custom);
  if (mapping == nullptr) return std::string("annrt does not map it");
  if (registration->version > mapping->maxVersion) {
    return fmt::format("version {} (annrt maps up to {})", registration->version,
                       mapping->maxVersion);
  }
  // Other DEQUANTIZE nodes (of computed float16 tensors, e.g. after a
  // DENSIFY) have no NNAPI counterpart; asking would only log the refusal.
  if (registration->builtin_code == kDequantize) return std::string("a computed DEQUANTIZE");
  const std::vector<int> nodes{index};
  const std::vector<int> outputs = toVector(node->outputs);
  auto written = writePartition(context, nodes, outputs, weights_);
  if (!written.ok()) return written.error().message;
  auto imported = importBuffer(written->file);
  if (!imported.ok()) return imported.error().message;
  const size_t count = (*imported)->operations().size();
  if (count == 0) return std::string();
  std::vector<const ANeuralNetworksDevice*> handles;
  if (selection_.runtimeChooses) {
    ANNRT_ASSIGN_OR_RETURN(const auto available, client::listDevices());
    for (const auto& device : available) handles.push_back(device.handle);
  } else {
    for (const auto& device : selection_.devices) handles.push_back(device.handle);
  }
  std::unique_ptr<bool[]> flags(new bool[count]());
  ANNRT_RETURN_IF_ERROR(client::checkNnapi(
      ANeuralNetworksModel_getSupportedOperationsForDevices(
          (*imported)->model(), handles.data(), static_cast<uint32_t>(handles.size()), flags.get()),
      "ANeuralNetworksModel_getSupportedOperationsForDevices"));
  if (std::all_of(flags.get(), flags.get() + count, [](bool b) { return b; })) return std::string();
  return fmt::format("not supported by {}", tools::describeSelection(selection_));
}

// TFLite's own partitioning of the claimed nodes, keeping the largest
// partitions (at most max_partitions, each of min_nodes_per_partition). Each
// kept partition is built here, so that one the devices refuse after all
// stays with TFLite rather than failing the interpreter.
Result<Delegate::Chosen> Delegate::choosePartitions(TfLiteContext* context,
                                                    const std::vector<int>& nodes) {
  IntArray claimed(nodes);
  TfLiteDelegateParams* partitions = nullptr;
  int count = 0;
  ANNRT_CHECK(context->PreviewDelegatePartitioning(context, claimed.array(), &partitions, &count) ==
                  kTfLiteOk,
              "TFLite could not preview the partitioning");
  std::vector<const TfLiteDelegateParams*> order;
  order.reserve(static_cast<size_t>(std::max(count, 0)));
  for (int i = 0; i < count; ++i) order.push_back(&partitions[i]);
  std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
    return a->nodes_to_replace->size > b->nodes_to_replace->size;
  });
  Chosen chosen;
  int refused = 0, refusedNodes = 0;
  std::string reason;
  for (const TfLiteDelegateParams* partition : order) {
    if (options_.maxPartitions > 0 && chosen.partitions == options_.maxPartitions) break;
    if (partition->nodes_to_replace->size < options_.minNodesPerPartition) break;
    auto kernel = PartitionKernel::create(*this, chosen.partitions, context, *partition);
    if (!kernel.ok()) {
      if (refused++ == 0) reason = kernel.error().message;
      refusedNodes += partition->nodes_to_replace->size;
      continue;
    }
    const auto replaced = toVector(partition->nodes_to_replace);
    built_[replaced.front()] = std::move(kernel).value();
    chosen.nodes.insert(chosen.nodes.end(), replaced.begin(), replaced.end());
    ++chosen.partitions;
  }
  if (refused > 0) {
    log(LogLevel::WARNING,
        fmt::format("{} partition(s) of {} node(s) stay with TFLite, the devices refused them "
                    "(first: {})",
                    refused, refusedNodes, reason));
  }
  std::sort(chosen.nodes.begin(), chosen.nodes.end());
  return chosen;
}

std::unique_ptr<PartitionKernel> Delegate::takeKernel(int firstNode) {
  const auto found = built_.find(firstNode);
  if (found == built_.end()) return nullptr;
  std::unique_ptr<PartitionKernel> kernel = std::move(found->second);
  built_.erase(found);
  return kernel;
}

Result<void> Delegate::claimNodes(TfLiteContext* context) {
  TfLiteIntArray* plan = nullptr;
  ANNRT_CHECK(context->GetExecutionPlan(context, &plan) == kTfLiteOk,
              "TFLite has no execution plan");
  const std::vector<int> nodes = toVector(plan);
  ANNRT_ASSIGN_OR_RETURN(weights_, findWeights(context, nodes));
  std::set<int> weightNodes;
  for (const auto& [tensor, node] : weights_) weightNodes.insert(node);
  counters().weightNodes += static_cast<int32_t>(weightNodes.size());
  std::vector<int> claimed;
  for (const int node : nodes) {
    if (weightNodes.count(node) != 0) continue;
    ANNRT_ASSIGN_OR_RETURN(const std::string reason, refusal(context, node));
    if (reason.empty()) {
      claimed.push_back(node);
    } else {
      log(LogLevel::VERBOSE, fmt::format("node {} stays with TFLite: {}", node, reason));
    }
  }
  counters().nodes += static_cast<int32_t>(nodes.size());
  ANNRT_ASSIGN_OR_RETURN(const Chosen choice, choosePartitions(context, claimed));
  const std::vector<int>& chosen = choice.nodes;
  if (chosen.empty()) {
    log(LogLevel::INFO,
        fmt::format("annrt supports none of the {} node(s): all stay with TFLite", nodes.size()));
    return {};
  }
  IntArray replaced(chosen);
  const bool replacedOk =
      context->ReplaceNodeSubsetsWithDelegateKernels(context, PartitionKernel::registration(),
                                                     replaced.array(), &base_) == kTfLiteOk;
  built_.clear();  // what TFLite's partitions did not take
  ANNRT_CHECK(replacedOk, "TFLite could not replace the nodes with annrt partitions");
  counters().delegatedNodes += static_cast<int32_t>(chosen.size());
  counters().partitions += choice.partitions;
  log(LogLevel::INFO,
      fmt::format("Replacing {} out of {} node(s) with delegate (annrt) node, yielding {} "
                  "partition(s) on {}",
                  chosen.size(), nodes.size(), choice.partitions,
                  tools::describeSelection(selection_)));
  return {};
}

}  // namespace annrt::tflite::delegate
