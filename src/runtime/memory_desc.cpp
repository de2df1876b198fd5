// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/memory_desc.h"

#include <algorithm>
#include <cmath>

#include "common/model_limits.h"

namespace annrt::runtime {

Result<void> MemoryDescBuilder::checkModifiable() const {
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, !finished_, "the memory descriptor is finished");
  return {};
}

Result<void> MemoryDescBuilder::mergeDims(const std::vector<uint32_t>& dims) {
  ANNRT_ASSIGN_OR_RETURN(dims_, combineDims(dims_, dims));
  return {};
}

Result<void> MemoryDescBuilder::addRole(std::shared_ptr<const Compilation> compilation,
                                        uint32_t index, bool isInput, float frequency) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  ANNRT_CHECK(compilation->isFinished() && compilation->isPrepared(),
              "the compilation is not finished successfully");
  ANNRT_CHECK(frequency > 0.0f && frequency <= 1.0f, "frequency {} is not in (0, 1]", frequency);
  ANNRT_ASSIGN_OR_RETURN(const Operand* operand, compilation->ioOperand(index, isInput));
  const MemoryRole role{compilation.get(), index, isInput};
  ANNRT_CHECK(std::find(roles_.begin(), roles_.end(), role) == roles_.end(),
              "this role was already added");
  if (shape_) {
    ANNRT_CHECK(shape_->type == operand->shape.type && shape_->scale == operand->shape.scale &&
                    shape_->zeroPoint == operand->shape.zeroPoint &&
                    shape_->channelQuant == operand->shape.channelQuant,
                "role operand {} is incompatible with the descriptor's {}",
                toString(operand->shape), toString(*shape_));
  }
  ANNRT_CHECK(isTensorType(operand->shape.type) || dims_.empty(),
              "a scalar role does not take the dimensions {} already set", toString(dims_));
  ANNRT_RETURN_IF_ERROR(mergeDims(operand->shape.dims));
  if (!shape_) shape_ = operand->shape;  // only once the role is accepted
  roles_.push_back(role);
  compilations_.push_back(std::move(compilation));
  return {};
}

Result<void> MemoryDescBuilder::setDimensions(std::span<const uint32_t> dims) {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  ANNRT_CHECK(!shape_ || isTensorType(shape_->type) || dims.empty(),
              "a scalar memory takes no dimensions");
  ANNRT_CHECK(dims.size() <= limits::kMaxRank, "rank {} is over annrt's limit of {}", dims.size(),
              limits::kMaxRank);
  return mergeDims({dims.begin(), dims.end()});
}

Result<void> MemoryDescBuilder::finish() {
  ANNRT_RETURN_IF_ERROR(checkModifiable());
  ANNRT_CHECK(!roles_.empty(), "the memory descriptor has no input or output role");
  finished_ = true;
  return {};
}

Result<std::shared_ptr<Memory>> MemoryDescBuilder::createMemory() const {
  // finish() fails without a role, and a role gives the shape.
  ANNRT_CHECK_CODE(ErrorCode::BAD_STATE, finished_ && shape_.has_value(),
                   "the memory descriptor is not finished");
  MemoryDescription description;
  description.shape = *shape_;
  description.shape.dims = dims_;
  description.roles = roles_;
  return Memory::fromDescription(std::move(description));
}

}  // namespace annrt::runtime
