// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/graph_dump.h"

#include <fmt/format.h>

namespace annrt::runtime {
namespace {

const char* lifetimeName(Lifetime lifetime) {
  switch (lifetime) {
    case Lifetime::TEMPORARY_VARIABLE: return "";
    case Lifetime::SUBGRAPH_INPUT: return "input";
    case Lifetime::SUBGRAPH_OUTPUT: return "output";
    case Lifetime::CONSTANT_COPY: return "copy";
    case Lifetime::CONSTANT_REFERENCE: return "reference";
    case Lifetime::NO_VALUE: return "no value";
    case Lifetime::SUBGRAPH: return "subgraph";
  }
  return "";
}

}  // namespace

std::string graphDump(const Model& model) {
  const Subgraph& main = model.main;
  std::string out = "digraph {\n";
  for (size_t i = 0; i < main.operands.size(); ++i) {
    const Operand& operand = main.operands[i];
    const char* lifetime = lifetimeName(operand.lifetime);
    const bool isIo = operand.lifetime == Lifetime::SUBGRAPH_INPUT ||
                      operand.lifetime == Lifetime::SUBGRAPH_OUTPUT;
    out += fmt::format("    d{} [shape=box{},label=\"{}: {}{}{}\"];\n", i,
                       isIo ? ",style=bold" : "", i, toString(operand.shape), *lifetime ? " (" : "",
                       *lifetime ? fmt::format("{})", lifetime) : "");
  }
  for (size_t i = 0; i < main.operations.size(); ++i) {
    const Operation& operation = main.operations[i];
    out += fmt::format("    o{} [shape=ellipse,label=\"{}: {}\"];\n", i, i,
                       operationTypeName(operation.type));
    for (uint32_t input : operation.inputs) out += fmt::format("    d{} -> o{};\n", input, i);
    for (uint32_t output : operation.outputs) out += fmt::format("    o{} -> d{};\n", i, output);
  }
  out += "}\n";
  return out;
}

}  // namespace annrt::runtime
