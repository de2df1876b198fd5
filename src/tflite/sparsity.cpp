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
  // A dense offset is linear in the levels' coordinates: one step of this
  // level's coordinate moves it by `stride` elements.
  size_t stride = 0;
  int64_t bound = 0;  // sparse levels: indices must be below it
};

// Walks the compressed levels, writing the stored values at their dense
// positions in traversal order; the last level is copied as one run.
class Densifier {
 public:
  Densifier(const TensorView& tensor, std::vector<Level> levels, std::span<uint8_t> dense)
      : tensor_(tensor),
        levels_(std::move(levels)),
        elementSize_(tensorTypeSize(tensor.type)),
        storedCount_(tensor.data.size() / elementSize_),
        dense_(dense) {}

  Result<void> run() {
    if (levels_.empty()) {  // a scalar
      ANNRT_RETURN_IF_ERROR(take(1));
      std::memcpy(denseAt(0), storedAt(stored_++), elementSize_);
    } else {
      ANNRT_RETURN_IF_ERROR(visit(0, 0, 0));
    }
    ANNRT_CHECK(stored_ * elementSize_ == tensor_.data.size(),
                "sparse tensor {} '{}' stores {} bytes but its indexes address {} values",
                tensor_.index, tensor_.name, tensor_.data.size(), stored_);
    return {};
  }

 private:
  Result<void> visit(size_t level, size_t position, size_t offset) {
    const Level& current = levels_[level];
    if (!current.sparse) {
      if (level + 1 == levels_.size()) return copyDense(current, offset);
      for (int32_t c = 0; c < current.size; ++c) {
        ANNRT_RETURN_IF_ERROR(visit(level + 1, position * current.size + c,
                                    offset + static_cast<size_t>(c) * current.stride));
      }
      return {};
    }
    ANNRT_CHECK(position + 1 < current.segments.size(), "sparse tensor {}: segment {} out of range",
                tensor_.index, position);
    const int32_t begin = current.segments[position];
    const int32_t end = current.segments[position + 1];
    ANNRT_CHECK(begin >= 0 && begin <= end && static_cast<size_t>(end) <= current.indices.size(),
                "sparse tensor {}: bad segment [{}, {})", tensor_.index, begin, end);
    if (level + 1 == levels_.size()) return copySparse(current, begin, end, offset);
    for (int32_t j = begin; j < end; ++j) {
      ANNRT_ASSIGN_OR_RETURN(size_t step, indexStep(current, current.indices[j]));
      ANNRT_RETURN_IF_ERROR(visit(level + 1, static_cast<size_t>(j), offset + step));
    }
    return {};
  }

  Result<size_t> indexStep(const Level& level, int32_t index) const {
    ANNRT_CHECK(index >= 0 && index < level.bound,
                "sparse tensor {}: index {} out of range for dimension {} ({} blocks)",
                tensor_.index, index, level.dimension, level.bound);
    return static_cast<size_t>(index) * level.stride;
  }

  Result<void> take(size_t count) {
    ANNRT_CHECK(count <= storedCount_ - stored_,
                "sparse tensor {} '{}' has fewer stored values than its indexes address",
                tensor_.index, tensor_.name);
    return {};
  }

  uint8_t* denseAt(size_t offset) { return dense_.data() + offset * elementSize_; }
  const uint8_t* storedAt(size_t index) const { return tensor_.data.data() + index * elementSize_; }

  Result<void> copyDense(const Level& level, size_t offset) {
    const auto count = static_cast<size_t>(level.size);
    ANNRT_RETURN_IF_ERROR(take(count));
    if (level.stride == 1) {
      std::memcpy(denseAt(offset), storedAt(stored_), count * elementSize_);
    } else {
      for (size_t c = 0; c < count; ++c) {
        std::memcpy(denseAt(offset + c * level.stride), storedAt(stored_ + c), elementSize_);
      }
    }
    stored_ += count;
    return {};
  }

  // The innermost loop of most sparse weights (one stored value per index),
  // so the element's size is a constant there: a memcpy of a size known
  // only at run time is a call per value (the densifying was most of
  // face_detection_full_range_sparse's import).
  Result<void> copySparse(const Level& level, int32_t begin, int32_t end, size_t offset) {
    ANNRT_RETURN_IF_ERROR(take(static_cast<size_t>(end - begin)));
    switch (elementSize_) {
      case 1: return copySparseOf<1>(level, begin, end, offset);
      case 2: return copySparseOf<2>(level, begin, end, offset);
      case 4: return copySparseOf<4>(level, begin, end, offset);
      case 8: return copySparseOf<8>(level, begin, end, offset);
      default:  // tensorTypeSize gives no other size but 0, refused before
        return makeError(ErrorCode::BAD_DATA, "sparse tensor {}: elements of {} bytes",
                         tensor_.index, elementSize_);
    }
  }

  template <size_t kSize>
  Result<void> copySparseOf(const Level& level, int32_t begin, int32_t end, size_t offset) {
    uint8_t* dense = denseAt(offset);
    const uint8_t* stored = storedAt(stored_);
    for (int32_t j = begin; j < end; ++j, stored += kSize) {
      const int32_t index = level.indices[j];
      if (index < 0 || index >= level.bound) return indexStep(level, index).takeError();
      std::memcpy(dense + static_cast<size_t>(index) * level.stride * kSize, stored, kSize);
    }
    stored_ += static_cast<size_t>(end - begin);
    return {};
  }

  const TensorView& tensor_;
  std::vector<Level> levels_;
  size_t elementSize_;
  size_t storedCount_;
  std::span<uint8_t> dense_;
  size_t stored_ = 0;
};

// Each level's stride and bound from the tensor's shape and block sizes,
// and the check that a dense level fits its dimension, so that no visited
// coordinate needs checking but the sparse levels' indices.
Result<void> placeLevels(const TensorView& tensor, const std::vector<int32_t>& blockMap,
                         const std::vector<int32_t>& blockSizes, std::vector<Level>& levels) {
  const size_t rank = tensor.shape.size();
  std::vector<size_t> denseStrides(rank, 1);
  for (size_t d = rank; d-- > 1;) {
    denseStrides[d - 1] = denseStrides[d] * static_cast<size_t>(tensor.shape[d]);
  }
  for (Level& level : levels) {
    const auto dimension = static_cast<size_t>(level.dimension);
    if (dimension >= rank) {  // a block level: dense, checked where read
      level.stride = denseStrides[blockMap[dimension - rank]];
      continue;
    }
    const int64_t block = blockSizes[dimension];
    level.stride = static_cast<size_t>(block) * denseStrides[dimension];
    level.bound = tensor.shape[dimension] / block;
    ANNRT_CHECK(level.sparse || level.size <= level.bound,
                "sparse tensor {}: dense level of size {} (blocks of {}) exceeds dimension {} "
                "of size {}",
                tensor.index, level.size, block, dimension, tensor.shape[dimension]);
  }
  return {};
}

}  // namespace

Result<size_t> denseByteSize(const TensorView& tensor) {
  const size_t elementSize = tensorTypeSize(tensor.type);
  ANNRT_CHECK(elementSize != 0, "sparse tensor {} has unsupported type {}", tensor.index,
              tensorTypeName(tensor.type));
  return tensor.elementCount() * elementSize;
}

Result<std::vector<uint8_t>> densifyTensor(const TensorView& tensor) {
  ANNRT_ASSIGN_OR_RETURN(size_t size, denseByteSize(tensor));
  std::vector<uint8_t> dense(size);
  ANNRT_RETURN_IF_ERROR(densifyTensor(tensor, dense));
  return dense;
}

Result<void> densifyTensor(const TensorView& tensor, std::span<uint8_t> dense) {
  ANNRT_ASSIGN_OR_RETURN(size_t size, denseByteSize(tensor));
  ANNRT_CHECK(dense.size() == size, "sparse tensor {}: {} bytes given for its {} dense bytes",
              tensor.index, dense.size(), size);
  const fb::SparsityParameters& sparsity = *tensor.sparsity;
  const size_t rank = tensor.shape.size();
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
      ANNRT_CHECK(
          !level.sparse && blockMap[block] >= 0 && static_cast<size_t>(blockMap[block]) < rank &&
              blockSizes[blockMap[block]] == 1 && tensor.shape[blockMap[block]] % level.size == 0,
          "sparse tensor {}: bad block {} (a dense level dividing its dimension, one per "
          "dimension)",
          tensor.index, block);
      blockSizes[blockMap[block]] = level.size;
    }
  }
  ANNRT_RETURN_IF_ERROR(placeLevels(tensor, blockMap, blockSizes, levels));
  return Densifier(tensor, std::move(levels), dense).run();
}

}  // namespace annrt::tflite
