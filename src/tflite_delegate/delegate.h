// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The TfLiteDelegate: claims the nodes annrt converts and the chosen devices
// support, groups them into partitions (TFLite's partitioning, limited by
// max_partitions and min_nodes_per_partition) and replaces each with one
// PartitionKernel.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "annrt_tflite_delegate.h"
#include "compilation.h"
#include "tflite_delegate/options.h"
#include "tflite_delegate/partition_kernel.h"

namespace annrt::tflite::delegate {

struct Counters {
  std::atomic<int32_t> nodes{0}, delegatedNodes{0}, weightNodes{0}, partitions{0}, builds{0};
  std::atomic<int64_t> invocations{0};
};
Counters& counters();

class Delegate {
 public:
  static Result<std::unique_ptr<Delegate>> create(DelegateOptions options);

  TfLiteDelegate* base() { return &base_; }
  static Delegate* of(TfLiteDelegate* delegate) { return static_cast<Delegate*>(delegate->data_); }
  const DelegateOptions& options() const { return options_; }
  const tools::DeviceSelection& selection() const { return selection_; }
  const WeightProducers& weights() const { return weights_; }
  // The partition starting at node `firstNode` built by Prepare, for TFLite's
  // kernel init; null when there is none.
  std::unique_ptr<PartitionKernel> takeKernel(int firstNode);
  // Logs `line` when the option log_level includes `level`.
  void log(LogLevel level, const std::string& line) const;

 private:
  Delegate(DelegateOptions options, tools::DeviceSelection selection);
  static TfLiteStatus prepare(TfLiteContext* context, TfLiteDelegate* delegate);
  Result<void> claimNodes(TfLiteContext* context);
  Result<std::string> refusal(TfLiteContext* context, int node);
  struct Chosen {
    std::vector<int> nodes;
    int partitions = 0;
  };
  Result<Chosen> choosePartitions(TfLiteContext* context, const std::vector<int>& nodes);

  TfLiteDelegate base_;
  DelegateOptions options_;
  tools::DeviceSelection selection_;
  std::map<int, std::unique_ptr<PartitionKernel>> built_;  // by first node
  WeightProducers weights_;                                // of the graph being prepared
};

}  // namespace annrt::tflite::delegate
