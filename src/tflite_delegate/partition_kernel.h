// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// One delegated partition: its nodes written as a .tflite file, imported by
// annrt's importer, compiled for the chosen devices and executed on TFLite's
// own tensor buffers (no copies). When TFLite resizes an input, prepare()
// re-imports the file with the new input shapes, recompiles, and resizes the
// partition's outputs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compilation.h"
#include "tflite/importer.h"
#include "tflite_delegate/options.h"
#include "tflite_delegate/partition_writer.h"

namespace annrt::tflite::delegate {

class Delegate;

struct ExecutionDeleter {
  void operator()(ANeuralNetworksExecution* e) const { ANeuralNetworksExecution_free(e); }
};

class PartitionKernel {
 public:
  static Result<std::unique_ptr<PartitionKernel>> create(const Delegate& delegate, int index,
                                                         TfLiteContext* context,
                                                         const TfLiteDelegateParams& params);
  Result<void> prepare(TfLiteContext* context);
  Result<void> invoke(TfLiteContext* context);

  // TFLite's registration of the partitions' delegate nodes.
  static TfLiteRegistration registration();

 private:
  PartitionKernel(const Delegate& delegate, int index, WrittenPartition partition)
      : delegate_(delegate), index_(index), partition_(std::move(partition)) {}
  Result<void> build(const std::vector<std::vector<uint32_t>>& inputShapes);
  std::vector<std::vector<uint32_t>> inputShapes(TfLiteContext* context) const;
  struct Buffer {
    void* data = nullptr;
    size_t bytes = 0;
    bool operator==(const Buffer&) const = default;
  };
  // The partition's inputs' then outputs' TFLite buffers.
  std::vector<Buffer> buffers(TfLiteContext* context) const;
  Result<void> bind(const std::vector<Buffer>& buffers);

  const Delegate& delegate_;
  int index_;
  WrittenPartition partition_;
  std::vector<std::vector<uint32_t>> compiledShapes_;
  std::unique_ptr<ImportedModel> model_;
  tools::CompilationPtr compilation_;
  std::unique_ptr<ANeuralNetworksExecution, ExecutionDeleter> execution_;  // after compilation_
  std::vector<Buffer> bound_;
};

}  // namespace annrt::tflite::delegate
