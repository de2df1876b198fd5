// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/native_stage.h"

#include <algorithm>
#include <cstdint>
#include <new>
#include <optional>

#include "common/log.h"
#include "drivers/cpu/arena_plan.h"
#include "drivers/cpu/band_pair.h"
#include "drivers/cpu/op_lowering.h"

namespace annrt::cpu {
namespace {

// Arena tensors start on 64-byte boundaries (16 floats), a cache line.
constexpr size_t kAlignFloats = 16;

}  // namespace

Result<std::unique_ptr<NativeStage>> NativeStage::compile(std::shared_ptr<const Model> model,
                                                          const FusionPlan& fusions,
                                                          ThreadPool pool, NativeStageSpec spec) {
  std::unique_ptr<NativeStage> stage(new NativeStage());
  stage->model_ = std::move(model);
  stage->pool_ = std::move(pool);
  const Subgraph& main = stage->model_->main;
  ANNRT_CHECK(fusions.operationCount() == main.operations.size(),
              "annrt-cpu: a fusion plan of {} operations for a stage of {}",
              fusions.operationCount(), main.operations.size());
  ANNRT_CHECK(spec.threaded.empty() || spec.threaded.size() == main.operations.size(),
              "annrt-cpu: threads chosen for {} operations of a model of {}", spec.threaded.size(),
              main.operations.size());
  const bool all = spec.operations.empty();
  if (all) {
    spec.operations.resize(main.operations.size());
    for (uint32_t i = 0; i < main.operations.size(); ++i) spec.operations[i] = i;
    if (spec.inputs.empty() && spec.outputs.empty()) {
      spec.inputs = main.inputIndexes;
      spec.outputs = main.outputIndexes;
    }
  }
  auto inStage = [&](uint32_t op) {
    return op != FusionPlan::kNoNode &&
           (all || std::binary_search(spec.operations.begin(), spec.operations.end(), op));
  };
  LoweringContext context(*stage->model_, nullptr);
  context.useWeights(spec.weights, spec.stage);
  uint32_t lastNode = FusionPlan::kNoNode;  // the operation of the last kernel
  // A PAD or an averaged ADD that the next node folds in before it.
  uint32_t before = FusionPlan::kNoNode;
  auto foldsBefore = [&](uint32_t node) {
    return before == FusionPlan::kNoNode || fusions.node(before) == node;
  };
  for (const uint32_t i : spec.operations) {
    const Operation& op = main.operations[i];
    const FusionRole role = fusions.role(i);
    if (role == FusionRole::HALF_CAST) continue;
    ANNRT_CPU_REQUIRE(inStage(fusions.node(i)),
                      "annrt-cpu: operation {} ({}) folds into an operation of another stage", i,
                      operationTypeName(op.type));
    if (role == FusionRole::CLAMP) {
      ANNRT_CPU_REQUIRE(fusions.node(i) == lastNode,
                        "annrt-cpu: operation {} ({}) folds into no kernel before it", i,
                        operationTypeName(op.type));
      stage->steps_.back().kernel->foldClamp(*reluRange(op.type), op.outputs[0]);
      continue;
    }
    if (role == FusionRole::ACTIVATION) {
      ANNRT_CPU_REQUIRE(fusions.node(i) == lastNode,
                        "annrt-cpu: operation {} ({}) folds into no kernel before it", i,
                        operationTypeName(op.type));
      ANNRT_RETURN_IF_ERROR(stage->steps_.back().kernel->foldActivation(op.type, op.outputs[0]));
      continue;
    }
    if (role == FusionRole::ADDEND) {
      const bool padded = before != FusionPlan::kNoNode;
      ANNRT_CPU_REQUIRE(fusions.node(i) == lastNode && foldsBefore(lastNode) &&
                            (!padded || fusions.role(before) == FusionRole::PAD),
                        "annrt-cpu: operation {} (ADD) folds into no kernel before it", i);
      ANNRT_RETURN_IF_ERROR(
          stage->foldAdd(context, op, padded ? &main.operations[before] : nullptr));
      before = FusionPlan::kNoNode;
      continue;
    }
    if (role == FusionRole::PAD || role == FusionRole::AVERAGED_ADD) {
      ANNRT_CPU_REQUIRE(before == FusionPlan::kNoNode,
                        "annrt-cpu: operations {} and {} both fold into the next one", before, i);
      before = i;
      continue;
    }
    ANNRT_CPU_REQUIRE(foldsBefore(i),
                      "annrt-cpu: operation {} ({}) does not fold into operation {}", before,
                      operationTypeName(main.operations[before].type), i);
    Result<std::unique_ptr<NativeKernel>> kernel = makeNativeKernel(
        context, op, before == FusionPlan::kNoNode ? nullptr : &main.operations[before]);
    if (!kernel.ok()) {
      return makeError(ErrorCode::OP_FAILED, "annrt-cpu: operation {} ({}): {}", i,
                       operationTypeName(op.type), kernel.error().message);
    }
    context.dropConvertedHalves();
    stage->steps_.push_back(
        {std::move(*kernel), {}, {}, {}, spec.threaded.empty() || spec.threaded[i]});
    lastNode = i;
    before = FusionPlan::kNoNode;
  }
  ANNRT_CPU_REQUIRE(before == FusionPlan::kNoNode,
                    "annrt-cpu: operation {} ({}) folds into no operation after it", before,
                    operationTypeName(main.operations[before].type));
  ANNRT_CPU_REQUIRE(!stage->steps_.empty(), "annrt-cpu: a native stage with no operation");
  stage->pairBands(spec);
  std::vector<uint32_t> produced;
  for (const Step& step : stage->steps_) produced.push_back(step.kernel->writes());
  ANNRT_RETURN_IF_ERROR(stage->placeTensors(produced, spec));
  return stage;
}

Result<void> NativeStage::foldAdd(const LoweringContext& context, const Operation& add,
                                  const Operation* pad) {
  NativeKernel& kernel = *steps_.back().kernel;
  const uint32_t summand = add.inputs[0] == kernel.writes() ? 0 : 1;
  ANNRT_CPU_REQUIRE(add.inputs[summand] == kernel.writes(),
                    "annrt-cpu: the ADD reads nothing the kernel before it writes");
  ANNRT_ASSIGN_OR_RETURN(OutputRange range, fusedActivation(context, add, 2));
  const uint32_t other = add.inputs[1 - summand];
  if (pad == nullptr) return kernel.foldAdd(other, range, add.outputs[0]);
  ANNRT_ASSIGN_OR_RETURN(const ChannelSpan span, channelPadding(context, *pad, add, 1 - summand));
  return kernel.foldAdd(pad->inputs[0], range, add.outputs[0], span);
}

// `reads[operand]` counts every read of the operand by every step (one
// kernel reading it twice included), so 1 means one step reads it once.
std::optional<size_t> NativeStage::soleReaderAfter(size_t step, uint32_t operand,
                                                   const std::vector<uint32_t>& reads) const {
  if (reads[operand] != 1) return std::nullopt;
  for (size_t t = step + 1; t < steps_.size(); ++t) {
    const std::vector<uint32_t>& read = steps_[t].kernel->reads();
    if (std::find(read.begin(), read.end(), operand) != read.end()) return t;
  }
  return std::nullopt;
}

void NativeStage::pairBands(const NativeStageSpec& spec) {
  std::vector<bool> boundary(model_->main.operands.size());
  for (uint32_t operand : spec.inputs) boundary[operand] = true;
  for (uint32_t operand : spec.outputs) boundary[operand] = true;
  std::vector<uint32_t> reads(model_->main.operands.size());
  for (const Step& step : steps_) {
    for (uint32_t operand : step.kernel->reads()) ++reads[operand];
  }
  for (size_t s = 0; s < steps_.size(); ++s) {
    // A pair's producer or consumer already.
    if (steps_[s].bandsWithNext || (s > 0 && steps_[s - 1].bandsWithNext)) continue;
    const NativeKernel& producer = *steps_[s].kernel;
    const uint32_t middle = producer.writes();
    const std::optional<size_t> c = soleReaderAfter(s, middle, reads);
    if (boundary[middle] || !c || steps_[*c].bandsWithNext) continue;
    const NativeKernel& consumer = *steps_[*c].kernel;
    const std::vector<uint32_t>& dims = model_->main.operands[middle].shape.dims;
    const std::optional<RowReads> reads = consumer.rowReads();
    if (dims.size() != 4 || dims[0] != 1 || !reads || dims[1] != reads->inHeight) continue;
    const size_t middleBytes = elementCount(dims) * sizeof(float);
    if (!bandPairWorthIt(producer, consumer, middleBytes)) continue;
    // The steps between read nothing the producer writes: it may run
    // right before its consumer instead.
    std::rotate(steps_.begin() + static_cast<ptrdiff_t>(s),
                steps_.begin() + static_cast<ptrdiff_t>(s) + 1,
                steps_.begin() + static_cast<ptrdiff_t>(*c));
    Step& moved = steps_[*c - 1];
    moved.bandsWithNext = true;
    moved.nextReads = *reads;
    moved.rowPixels = dims[2];
    moved.rowFloats = size_t{dims[2]} * dims[3];
    const uint32_t windowRows = bandWindowRows(*reads, moved.rowFloats * sizeof(float));
    moved.bandsOnPool =
        pool_ != nullptr && bandOnPoolWorthIt(middleBytes, threadCount(), windowRows != 0);
    // With no pool, or banded on the pool, every run bands the pair (run
    // shows when), which needs only a window of the middle image per thread.
    if (pool_ == nullptr || moved.bandsOnPool) moved.windowRows = windowRows;
    ANNRT_VLOG(DRIVER,
               "annrt-cpu: the kernels writing operands {} and {} run band by band{}, through a "
               "window of {} rows per thread (0: the whole image)",
               middle, consumer.writes(), moved.bandsOnPool ? ", on the pool too" : "",
               moved.windowRows);
    if (*c > s + 1) --s;  // another step now sits at s
  }
}

Result<void> NativeStage::placeTensors(const std::vector<uint32_t>& produced,
                                       const NativeStageSpec& spec) {
  const Subgraph& main = model_->main;
  inputCount_ = spec.inputs.size();
  outputCount_ = spec.outputs.size();
  // Per operand of the model: where it is, which arena tensor it is and
  // which step writes it (kNone: none).
  constexpr size_t kNone = SIZE_MAX;
  const size_t operandCount = main.operands.size();
  std::vector<std::optional<Location>> where(operandCount);
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    where[spec.inputs[i]] = Location{Location::Kind::STAGE_INPUT, i};
  }
  for (size_t i = 0; i < spec.outputs.size(); ++i) {
    where[spec.outputs[i]] = Location{Location::Kind::STAGE_OUTPUT, i};
  }
  // Every other tensor a step writes lives in the arena from the step writing
  // it to the last step reading it.
  std::vector<ArenaTensor> tensors;
  std::vector<size_t> tensorOf(operandCount, kNone);
  std::vector<size_t> producer(operandCount, kNone);
  for (size_t s = 0; s < steps_.size(); ++s) {
    const uint32_t operand = produced[s];
    if (producer[operand] == kNone) producer[operand] = s;
    if (where[operand]) continue;
    const Step& step = steps_[s];
    const size_t floats = step.windowRows != 0 ? threadCount() * step.windowRows * step.rowFloats
                                               : elementCount(main.operands[operand].shape);
    tensorOf[operand] = tensors.size();
    tensors.push_back({s, s, (floats + kAlignFloats - 1) / kAlignFloats * kAlignFloats, 0});
  }
  for (size_t s = 0; s < steps_.size(); ++s) {
    for (uint32_t operand : steps_[s].kernel->reads()) {
      const std::optional<Location>& location = where[operand];
      const bool input = location && location->kind == Location::Kind::STAGE_INPUT;
      ANNRT_CPU_REQUIRE(input || producer[operand] < s,
                        "annrt-cpu: operand {} is read before it is written", operand);
      if (tensorOf[operand] != kNone) tensors[tensorOf[operand]].last = s;
    }
  }
  // A banded producer still reads its inputs while its consumer writes.
  for (size_t s = 0; s < steps_.size(); ++s) {
    if (!steps_[s].bandsWithNext) continue;
    for (uint32_t operand : steps_[s].kernel->reads()) {
      if (tensorOf[operand] != kNone) {
        size_t& last = tensors[tensorOf[operand]].last;
        last = std::max(last, s + 1);
      }
    }
  }
  arenaFloats_ = planArena(tensors);
  for (uint32_t operand = 0; operand < operandCount; ++operand) {
    if (tensorOf[operand] != kNone) {
      where[operand] = Location{Location::Kind::ARENA, tensors[tensorOf[operand]].offset};
    }
  }
  if (spec.placement == ArenaPlacement::OWN) {
    ANNRT_ASSIGN_OR_RETURN(arena_, ArenaMemory::allocate(arenaFloats_ * sizeof(float)));
    arenaBase_ = arena_.data();
  }
  // Every operand a step reads or writes has a place by now.
  const auto placeOf = [&where](uint32_t operand) -> Result<Location> {
    const std::optional<Location>& location = where[operand];
    ANNRT_CPU_REQUIRE(location.has_value(), "annrt-cpu: operand {} has no place in the stage",
                      operand);
    return *location;
  };
  for (size_t s = 0; s < steps_.size(); ++s) {
    Step& step = steps_[s];
    for (uint32_t operand : step.kernel->reads()) {
      ANNRT_ASSIGN_OR_RETURN(const Location read, placeOf(operand));
      step.reads.push_back(read);
    }
    ANNRT_ASSIGN_OR_RETURN(step.write, placeOf(produced[s]));
    step.inputs.resize(step.reads.size());
  }
  return {};
}

size_t NativeStage::threadCount() const {
  return pool_ == nullptr ? 1 : pthreadpool_get_threads_count(pool_.get());
}

void NativeStage::populateArenaAhead() {
  if (arena_.size() >= kPopulateAheadBytes) arena_.populateAhead();
}

Result<void> NativeStage::run(const std::vector<const void*>& inputs,
                              const std::vector<void*>& outputs, bool threaded) {
  ANNRT_CHECK(arenaFloats_ == 0 || arenaBase_ != nullptr,
              "annrt-cpu: a native stage run before its arena was placed");
  ANNRT_CHECK(inputs.size() == inputCount_ && outputs.size() == outputCount_,
              "annrt-cpu: a native stage got {} inputs and {} outputs", inputs.size(),
              outputs.size());
  auto address = [&](const Location& at) -> float* {
    switch (at.kind) {
      case Location::Kind::STAGE_INPUT:
        return static_cast<float*>(const_cast<void*>(inputs[at.index]));
      case Location::Kind::STAGE_OUTPUT: return static_cast<float*>(outputs[at.index]);
      case Location::Kind::ARENA: return reinterpret_cast<float*>(arenaBase_) + at.index;
    }
    return nullptr;
  };
  pthreadpool_t pool = threaded ? pool_.get() : nullptr;
  for (size_t s = 0; s < steps_.size(); ++s) {
    Step& step = steps_[s];
    for (size_t i = 0; i < step.reads.size(); ++i) step.inputs[i] = address(step.reads[i]);
    // Banded on the pool where the plan puts both kernels there (and the
    // image is large enough), on the calling thread where it puts neither
    // or where only windows of the image exist; otherwise one after the
    // other.
    if (step.bandsWithNext) {
      Step& next = steps_[s + 1];
      const bool onPool = pool != nullptr && step.bandsOnPool && step.threaded && next.threaded;
      const bool alone =
          pool == nullptr || (!step.threaded && !next.threaded) || step.windowRows != 0;
      if (onPool || alone) {
        ++s;
        for (size_t i = 0; i < next.reads.size(); ++i) next.inputs[i] = address(next.reads[i]);
        const BandPair pair{step.kernel.get(),   next.kernel.get(), step.nextReads, step.rowPixels,
                            address(step.write), step.windowRows,   step.rowFloats};
        if (onPool) {
          runBandPairOnPool(pair, step.inputs, next.inputs, address(next.write), pool);
        } else {
          runBandPair(pair, step.inputs, next.inputs, address(next.write));
        }
        continue;
      }
    }
    step.kernel->run(step.inputs, address(step.write), step.threaded ? pool : nullptr);
  }
  return {};
}

}  // namespace annrt::cpu
