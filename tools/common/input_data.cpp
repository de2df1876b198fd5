// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "input_data.h"

#include <android/NeuralNetworks.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

#include "tool_result.h"

namespace annrt::tools {
namespace {

// Uniform in [0, 1) from the top 24 bits (exact in float, same on every libc++).
float unitFloat(std::mt19937_64& rng) {
  return static_cast<float>(rng() >> 40) * 0x1.0p-24f;
}

int32_t uniformInt(std::mt19937_64& rng, int32_t low, int32_t high) {
  const uint64_t span = static_cast<uint64_t>(static_cast<int64_t>(high) - low + 1);
  return static_cast<int32_t>(low + static_cast<int64_t>(rng() % span));
}

template <typename T, typename Generate>
std::vector<uint8_t> fill(size_t count, Generate generate) {
  std::vector<uint8_t> bytes(count * sizeof(T));
  for (size_t i = 0; i < count; ++i) {
    const T value = generate();
    std::memcpy(bytes.data() + i * sizeof(T), &value, sizeof(T));
  }
  return bytes;
}

}  // namespace

uint16_t floatToHalf(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) {  // inf or nan
    return sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x200u : 0u);
  }
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;                 // rounds to >= 65520: inf
  if (magnitude < 0x38800000u) {                                       // subnormal half (or zero)
    const float scaled = std::bit_cast<float>(magnitude) * 0x1.0p24f;  // units of 2^-24
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  const uint32_t rounded = magnitude + 0xfffu + ((magnitude >> 13) & 1u);
  return sign | static_cast<uint16_t>((rounded - 0x38000000u) >> 13);
}

float halfToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1fu;
  const uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0) {
    const float value = static_cast<float>(mantissa) * 0x1.0p-24f;
    return sign ? -value : value;
  }
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

Result<std::vector<uint8_t>> randomTensorData(const TensorDesc& desc, uint64_t seed) {
  std::mt19937_64 rng(0x616e6e7274ull ^ (seed * 0x9e3779b97f4a7c15ull));
  const size_t n = desc.elementCount();
  switch (desc.type) {
    case ANEURALNETWORKS_TENSOR_FLOAT32:
    case ANEURALNETWORKS_FLOAT32: return fill<float>(n, [&] { return unitFloat(rng) - 0.5f; });
    case ANEURALNETWORKS_TENSOR_FLOAT16:
    case ANEURALNETWORKS_FLOAT16:
      return fill<uint16_t>(n, [&] { return floatToHalf(unitFloat(rng) - 0.5f); });
    case ANEURALNETWORKS_TENSOR_INT32:
    case ANEURALNETWORKS_INT32:
    case ANEURALNETWORKS_UINT32: return fill<int32_t>(n, [&] { return uniformInt(rng, 0, 99); });
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
      return fill<uint8_t>(n, [&] { return static_cast<uint8_t>(uniformInt(rng, 0, 254)); });
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
      return fill<int8_t>(n, [&] { return static_cast<int8_t>(uniformInt(rng, -127, 127)); });
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM:
      return fill<int16_t>(n, [&] { return static_cast<int16_t>(uniformInt(rng, 0, 99)); });
    case ANEURALNETWORKS_TENSOR_BOOL8:
    case ANEURALNETWORKS_BOOL:
      return fill<uint8_t>(n, [&] { return static_cast<uint8_t>(uniformInt(rng, 0, 1)); });
    default:
      return toolError("input {}: cannot generate data of type {}", desc.name,
                       operandTypeName(desc.type));
  }
}

Result<std::vector<uint8_t>> readTensorFile(const std::string& path, const TensorDesc& desc) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) return toolError("cannot open input value file {} for input {}", path, desc.name);
  const std::streamoff size = file.tellg();
  if (size < 0 || static_cast<size_t>(size) != desc.byteSize()) {
    return toolError("input value file {} has {} bytes; input {} ({} [{}]) needs {} bytes", path,
                     static_cast<long long>(size), desc.name, operandTypeName(desc.type),
                     formatDims(desc.dims), desc.byteSize());
  }
  std::vector<uint8_t> bytes(desc.byteSize());
  file.seekg(0);
  file.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!file) return toolError("cannot read input value file {}", path);
  return bytes;
}

}  // namespace annrt::tools
