// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "diff_side.h"

#include <chrono>

namespace annrt::tools {

Result<std::unique_ptr<DiffSide>> DiffSide::create(std::string label,
                                                   std::shared_ptr<ModelSource> model,
                                                   DeviceSelection selection,
                                                   const InputLayerFlags& inputLayers) {
  auto side = std::make_unique<DiffSide>();
  side->label = std::move(label);
  side->model = std::move(model);
  side->selection = std::move(selection);
  ANNRT_ASSIGN_OR_RETURN(side->compilation,
                         compileModel(side->model->model(), side->selection, CompileSettings{}));
  ANNRT_ASSIGN_OR_RETURN(side->runner,
                         ModelRunner::create(side->compilation.get(), side->model->inputs(),
                                             applyInputShapes(inputLayers, side->model->inputs()),
                                             side->model->outputs()));
  return side;
}

Result<void> DiffSide::runTimed() {
  const auto start = std::chrono::steady_clock::now();
  ANNRT_RETURN_IF_ERROR(runner->run());
  latencyUs.add(std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::steady_clock::now() - start)
                    .count());
  return {};
}

}  // namespace annrt::tools
