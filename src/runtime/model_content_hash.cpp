// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// modelContentHash (compilation_cache.h): the model's structure goes into
// SHA-256 field by field; a constant's bytes go in as themselves when short
// and as their 128-bit hash128 digest otherwise, which keeps hashing tens of
// MB of weights at memory speed (docs/caching.md gives the collision risk).
#include "common/model.h"
#include "runtime/compilation_cache.h"
#include "runtime/hash128.h"
#include "runtime/hash_writer.h"
#include "runtime/side_thread.h"

namespace annrt::runtime {
namespace {

// Up to this many bytes a constant is hashed by SHA-256 itself.
constexpr size_t kDirectConstantBytes = 64;

void hashShape(HashWriter& hash, const Shape& shape) {
  hash.i32(static_cast<int32_t>(shape.type));
  hash.u32s(shape.dims);
  hash.f32(shape.scale);
  hash.i32(shape.zeroPoint);
  hash.flag(shape.channelQuant.has_value());
  if (shape.channelQuant) {
    hash.u32(shape.channelQuant->channelDim);
    hash.u64(shape.channelQuant->scales.size());
    for (float scale : shape.channelQuant->scales) hash.f32(scale);
  }
}

// Empty for an operand that is not a constant (Model::constantData is null).
std::span<const uint8_t> constantBytes(const Model& model, const Operand& operand) {
  const uint8_t* data = model.constantData(operand);
  return {data, data != nullptr ? operand.location.length : 0};
}

// The hash128 digests of the model's long constants, in the order the
// subgraphs list them, computed up front so that a thread of their own can
// take some (side_thread.h).
class LongConstantDigests {
 public:
  explicit LongConstantDigests(const Model& model) {
    collect(model, model.main);
    for (const Subgraph& subgraph : model.referenced) collect(model, subgraph);
    digests_.resize(constants_.size());
    size_t total = 0;
    for (const auto& bytes : constants_) total += bytes.size();
    runPiecesBeside(constants_.size(), total,
                    [this](size_t i) { digests_[i] = hash128(constants_[i]); });
  }

  // The next long constant's digest.
  const Hash128& next() { return digests_.at(next_++); }

 private:
  void collect(const Model& model, const Subgraph& subgraph) {
    for (const Operand& operand : subgraph.operands) {
      const std::span<const uint8_t> bytes = constantBytes(model, operand);
      if (bytes.size() > kDirectConstantBytes) constants_.push_back(bytes);
    }
  }

  std::vector<std::span<const uint8_t>> constants_;
  std::vector<Hash128> digests_;
  size_t next_ = 0;
};

// The value, not where it is stored: a model whose constants moved between
// operandValues and a memory pool computes the same.
void hashConstant(HashWriter& hash, const Model& model, const Operand& operand,
                  LongConstantDigests& digests) {
  const std::span<const uint8_t> bytes = constantBytes(model, operand);
  if (bytes.size() <= kDirectConstantBytes) {
    hash.bytes(bytes);
  } else {
    hash.u64(bytes.size());
    hash.bytes(digests.next());
  }
}

void hashOperand(HashWriter& hash, const Model& model, const Operand& operand,
                 LongConstantDigests& digests) {
  hashShape(hash, operand.shape);
  // Both kinds of constant count as one: where a value is kept does not
  // change what the model computes.
  const Lifetime lifetime =
      operand.lifetime == Lifetime::CONSTANT_REFERENCE ? Lifetime::CONSTANT_COPY : operand.lifetime;
  hash.i32(static_cast<int32_t>(lifetime));
  hash.bytes(operand.extensionData);
  switch (operand.lifetime) {
    case Lifetime::CONSTANT_COPY:
    case Lifetime::CONSTANT_REFERENCE: hashConstant(hash, model, operand, digests); break;
    case Lifetime::SUBGRAPH:
      hash.u64(operand.location.offset);  // the index into Model::referenced
      break;
    default: break;
  }
}

void hashSubgraph(HashWriter& hash, const Model& model, const Subgraph& subgraph,
                  LongConstantDigests& digests) {
  hash.u64(subgraph.operands.size());
  for (const Operand& operand : subgraph.operands) hashOperand(hash, model, operand, digests);
  hash.u64(subgraph.operations.size());
  for (const Operation& operation : subgraph.operations) {
    hash.i32(static_cast<int32_t>(operation.type));
    hash.u32s(operation.inputs);
    hash.u32s(operation.outputs);
  }
  hash.u32s(subgraph.inputIndexes);
  hash.u32s(subgraph.outputIndexes);
}

}  // namespace

std::array<uint8_t, kCacheTokenSize> modelContentHash(const Model& model) {
  LongConstantDigests digests(model);
  HashWriter hash;
  hash.text("annrt model content hash v1");
  hashSubgraph(hash, model, model.main, digests);
  hash.u64(model.referenced.size());
  for (const Subgraph& subgraph : model.referenced) hashSubgraph(hash, model, subgraph, digests);
  hash.flag(model.relaxComputationFloat32toFloat16);
  hash.u64(model.extensions.size());
  for (const ExtensionPrefix& extension : model.extensions) {
    hash.text(extension.name);
    hash.u32(extension.prefix);
  }
  return hash.finish();
}

}  // namespace annrt::runtime
