// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/compiled_graph.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "common/log.h"
#include "common/page_size.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

struct SubgraphDeleter {
  void operator()(xnn_subgraph* subgraph) const { xnn_delete_subgraph(subgraph); }
};
using SubgraphPtr = std::unique_ptr<xnn_subgraph, SubgraphDeleter>;

// Relaxed models may compute float32 in float16. XNNPACK's hint does so only
// where the CPU has native fp16 arithmetic (ARMv8.2-A FP16) and the whole
// subgraph has fp16 kernels, else it keeps fp32. On x86 without AVX512-FP16
// (the AVX-512 development machine) the hint was measured to be a no-op:
// bit-identical outputs and the same time, on a MobileNet block and on
// hand_landmark_full. XNN_FLAG_FORCE_FP16_INFERENCE there emulates fp16
// arithmetic through conversions and ran the block 6x slower or worse, so it
// is never used. The fp16 path itself (ARM) has not been measured here.
// Debian's XNNPACK has no fp16 HARD_SWISH node: with the hint, on a CPU with
// fp16 arithmetic (qemu's `max`, ARMv8.2-A cores such as RK3588's) creating
// the runtime aborts in it (hardswish.c: compute_type == fp32), so graphs
// with one keep fp32.
uint32_t runtimeFlags(const Model& model) {
  if (!model.relaxComputationFloat32toFloat16) return 0;
  const auto& operations = model.main.operations;
  const bool hasHardSwish =
      std::any_of(operations.begin(), operations.end(),
                  [](const Operation& op) { return op.type == OperationType::HARD_SWISH; });
  return hasHardSwish ? 0 : XNN_FLAG_HINT_FP16_INFERENCE;
}

}  // namespace

bool initializeXnnpack() {
  static const bool initialized = xnn_initialize(nullptr) == xnn_status_success;
  return initialized;
}

Result<std::unique_ptr<CompiledGraph>> CompiledGraph::compile(
    std::shared_ptr<const Model> model, ThreadPool pool, const std::vector<bool>& paddedInputs,
    std::shared_ptr<WeightStore> weights) {
  ANNRT_CPU_REQUIRE(initializeXnnpack(), "XNNPACK does not support this CPU");
  std::unique_ptr<CompiledGraph> graph(new CompiledGraph());
  graph->weights_ = std::move(weights);
  ANNRT_RETURN_IF_ERROR(graph->build(std::move(model), std::move(pool), paddedInputs));
  return graph;
}

CompiledGraph::~CompiledGraph() {
  for (Runtime* r : {&pooled_, &inline_}) {
    if (r->runtime != nullptr) xnn_delete_runtime(r->runtime);
  }
}

Result<xnn_runtime_t> CompiledGraph::createRuntime(pthreadpool_t pool,
                                                   std::vector<bool>* inputsRead) {
  const Subgraph& main = model_->main;
  xnn_subgraph_t raw = nullptr;
  LoweringContext probe(*model_, nullptr);
  ANNRT_RETURN_IF_ERROR(
      checkXnn(xnn_create_subgraph(probe.externalValueCount(), 0, &raw), "xnn_create_subgraph"));
  SubgraphPtr subgraph(raw);
  LoweringContext context(*model_, subgraph.get());
  context.useWeights(weights_.get(), 0);
  for (size_t i = 0; i < main.operations.size(); ++i) {
    Result<void> lowered = lowerOperation(context, main.operations[i]);
    if (!lowered.ok()) {
      return makeError(ErrorCode::OP_FAILED, "annrt-cpu: operation {} ({}): {}", i,
                       operationTypeName(main.operations[i].type), lowered.error().message);
    }
  }
  for (uint32_t index : main.outputIndexes) {
    ANNRT_CPU_REQUIRE(context.hasValue(index), "model output {} is not computed", index);
  }
  if (inputsRead != nullptr) {
    for (uint32_t index : main.inputIndexes) inputsRead->push_back(context.hasValue(index));
  }
  xnn_runtime_t runtime = nullptr;
  ANNRT_RETURN_IF_ERROR(
      checkXnn(xnn_create_runtime_v2(subgraph.get(), pool, runtimeFlags(*model_), &runtime),
               "xnn_create_runtime_v2"));
  // Debian's XNNPACK (2022-02) reports success but gives no runtime when it
  // cannot allocate the workspace of the intermediate tensors.
  ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, runtime != nullptr,
                   "XNNPACK could not allocate the runtime's workspace");
  constants_.push_back(context.takeConstants());
  return runtime;
}

Result<void> CompiledGraph::build(std::shared_ptr<const Model> model, ThreadPool pool,
                                  const std::vector<bool>& paddedInputs) {
  model_ = std::move(model);
  pool_ = std::move(pool);
  const Subgraph& main = model_->main;
  ANNRT_CPU_REQUIRE(!main.operations.empty(), "empty model");
  // Inputs no node reads (parameters the lowerings resolved otherwise) are
  // not handed to XNNPACK.
  std::vector<bool> inputsRead;
  ANNRT_ASSIGN_OR_RETURN(pooled_.runtime, createRuntime(pool_.get(), &inputsRead));
  for (uint32_t i = 0; i < main.inputIndexes.size(); ++i) {
    if (!inputsRead[i]) continue;
    const bool padded = i < paddedInputs.size() && paddedInputs[i];
    inputs_.push_back({i, byteSize(main.operands[main.inputIndexes[i]].shape), nullptr, padded});
    externals_.push_back({i, nullptr});
  }
  for (uint32_t i = 0; i < main.outputIndexes.size(); ++i) {
    externals_.push_back({static_cast<uint32_t>(main.inputIndexes.size()) + i, nullptr});
  }
  return {};
}

Result<void*> CompiledGraph::readableInput(size_t slot, const void* data) {
  // XNNPACK's kernels may load up to XNN_EXTRA_BYTES past an input's end
  // (and ignore those bytes). When that tail lies in the page holding the
  // input's last byte it is mapped, so the caller's buffer is read in place;
  // otherwise the input is copied into a padded buffer, which costs a copy
  // per run and the input's size in memory.
  const uintptr_t kPage = pageSize();
  InputSlot& input = inputs_[slot];
  const auto address = reinterpret_cast<uintptr_t>(data);
  const uintptr_t last = address + input.bytes - 1;
  if (input.padded || (input.bytes > 0 && last / kPage == (last + XNN_EXTRA_BYTES) / kPage)) {
    return const_cast<void*>(data);
  }
  if (!input.staging) {
    input.staging.reset(new (std::nothrow) uint8_t[input.bytes + XNN_EXTRA_BYTES]);
    ANNRT_CHECK_CODE(ErrorCode::OUT_OF_MEMORY, input.staging != nullptr,
                     "cannot allocate {} bytes to stage input {}", input.bytes, slot);
  }
  std::memcpy(input.staging.get(), data, input.bytes);
  return input.staging.get();
}

Result<void> CompiledGraph::invoke(Runtime& r) {
  bool moved = r.setUpFor.size() != externals_.size();
  for (size_t i = 0; !moved && i < externals_.size(); ++i) {
    moved = r.setUpFor[i] != externals_[i].data;
  }
  if (moved) {
    r.setUpFor.clear();
    ANNRT_RETURN_IF_ERROR(checkXnn(
        xnn_setup_runtime(r.runtime, externals_.size(), externals_.data()), "xnn_setup_runtime"));
    for (const xnn_external_value& external : externals_) r.setUpFor.push_back(external.data);
  }
  return checkXnn(xnn_invoke_runtime(r.runtime), "xnn_invoke_runtime");
}

Result<void> CompiledGraph::run(const std::vector<const void*>& inputs,
                                const std::vector<void*>& outputs, bool threaded) {
  for (size_t slot = 0; slot < inputs_.size(); ++slot) {
    ANNRT_ASSIGN_OR_RETURN(void* data, readableInput(slot, inputs[inputs_[slot].index]));
    externals_[slot].data = data;
  }
  const size_t first = externals_.size() - outputs.size();
  for (size_t i = 0; i < outputs.size(); ++i) externals_[first + i].data = outputs[i];
  if (threaded || pool_ == nullptr || inlineUnavailable_) return invoke(pooled_);
  if (inline_.runtime == nullptr) {
    Result<xnn_runtime_t> created = createRuntime(nullptr, nullptr);
    if (!created.ok()) {
      // Running on the pool is slower under load, not wrong.
      logWarning("annrt-cpu: no single-thread runtime ({}); staying on the thread pool",
                 created.error().message);
      inlineUnavailable_ = true;
      return invoke(pooled_);
    }
    inline_.runtime = *created;
  }
  return invoke(inline_);
}

}  // namespace annrt::cpu
