// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// EMBEDDING_LOOKUP, HASHTABLE_LOOKUP, LSH_PROJECTION and RANDOM_MULTINOMIAL
// through the public C API on the reference device, for what the conformance
// vectors do not pin down: every operand type, out-of-range and unsorted
// runtime values, zero-sized tensors, rejected signatures, and the
// determinism of RANDOM_MULTINOMIAL.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "common/single_op.h"

namespace {

constexpr int32_t kOk = ANEURALNETWORKS_NO_ERROR;
constexpr int32_t kBadData = ANEURALNETWORKS_BAD_DATA;
constexpr int32_t kOpFailed = ANEURALNETWORKS_OP_FAILED;
constexpr int32_t kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int32_t kF16 = ANEURALNETWORKS_TENSOR_FLOAT16;
constexpr int32_t kI32 = ANEURALNETWORKS_TENSOR_INT32;
constexpr int32_t kQ8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
constexpr int32_t kQ8S = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;

using annrt::test::Operand;
using annrt::test::tensor;
using annrt::test::values;
using Graph = annrt::test::ReferenceGraph;

Operand ints(const std::vector<int32_t>& values) {
  return tensor(kI32, {static_cast<uint32_t>(values.size())}, values);
}

Operand int32Scalar(int32_t value) {
  return tensor(ANEURALNETWORKS_INT32, {}, std::vector<int32_t>{value});
}

// An operand with only a type, for outputs and temporaries.
Operand typed(int32_t type, std::vector<uint32_t> dims, float scale = 0.0f, int32_t zeroPoint = 0) {
  return Operand{type, std::move(dims), {}, scale, zeroPoint};
}

// ---------------------------------------------------------------------------
// EMBEDDING_LOOKUP

// values [3, 2] holding 10 * row + column; output [lookups, 2].
template <typename T>
int embedding(int32_t type, const std::vector<int32_t>& lookups, std::vector<T>* out,
              float scale = 0.0f, int32_t zeroPoint = 0) {
  Graph g;
  const std::vector<T> table = {T(0), T(1), T(10), T(11), T(20), T(21)};
  const uint32_t rows = static_cast<uint32_t>(lookups.size());
  g.operation(ANEURALNETWORKS_EMBEDDING_LOOKUP,
              {g.input(ints(lookups)), g.input(tensor(type, {3, 2}, table, scale, zeroPoint))},
              {g.output(typed(type, {rows, 2}, scale, zeroPoint))});
  const int status = g.run();
  if (status == kOk) *out = g.result<T>();
  return status;
}

template <typename T>
void expectEmbeddingRows(int32_t type, float scale = 0.0f, int32_t zeroPoint = 0) {
  std::vector<T> out;
  ASSERT_EQ(embedding<T>(type, {2, 0, 2}, &out, scale, zeroPoint), kOk) << "type " << type;
  EXPECT_EQ(out, (std::vector<T>{T(20), T(21), T(0), T(1), T(20), T(21)})) << "type " << type;
}

TEST(EmbeddingLookupTest, EveryValueType) {
  expectEmbeddingRows<float>(kF32);
  expectEmbeddingRows<_Float16>(kF16);
  expectEmbeddingRows<int32_t>(kI32);
  expectEmbeddingRows<uint8_t>(kQ8, 0.5f, 3);
  expectEmbeddingRows<int8_t>(kQ8S, 0.5f, -3);
}

TEST(EmbeddingLookupTest, OutOfRangeIndexFailsTheExecution) {
  std::vector<float> out;
  EXPECT_EQ(embedding<float>(kF32, {0, 3}, &out), kOpFailed);
  EXPECT_EQ(embedding<float>(kF32, {-1}, &out), kOpFailed);
  EXPECT_EQ(embedding<float>(kF32, {INT32_MIN, 1}, &out), kOpFailed);
}

TEST(EmbeddingLookupTest, HigherRankValuesKeepTrailingDimensions) {
  Graph g;
  std::vector<int32_t> table(size_t{2} * 2 * 3);
  std::iota(table.begin(), table.end(), 0);
  // The output's dimensions are left for the op to infer.
  g.operation(ANEURALNETWORKS_EMBEDDING_LOOKUP,
              {g.input(ints({1})), g.input(tensor(kI32, {2, 2, 3}, table))},
              {g.output(typed(kI32, {0, 0, 0}), 6 * sizeof(int32_t))});
  ASSERT_EQ(g.run(), kOk);
  EXPECT_EQ(g.outputDims(), (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(g.result<int32_t>(), (std::vector<int32_t>{6, 7, 8, 9, 10, 11}));
}

// Builds EMBEDDING_LOOKUP from the given operands; the status of addOperation.
int embeddingSignature(const Operand& lookups, const Operand& values, const Operand& output) {
  Graph g;
  g.operation(ANEURALNETWORKS_EMBEDDING_LOOKUP, {g.input(lookups), g.input(values)},
              {g.output(output)});
  return g.run();
}

TEST(EmbeddingLookupTest, RejectsBadSignatures) {
  const Operand lookups = ints({0});
  const Operand values = tensor(kF32, {2, 2}, std::vector<float>(4));
  EXPECT_EQ(embeddingSignature(lookups, values, typed(kF32, {1, 2})), kOk);
  EXPECT_EQ(
      embeddingSignature(tensor(kF32, {1}, std::vector<float>{0}), values, typed(kF32, {1, 2})),
      kBadData)
      << "float lookups";
  EXPECT_EQ(embeddingSignature(tensor(kI32, {1, 1}, std::vector<int32_t>{0}), values,
                               typed(kF32, {1, 2})),
            kBadData)
      << "2-D lookups";
  EXPECT_EQ(embeddingSignature(lookups, tensor(kF32, {2}, std::vector<float>(2)), typed(kF32, {1})),
            kBadData)
      << "1-D values";
  EXPECT_EQ(embeddingSignature(
                lookups, tensor(ANEURALNETWORKS_TENSOR_BOOL8, {2, 2}, std::vector<uint8_t>(4)),
                typed(ANEURALNETWORKS_TENSOR_BOOL8, {1, 2})),
            kBadData)
      << "bool values";
  EXPECT_EQ(embeddingSignature(lookups, values, typed(kI32, {1, 2})), kBadData) << "output type";
  EXPECT_EQ(embeddingSignature(lookups, tensor(kQ8, {2, 2}, std::vector<uint8_t>(4), 0.5f, 1),
                               typed(kQ8, {1, 2}, 0.25f, 1)),
            kBadData)
      << "output scale";
}

TEST(EmbeddingLookupTest, RejectsWrongOperandCountsAndOmittedInputs) {
  {
    Graph g;
    g.operation(ANEURALNETWORKS_EMBEDDING_LOOKUP, {g.input(ints({0}))},
                {g.output(typed(kI32, {1}))});
    EXPECT_EQ(g.run(), kBadData);
  }
  {
    Graph g;
    const uint32_t lookups = g.input(ints({0}));
    g.operation(ANEURALNETWORKS_EMBEDDING_LOOKUP, {lookups, g.omitted(typed(kF32, {2, 2}))},
                {g.output(typed(kF32, {1, 2}))});
    EXPECT_EQ(g.run(), kBadData);
  }
}

// FILL makes an internal [0] lookups tensor; the spec does not give
// EMBEDDING_LOOKUP zero-sized inputs, so the execution fails cleanly.
TEST(EmbeddingLookupTest, ZeroSizedLookupsFailTheExecution) {
  Graph g;
  const uint32_t lookups = g.temporary(typed(kI32, {0}));
  g.operation(ANEURALNETWORKS_FILL, {g.constant(ints({0})), g.constant(int32Scalar(0))}, {lookups});
  g.operation(ANEURALNETWORKS_EMBEDDING_LOOKUP,
              {lookups, g.input(tensor(kF32, {2, 2}, std::vector<float>(4)))},
              {g.output(typed(kF32, {0, 2}), 0)});
  EXPECT_EQ(g.run(), kOpFailed);
}

// ---------------------------------------------------------------------------
// HASHTABLE_LOOKUP

struct HashtableResult {
  std::vector<uint8_t> rows;
  std::vector<uint8_t> hits;
};

// values [keys, 2] of element type T holding 10 * row + column + 1.
template <typename T>
int hashtable(int32_t type, const std::vector<int32_t>& lookups, const std::vector<int32_t>& keys,
              HashtableResult* out, float scale = 0.0f) {
  Graph g;
  const auto rows = static_cast<uint32_t>(keys.size());
  const auto count = static_cast<uint32_t>(lookups.size());
  std::vector<T> table;
  for (uint32_t r = 0; r < rows; ++r) {
    table.push_back(T(10 * r + 1));
    table.push_back(T(10 * r + 2));
  }
  g.operation(
      ANEURALNETWORKS_HASHTABLE_LOOKUP,
      {g.input(ints(lookups)), g.input(ints(keys)), g.input(tensor(type, {rows, 2}, table, scale))},
      {g.output(typed(type, {count, 2}, scale)), g.output(typed(kQ8, {count}, 1.0f, 0))});
  const int status = g.run();
  if (status == kOk) *out = {g.result<uint8_t>(0), g.result<uint8_t>(1)};
  return status;
}

template <typename T>
void expectHashtableRows(int32_t type, float scale = 0.0f) {
  HashtableResult out;
  ASSERT_EQ(hashtable<T>(type, {7, -5, 100, 2}, {-5, 2, 7}, &out, scale), kOk) << type;
  EXPECT_EQ(values<T>(out.rows),
            (std::vector<T>{T(21), T(22), T(1), T(2), T(0), T(0), T(11), T(12)}))
      << "type " << type << ": a miss is a row of zeros";
  EXPECT_EQ(out.hits, (std::vector<uint8_t>{1, 1, 0, 1}));
}

TEST(HashtableLookupTest, EveryValueType) {
  expectHashtableRows<float>(kF32);
  expectHashtableRows<int32_t>(kI32);
  expectHashtableRows<uint8_t>(kQ8, 0.5f);
}

// Enough keys that a linear scan and a binary search differ in reach, with
// extreme values at both ends.
TEST(HashtableLookupTest, FindsEveryKeyOfALongTable) {
  std::vector<int32_t> keys = {INT32_MIN};
  for (int32_t k = -1000; k <= 1000; k += 7) keys.push_back(k);
  keys.push_back(INT32_MAX);
  std::vector<int32_t> lookups(keys.rbegin(), keys.rend());
  lookups.push_back(3);  // between two keys
  HashtableResult out;
  ASSERT_EQ(hashtable<int32_t>(kI32, lookups, keys, &out), kOk);
  const std::vector<int32_t> rows = values<int32_t>(out.rows);
  for (size_t i = 0; i + 1 < lookups.size(); ++i) {
    const auto row = static_cast<int32_t>(keys.size() - 1 - i);
    ASSERT_EQ(rows[2 * i], 10 * row + 1) << "lookup " << lookups[i];
    ASSERT_EQ(out.hits[i], 1);
  }
  EXPECT_EQ(out.hits.back(), 0);
  EXPECT_EQ(rows.back(), 0);
}

TEST(HashtableLookupTest, DuplicateKeysStillHit) {
  HashtableResult out;
  ASSERT_EQ(hashtable<float>(kF32, {4}, {1, 4, 4, 9}, &out), kOk);
  EXPECT_EQ(out.hits, (std::vector<uint8_t>{1}));
  const float first = values<float>(out.rows)[0];
  EXPECT_TRUE(first == 11.0f || first == 21.0f) << first;
}

TEST(HashtableLookupTest, UnsortedKeysFailTheExecution) {
  HashtableResult out;
  EXPECT_EQ(hashtable<float>(kF32, {1}, {3, 1, 2}, &out), kOpFailed);
}

int hashtableSignature(const Operand& keys, const Operand& values, const Operand& output,
                       const Operand& hits) {
  Graph g;
  g.operation(ANEURALNETWORKS_HASHTABLE_LOOKUP,
              {g.input(ints({1})), g.input(keys), g.input(values)},
              {g.output(output), g.output(hits)});
  return g.run();
}

TEST(HashtableLookupTest, RejectsBadSignaturesAndShapes) {
  const Operand keys = ints({1, 2});
  const Operand values = tensor(kF32, {2, 2}, std::vector<float>(4));
  const Operand out = typed(kF32, {1, 2});
  const Operand hits = typed(kQ8, {1}, 1.0f, 0);
  EXPECT_EQ(hashtableSignature(keys, values, out, hits), kOk);
  EXPECT_EQ(hashtableSignature(keys, values, out, typed(kQ8, {1}, 0.5f, 0)), kBadData)
      << "hits scale";
  EXPECT_EQ(hashtableSignature(keys, values, out, typed(ANEURALNETWORKS_TENSOR_BOOL8, {1})),
            kBadData)
      << "hits type";
  EXPECT_EQ(hashtableSignature(keys, tensor(kF16, {2, 2}, std::vector<_Float16>(4)),
                               typed(kF16, {1, 2}), hits),
            kBadData)
      << "float16 values are not in the spec";
  EXPECT_EQ(
      hashtableSignature(keys, tensor(kF32, {2}, std::vector<float>(2)), typed(kF32, {1}), hits),
      kBadData)
      << "1-D values";
  EXPECT_EQ(hashtableSignature(ints({1, 2, 3}), values, out, hits), kBadData)
      << "three keys for two rows";
  EXPECT_EQ(hashtableSignature(tensor(kF32, {2}, std::vector<float>{1, 2}), values, out, hits),
            kBadData)
      << "float keys";
}

// ---------------------------------------------------------------------------
// LSH_PROJECTION

constexpr int32_t kSparseDeprecated = 1, kDense = 2, kSparse = 3;

// hash [functions, bits] seeds; input rows; optional weight (empty: omitted).
struct Projection {
  Operand hash;
  Operand input;
  Operand weight;
  int32_t type = kDense;
};

int project(const Projection& p, std::vector<int32_t>* out) {
  Graph g;
  const uint32_t functions = p.hash.dims[0], bits = p.hash.dims[1];
  const uint32_t length = p.type == kDense ? functions * bits : functions;
  const uint32_t weight =
      p.weight.bytes.empty() ? g.omitted(typed(p.hash.type, {p.input.dims[0]})) : g.input(p.weight);
  g.operation(ANEURALNETWORKS_LSH_PROJECTION,
              {g.input(p.hash), g.input(p.input), weight, g.constant(int32Scalar(p.type))},
              {g.output(typed(kI32, {length}))});
  const int status = g.run();
  if (status == kOk) *out = g.result<int32_t>();
  return status;
}

// Eight seeds, so that sparse signatures carry several bits.
Operand seeds(int32_t type = kF32) {
  const std::vector<float> v = {0.123f, 0.456f, -0.321f, -0.654f, 1.234f, 5.678f, -4.321f, -8.765f};
  if (type == kF32) return tensor(kF32, {2, 4}, v);
  std::vector<_Float16> h(v.begin(), v.end());
  return tensor(kF16, {2, 4}, h);
}

Operand quantRows() {
  return tensor(kQ8, {3, 2}, std::vector<uint8_t>{12, 34, 56, 78, 90, 255}, 0.5f, 0);
}

// Expected bits of seeds() over quantRows() (no weight), computed with
// Google's FarmHash library; they pin the byte layout of the hash keys.
TEST(LshProjectionTest, DenseBitsOfQuantizedRowsWithFloatAndHalfSeeds) {
  std::vector<int32_t> out;
  ASSERT_EQ(project({seeds(kF32), quantRows(), {}, kDense}, &out), kOk);
  const std::vector<int32_t> dense32 = out;
  ASSERT_EQ(project({seeds(kF16), quantRows(), {}, kDense}, &out), kOk);
  const std::vector<int32_t> dense16 = out;
  EXPECT_EQ(dense32, (std::vector<int32_t>{0, 0, 0, 1, 0, 1, 1, 0}));
  EXPECT_EQ(dense16, (std::vector<int32_t>{0, 0, 0, 0, 0, 0, 0, 1}));
}

// SPARSE_DEPRECATED packs the dense bits of each function, most significant
// first; SPARSE adds k << bits for function k.
TEST(LshProjectionTest, SparseTypesPackTheDenseBits) {
  const Operand input = tensor(kF32, {2, 3}, std::vector<float>{1.5f, -2, 3, 0.25f, 8, -1});
  std::vector<int32_t> dense, deprecated, sparse;
  ASSERT_EQ(project({seeds(), input, {}, kDense}, &dense), kOk);
  ASSERT_EQ(project({seeds(), input, {}, kSparseDeprecated}, &deprecated), kOk);
  ASSERT_EQ(project({seeds(), input, {}, kSparse}, &sparse), kOk);
  ASSERT_EQ(dense.size(), 8u);
  for (int32_t k = 0; k < 2; ++k) {
    int32_t packed = 0;
    for (int b = 0; b < 4; ++b) packed = packed << 1 | dense[k * 4 + b];
    EXPECT_EQ(deprecated[k], packed);
    EXPECT_EQ(sparse[k], packed + (k << 4));
  }
}

// Weights of 1 equal no weight; a positive scale does not change any sign;
// negated weights flip every bit (no score is exactly 0 here).
TEST(LshProjectionTest, WeightsScaleTheScore) {
  const Operand input =
      tensor(kI32, {3, 2}, std::vector<int32_t>{12345, 54321, 67890, 9876, -1, 7});
  auto weights = [](const std::vector<float>& w) { return tensor(kF32, {3}, w); };
  std::vector<int32_t> none, ones, scaled, negated;
  ASSERT_EQ(project({seeds(), input, {}, kDense}, &none), kOk);
  ASSERT_EQ(project({seeds(), input, weights({1, 1, 1}), kDense}, &ones), kOk);
  ASSERT_EQ(project({seeds(), input, weights({0.5f, 2, 3}), kDense}, &scaled), kOk);
  EXPECT_EQ(ones, none);
  std::vector<int32_t> scaledTwice;
  ASSERT_EQ(project({seeds(), input, weights({5, 20, 30}), kDense}, &scaledTwice), kOk);
  EXPECT_EQ(scaledTwice, scaled);
  ASSERT_EQ(project({seeds(), input, weights({-0.5f, -2, -3}), kDense}, &negated), kOk);
  for (size_t i = 0; i < scaled.size(); ++i) EXPECT_EQ(negated[i], 1 - scaled[i]) << i;
}

// A weight given as a model input that the execution leaves out.
TEST(LshProjectionTest, WeightOmittedAtExecution) {
  const Operand input = tensor(kI32, {2, 1}, std::vector<int32_t>{3, 4});
  std::vector<int32_t> expected;
  ASSERT_EQ(project({seeds(), input, {}, kSparse}, &expected), kOk);
  Graph g;
  g.operation(ANEURALNETWORKS_LSH_PROJECTION,
              {g.input(seeds()), g.input(input), g.omittedInput(typed(kF32, {2})),
               g.constant(int32Scalar(kSparse))},
              {g.output(typed(kI32, {2}))});
  ASSERT_EQ(g.run(), kOk);
  EXPECT_EQ(g.result<int32_t>(), expected);
}

int lshSignature(const Operand& hash, const Operand& input, const Operand& weight, int32_t type,
                 const Operand& output) {
  Graph g;
  g.operation(ANEURALNETWORKS_LSH_PROJECTION,
              {g.input(hash), g.input(input), g.input(weight), g.constant(int32Scalar(type))},
              {g.output(output)});
  return g.run();
}

TEST(LshProjectionTest, RejectsBadSignaturesAndValues) {
  const Operand input = tensor(kF32, {2}, std::vector<float>{1, 2});
  const Operand weight = tensor(kF32, {2}, std::vector<float>{1, 1});
  const Operand out = typed(kI32, {2});
  EXPECT_EQ(lshSignature(seeds(), input, weight, kSparse, out), kOk);
  EXPECT_EQ(lshSignature(seeds(), input, weight, 0, out), kBadData) << "type 0";
  EXPECT_EQ(lshSignature(seeds(), input, weight, 4, out), kBadData) << "type 4";
  EXPECT_EQ(
      lshSignature(tensor(kI32, {2, 4}, std::vector<int32_t>(8)), input, weight, kSparse, out),
      kBadData)
      << "integer seeds";
  EXPECT_EQ(lshSignature(tensor(kF32, {8}, std::vector<float>(8)), input, weight, kSparse, out),
            kBadData)
      << "1-D hash";
  EXPECT_EQ(lshSignature(seeds(), input, tensor(kF16, {2}, std::vector<_Float16>(2)), kSparse, out),
            kBadData)
      << "weight type differs from the hash type";
  EXPECT_EQ(lshSignature(seeds(), input, tensor(kF32, {3}, std::vector<float>(3)), kSparse, out),
            kBadData)
      << "three weights for two rows";
  EXPECT_EQ(
      lshSignature(seeds(), tensor(ANEURALNETWORKS_TENSOR_BOOL8, {2}, std::vector<uint8_t>(2)),
                   weight, kSparse, out),
      kBadData)
      << "bool input";
  EXPECT_EQ(lshSignature(seeds(), input, weight, kSparse, typed(kF32, {2})), kBadData)
      << "float output";
}

// SPARSE needs bits + ceil(log2(functions)) <= 32 to keep the offsets apart;
// SPARSE_DEPRECATED only needs the bits to fit.
TEST(LshProjectionTest, SparseSignaturesMustFitInt32) {
  const Operand input = tensor(kF32, {1}, std::vector<float>{1});
  const Operand weight = tensor(kF32, {1}, std::vector<float>{1});
  const Operand hash3x31 = tensor(kF32, {3, 31}, std::vector<float>(93, 0.5f));
  EXPECT_EQ(lshSignature(hash3x31, input, weight, kSparse, typed(kI32, {3})), kBadData);
  EXPECT_EQ(lshSignature(hash3x31, input, weight, kSparseDeprecated, typed(kI32, {3})), kOk);
  EXPECT_EQ(lshSignature(tensor(kF32, {1, 33}, std::vector<float>(33)), input, weight,
                         kSparseDeprecated, typed(kI32, {1})),
            kBadData);
  EXPECT_EQ(lshSignature(tensor(kF32, {2, 30}, std::vector<float>(60)), input, weight, kSparse,
                         typed(kI32, {2})),
            kOk);
}

TEST(LshProjectionTest, OnlyTheWeightMayBeOmitted) {
  Graph g;
  g.operation(ANEURALNETWORKS_LSH_PROJECTION,
              {g.omitted(typed(kF32, {2, 4})), g.input(tensor(kF32, {1}, std::vector<float>{1})),
               g.omitted(typed(kF32, {1})), g.constant(int32Scalar(kDense))},
              {g.output(typed(kI32, {8}))});
  EXPECT_EQ(g.run(), kBadData);
}

// ---------------------------------------------------------------------------
// RANDOM_MULTINOMIAL

int multinomial(const Operand& logits, int32_t samples, const std::vector<int32_t>& seedValues,
                std::vector<int32_t>* out) {
  Graph g;
  const uint32_t batches = logits.dims[0];
  const auto count = static_cast<uint32_t>(samples > 0 ? samples : 0);
  g.operation(ANEURALNETWORKS_RANDOM_MULTINOMIAL,
              {g.input(logits), g.constant(int32Scalar(samples)), g.input(ints(seedValues))},
              {g.output(typed(kI32, {batches, count}))});
  const int status = g.run();
  if (status == kOk) *out = g.result<int32_t>();
  return status;
}

TEST(RandomMultinomialTest, SameSeedsSameSamplesOtherSeedsOtherSamples) {
  const Operand logits = tensor(kF32, {2, 8}, std::vector<float>(16, 0.0f));
  std::vector<int32_t> a, b, c;
  ASSERT_EQ(multinomial(logits, 256, {1, 2}, &a), kOk);
  ASSERT_EQ(multinomial(logits, 256, {1, 2}, &b), kOk);
  ASSERT_EQ(multinomial(logits, 256, {2, 1}, &c), kOk);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

// Class counts of many samples match softmax(logits) row by row, for both
// logits types; -inf and very large logits stay in range.
TEST(RandomMultinomialTest, FrequenciesFollowSoftmaxPerRow) {
  // Row 0: exp gives 1 : 3 : 0 : 1. Row 1: equal, and exp(1000) would overflow
  // without shifting by the maximum.
  const std::vector<float> rows = {0, std::log(3.0f), -INFINITY, 0, 1000, 1000, 1000, 1000};
  const int32_t samples = 20000;
  for (int32_t type : {kF32, kF16}) {
    const Operand logits =
        type == kF32 ? tensor(kF32, {2, 4}, rows)
                     : tensor(kF16, {2, 4}, std::vector<_Float16>(rows.begin(), rows.end()));
    std::vector<int32_t> out;
    ASSERT_EQ(multinomial(logits, samples, {7, 11}, &out), kOk);
    std::vector<double> counts(8, 0.0);
    for (int32_t b = 0; b < 2; ++b) {
      for (int32_t s = 0; s < samples; ++s) {
        const int32_t c = out[b * samples + s];
        ASSERT_TRUE(c >= 0 && c < 4) << c;
        counts[b * 4 + c] += 1.0 / samples;
      }
    }
    const std::vector<double> expected = {0.2, 0.6, 0.0, 0.2, 0.25, 0.25, 0.25, 0.25};
    for (size_t i = 0; i < 8; ++i) EXPECT_NEAR(counts[i], expected[i], 0.02) << type << " " << i;
  }
}

TEST(RandomMultinomialTest, ZeroSeedsDrawValidSamples) {
  std::vector<int32_t> out;
  ASSERT_EQ(multinomial(tensor(kF32, {1, 3}, std::vector<float>{0, 0, 0}), 64, {0, 0}, &out), kOk);
  for (int32_t c : out) EXPECT_TRUE(c >= 0 && c < 3) << c;
}

TEST(RandomMultinomialTest, NoFiniteLogitFailsTheExecution) {
  std::vector<int32_t> out;
  EXPECT_EQ(multinomial(tensor(kF32, {1, 2}, std::vector<float>{-INFINITY, NAN}), 4, {1, 2}, &out),
            kOpFailed);
}

TEST(RandomMultinomialTest, RejectsBadSignaturesAndValues) {
  const Operand logits = tensor(kF32, {1, 2}, std::vector<float>{0, 0});
  std::vector<int32_t> out;
  EXPECT_EQ(multinomial(logits, -1, {1, 2}, &out), kBadData) << "negative sample count";
  EXPECT_EQ(multinomial(logits, 4, {1, 2, 3}, &out), kBadData) << "three seeds";
  EXPECT_EQ(multinomial(tensor(kF32, {2}, std::vector<float>{0, 0}), 4, {1, 2}, &out), kBadData)
      << "1-D logits";
  EXPECT_EQ(multinomial(tensor(kQ8, {1, 2}, std::vector<uint8_t>{0, 0}, 1.0f, 0), 4, {1, 2}, &out),
            kBadData)
      << "quantized logits";
}

}  // namespace
