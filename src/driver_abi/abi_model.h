// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Conversions between annrt's C++ Model and the plug-in ABI's AnnrtModel.
// The ABI view borrows the C++ model's data; the C++ model built from an ABI
// model borrows the ABI model's constants (the runtime keeps them alive for
// as long as a prepared model exists).
#pragma once

#include <annrt/driver.h>

#include <memory>
#include <vector>

#include "common/model.h"
#include "common/result.h"

namespace annrt::abi {

// An AnnrtModel describing a Model; valid while both objects live.
class AbiModelView {
 public:
  explicit AbiModelView(const Model& model);
  AbiModelView(const AbiModelView&) = delete;
  AbiModelView& operator=(const AbiModelView&) = delete;
  const AnnrtModel* get() const { return &model_; }

 private:
  struct SubgraphStorage {
    std::vector<AnnrtOperand> operands;
    std::vector<AnnrtOperation> operations;
  };
  AnnrtSubgraph convert(const Model& model, const Subgraph& subgraph, SubgraphStorage& storage);

  std::vector<std::unique_ptr<SubgraphStorage>> storage_;
  std::vector<AnnrtSubgraph> referenced_;
  std::vector<AnnrtExtension> extensions_;
  AnnrtModel model_{};
};

// The plug-in ABI's lifetime of an operand (its constants are all
// ANNRT_LIFETIME_CONSTANT), and whether a lifetime is one of the ABI's.
int32_t abiLifetime(Lifetime lifetime);
bool knownLifetime(int32_t lifetime);

// A Model whose constants point into `model`'s data; BAD_DATA when an index
// is out of range or a pointer is null where its count needs one (what the
// ABI's structures can get wrong), or when the model is not a valid NNAPI
// model (ops::validateModel, the check the runtime makes at finish).
Result<std::shared_ptr<Model>> modelFromAbi(const AnnrtModel& model);

}  // namespace annrt::abi
