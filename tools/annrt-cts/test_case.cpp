// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "test_case.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace annrt::cts {
namespace {

using nlohmann::json;

// An integer field as T: a JSON integer within T's range. nlohmann's get<T>
// converts any number, and a floating-point one outside T's range is
// undefined behaviour (fuzz_cts_reader: 4.4e86 as an operand's type).
template <class T>
T integerAs(const json& value, std::string_view what) {
  if (value.is_number_unsigned()) {
    const auto number = value.get<uint64_t>();
    if (std::in_range<T>(number)) return static_cast<T>(number);
  } else if (value.is_number_integer()) {
    const auto number = value.get<int64_t>();
    if (std::in_range<T>(number)) return static_cast<T>(number);
  }
  throw std::runtime_error(fmt::format("{} is {}, not an integer from {} to {}", what, value.dump(),
                                       std::numeric_limits<T>::min(),
                                       std::numeric_limits<T>::max()));
}

template <class T>
std::vector<T> integersAs(const json& array, std::string_view what) {
  if (!array.is_array()) {
    throw std::runtime_error(fmt::format("{} is {}, not an array", what, array.dump()));
  }
  std::vector<T> values;
  for (const json& value : array) values.push_back(integerAs<T>(value, what));
  return values;
}

Lifetime parseLifetime(const json& operand) {
  const int code = integerAs<int>(operand.at("lifetimeCode"), "lifetimeCode");
  if (code < 0 || code > static_cast<int>(Lifetime::kSubgraph)) {
    throw std::runtime_error(fmt::format("unknown lifetimeCode {}", code));
  }
  return static_cast<Lifetime>(code);
}

// The values a buffer of `type` can hold.
std::pair<double, double> valueRange(int32_t type) {
  switch (type) {
    case kFloat32:
    case kTensorFloat32:
      return {std::numeric_limits<float>::lowest(), std::numeric_limits<float>::max()};
    case kFloat16:
    case kTensorFloat16: return {-65504.0, 65504.0};
    case kInt32:
    case kTensorInt32: return {INT32_MIN, INT32_MAX};
    case kUint32: return {0, UINT32_MAX};
    case kTensorQuant8Asymm:
    case kBool:
    case kTensorBool8: return {0, UINT8_MAX};
    case kTensorQuant8SymmPerChannel:
    case kTensorQuant8Symm:
    case kTensorQuant8AsymmSigned: return {INT8_MIN, INT8_MAX};
    case kTensorQuant16Asymm: return {0, UINT16_MAX};
    case kTensorQuant16Symm: return {INT16_MIN, INT16_MAX};
    default: return {0, 0};
  }
}

// Data that do not fit the operand's type are a malformed file (converting
// them into its buffer would be undefined behaviour). Infinities stay
// allowed in floating-point operands.
void checkData(const Operand& operand) {
  if (elementSize(operand.type) == 0) return;  // SUBGRAPH: its data is a model index
  const auto [low, high] = valueRange(operand.type);
  const bool floating = operand.type == kFloat32 || operand.type == kTensorFloat32 ||
                        operand.type == kFloat16 || operand.type == kTensorFloat16;
  for (const double value : operand.data) {
    if (floating && std::isinf(value)) continue;
    if (!(value >= low && value <= high)) {
      throw std::runtime_error(fmt::format("operand {}: value {} does not fit type {}",
                                           operand.name, value, operand.type));
    }
  }
}

Operand parseOperand(const json& j) {
  Operand operand;
  operand.type = integerAs<int32_t>(j.at("type"), "an operand's type");
  operand.name = j.value("name", "");
  operand.dimensions = integersAs<uint32_t>(j.at("dimensions"), "dimensions");
  operand.scale = static_cast<float>(j.at("scale").get<double>());
  operand.zeroPoint = integerAs<int32_t>(j.at("zeroPoint"), "zeroPoint");
  operand.lifetime = parseLifetime(j);
  const json& channelQuant = j.at("channelQuant");
  if (!channelQuant.is_null()) {
    ChannelQuant quant;
    quant.channelDim = integerAs<uint32_t>(channelQuant.at("channelDim"), "channelDim");
    for (const json& scale : channelQuant.at("scales")) {
      quant.scales.push_back(static_cast<float>(scale.get<double>()));
    }
    operand.channelQuant = std::move(quant);
  }
  operand.isIgnored = j.value("isIgnored", false);
  const json& data = j.at("data");
  operand.data.reserve(data.size());
  for (const json& value : data) operand.data.push_back(value.get<double>());
  checkData(operand);
  return operand;
}

Operation parseOperation(const json& j) {
  Operation operation;
  operation.type = integerAs<int32_t>(j.at("type"), "an operation's type");
  operation.typeName = j.value("typeName", fmt::format("OPERATION_{}", operation.type));
  operation.inputs = integersAs<uint32_t>(j.at("inputs"), "inputs");
  operation.outputs = integersAs<uint32_t>(j.at("outputs"), "outputs");
  return operation;
}

Subgraph parseSubgraph(const json& j) {
  Subgraph subgraph;
  for (const json& operand : j.at("operands")) subgraph.operands.push_back(parseOperand(operand));
  for (const json& op : j.at("operations")) subgraph.operations.push_back(parseOperation(op));
  subgraph.inputIndexes = integersAs<uint32_t>(j.at("inputIndexes"), "inputIndexes");
  subgraph.outputIndexes = integersAs<uint32_t>(j.at("outputIndexes"), "outputIndexes");
  return subgraph;
}

Tolerance parseTolerance(const json& accuracy, const char* key) {
  const json& j = accuracy.at(key);
  return {j.at("atol").get<double>(), j.at("rtol").get<double>()};
}

Accuracy parseAccuracy(const json& j) {
  Accuracy accuracy;
  accuracy.float32 = parseTolerance(j, "float32");
  accuracy.float16 = parseTolerance(j, "float16");
  accuracy.int32 = parseTolerance(j, "int32");
  accuracy.quant8Asymm = parseTolerance(j, "quant8Asymm");
  accuracy.quant8AsymmSigned = parseTolerance(j, "quant8AsymmSigned");
  accuracy.quant8Symm = parseTolerance(j, "quant8Symm");
  accuracy.quant16Asymm = parseTolerance(j, "quant16Asymm");
  accuracy.quant16Symm = parseTolerance(j, "quant16Symm");
  return accuracy;
}

Harness parseHarness(const json& j) {
  Harness harness;
  harness.generatedTests = j.value("GeneratedTests", false);
  harness.dynamicOutputShapeTest = j.value("DynamicOutputShapeTest", false);
  harness.generatedValidationTests = j.value("GeneratedValidationTests", false);
  harness.quantizationCouplingTest = j.value("QuantizationCouplingTest", false);
  harness.deviceMemoryTest = j.value("DeviceMemoryTest", false);
  harness.fencedComputeTest = j.value("FencedComputeTest", false);
  harness.isInfiniteLoopTimeoutTest = j.value("isInfiniteLoopTimeoutTest", false);
  return harness;
}

TestCase parseTestCase(const json& j) {
  TestCase testCase;
  testCase.name = j.at("name").get<std::string>();
  testCase.spec = j.value("spec", "");
  testCase.versionDir = j.value("versionDir", "");
  const json& level = j.at("minFeatureLevel");
  if (!level.is_null()) testCase.minFeatureLevel = integerAs<int64_t>(level, "minFeatureLevel");
  testCase.isRelaxed = j.at("isRelaxed").get<bool>();
  testCase.expectFailure = j.at("expectFailure").get<bool>();
  testCase.multinomialTolerance = j.value("expectedMultinomialDistributionTolerance", 0.0);
  testCase.main = parseSubgraph(j.at("main"));
  for (const json& subgraph : j.at("referenced")) {
    testCase.referenced.push_back(parseSubgraph(subgraph));
  }
  testCase.harness = parseHarness(j.at("harness"));
  testCase.accuracy = parseAccuracy(j.at("accuracy"));
  return testCase;
}

void loadFile(const std::filesystem::path& path, std::vector<TestCase>* cases) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("cannot open {}", path.string()));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    std::vector<TestCase> parsed = parseTestCases(text);
    std::move(parsed.begin(), parsed.end(), std::back_inserter(*cases));
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", path.string(), e.what()));
  }
}

template <typename T>
void store(std::vector<uint8_t>* out, size_t index, T value) {
  std::memcpy(out->data() + index * sizeof(T), &value, sizeof(T));
}

template <typename T>
double load(const uint8_t* buffer, size_t index) {
  T value;
  std::memcpy(&value, buffer + index * sizeof(T), sizeof(T));
  return static_cast<double>(value);
}

bool isPlaceholderAdd(const Subgraph& subgraph, const Operation& operation) {
  if (operation.typeName != "ADD") return false;
  return std::any_of(operation.inputs.begin(), operation.inputs.end(), [&](uint32_t index) {
    return index < subgraph.operands.size() &&
           subgraph.operands[index].name.starts_with("placeholder");
  });
}

}  // namespace

std::vector<TestCase> parseTestCases(std::string_view text) {
  const json file = json::parse(text);
  if (!file.is_array()) throw std::runtime_error("a case file is a JSON array of cases");
  std::vector<TestCase> cases;
  for (const json& entry : file) cases.push_back(parseTestCase(entry));
  return cases;
}

std::vector<std::string> versionDirectories(bool includeExperimental) {
  std::vector<std::string> dirs = {"V1_0",          "V1_1",    "V1_2",   "V1_3",
                                   "V1_3_cts_only", "AIDL_V2", "AIDL_V3"};
  if (includeExperimental) dirs.push_back("experimental");
  return dirs;
}

std::vector<TestCase> loadTestCases(const std::filesystem::path& root, bool includeExperimental) {
  std::vector<TestCase> cases;
  for (const std::string& dir : versionDirectories(includeExperimental)) {
    const std::filesystem::path folder = root / dir;
    if (!std::filesystem::is_directory(folder)) continue;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      if (entry.is_regular_file() && entry.path().extension() == ".json") {
        files.push_back(entry.path());
      }
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) loadFile(file, &cases);
  }
  return cases;
}

size_t elementSize(int32_t type) {
  switch (type) {
    case kFloat32:
    case kInt32:
    case kUint32:
    case kTensorFloat32:
    case kTensorInt32: return 4;
    case kTensorFloat16:
    case kFloat16:
    case kTensorQuant16Symm:
    case kTensorQuant16Asymm: return 2;
    case kTensorQuant8Asymm:
    case kBool:
    case kTensorBool8:
    case kTensorQuant8SymmPerChannel:
    case kTensorQuant8Symm:
    case kTensorQuant8AsymmSigned: return 1;
    default: return 0;
  }
}

std::vector<uint8_t> encodeData(int32_t type, const std::vector<double>& data) {
  std::vector<uint8_t> out(data.size() * elementSize(type));
  for (size_t i = 0; i < data.size(); ++i) {
    const double v = data[i];
    switch (type) {
      case kFloat32:
      case kTensorFloat32: store(&out, i, static_cast<float>(v)); break;
      case kFloat16:
      case kTensorFloat16: store(&out, i, static_cast<_Float16>(static_cast<float>(v))); break;
      case kInt32:
      case kTensorInt32: store(&out, i, static_cast<int32_t>(v)); break;
      case kUint32: store(&out, i, static_cast<uint32_t>(v)); break;
      case kTensorQuant8Asymm:
      case kBool:
      case kTensorBool8: store(&out, i, static_cast<uint8_t>(v)); break;
      case kTensorQuant8SymmPerChannel:
      case kTensorQuant8Symm:
      case kTensorQuant8AsymmSigned: store(&out, i, static_cast<int8_t>(v)); break;
      case kTensorQuant16Asymm: store(&out, i, static_cast<uint16_t>(v)); break;
      case kTensorQuant16Symm: store(&out, i, static_cast<int16_t>(v)); break;
      default: break;
    }
  }
  return out;
}

double decodeElement(int32_t type, const uint8_t* buffer, size_t index) {
  switch (type) {
    case kFloat32:
    case kTensorFloat32: return load<float>(buffer, index);
    case kFloat16:
    case kTensorFloat16: return load<_Float16>(buffer, index);
    case kInt32:
    case kTensorInt32: return load<int32_t>(buffer, index);
    case kUint32: return load<uint32_t>(buffer, index);
    case kTensorQuant8Asymm:
    case kBool:
    case kTensorBool8: return load<uint8_t>(buffer, index);
    case kTensorQuant8SymmPerChannel:
    case kTensorQuant8Symm:
    case kTensorQuant8AsymmSigned: return load<int8_t>(buffer, index);
    case kTensorQuant16Asymm: return load<uint16_t>(buffer, index);
    case kTensorQuant16Symm: return load<int16_t>(buffer, index);
    default: return 0.0;
  }
}

std::string mainOperationName(const TestCase& testCase) {
  const auto& operations = testCase.main.operations;
  if (operations.empty()) return "(none)";
  for (const Operation& operation : operations) {
    if (!isPlaceholderAdd(testCase.main, operation)) return operation.typeName;
  }
  return operations.front().typeName;
}

TestCase makeQuantizationCoupling(const TestCase& testCase) {
  TestCase result = testCase;
  auto process = [](Subgraph& subgraph) {
    for (Operand& operand : subgraph.operands) {
      if (operand.type != kTensorQuant8Asymm) continue;
      operand.type = kTensorQuant8AsymmSigned;
      operand.zeroPoint -= 128;
      for (double& value : operand.data) value -= 128.0;
    }
  };
  process(result.main);
  for (Subgraph& subgraph : result.referenced) process(subgraph);
  return result;
}

}  // namespace annrt::cts
