// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Writes seed inputs that need annrt's own encoders (make-seeds.sh does the
// rest):
//   seed_writer nnapi-calls OUT_DIR CASES.json...  each CTS case's models as
//       the NDK calls that build, compile and run them (nnapi_calls.h)
//   seed_writer abi-model OUT_DIR CASES.json...  each CTS case as the AnnrtModel
//       and AnnrtRequest fuzz_abi_model decodes (its format is described there)
//   seed_writer diff-inputs OUT_DIR   annrt-diff inputs (fuzz_diff_inputs)
//   seed_writer image-models OUT_DIR   blocks of the default models as
//       fuzz_cpu_vs_reference's image models (image_model.h)
//   seed_writer tflite OUT_DIR   the importer tests' small .tflite model
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "annrt-cts/test_case.h"
#include "image_model.h"
#include "nnapi_calls.h"
#include "tflite_builder.h"

namespace {

namespace fs = std::filesystem;
using namespace annrt;

void writeFile(const fs::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

bool isConstant(cts::Lifetime lifetime) {
  return lifetime == cts::Lifetime::kConstantCopy || lifetime == cts::Lifetime::kConstantReference;
}

// The calls that build one model; a SUBGRAPH operand names the referenced
// model whose calls were written as earlier model `slots[reference]`.
void encodeModelCalls(const cts::Subgraph& subgraph, const std::vector<uint32_t>& slots,
                      bool relaxed, fuzz::CallWriter& out) {
  for (uint32_t i = 0; i < subgraph.operands.size(); ++i) {
    const cts::Operand& operand = subgraph.operands[i];
    out.addOperand(operand.type, operand.dimensions, operand.scale, operand.zeroPoint);
    if (operand.channelQuant) {
      out.setChannelQuant(i, operand.channelQuant->channelDim, operand.channelQuant->scales);
    }
    if (isConstant(operand.lifetime)) {
      const auto value = cts::encodeData(operand.type, operand.data);
      out.setOperandValue(i, &value);
    } else if (operand.lifetime == cts::Lifetime::kNoValue) {
      out.setOperandValue(i, nullptr);
    } else if (operand.lifetime == cts::Lifetime::kSubgraph && !operand.data.empty()) {
      const auto reference = static_cast<size_t>(operand.data[0]);
      if (reference < slots.size()) out.setOperandFromModel(i, slots[reference]);
    }
  }
  for (const cts::Operation& operation : subgraph.operations) {
    out.addOperation(operation.type, operation.inputs, operation.outputs);
  }
  out.identify(subgraph.inputIndexes, subgraph.outputIndexes);
  out.relax(relaxed);
  out.finish();
}

// Writes referenced model `r` after the ones it references (each once), so
// that every reference is to a model already set aside.
void encodeReferenced(const cts::TestCase& testCase, size_t r, std::vector<uint32_t>& slots,
                      uint32_t& nextSlot, fuzz::CallWriter& out) {
  constexpr uint32_t kUnwritten = ~0u, kWriting = kUnwritten - 1;
  if (slots[r] != kUnwritten) return;
  slots[r] = kWriting;  // a reference cycle (invalid in CTS) is left unresolved
  for (const cts::Operand& operand : testCase.referenced[r].operands) {
    if (operand.lifetime != cts::Lifetime::kSubgraph || operand.data.empty()) continue;
    const auto reference = static_cast<size_t>(operand.data[0]);
    if (reference < slots.size()) encodeReferenced(testCase, reference, slots, nextSlot, out);
  }
  encodeModelCalls(testCase.referenced[r], slots, testCase.isRelaxed, out);
  out.newModel();
  slots[r] = nextSlot++;
}

std::vector<uint8_t> encodeCalls(const cts::TestCase& testCase) {
  const cts::Subgraph& main = testCase.main;
  fuzz::CallWriter out;
  std::vector<uint32_t> slots(testCase.referenced.size(), ~0u);
  uint32_t nextSlot = 0;
  for (size_t r = 0; r < slots.size(); ++r) encodeReferenced(testCase, r, slots, nextSlot, out);
  encodeModelCalls(main, slots, testCase.isRelaxed, out);
  out.compile();
  std::vector<uint32_t> inputLengths, outputLengths;
  for (uint32_t i : main.inputIndexes) {
    inputLengths.push_back(cts::encodeData(main.operands[i].type, main.operands[i].data).size());
  }
  for (uint32_t i : main.outputIndexes) {
    outputLengths.push_back(cts::encodeData(main.operands[i].type, main.operands[i].data).size());
  }
  out.execute(inputLengths, outputLengths);
  return out.bytes();
}

void encodeAbiSubgraph(const cts::Subgraph& subgraph, fuzz::ByteWriter& out) {
  out.write(static_cast<uint8_t>(subgraph.operands.size()));
  for (const cts::Operand& operand : subgraph.operands) {
    out.write(operand.type);
    out.write(static_cast<uint8_t>(operand.dimensions.size()));
    for (uint32_t d : operand.dimensions) out.write(static_cast<uint8_t>(d));
    out.write(operand.scale);
    out.write(operand.zeroPoint);
    // The ABI has one constant lifetime (3) for both of the harness's.
    const bool constant = isConstant(operand.lifetime);
    out.write(static_cast<uint8_t>(constant ? 3 : static_cast<int>(operand.lifetime)));
    const std::vector<float> scales =
        operand.channelQuant ? operand.channelQuant->scales : std::vector<float>{};
    out.write(static_cast<uint8_t>(operand.channelQuant ? operand.channelQuant->channelDim : 0));
    out.write(static_cast<uint8_t>(scales.size()));
    for (float scale : scales) out.write(scale);
    const auto value =
        constant ? cts::encodeData(operand.type, operand.data) : std::vector<uint8_t>{};
    out.write(static_cast<uint16_t>(value.size()));
    out.append(value);
    out.write(
        static_cast<uint8_t>(operand.lifetime == cts::Lifetime::kSubgraph
                                 ? static_cast<uint8_t>(operand.data.empty() ? 0 : operand.data[0])
                                 : 0));
  }
  const auto list = [&](const std::vector<uint32_t>& indexes) {
    out.write(static_cast<uint8_t>(indexes.size()));
    for (uint32_t i : indexes) out.write(i);
  };
  out.write(static_cast<uint8_t>(subgraph.operations.size()));
  for (const cts::Operation& operation : subgraph.operations) {
    out.write(operation.type);
    list(operation.inputs);
    list(operation.outputs);
  }
  list(subgraph.inputIndexes);
  list(subgraph.outputIndexes);
}

void encodeAbiArguments(const cts::Subgraph& main, const std::vector<uint32_t>& indexes,
                        fuzz::ByteWriter& out) {
  out.write(static_cast<uint8_t>(indexes.size()));
  for (uint32_t i : indexes) {
    const cts::Operand& operand = main.operands[i];
    out.write(uint8_t{0});  // not omitted
    out.write(static_cast<uint32_t>(cts::encodeData(operand.type, operand.data).size()));
    out.write(uint8_t{0});  // dims as the model declares
  }
}

std::vector<uint8_t> encodeAbi(const cts::TestCase& testCase) {
  fuzz::ByteWriter out;
  out.write(static_cast<uint8_t>(testCase.isRelaxed));
  out.write(static_cast<uint8_t>(testCase.referenced.size()));
  encodeAbiSubgraph(testCase.main, out);
  for (const cts::Subgraph& subgraph : testCase.referenced) encodeAbiSubgraph(subgraph, out);
  out.write(uint8_t{0});  // no extensions
  encodeAbiArguments(testCase.main, testCase.main.inputIndexes, out);
  encodeAbiArguments(testCase.main, testCase.main.outputIndexes, out);
  return out.bytes;
}

std::vector<uint8_t> diffInput(int32_t type, std::vector<uint8_t> dims, const std::string& flags,
                               size_t fileBytes) {
  fuzz::ByteWriter out;
  out.write(type);
  out.write(static_cast<uint8_t>(dims.size()));
  out.append(dims);
  out.write(0.5f);
  out.write(int32_t{3});
  out.write(static_cast<uint16_t>(flags.size()));
  out.append({reinterpret_cast<const uint8_t*>(flags.data()), flags.size()});
  for (size_t i = 0; i < fileBytes; ++i) out.write(static_cast<uint8_t>(i * 37));
  return out.bytes;
}

void writeDiffSeeds(const fs::path& outDir) {
  writeFile(outDir / "float32", diffInput(3, {1, 2, 2, 1}, "input\n1,2,2,1\ninput:a.bin", 16));
  writeFile(outDir / "float16", diffInput(8, {1, 4}, "x\n1,4\nx:0:b.bin", 8));
  writeFile(outDir / "quant8", diffInput(5, {2, 3}, "\n\n", 6));
  writeFile(outDir / "int8_short", diffInput(14, {1, 3}, "a,b\n1,3:2\na:c", 2));
}

// Blocks of the default models, in fuzz_cpu_vs_reference's format
// (image_model.h): a residual depthwise-pointwise block and max pool (face
// detection), a strided stem with explicit pads and a channel concatenation,
// squeeze-and-excitation (selfie segmentation), upsampling, a global
// average to a fully connected head (hand landmarks), a softmax head, and a
// block of a model with a dynamic batch (compiled at its first inference),
// two quantized blocks (uint8, int8), and a grouped convolution to
// DEPTH_TO_SPACE, PRELU and REDUCE_MAX.
void writeImageSeeds(const fs::path& outDir) {
  using fuzz::ImageStep;
  struct Seed {
    const char* name;
    fuzz::ImageHeader header;
    std::vector<std::pair<ImageStep, std::vector<uint8_t>>> steps;
  };
  const std::vector<Seed> seeds = {
      {"residual_block",
       {1, 0, 31, 31, 23, 3},
       {{ImageStep::kDepthwise, {0, 2, 2, 0, 0, 0, 0}},
        {ImageStep::kConvolution, {23, 0, 0, 0, 0, 0, 0}},
        {ImageStep::kBinary, {0, 2, 1, 1, 0}},
        {ImageStep::kPool, {3, 1, 1, 4, 0, 1, 0}}}},
      {"stem",
       {2, 0, 31, 31, 2, 4},
       {{ImageStep::kConvolution, {15, 2, 2, 4, 0, 12, 0}},
        {ImageStep::kDepthwise, {0, 4, 4, 4, 0, 2, 0x55}},
        {ImageStep::kConvolution, {31, 0, 0, 0, 0, 4, 0}},
        {ImageStep::kConcatenation, {0, 7, 0, 0}},
        {ImageStep::kUnary, {5}}}},
      {"squeeze_excitation",
       {3, 0, 15, 15, 15, 3},
       {{ImageStep::kReduce, {0}},
        {ImageStep::kConvolution, {15, 0, 0, 0, 0, 4, 0}},
        {ImageStep::kUnary, {3}},
        {ImageStep::kBinary, {1, 2, 2, 0, 0}}}},
      {"upsampling",
       {4, 0, 7, 7, 31, 3},
       {{ImageStep::kResize, {15, 15, 2, 0}},
        {ImageStep::kTransposedConvolution, {15, 1, 1, 4, 0, 0, 0}},
        {ImageStep::kPad, {1, 1, 0, 2}},
        {ImageStep::kReshape, {0, 1, 1}}}},
      {"head",
       {5, 1, 11, 11, 39, 2},
       {{ImageStep::kPool, {0, 0, 0, 0, 0, 0, 0}},
        {ImageStep::kReshape, {3}},
        {ImageStep::kFullyConnected, {20, 0}}}},
      {"dynamic_batch_residual_block",
       {7, 3, 15, 15, 15, 3},
       {{ImageStep::kDepthwise, {1, 2, 2, 4, 0, 0, 0}},
        {ImageStep::kConvolution, {31, 0, 0, 0, 0, 4, 0}},
        {ImageStep::kBinary, {0, 1, 0, 2, 0}},
        {ImageStep::kConcatenation, {1, 0, 0, 0}}}},
      {"quantized_residual_block",
       {8, 0, 31 | 0x80, 31, 23, 3},
       {{ImageStep::kDepthwise, {0, 2, 2, 0, 0, 0, 0}},
        {ImageStep::kConvolution, {23, 0, 0, 0, 0, 0, 0}},
        {ImageStep::kBinary, {0, 2, 1, 1, 0}},
        {ImageStep::kPool, {3, 1, 1, 4, 0, 1, 0}}}},
      {"quantized_signed_squeeze_excitation",
       {9, 0, 15 | 0xc0, 15, 15, 3},
       {{ImageStep::kReduce, {0}},
        {ImageStep::kConvolution, {15, 0, 0, 0, 0, 4, 0}},
        {ImageStep::kUnary, {3}},
        {ImageStep::kBinary, {1, 2, 2, 0, 0}}}},
      {"grouped_upsampling_head",
       {10, 0, 7, 7, 15, 3},
       {{ImageStep::kGroupedConvolution, {2 + 4 * 3, 2, 2, 0, 0, 0, 0}},
        {ImageStep::kDepthToSpace, {0, 0}},
        {ImageStep::kBinary, {6, 1, 0, 0, 0}},
        {ImageStep::kReduce, {0, 2}}}},
      {"softmax_head",
       {6, 0, 5, 5, 7, 1},
       {{ImageStep::kConvolution, {9, 2, 2, 0, 3, 1, 0}}, {ImageStep::kSoftmax, {0, 1}}}},
  };
  for (const Seed& seed : seeds) {
    fuzz::ByteWriter out;
    fuzz::writeImageHeader(out, seed.header);
    for (const auto& [kind, p] : seed.steps) fuzz::writeImageStep(out, kind, p);
    writeFile(outDir / seed.name, out.bytes);
  }
}

using Encoder = std::vector<uint8_t> (*)(const cts::TestCase&);

int writeCaseSeeds(const fs::path& outDir, Encoder encode, int argc, char** argv) {
  int written = 0;
  for (int a = 0; a < argc; ++a) {
    std::ifstream in(argv[a]);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const cts::TestCase& testCase : cts::parseTestCases(text)) {
      writeFile(outDir / testCase.name, encode(testCase));
      ++written;
    }
  }
  std::printf("seed_writer: %d cases in %s\n", written, outDir.c_str());
  return written > 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: seed_writer nnapi-calls|abi-model|diff-inputs|image-models|tflite OUT_DIR "
                 "[CASES.json...]\n");
    return 2;
  }
  const std::string what = argv[1];
  const fs::path outDir = argv[2];
  fs::create_directories(outDir);
  if (what == "nnapi-calls") return writeCaseSeeds(outDir, encodeCalls, argc - 3, argv + 3);
  if (what == "abi-model") return writeCaseSeeds(outDir, encodeAbi, argc - 3, argv + 3);
  if (what == "diff-inputs") {
    writeDiffSeeds(outDir);
    return 0;
  }
  if (what == "image-models") {
    writeImageSeeds(outDir);
    return 0;
  }
  if (what == "tflite") {
    writeFile(outDir / "add.tflite", tflite::testing::serialize(tflite::testing::addModel()));
    return 0;
  }
  std::fprintf(stderr, "seed_writer: unknown kind %s\n", what.c_str());
  return 2;
}
