// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Control flow: TFLite IF and WHILE become NNAPI IF and WHILE whose branch,
// condition and body subgraphs are converted into referenced NNAPI models.
#include "tflite/map_helpers.h"

namespace annrt::tflite::mappers {

// IF (condition, inputs...) with then/else subgraphs.
Result<void> ifOp(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o, requireOptions(c, c.op().raw->builtin_options_as_IfOptions()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t condition, c.input(0));
  ANNRT_ASSIGN_OR_RETURN(uint32_t thenModel, c.subgraphOperand(o->then_subgraph_index()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t elseModel, c.subgraphOperand(o->else_subgraph_index()));
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> inputs, allInputs(c, 1));
  inputs.insert(inputs.begin(), {condition, thenModel, elseModel});
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> outputs, allOutputs(c));
  return c.emit(OperationType::IF, inputs, outputs);
}

// WHILE (loop variables...): every variable is an input-output operand.
Result<void> whileOp(Converter& c, const OpMapping& m) {
  ANNRT_ASSIGN_OR_RETURN(auto* o, requireOptions(c, c.op().raw->builtin_options_as_WhileOptions()));
  if (c.inputCount() != c.outputCount()) {
    return c.opError("has {} inputs but {} outputs", c.inputCount(), c.outputCount());
  }
  ANNRT_ASSIGN_OR_RETURN(uint32_t condition, c.subgraphOperand(o->cond_subgraph_index()));
  ANNRT_ASSIGN_OR_RETURN(uint32_t body, c.subgraphOperand(o->body_subgraph_index()));
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> inputs, allInputs(c));
  inputs.insert(inputs.begin(), {condition, body});
  ANNRT_ASSIGN_OR_RETURN(std::vector<uint32_t> outputs, allOutputs(c));
  return c.emit(OperationType::WHILE, inputs, outputs);
}

}  // namespace annrt::tflite::mappers
