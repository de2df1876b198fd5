// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// RANDOM_MULTINOMIAL: draws class indices from softmax(logits) for each row.
// The two seeds fully determine the draws (the same seeds give the same
// output on every run and machine); only when both are 0 does the spec ask
// for fresh random seeds. Samples come from inverting the row's cumulative
// distribution with uniform doubles.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "ops/operation.h"
#include "ops/util/movement.h"
#include "ops/util/validation.h"

namespace annrt::ops::families::random_multinomial {
namespace {

constexpr uint32_t kLogits = 0, kSamples = 1, kSeeds = 2;

Result<void> validate(const ValidationContext& context) {
  ANNRT_RETURN_IF_ERROR(validateInputCount(context, 3, 3));
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  for (uint32_t i = 0; i < context.inputCount(); ++i) {
    ANNRT_CHECK(!context.isOmittedInput(i), "input {} is omitted", i);
  }
  ANNRT_RETURN_IF_ERROR(validateTypeIn(context.inputType(kLogits),
                                       {OperandType::TENSOR_FLOAT16, OperandType::TENSOR_FLOAT32},
                                       "logits"));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, kSamples, OperandType::INT32, "sample count"));
  ANNRT_RETURN_IF_ERROR(validateInputType(context, kSeeds, OperandType::TENSOR_INT32, "seeds"));
  ANNRT_CHECK(context.outputType(0) == OperandType::TENSOR_INT32,
              "output has type {}, expected TENSOR_INT32", operandTypeName(context.outputType(0)));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kLogits), 2, "logits"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kSeeds), 1, "seeds"));
  const Shape& seeds = context.inputShape(kSeeds);
  ANNRT_CHECK(hasUnknownDims(seeds) || seeds.dims[0] == 2, "seeds {} must hold two values",
              toString(seeds.dims));
  ANNRT_RETURN_IF_ERROR(validateRank(context.outputShape(0), 2, "output"));
  if (const int32_t* samples = constantInt32(context, kSamples)) {
    ANNRT_CHECK(*samples >= 0, "sample count {} is negative", *samples);
  }
  return {};
}

Result<void> prepare(ExecutionContext& context) {
  const Shape& logits = context.inputShape(kLogits);
  ANNRT_CHECK(rank(logits) == 2, "logits has rank {}, expected 2", rank(logits));
  ANNRT_RETURN_IF_ERROR(int32Vector(context, kSeeds, 2));
  const int32_t samples = context.scalar<int32_t>(kSamples);
  ANNRT_CHECK(samples >= 0, "sample count {} is negative", samples);
  return setOutputDims(context, {logits.dims[0], static_cast<uint32_t>(samples)});
}

// mt19937_64's output sequence is fixed by the C++ standard, unlike the
// standard distributions, so draws are turned into doubles here.
class Uniform {
 public:
  explicit Uniform(uint64_t seed) : engine_(seed) {}
  // A double in [0, 1) from the top 53 bits.
  double next() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

 private:
  std::mt19937_64 engine_;
};

uint64_t engineSeed(const int32_t* seeds) {
  uint64_t seed = uint64_t{static_cast<uint32_t>(seeds[0])} << 32 | static_cast<uint32_t>(seeds[1]);
  if (seed == 0) seed = uint64_t{std::random_device{}()} << 32 | std::random_device{}();
  return seed;
}

std::vector<double> rowLogits(const ExecutionContext& context, size_t row, size_t classes) {
  std::vector<double> values(classes);
  const size_t first = row * classes;
  if (context.inputType(kLogits) == OperandType::TENSOR_FLOAT16) {
    const Float16* data = context.input<Float16>(kLogits) + first;
    for (size_t c = 0; c < classes; ++c) values[c] = static_cast<double>(data[c]);
  } else {
    const float* data = context.input<float>(kLogits) + first;
    for (size_t c = 0; c < classes; ++c) values[c] = data[c];
  }
  return values;
}

// Unnormalized cumulative probabilities. Non-finite logits get no mass, and
// the maximum is subtracted first so that exp cannot overflow.
Result<std::vector<double>> cumulative(const std::vector<double>& logits) {
  double max = std::numeric_limits<double>::lowest();
  for (double logit : logits) {
    if (std::isfinite(logit)) max = std::max(max, logit);
  }
  std::vector<double> cdf(logits.size());
  double total = 0.0;
  for (size_t c = 0; c < logits.size(); ++c) {
    if (std::isfinite(logits[c])) total += std::exp(logits[c] - max);
    cdf[c] = total;
  }
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, total > 0.0, "no class has a finite logit");
  return cdf;
}

int32_t sample(const std::vector<double>& cdf, double uniform) {
  const double total = cdf.back();
  auto found = std::upper_bound(cdf.begin(), cdf.end(), uniform * total);
  // uniform * total can round up to total: take the last class with mass.
  if (found == cdf.end()) found = std::lower_bound(cdf.begin(), cdf.end(), total);
  return static_cast<int32_t>(found - cdf.begin());
}

Result<void> execute(ExecutionContext& context) {
  const Shape& logits = context.inputShape(kLogits);
  const size_t batches = logits.dims[0], classes = logits.dims[1];
  const size_t samples = context.outputShape(0).dims[1];
  Uniform uniform(engineSeed(context.input<int32_t>(kSeeds)));
  int32_t* out = context.output<int32_t>(0);
  for (size_t b = 0; b < batches; ++b) {
    ANNRT_ASSIGN_OR_RETURN(std::vector<double> cdf, cumulative(rowLogits(context, b, classes)));
    for (size_t s = 0; s < samples; ++s) *out++ = sample(cdf, uniform.next());
  }
  return {};
}

constexpr OperationRegistration kOperations[] = {
    {.type = OperationType::RANDOM_MULTINOMIAL,
     .name = "RANDOM_MULTINOMIAL",
     .validate = validate,
     .prepare = prepare,
     .execute = execute},
};

}  // namespace

std::span<const OperationRegistration> operations() {
  return kOperations;
}

}  // namespace annrt::ops::families::random_multinomial
