// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The table of TFLite operators the importer knows: for each builtin (or
// custom code), the highest operator version whose semantics annrt implements
// and the mapping function of its family. Families that map to several NNAPI
// operations take the NNAPI operation from the table entry.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/result.h"
#include "common/types.h"

namespace annrt::tflite {

class Converter;
struct OpMapping;

using MapFunction = Result<void> (*)(Converter& converter, const OpMapping& mapping);

struct OpMapping {
  int32_t builtin = 0;           // BuiltinOperator; 32 (CUSTOM) for custom operators
  const char* custom = nullptr;  // the custom code, for custom operators
  int maxVersion = 1;
  MapFunction map = nullptr;
  OperationType nnapi = OperationType::ADD;  // for families covering several NNAPI operations
};

// nullptr when the importer has no mapping for the operator.
const OpMapping* findMapping(int32_t builtin, std::string_view customCode);

// Mapping functions, one per family (defined in map_*.cpp).
namespace mappers {
// One NNAPI operation with the same inputs and outputs (unary ops, MAXIMUM, PRELU, ...).
Result<void> direct(Converter& c, const OpMapping& m);
// ADD/SUB/MUL/DIV: two inputs and a fused activation.
Result<void> binaryFused(Converter& c, const OpMapping& m);
Result<void> leakyRelu(Converter& c, const OpMapping& m);
Result<void> squaredDifference(Converter& c, const OpMapping& m);
Result<void> conv2d(Converter& c, const OpMapping& m);
Result<void> depthwiseConv2d(Converter& c, const OpMapping& m);
Result<void> transposeConv(Converter& c, const OpMapping& m);
Result<void> fullyConnected(Converter& c, const OpMapping& m);
Result<void> convolution2dTransposeBias(Converter& c, const OpMapping& m);
Result<void> pool2d(Converter& c, const OpMapping& m);
Result<void> softmax(Converter& c, const OpMapping& m);
Result<void> reduce(Converter& c, const OpMapping& m);
Result<void> resize(Converter& c, const OpMapping& m);
Result<void> argMinMax(Converter& c, const OpMapping& m);
Result<void> reshape(Converter& c, const OpMapping& m);
Result<void> squeeze(Converter& c, const OpMapping& m);
Result<void> expandDims(Converter& c, const OpMapping& m);
Result<void> concatenation(Converter& c, const OpMapping& m);
Result<void> pad(Converter& c, const OpMapping& m);
Result<void> mirrorPad(Converter& c, const OpMapping& m);
Result<void> transpose(Converter& c, const OpMapping& m);
Result<void> slice(Converter& c, const OpMapping& m);
Result<void> stridedSlice(Converter& c, const OpMapping& m);
Result<void> split(Converter& c, const OpMapping& m);
Result<void> splitV(Converter& c, const OpMapping& m);
Result<void> gather(Converter& c, const OpMapping& m);
Result<void> pack(Converter& c, const OpMapping& m);
Result<void> blockSize(Converter& c, const OpMapping& m);  // DEPTH_TO_SPACE, SPACE_TO_DEPTH
Result<void> batchMatmul(Converter& c, const OpMapping& m);
Result<void> dequantize(Converter& c, const OpMapping& m);
Result<void> densify(Converter& c, const OpMapping& m);
Result<void> ifOp(Converter& c, const OpMapping& m);
Result<void> whileOp(Converter& c, const OpMapping& m);
}  // namespace mappers

}  // namespace annrt::tflite
