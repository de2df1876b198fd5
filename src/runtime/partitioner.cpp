// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/partitioner.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <queue>

#include "common/log.h"

namespace annrt::runtime {
namespace {

// Fixed cost of crossing a step boundary (synchronization, a hand-over of
// buffers) and per byte moved, in units of reference-CPU work.
constexpr double kBoundaryCost = 20000.0;
constexpr double kBoundaryCostPerByte = 0.25;
constexpr int32_t kPreferLowPower = 0;
constexpr int32_t kDeviceTypeCpu = 2;

uint32_t envUnsigned(const char* name, uint32_t fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  char* end = nullptr;
  const unsigned long parsed = std::strtoul(value, &end, 10);
  if (*end != '\0') {
    logWarning("ignoring {}={}: not a number", name, value);
    return fallback;
  }
  return static_cast<uint32_t>(parsed);
}

double performance(const Device& device, const Model& model, const Operation& operation,
                   int32_t preference) {
  const Capabilities& caps = device.capabilities();
  PerformanceInfo info = caps.defaultPerformance;
  if (operation.type == OperationType::IF) {
    info = caps.ifPerformance;
  } else if (operation.type == OperationType::WHILE) {
    info = caps.whilePerformance;
  } else if (!operation.inputs.empty()) {
    const OperandType type = model.main.operands[operation.inputs[0]].shape.type;
    const bool relaxed = model.relaxComputationFloat32toFloat16 &&
                         (type == OperandType::TENSOR_FLOAT32 || type == OperandType::FLOAT32);
    info = relaxed ? caps.relaxedFloat32toFloat16Tensor : caps.forOperandType(type);
  }
  return preference == kPreferLowPower ? info.powerUsage : info.execTime;
}

size_t declaredBytes(const Operand& operand) {
  return hasUnknownDims(operand.shape) ? 4096 : byteSize(operand.shape);
}

class Partitioner {
 public:
  Partitioner(SupportedOperations& supported, const std::vector<std::shared_ptr<Device>>& devices,
              const std::shared_ptr<Device>& cpu, const PartitionOptions& options)
      : model_(supported.model()), devices_(devices), cpu_(cpu), options_(options) {
    for (const auto& device : devices_) supported_.push_back(supported.of(*device));
  }

  Result<PartitionPlan> run() {
    std::optional<PartitionPlan> single = bestSingleDevice();
    if (options_.mode == PartitionMode::NO_PARTITIONING) {
      ANNRT_CHECK(single.has_value() || cpu_ != nullptr,
                  "partitioning is disabled and no device supports the whole model");
      if (single) return *single;
      return singleStep(cpu_, "partitioning disabled: whole model on the fallback CPU");
    }
    ANNRT_ASSIGN_OR_RETURN(std::vector<size_t> assignment, assignDevices());
    applyPartitionLimits(assignment);
    PartitionPlan partitioned = group(assignment);
    partitioned.estimatedCost = cost(partitioned);
    if (partitioned.steps.size() == 1) {
      partitioned.decision = fmt::format("one device supports every operation best: {}",
                                         partitioned.steps[0].device->name());
      return partitioned;
    }
    if (single && options_.useCostModel && single->estimatedCost <= partitioned.estimatedCost) {
      single->decision = fmt::format(
          "cost model: {} steps estimated at {:.0f} vs {:.0f} on {} alone; using {} alone",
          partitioned.steps.size(), partitioned.estimatedCost, single->estimatedCost,
          single->steps[0].device->name(), single->steps[0].device->name());
      return *single;
    }
    partitioned.decision =
        fmt::format("cost model: {} steps estimated at {:.0f}{}", partitioned.steps.size(),
                    partitioned.estimatedCost,
                    single ? fmt::format(" vs {:.0f} on {} alone", single->estimatedCost,
                                         single->steps[0].device->name())
                           : std::string(", no single device supports the whole model"));
    return partitioned;
  }

 private:
  bool supports(size_t device, size_t operation) const {
    return operation < supported_[device].size() && supported_[device][operation];
  }

  double operationCost(size_t device, size_t operation) const {
    const Operation& op = model_.main.operations[operation];
    return operationWork(model_, op) *
           performance(*devices_[device], model_, op, options_.preference);
  }

  PartitionPlan singleStep(const std::shared_ptr<Device>& device, std::string decision) const {
    PlannedStep step{device, {}};
    for (uint32_t i = 0; i < model_.main.operations.size(); ++i) step.operations.push_back(i);
    PartitionPlan plan{{std::move(step)}, 0, std::move(decision)};
    return plan;
  }

  std::optional<PartitionPlan> bestSingleDevice() const {
    std::optional<PartitionPlan> best;
    for (size_t d = 0; d < devices_.size(); ++d) {
      double total = 0;
      bool all = true;
      for (size_t op = 0; op < model_.main.operations.size() && all; ++op) {
        all = supports(d, op);
        if (all) total += operationCost(d, op);
      }
      if (all && (!best || total < best->estimatedCost)) {
        best = singleStep(devices_[d], "");
        best->estimatedCost = total;
        best->decision = fmt::format("whole model on {}", devices_[d]->name());
      }
    }
    return best;
  }

  size_t cpuIndex() const {
    for (size_t d = 0; d < devices_.size(); ++d) {
      if (devices_[d] == cpu_) return d;
    }
    return devices_.size();
  }

  Result<std::vector<size_t>> assignDevices() const {
    std::vector<size_t> assignment;
    for (size_t op = 0; op < model_.main.operations.size(); ++op) {
      size_t best = devices_.size();
      double bestCost = std::numeric_limits<double>::infinity();
      for (size_t d = 0; d < devices_.size(); ++d) {
        if (!supports(d, op)) continue;
        const double c = operationCost(d, op);
        if (c < bestCost) {
          best = d;
          bestCost = c;
        }
      }
      const Operation& operation = model_.main.operations[op];
      ANNRT_CHECK(best < devices_.size(), "no device supports operation {} ({})",
                  operationTypeName(operation.type), op);
      ANNRT_VLOG(COMPILATION, "findBestDeviceForEachOperation({}:{}) = {}",
                 operationTypeName(operation.type), op, devices_[best]->name());
      assignment.push_back(best);
    }
    return assignment;
  }

  // Honours maxAcceleratorPartitions and minOperationsPerPartition by moving
  // the smallest accelerator partitions to the CPU.
  void applyPartitionLimits(std::vector<size_t>& assignment) const {
    const size_t cpu = cpuIndex();
    if (cpu == devices_.size()) return;
    PartitionPlan plan = group(assignment);
    std::vector<const PlannedStep*> accelerated;
    for (const PlannedStep& step : plan.steps) {
      if (step.device->type() != kDeviceTypeCpu) accelerated.push_back(&step);
    }
    std::stable_sort(accelerated.begin(), accelerated.end(),
                     [](auto* a, auto* b) { return a->operations.size() > b->operations.size(); });
    for (size_t i = 0; i < accelerated.size(); ++i) {
      const bool tooMany =
          options_.maxAcceleratorPartitions != 0 && i >= options_.maxAcceleratorPartitions;
      const bool tooSmall = accelerated[i]->operations.size() < options_.minOperationsPerPartition;
      if (!tooMany && !tooSmall) continue;
      for (uint32_t op : accelerated[i]->operations) {
        if (supports(cpu, op)) assignment[op] = cpu;
      }
      ANNRT_VLOG(COMPILATION, "partition of {} operations on {} moved to {} ({})",
                 accelerated[i]->operations.size(), accelerated[i]->device->name(), cpu_->name(),
                 tooMany ? "max_delegated_partitions" : "min_nodes_per_partition");
    }
  }

  // Groups operations into steps: keeps taking ready operations of the
  // current device before switching, so each device gets as few steps as the
  // dependencies allow.
  PartitionPlan group(const std::vector<size_t>& assignment) const {
    const auto& operations = model_.main.operations;
    std::vector<int> producer(model_.main.operands.size(), -1);
    for (size_t op = 0; op < operations.size(); ++op) {
      for (uint32_t out : operations[op].outputs) producer[out] = static_cast<int>(op);
    }
    std::vector<uint32_t> pending(operations.size(), 0);
    std::vector<std::vector<uint32_t>> dependents(operations.size());
    std::vector<uint32_t> sources;
    for (size_t op = 0; op < operations.size(); ++op) {
      sources.clear();
      for (uint32_t in : operations[op].inputs) {
        if (producer[in] >= 0) sources.push_back(static_cast<uint32_t>(producer[in]));
      }
      std::sort(sources.begin(), sources.end());
      sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
      pending[op] = static_cast<uint32_t>(sources.size());
      for (uint32_t source : sources) dependents[source].push_back(static_cast<uint32_t>(op));
    }
    // Per device, its ready operations, lowest index first.
    using ReadyQueue = std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>>;
    std::vector<ReadyQueue> ready(devices_.size());
    for (uint32_t op = 0; op < operations.size(); ++op) {
      if (pending[op] == 0) ready[assignment[op]].push(op);
    }
    PartitionPlan plan;
    while (true) {
      size_t device = devices_.size();
      uint32_t first = UINT32_MAX;
      for (size_t d = 0; d < ready.size(); ++d) {
        if (!ready[d].empty() && ready[d].top() < first) {
          first = ready[d].top();
          device = d;
        }
      }
      if (device == devices_.size()) break;
      PlannedStep step{devices_[device], {}};
      ReadyQueue& queue = ready[device];
      while (!queue.empty()) {
        const uint32_t op = queue.top();
        queue.pop();
        step.operations.push_back(op);
        for (uint32_t next : dependents[op]) {
          if (--pending[next] == 0) ready[assignment[next]].push(next);
        }
      }
      plan.steps.push_back(std::move(step));
    }
    return plan;
  }

  double cost(const PartitionPlan& plan) const {
    double total = 0;
    std::vector<int> stepOf(model_.main.operations.size());
    for (size_t s = 0; s < plan.steps.size(); ++s) {
      const size_t d = static_cast<size_t>(
          std::find(devices_.begin(), devices_.end(), plan.steps[s].device) - devices_.begin());
      for (uint32_t op : plan.steps[s].operations) {
        total += operationCost(d, op);
        stepOf[op] = static_cast<int>(s);
      }
    }
    // Each tensor produced in one step and read in another crosses a boundary.
    std::vector<int> producerStep(model_.main.operands.size(), -1);
    for (size_t op = 0; op < model_.main.operations.size(); ++op) {
      for (uint32_t out : model_.main.operations[op].outputs) producerStep[out] = stepOf[op];
    }
    std::vector<bool> crossing(model_.main.operands.size(), false);
    for (size_t op = 0; op < model_.main.operations.size(); ++op) {
      for (uint32_t in : model_.main.operations[op].inputs) {
        if (producerStep[in] >= 0 && producerStep[in] != stepOf[op]) crossing[in] = true;
      }
    }
    total += kBoundaryCost * static_cast<double>(plan.steps.size() - 1);
    for (size_t operand = 0; operand < crossing.size(); ++operand) {
      if (!crossing[operand]) continue;
      total +=
          kBoundaryCostPerByte * static_cast<double>(declaredBytes(model_.main.operands[operand]));
    }
    return total;
  }

  const Model& model_;
  const std::vector<std::shared_ptr<Device>>& devices_;
  std::shared_ptr<Device> cpu_;
  PartitionOptions options_;
  std::vector<std::vector<bool>> supported_;
};

}  // namespace

PartitionOptions PartitionOptions::fromEnvironment(int32_t preference) {
  PartitionOptions options;
  options.preference = preference;
  const uint32_t mode = envUnsigned("ANNRT_PARTITION", 1);
  options.mode = mode <= 2 ? static_cast<PartitionMode>(mode) : PartitionMode::WITH_FALLBACK;
  options.maxAcceleratorPartitions = envUnsigned("ANNRT_MAX_PARTITIONS", 0);
  options.minOperationsPerPartition = envUnsigned("ANNRT_MIN_NODES_PER_PARTITION", 1);
  options.useCostModel = envUnsigned("ANNRT_COST_MODEL", 1) != 0;
  return options;
}

double operationWork(const Model& model, const Operation& operation) {
  const auto& operands = model.main.operands;
  double outputElements = 0;
  for (uint32_t out : operation.outputs) {
    const Shape& shape = operands[out].shape;
    outputElements += hasUnknownDims(shape) ? 1024.0 : static_cast<double>(elementCount(shape));
  }
  auto inputDims = [&](size_t i) -> const std::vector<uint32_t>& {
    return operands[operation.inputs[i]].shape.dims;
  };
  switch (operation.type) {
    case OperationType::CONV_2D:
    case OperationType::GROUPED_CONV_2D:
    case OperationType::TRANSPOSE_CONV_2D: {
      const auto& filter = inputDims(1);  // [out, h, w, in]
      if (filter.size() == 4)
        return outputElements * filter[1] * filter[2] * std::max(1u, filter[3]);
      break;
    }
    case OperationType::DEPTHWISE_CONV_2D: {
      const auto& filter = inputDims(1);  // [1, h, w, out]
      if (filter.size() == 4) return outputElements * filter[1] * filter[2];
      break;
    }
    case OperationType::FULLY_CONNECTED: {
      const auto& weights = inputDims(1);  // [units, inputSize]
      if (weights.size() == 2) return outputElements * std::max(1u, weights[1]);
      break;
    }
    default: break;
  }
  return std::max(1.0, outputElements);
}

Result<PartitionPlan> partitionModel(SupportedOperations& supported,
                                     const std::vector<std::shared_ptr<Device>>& devices,
                                     const std::shared_ptr<Device>& cpu,
                                     const PartitionOptions& options) {
  ANNRT_CHECK(!devices.empty(), "no devices to run the model");
  Partitioner partitioner(supported, devices, cpu, options);
  ANNRT_ASSIGN_OR_RETURN(PartitionPlan plan, partitioner.run());
  ANNRT_VLOG(COMPILATION, "ExecutionPlan: {} step(s); {}", plan.steps.size(), plan.decision);
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    ANNRT_VLOG(COMPILATION, "ExecutionPlan step {}: {} operation(s) on {}", s,
               plan.steps[s].operations.size(), plan.steps[s].device->name());
  }
  return plan;
}

}  // namespace annrt::runtime
