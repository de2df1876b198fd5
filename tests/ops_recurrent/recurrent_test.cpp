// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What the conformance vectors do not reach for the recurrent operations:
// odd shapes checked against a direct computation, time-major against
// batch-major, zero-length sequences, signatures and tensor combinations the
// spec rejects, and the 16-bit fixed-point nonlinearities.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <vector>

#include "ops/operation.h"
#include "ops/util/fixed_point16.h"

namespace annrt::ops {
namespace {

struct Operand {
  Shape shape;
  std::vector<uint8_t> data;  // empty and omitted: NO_VALUE
  bool omitted = false;
};

class FakeContext final : public ValidationContext, public ExecutionContext {
 public:
  FakeContext(std::vector<Operand> inputs, std::vector<Shape> outputs)
      : inputs_(std::move(inputs)), outputs_(std::move(outputs)), outputData_(outputs_.size()) {}

  uint32_t inputCount() const override { return inputs_.size(); }
  uint32_t outputCount() const override { return outputs_.size(); }
  const Shape& inputShape(uint32_t i) const override { return inputs_[i].shape; }
  const Shape& outputShape(uint32_t i) const override { return outputs_[i]; }
  bool isOmittedInput(uint32_t i) const override { return inputs_[i].omitted; }
  const void* constantInput(uint32_t i) const override { return inputData(i); }
  const void* inputData(uint32_t i) const override {
    return inputs_[i].omitted ? nullptr : inputs_[i].data.data();
  }
  bool isRelaxed() const override { return false; }
  Result<void> setOutputShape(uint32_t i, const Shape& shape) override {
    outputs_[i] = shape;
    outputData_[i].assign(std::max<size_t>(byteSize(shape), 1), 0);
    return {};
  }
  void* outputData(uint32_t i) override { return outputData_[i].data(); }

  std::vector<float> floats(uint32_t i) const {
    std::vector<float> values(elementCount(outputs_[i]));
    std::memcpy(values.data(), outputData_[i].data(), values.size() * sizeof(float));
    return values;
  }

 private:
  std::vector<Operand> inputs_;
  std::vector<Shape> outputs_;
  std::vector<std::vector<uint8_t>> outputData_;
};

Operand floats(std::vector<uint32_t> dims, std::vector<float> values) {
  Operand o;
  o.shape.type = OperandType::TENSOR_FLOAT32;
  o.shape.dims = std::move(dims);
  o.data.resize(values.size() * sizeof(float));
  if (!values.empty()) std::memcpy(o.data.data(), values.data(), o.data.size());
  return o;
}

Operand omitted(OperandType type = OperandType::TENSOR_FLOAT32) {
  Operand o;
  o.shape.type = type;
  o.omitted = true;
  return o;
}

template <typename T>
Operand scalar(OperandType type, T value) {
  Operand o;
  o.shape.type = type;
  o.data.resize(sizeof(T));
  std::memcpy(o.data.data(), &value, sizeof(T));
  return o;
}

Operand int32(int32_t v) {
  return scalar(OperandType::INT32, v);
}
Operand float32(float v) {
  return scalar(OperandType::FLOAT32, v);
}
Operand boolean(bool v) {
  return scalar(OperandType::BOOL, static_cast<uint8_t>(v));
}

Shape floatOutput() {
  Shape s;
  s.type = OperandType::TENSOR_FLOAT32;
  return s;
}

std::vector<Shape> floatOutputs(size_t n) {
  return std::vector<Shape>(n, floatOutput());
}

Result<void> run(OperationType type, FakeContext& context) {
  const OperationRegistration* op = findOperation(type);
  if (op == nullptr) return makeError(ErrorCode::OP_FAILED, "not registered");
  ANNRT_RETURN_IF_ERROR(op->validate(context));
  ANNRT_RETURN_IF_ERROR(op->prepare(context));
  for (uint32_t i = 0; i < context.outputCount(); ++i) {
    if (elementCount(context.outputShape(i)) == 0) return {};
  }
  return op->execute(context);
}

std::vector<float> iota(size_t n, float scale, float offset = 0.0f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = offset + scale * static_cast<float>(i % 7) - 0.1f * (i % 3);
  return v;
}

// h' = tanh(W x + R h + b) by hand, for batch 3, input size 1, 2 units.
TEST(RnnTest, OddShapesMatchDirectComputation) {
  const std::vector<float> x = {0.5f, -1.0f, 2.0f};
  const std::vector<float> w = {0.3f, -0.7f};
  const std::vector<float> r = {0.1f, 0.2f, -0.3f, 0.4f};
  const std::vector<float> b = {0.05f, -0.05f};
  const std::vector<float> h = {1.0f, -1.0f, 0.5f, 0.25f, 0.0f, 2.0f};
  FakeContext context({floats({3, 1}, x), floats({2, 1}, w), floats({2, 2}, r), floats({2}, b),
                       floats({3, 2}, h), int32(1)},
                      floatOutputs(2));
  ASSERT_TRUE(run(OperationType::RNN, context).ok());
  const std::vector<float> out = context.floats(1);
  ASSERT_EQ(out.size(), 6u);
  for (int batch = 0; batch < 3; ++batch) {
    for (int u = 0; u < 2; ++u) {
      float sum = b[u] + x[batch] * w[u];
      for (int i = 0; i < 2; ++i) sum += h[batch * 2 + i] * r[u * 2 + i];
      EXPECT_NEAR(out[batch * 2 + u], std::max(0.0f, sum), 1e-6f);
    }
  }
  EXPECT_EQ(context.floats(0), out);  // the new hidden state is the output
}

// The same sequence given time-major and batch-major gives the same rows.
TEST(RnnTest, SequenceLayoutsAgree) {
  const uint32_t time = 3, batch = 2, input = 3, units = 4;
  const std::vector<float> x = iota(size_t{time} * batch * input, 0.2f, -0.5f);
  std::vector<float> xBatchMajor(x.size());
  for (uint32_t t = 0; t < time; ++t) {
    for (uint32_t b = 0; b < batch; ++b) {
      for (uint32_t i = 0; i < input; ++i) {
        xBatchMajor[(b * time + t) * input + i] = x[(t * batch + b) * input + i];
      }
    }
  }
  auto runWith = [&](const std::vector<float>& data, bool timeMajor) {
    std::vector<uint32_t> dims = timeMajor ? std::vector<uint32_t>{time, batch, input}
                                           : std::vector<uint32_t>{batch, time, input};
    FakeContext context(
        {floats(dims, data), floats({units, input}, iota(size_t{units} * input, 0.1f)),
         floats({units, units}, iota(size_t{units} * units, -0.05f)),
         floats({units}, iota(units, 0.01f)),
         floats({batch, units}, iota(size_t{batch} * units, 0.3f)), int32(3),
         int32(timeMajor ? 1 : 0)},
        floatOutputs(2));
    EXPECT_TRUE(run(OperationType::UNIDIRECTIONAL_SEQUENCE_RNN, context).ok());
    return std::make_pair(context.floats(0), context.floats(1));
  };
  const auto [timeMajorOut, timeMajorState] = runWith(x, true);
  const auto [batchMajorOut, batchMajorState] = runWith(xBatchMajor, false);
  EXPECT_EQ(timeMajorState, batchMajorState);
  for (uint32_t t = 0; t < time; ++t) {
    for (uint32_t b = 0; b < batch; ++b) {
      for (uint32_t u = 0; u < units; ++u) {
        EXPECT_EQ(timeMajorOut[(t * batch + b) * units + u],
                  batchMajorOut[(b * time + t) * units + u]);
      }
    }
  }
}

TEST(RnnTest, ZeroLengthSequenceGivesZeroSizedOutput) {
  FakeContext context({floats({0, 2, 1}, {}), floats({2, 1}, {1, 1}), floats({2, 2}, {0, 0, 0, 0}),
                       floats({2}, {0, 0}), floats({2, 2}, {1, 2, 3, 4}), int32(0), int32(1)},
                      floatOutputs(1));
  ASSERT_TRUE(run(OperationType::UNIDIRECTIONAL_SEQUENCE_RNN, context).ok());
  EXPECT_EQ(context.outputShape(0).dims, (std::vector<uint32_t>{0, 2, 2}));
}

TEST(RnnTest, RejectsBadSignaturesAndWiring) {
  // TANH is not a fused activation of RNN.
  FakeContext tanh({floats({1, 1}, {1}), floats({1, 1}, {1}), floats({1, 1}, {1}), floats({1}, {0}),
                    floats({1, 1}, {0}), int32(4)},
                   floatOutputs(2));
  EXPECT_FALSE(run(OperationType::RNN, tanh).ok());
  // Recurrent weights that are not [units, units].
  FakeContext shape({floats({1, 1}, {1}), floats({2, 1}, {1, 1}), floats({2, 1}, {1, 1}),
                     floats({2}, {0, 0}), floats({1, 2}, {0, 0}), int32(0)},
                    floatOutputs(2));
  EXPECT_FALSE(run(OperationType::RNN, shape).ok());
  // Bidirectional: aux weights without an aux input, and merged outputs
  // with a separate backward output.
  auto bidi = [](bool auxWeights, bool merge, size_t outputs) {
    std::vector<Operand> in = {floats({2, 1, 1}, {1, 2})};
    for (int d = 0; d < 2; ++d) {
      in.push_back(floats({1, 1}, {0.5f}));
      in.push_back(floats({1, 1}, {0.5f}));
      in.push_back(floats({1}, {0}));
      in.push_back(floats({1, 1}, {0}));
    }
    in.push_back(omitted());
    in.push_back(auxWeights ? floats({1, 1}, {1}) : omitted());
    in.push_back(auxWeights ? floats({1, 1}, {1}) : omitted());
    in.push_back(int32(0));
    in.push_back(boolean(true));
    in.push_back(boolean(merge));
    FakeContext context(std::move(in), floatOutputs(outputs));
    return run(OperationType::BIDIRECTIONAL_SEQUENCE_RNN, context).ok();
  };
  EXPECT_TRUE(bidi(false, false, 2));
  EXPECT_TRUE(bidi(false, true, 1));
  EXPECT_TRUE(bidi(false, true, 3));
  EXPECT_FALSE(bidi(true, false, 2));
  EXPECT_FALSE(bidi(false, true, 2));
}

// An LSTM with 1 batch, 1 input, 1 cell: inputs 23 (no layer norm).
std::vector<Operand> lstmInputs() {
  std::vector<Operand> in = {floats({1, 1}, {0.5f})};
  for (int i = 0; i < 8; ++i) in.push_back(floats({1, 1}, {0.1f * (i + 1)}));
  for (int i = 0; i < 3; ++i) in.push_back(omitted());  // peephole
  for (int i = 0; i < 4; ++i) in.push_back(floats({1}, {0.2f}));
  in.push_back(omitted());  // projection
  in.push_back(omitted());
  in.push_back(floats({1, 1}, {0.3f}));
  in.push_back(floats({1, 1}, {-0.3f}));
  in.push_back(int32(4));
  in.push_back(float32(0.0f));
  in.push_back(float32(0.0f));
  return in;
}

TEST(LstmTest, SingleCellMatchesDirectComputation) {
  FakeContext context(lstmInputs(), floatOutputs(4));
  ASSERT_TRUE(run(OperationType::LSTM, context).ok());
  auto gate = [](float w, float r) { return 0.2f + w * 0.5f + r * 0.3f; };
  auto sigmoid = [](float v) { return 1.0f / (1.0f + std::exp(-v)); };
  const float i = sigmoid(gate(0.1f, 0.5f)), f = sigmoid(gate(0.2f, 0.6f)),
              g = std::tanh(gate(0.3f, 0.7f)), o = sigmoid(gate(0.4f, 0.8f));
  const float c = f * -0.3f + i * g;
  EXPECT_NEAR(context.floats(2)[0], c, 1e-6f);
  EXPECT_NEAR(context.floats(3)[0], o * std::tanh(c), 1e-6f);
  EXPECT_EQ(context.floats(1), context.floats(3));
  EXPECT_EQ(context.outputShape(0).dims, (std::vector<uint32_t>{1, 4}));
}

TEST(LstmTest, RejectsInconsistentOptionalTensors) {
  auto fails = [](auto edit) {
    std::vector<Operand> in = lstmInputs();
    edit(in);
    FakeContext context(std::move(in), floatOutputs(4));
    return !run(OperationType::LSTM, context).ok();
  };
  EXPECT_FALSE(fails([](auto&) {}));
  // Only one of the input-gate weights omitted.
  EXPECT_TRUE(fails([](auto& in) { in[1] = omitted(); }));
  // Projection bias without projection weights.
  EXPECT_TRUE(fails([](auto& in) { in[17] = floats({1}, {0}); }));
  // Some peepholes without the others.
  EXPECT_TRUE(fails([](auto& in) { in[10] = floats({1}, {0}); }));
  // Negative clipping, unknown activation.
  EXPECT_TRUE(fails([](auto& in) { in[21] = float32(-1.0f); }));
  EXPECT_TRUE(fails([](auto& in) { in[20] = int32(5); }));
  // A cell state of the wrong shape.
  EXPECT_TRUE(fails([](auto& in) { in[19] = floats({1, 2}, {0, 0}); }));
  // A missing required tensor.
  EXPECT_TRUE(fails([](auto& in) { in[2] = omitted(); }));
}

TEST(SvdfTest, RejectsRankThatDoesNotDivideFilters) {
  FakeContext context(
      {floats({1, 2}, {1, 2}), floats({3, 2}, iota(6, 0.1f)), floats({3, 2}, iota(6, 0.1f)),
       omitted(), floats({1, 6}, iota(6, 0.0f)), int32(2), int32(0)},
      floatOutputs(2));
  EXPECT_FALSE(run(OperationType::SVDF, context).ok());
}

TEST(SvdfTest, RankTwoSumsFilterPairs) {
  // 2 units of rank 2, memory 1: output[u] = sum over its two filters of
  // weights_time * (weights_feature . x).
  const std::vector<float> feature = {1, 0, 0, 1, 1, 1, 2, -1};
  const std::vector<float> time = {0.5f, 2.0f, -1.0f, 1.0f};
  FakeContext context(
      {floats({1, 2}, {3, 4}), floats({4, 2}, feature), floats({4, 1}, time),
       floats({2}, {0.25f, -0.25f}), floats({1, 4}, {9, 9, 9, 9}), int32(2), int32(0)},
      floatOutputs(2));
  ASSERT_TRUE(run(OperationType::SVDF, context).ok());
  const std::vector<float> out = context.floats(1);
  EXPECT_FLOAT_EQ(out[0], 0.25f + 0.5f * 3 + 2.0f * 4);
  EXPECT_FLOAT_EQ(out[1], -0.25f - 1.0f * 7 + 1.0f * 2);
  EXPECT_EQ(context.floats(0), (std::vector<float>{0, 0, 0, 0}));  // memory 1 shifts out
}

TEST(FixedPoint16Test, NonlinearitiesTrackFloat) {
  for (int raw = -32768; raw <= 32767; raw += 97) {
    const auto q = static_cast<int16_t>(raw);
    const double x = raw / 4096.0;  // Q3.12
    EXPECT_NEAR(fixed16::logistic(fixed16::Q<3>{q}).raw / 32768.0, 1.0 / (1.0 + std::exp(-x)),
                2e-3);
    EXPECT_NEAR(fixed16::tanh(fixed16::Q<3>{q}).raw / 32768.0, std::tanh(x), 2e-3);
  }
  EXPECT_EQ(fixed16::logistic(fixed16::Q<3>{0}).raw, 16384);
  EXPECT_EQ(fixed16::tanh(fixed16::Q<3>{0}).raw, 0);
  int16_t out = 0;
  EXPECT_FALSE(fixed16::tanhRaw(7, 100, &out));
  ASSERT_TRUE(fixed16::tanhRaw(6, 512, &out));  // Q6.9: 1.0
  EXPECT_NEAR(out / 32768.0, std::tanh(1.0), 2e-3);
}

}  // namespace
}  // namespace annrt::ops
