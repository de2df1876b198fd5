// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// In-memory form of one NNAPI generated test case as described by
// shared/nnapi-cts/README.md, the loader for the JSON files, and the model
// rewrite behind the QuantizationCouplingTest suite.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace annrt::cts {

enum class Lifetime {
  kTemporaryVariable = 0,
  kSubgraphInput = 1,
  kSubgraphOutput = 2,
  kConstantCopy = 3,
  kConstantReference = 4,
  kNoValue = 5,
  kSubgraph = 6,
};

// NNAPI OperandCode values used by the harness.
enum OperandCode : int32_t {
  kFloat32 = 0,
  kInt32 = 1,
  kUint32 = 2,
  kTensorFloat32 = 3,
  kTensorInt32 = 4,
  kTensorQuant8Asymm = 5,
  kBool = 6,
  kTensorQuant16Symm = 7,
  kTensorFloat16 = 8,
  kTensorBool8 = 9,
  kFloat16 = 10,
  kTensorQuant8SymmPerChannel = 11,
  kTensorQuant16Asymm = 12,
  kTensorQuant8Symm = 13,
  kTensorQuant8AsymmSigned = 14,
  kSubgraphOperand = 15,
};

struct ChannelQuant {
  uint32_t channelDim = 0;
  std::vector<float> scales;
};

struct Operand {
  int32_t type = 0;
  std::string name;
  std::vector<uint32_t> dimensions;
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  Lifetime lifetime = Lifetime::kTemporaryVariable;
  std::optional<ChannelQuant> channelQuant;
  bool isIgnored = false;
  std::vector<double> data;
};

struct Operation {
  int32_t type = 0;
  std::string typeName;
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

struct Subgraph {
  std::vector<Operand> operands;
  std::vector<Operation> operations;
  std::vector<uint32_t> inputIndexes;
  std::vector<uint32_t> outputIndexes;
};

struct Tolerance {
  double atol = 0.0;
  double rtol = 0.0;
};

// The per-case `accuracy` object.
struct Accuracy {
  Tolerance float32;
  Tolerance float16;
  Tolerance int32;
  Tolerance quant8Asymm;
  Tolerance quant8AsymmSigned;
  Tolerance quant8Symm;
  Tolerance quant16Asymm;
  Tolerance quant16Symm;
};

// The per-case `harness` flags.
struct Harness {
  bool generatedTests = false;
  bool dynamicOutputShapeTest = false;
  bool generatedValidationTests = false;
  bool quantizationCouplingTest = false;
  bool deviceMemoryTest = false;
  bool fencedComputeTest = false;
  bool isInfiniteLoopTimeoutTest = false;
};

struct TestCase {
  std::string name;
  std::string spec;
  std::string versionDir;
  std::optional<int64_t> minFeatureLevel;  // nullopt for UNKNOWN
  bool isRelaxed = false;
  bool expectFailure = false;
  double multinomialTolerance = 0.0;
  Subgraph main;
  std::vector<Subgraph> referenced;
  Harness harness;
  Accuracy accuracy;
};

// The spec folders that make up the suite, in load order.
std::vector<std::string> versionDirectories(bool includeExperimental);

// Loads every *.json under the version folders of `root`. Throws
// std::runtime_error naming the file on malformed input.
std::vector<TestCase> loadTestCases(const std::filesystem::path& root, bool includeExperimental);

// The cases of one JSON file's text. Throws a std::exception (nlohmann's
// json exceptions or std::runtime_error) on malformed input.
std::vector<TestCase> parseTestCases(std::string_view text);

// Bytes per element of `type` in an NNAPI buffer (0 for SUBGRAPH).
size_t elementSize(int32_t type);

// Encodes `data` as the little-endian buffer NNAPI expects for `type`.
std::vector<uint8_t> encodeData(int32_t type, const std::vector<double>& data);

// Reads element `index` of a buffer of `type` as a double.
double decodeElement(int32_t type, const uint8_t* buffer, size_t index);

// Name of the case's main operation: the first operation of the main model
// that is not one of the generator's placeholder ADDs.
std::string mainOperationName(const TestCase& testCase);

// QuantizationCouplingTest: TENSOR_QUANT8_ASYMM -> TENSOR_QUANT8_ASYMM_SIGNED
// with zeroPoint - 128 and every value - 128.
TestCase makeQuantizationCoupling(const TestCase& testCase);

}  // namespace annrt::cts
