// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite/sparsity.h"

#include <cstring>

namespace annrt::tflite {
namespace {

Result<std::vector<int32_t>> indexVector(fb::SparseIndexVector type, const void* table) {
  auto copy = [](const auto* vector) {
    std::vector<int32_t> values;
    if (vector != nullptr && vector->values() != nullptr) {
      values.assign(vector->values()->begin(), vector->values()->end());
    }
    return values;
  };
  switch (type) {
    case fb::SparseIndexVector::Int32Vector:
      return copy(static_cast<const fb::Int32Vector*>(table));
    case fb::SparseIndexVector::Uint16Vector:
      return copy(static_cast<const fb::Uint16Vector*>(table));
    case fb::SparseIndexVector::Uint8Vector:
      return copy(static_cast<const fb::Uint8Vector*>(table));
    default: break;
  }
  return makeError(ErrorCode::BAD_DATA, "sparse index vector of unknown type {}",
                   static_cast<int>(type));
}

struct Level {
  bool sparse = false;
  int32_t size = 0;  // dense levels
  std::vector<int32_t> segments;
  std::vector<int32_t> indices;
  int32_t dimension = 0;  // expanded dimension this level traverses
};

// Walks the compressed levels, writing each stored value at its dense position.
class Densifier {
 public:
  Densifier(const TensorView& tensor, std::vector<Level> levels, std::vector<int32_t> blockSizes,
            std::vector<int32_t> blockMap)
      : tensor_(tensor),
        levels_(std::move(levels)),
        blockSizes_(std::move(blockSizes)),
        blockMap_(std::move(blockMap)),
        elementSize_(tensorTypeSize(tensor.type)),
        coordinates_(levels_.size(), 0),
        dense_(tensor.elementCount() * elementSize_, 0) {}

  Result<std::vector<uint8_t>> run() {
    ANNRT_RETURN_IF_ERROR(visit(0, 0));
    ANNRT_CHECK(stored_ * elementSize_ == tensor_.data.size(),
                "sparse tensor {} '{}' stores {} bytes but its indexes address {} values",
                tensor_.index, tensor_.name, tensor_.data.size(), stored_);
    return std::move(dense_);
  }

 private:
  Result<void> visit(size_t level, size_t position) {
    if (level == levels_.size()) return store();
    const Level& current = levels_[level];
    if (!current.sparse) {
      for (int32_t c = 0; c < current.size; ++c) {
        coordinates_[current.dimension] = c;
        ANNRT_RETURN_IF_ERROR(visit(level + 1, position * current.size + c));
      }
      return {};
    }
    ANNRT_CHECK(position + 1 < current.segments.size(), "sparse tensor {}: segment {} out of range",
                tensor_.index, position);
    const int32_t begin = current.segments[position];
    const int32_t end = current.segments[position + 1];
    ANNRT_CHECK(begin >= 0 && begin <= end && static_cast<size_t>(end) <= current.indices.size(),
                "sparse tensor {}: bad segment [{}, {})", tensor_.index, begin, end);
    for (int32_t j = begin; j < end; ++j) {
      coordinates_[current.dimension] = current.indices[j];
      ANNRT_RETURN_IF_ERROR(visit(level + 1, j));
    }
    return {};
  }

  Result<void> store() {
    const size_t rank = tensor_.shape.size();
    size_t offset = 0;
    for (size_t d = 0; d < rank; ++d) {
      int64_t coordinate = int64_t{coordinates_[d]} * blockSizes_[d];
      for (size_t b = 0; b < blockMap_.size(); ++b) {
        if (static_cast<size_t>(blockMap_[b]) == d) coordinate += coordinates_[rank + b];
      }
      ANNRT_CHECK(coordinate >= 0 && coordinate < tensor_.shape[d],
                  "sparse tensor {}: index {} out of range for dimension {} of size {}",
                  tensor_.index, coordinate, d, tensor_.shape[d]);
      offset = offset * tensor_.shape[d] + static_cast<size_t>(coordinate);
    }
    ANNRT_CHECK((stored_ + 1) * elementSize_ <= tensor_.data.size(),
                "sparse tensor {} '{}' has fewer stored values than its indexes address",
                tensor_.index, tensor_.name);
    std::memcpy(dense_.data() + offset * elementSize_, tensor_.data.data() + stored_ * elementSize_,
                elementSize_);
    ++stored_;
    return {};
  }

  const TensorView& tensor_;
  std::vector<Level> levels_;
  std::vector<int32_t> blockSizes_;
  std::vector<int32_t> blockMap_;
  size_t elementSize_;
  std::vector<int32_t> coordinates_;  // by expanded dimension
  std::vector<uint8_t> dense_;
  size_t stored_ = 0;
};

}  // namespace

Result<std::vector<uint8_t>> densifyTensor(const TensorView& tensor) {
  const fb::SparsityParameters& sparsity = *tensor.sparsity;
  const size_t rank = tensor.shape.size();
  const size_t elementSize = tensorTypeSize(tensor.type);
  ANNRT_CHECK(elementSize != 0, "sparse tensor {} has unsupported type {}", tensor.index,
              tensorTypeName(tensor.type));
  std::vector<int32_t> order, blockMap;
  if (sparsity.traversal_order())
    order.assign(sparsity.traversal_order()->begin(), sparsity.traversal_order()->end());
  if (sparsity.block_map())
    blockMap.assign(sparsity.block_map()->begin(), sparsity.block_map()->end());
  const size_t levelCount = rank + blockMap.size();
  const auto* metadata = sparsity.dim_metadata();
  ANNRT_CHECK(order.size() == levelCount && metadata && metadata->size() == levelCount,
              "sparse tensor {}: traversal order, block map and dimension metadata disagree "
              "(rank {}, {} blocks, {} orders, {} metadata)",
              tensor.index, rank, blockMap.size(), order.size(), metadata ? metadata->size() : 0);
  std::vector<Level> levels(levelCount);
  std::vector<int32_t> blockSizes(rank, 1);
  std::vector<bool> seen(levelCount, false);
  for (size_t l = 0; l < levelCount; ++l) {
    const fb::DimensionMetadata& meta = *metadata->Get(l);
    Level& level = levels[l];
    level.dimension = order[l];
    ANNRT_CHECK(level.dimension >= 0 && static_cast<size_t>(level.dimension) < levelCount &&
                    !seen[level.dimension],
                "sparse tensor {}: bad traversal order", tensor.index);
    seen[level.dimension] = true;
    level.sparse = meta.format() == fb::DimensionType::SPARSE_CSR;
    level.size = meta.dense_size();
    if (level.sparse) {
      ANNRT_ASSIGN_OR_RETURN(level.segments,
                             indexVector(meta.array_segments_type(), meta.array_segments()));
      ANNRT_ASSIGN_OR_RETURN(level.indices,
                             indexVector(meta.array_indices_type(), meta.array_indices()));
    } else {
      ANNRT_CHECK(level.size > 0, "sparse tensor {}: dense level of size {}", tensor.index,
                  level.size);
    }
    if (static_cast<size_t>(level.dimension) >= rank) {
      const size_t block = level.dimension - rank;
      ANNRT_CHECK(!level.sparse && blockMap[block] >= 0 &&
                      static_cast<size_t>(blockMap[block]) < rank &&
                      tensor.shape[blockMap[block]] % level.size == 0,
                  "sparse tensor {}: bad block {}", tensor.index, block);
      blockSizes[blockMap[block]] = level.size;
    }
  }
  return Densifier(tensor, std::move(levels), std::move(blockSizes), std::move(blockMap)).run();
}

}  // namespace annrt::tflite
