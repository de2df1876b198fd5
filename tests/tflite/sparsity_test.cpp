// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// densifyTensor against a compressor written here from the format's
// definition: a dense tensor with zeros is compressed into a traversal
// order, optional blocks and dense or CSR levels, and must come back whole.
#include "tflite/sparsity.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "schema_generated.h"

namespace annrt::tflite {
namespace {

struct Format {
  std::vector<int32_t> shape = {};
  std::vector<int32_t> order = {};     // over rank + blocks levels
  std::vector<int32_t> blockMap = {};  // block b splits dimension blockMap[b]
  std::vector<int32_t> blockSizes = {};
  std::vector<bool> sparse = {};  // per level, in traversal order
};

// The compressed form of a dense tensor: stored values in traversal order and,
// per level, a dense size or CSR segments and indices.
struct Compressed {
  std::vector<float> values = {};
  std::vector<std::vector<int32_t>> segments = {}, indices = {};
  std::vector<int32_t> denseSizes = {};
};

class Compressor {
 public:
  Compressor(const Format& format, const std::vector<float>& dense)
      : format_(format), dense_(dense), coordinates_(format.order.size(), 0) {
    const size_t rank = format.shape.size();
    for (size_t d = 0; d < rank + format.blockMap.size(); ++d) extents_.push_back(extent(d));
    out_.segments.assign(format.order.size(), {0});
    out_.indices.resize(format.order.size());
    for (int32_t dimension : format.order) out_.denseSizes.push_back(extents_[dimension]);
  }

  Compressed run() {
    walk(0);
    return out_;
  }

 private:
  // Size of expanded dimension d: a tensor dimension divided by its block,
  // or a block.
  int32_t extent(size_t d) const {
    const size_t rank = format_.shape.size();
    if (d >= rank) return format_.blockSizes[d - rank];
    for (size_t b = 0; b < format_.blockMap.size(); ++b) {
      if (static_cast<size_t>(format_.blockMap[b]) == d) {
        return format_.shape[d] / format_.blockSizes[b];
      }
    }
    return format_.shape[d];
  }

  size_t denseOffset() const {
    const size_t rank = format_.shape.size();
    size_t offset = 0;
    for (size_t d = 0; d < rank; ++d) {
      int32_t coordinate = coordinates_[d];
      for (size_t b = 0; b < format_.blockMap.size(); ++b) {
        if (static_cast<size_t>(format_.blockMap[b]) == d) {
          coordinate = coordinate * format_.blockSizes[b] + coordinates_[rank + b];
        }
      }
      offset = offset * format_.shape[d] + coordinate;
    }
    return offset;
  }

  // Whether any element under the levels from `level` on is nonzero.
  bool anyNonzero(size_t level) {
    if (level == format_.order.size()) return dense_[denseOffset()] != 0.0f;
    const int32_t dimension = format_.order[level];
    for (int32_t c = 0; c < extents_[dimension]; ++c) {
      coordinates_[dimension] = c;
      if (anyNonzero(level + 1)) return true;
    }
    return false;
  }

  void walk(size_t level) {
    if (level == format_.order.size()) {
      out_.values.push_back(dense_[denseOffset()]);
      return;
    }
    const int32_t dimension = format_.order[level];
    for (int32_t c = 0; c < extents_[dimension]; ++c) {
      coordinates_[dimension] = c;
      if (format_.sparse[level]) {
        if (!anyNonzero(level + 1)) continue;
        out_.indices[level].push_back(c);
      }
      walk(level + 1);
    }
    if (format_.sparse[level]) {
      out_.segments[level].push_back(static_cast<int32_t>(out_.indices[level].size()));
    }
  }

  const Format& format_;
  const std::vector<float>& dense_;
  std::vector<int32_t> extents_;
  std::vector<int32_t> coordinates_;
  Compressed out_;
};

enum class IndexWidth { INT32, UINT16, UINT8 };

// A flatbuffer holding one SparsityParameters table for `compressed`.
class SparsityBuffer {
 public:
  SparsityBuffer(const Format& format, const Compressed& compressed, IndexWidth width) {
    std::vector<flatbuffers::Offset<fb::DimensionMetadata>> levels;
    for (size_t l = 0; l < format.order.size(); ++l) {
      if (!format.sparse[l]) {
        levels.push_back(fb::CreateDimensionMetadata(builder_, fb::DimensionType::DENSE,
                                                     compressed.denseSizes[l]));
        continue;
      }
      const auto [segmentsType, segments] = indexVector(compressed.segments[l], width);
      const auto [indicesType, indices] = indexVector(compressed.indices[l], width);
      levels.push_back(fb::CreateDimensionMetadata(builder_, fb::DimensionType::SPARSE_CSR, 0,
                                                   segmentsType, segments, indicesType, indices));
    }
    const auto order = builder_.CreateVector(format.order);
    const auto blockMap = builder_.CreateVector(format.blockMap);
    const auto metadata = builder_.CreateVector(levels);
    builder_.Finish(fb::CreateSparsityParameters(builder_, order, blockMap, metadata));
  }

  const fb::SparsityParameters* get() const {
    return flatbuffers::GetRoot<fb::SparsityParameters>(builder_.GetBufferPointer());
  }

 private:
  std::pair<fb::SparseIndexVector, flatbuffers::Offset<void>> indexVector(
      const std::vector<int32_t>& values, IndexWidth width) {
    switch (width) {
      case IndexWidth::UINT16: {
        const std::vector<uint16_t> narrow(values.begin(), values.end());
        return {fb::SparseIndexVector::Uint16Vector,
                fb::CreateUint16Vector(builder_, builder_.CreateVector(narrow)).Union()};
      }
      case IndexWidth::UINT8: {
        const std::vector<uint8_t> narrow(values.begin(), values.end());
        return {fb::SparseIndexVector::Uint8Vector,
                fb::CreateUint8Vector(builder_, builder_.CreateVector(narrow)).Union()};
      }
      case IndexWidth::INT32: break;
    }
    return {fb::SparseIndexVector::Int32Vector,
            fb::CreateInt32Vector(builder_, builder_.CreateVector(values)).Union()};
  }

  flatbuffers::FlatBufferBuilder builder_;
};

std::vector<float> sparseValues(size_t count, std::mt19937& random) {
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  std::bernoulli_distribution zero(0.6);
  std::vector<float> values(count);
  for (float& v : values) v = zero(random) ? 0.0f : value(random);
  return values;
}

// The dense tensor's element count, as the importer counts it.
size_t elementCount(const std::vector<int32_t>& shape) {
  TensorView tensor;
  tensor.shape = shape;
  return tensor.elementCount();
}

Result<std::vector<uint8_t>> densify(const Format& format, const Compressed& compressed,
                                     IndexWidth width = IndexWidth::INT32) {
  const SparsityBuffer sparsity(format, compressed, width);
  TensorView tensor;
  tensor.index = 7;
  tensor.name = "weights";
  tensor.shape = format.shape;
  tensor.signature = format.shape;
  tensor.data = {reinterpret_cast<const uint8_t*>(compressed.values.data()),
                 compressed.values.size() * sizeof(float)};
  tensor.sparsity = sparsity.get();
  return densifyTensor(tensor);
}

void expectRoundTrip(const Format& format, uint32_t seed, IndexWidth width = IndexWidth::INT32) {
  std::mt19937 random(seed);
  const std::vector<float> dense = sparseValues(elementCount(format.shape), random);
  const Compressed compressed = Compressor(format, dense).run();
  const Result<std::vector<uint8_t>> bytes = densify(format, compressed, width);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  ASSERT_EQ(bytes->size(), dense.size() * sizeof(float));
  std::vector<float> back(dense.size());
  std::memcpy(back.data(), bytes->data(), bytes->size());
  EXPECT_EQ(back, dense);
}

TEST(SparsityTest, CompressedRows) {
  expectRoundTrip({.shape = {6, 10}, .order = {0, 1}, .sparse = {false, true}}, 1);
}

TEST(SparsityTest, CompressedColumnsWithBothLevelsSparse) {
  expectRoundTrip({.shape = {7, 5}, .order = {1, 0}, .sparse = {true, true}}, 2);
}

TEST(SparsityTest, AllLevelsDense) {
  expectRoundTrip({.shape = {3, 4, 5}, .order = {0, 1, 2}, .sparse = {false, false, false}}, 3);
  expectRoundTrip({.shape = {3, 4, 5}, .order = {2, 0, 1}, .sparse = {false, false, false}}, 4);
}

// The form of TFLite's block-sparse fully connected weights: rows dense,
// blocks of four columns compressed, each block stored whole.
TEST(SparsityTest, BlocksOfFourColumns) {
  expectRoundTrip({.shape = {8, 16},
                   .order = {0, 1, 2},
                   .blockMap = {1},
                   .blockSizes = {4},
                   .sparse = {false, true, false}},
                  5);
}

TEST(SparsityTest, BlocksOnTwoDimensionsInAnyOrder) {
  expectRoundTrip({.shape = {4, 6, 8},
                   .order = {2, 0, 3, 1, 4},
                   .blockMap = {0, 2},
                   .blockSizes = {2, 4},
                   .sparse = {true, false, false, true, false}},
                  6);
}

TEST(SparsityTest, NarrowIndexVectors) {
  const Format format{.shape = {5, 9, 3}, .order = {0, 1, 2}, .sparse = {false, true, true}};
  expectRoundTrip(format, 7, IndexWidth::UINT16);
  expectRoundTrip(format, 8, IndexWidth::UINT8);
}

// Every traversal order of a rank-3 tensor with a block, with random
// level formats (block levels stay dense, as the format requires).
TEST(SparsityTest, RandomOrdersAndFormats) {
  std::mt19937 random(9);
  for (int trial = 0; trial < 200; ++trial) {
    Format format{.shape = {4, 3, 6}, .blockMap = {2}, .blockSizes = {trial % 2 ? 3 : 2}};
    format.order = {0, 1, 2, 3};
    std::shuffle(format.order.begin(), format.order.end(), random);
    for (int32_t dimension : format.order) {
      format.sparse.push_back(dimension < 3 && std::bernoulli_distribution(0.5)(random));
    }
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    expectRoundTrip(format, 100 + trial);
  }
}

TEST(SparsityTest, ScalarIsItsOneValue) {
  const Compressed compressed{.values = {2.5f}};
  const Result<std::vector<uint8_t>> bytes = densify(Format{}, compressed);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  float value = 0;
  ASSERT_EQ(bytes->size(), sizeof(value));
  std::memcpy(&value, bytes->data(), sizeof(value));
  EXPECT_EQ(value, 2.5f);
}

class SparsityErrorTest : public ::testing::Test {
 protected:
  const Format format_{.shape = {4, 8}, .order = {0, 1}, .sparse = {false, true}};
  Compressed compressed_ = [this] {
    std::mt19937 random(11);
    return Compressor(format_, sparseValues(32, random)).run();
  }();

  void expectError(const Format& format, const std::string& words) {
    const Result<std::vector<uint8_t>> bytes = densify(format, compressed_);
    ASSERT_FALSE(bytes.ok());
    EXPECT_EQ(bytes.error().code, ErrorCode::BAD_DATA);
    EXPECT_NE(bytes.error().message.find(words), std::string::npos) << bytes.error().message;
  }
};

TEST_F(SparsityErrorTest, IndexOutsideItsDimension) {
  ASSERT_FALSE(compressed_.indices[1].empty());
  compressed_.indices[1].back() = 8;
  expectError(format_, "index 8 out of range");
  compressed_.indices[1].back() = -1;
  expectError(format_, "index -1 out of range");
}

TEST_F(SparsityErrorTest, FewerValuesThanIndexes) {
  compressed_.values.pop_back();
  expectError(format_, "fewer stored values");
}

TEST_F(SparsityErrorTest, MoreValuesThanIndexes) {
  compressed_.values.push_back(1.0f);
  expectError(format_, "but its indexes address");
}

TEST_F(SparsityErrorTest, SegmentsOutsideTheIndexes) {
  compressed_.segments[1].back() = static_cast<int32_t>(compressed_.indices[1].size()) + 1;
  expectError(format_, "bad segment");
  compressed_.segments[1].pop_back();
  expectError(format_, "segment 3 out of range");
}

TEST_F(SparsityErrorTest, DenseLevelLargerThanItsDimension) {
  compressed_.denseSizes[0] = 5;
  expectError(format_, "exceeds dimension 0");
}

TEST_F(SparsityErrorTest, TwoBlocksOfOneDimension) {
  const Format format{.shape = {4, 8},
                      .order = {0, 1, 2, 3},
                      .blockMap = {1, 1},
                      .blockSizes = {2, 2},
                      .sparse = {false, false, false, false}};
  compressed_.denseSizes = {4, 2, 2, 2};
  expectError(format, "bad block 1");
}

}  // namespace
}  // namespace annrt::tflite
