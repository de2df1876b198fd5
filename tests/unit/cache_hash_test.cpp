// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The compilation cache's hashes: SHA-256 and CRC-32C against published
// values, hash128, and that the model hash and the partition key change
// with every field they cover.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <random>
#include <string>

#include "internal_model.h"
#include "runtime/cache_file.h"
#include "runtime/compilation_cache.h"
#include "runtime/crc32c.h"
#include "runtime/hash128.h"
#include "runtime/hash_writer.h"
#include "runtime/sha256.h"
#include "runtime/sha256_blocks.h"
#include "runtime/side_thread.h"

namespace annrt::runtime {
namespace {

std::string sha256Hex(std::string_view text) {
  Sha256 sha;
  sha.update(text);
  return toHex(sha.finish());
}

std::span<const uint8_t> asBytes(std::string_view text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

std::vector<uint8_t> randomBytes(size_t size, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<uint8_t> bytes(size);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(random());
  return bytes;
}

// FIPS 180-4 examples (NIST's SHA256.pdf) and the empty message.
TEST(Sha256Test, MatchesPublishedDigests) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256Test, PiecewiseUpdatesEqualOne) {
  const std::vector<uint8_t> data = randomBytes(1000, 1);
  Sha256 whole;
  whole.update(data);
  for (size_t piece : {1, 7, 63, 64, 65, 200}) {
    Sha256 pieces;
    for (size_t at = 0; at < data.size(); at += piece) {
      pieces.update(std::span(data).subspan(at, std::min(piece, data.size() - at)));
    }
    EXPECT_EQ(pieces.finish(), Sha256(whole).finish()) << "pieces of " << piece;
  }
}

// The SHA extensions (when this CPU has them) and the portable code give the
// same state from any state, over any number of blocks at any alignment.
TEST(Sha256Test, HardwareAndPortableBlocksAgree) {
  const std::vector<uint8_t> data = randomBytes(64 * 9 + 3, 5);
  std::mt19937 random(6);
  for (size_t start = 0; start < 4; ++start) {
    for (size_t count = 0; count <= 9 && start + 64 * count <= data.size(); ++count) {
      uint32_t fast[8], portable[8];
      for (uint32_t& word : fast) word = static_cast<uint32_t>(random());
      std::copy(std::begin(fast), std::end(fast), portable);
      sha256Blocks(fast, data.data() + start, count);
      sha256BlocksPortable(portable, data.data() + start, count);
      ASSERT_TRUE(std::equal(std::begin(fast), std::end(fast), portable))
          << sha256Implementation() << " start " << start << " blocks " << count;
    }
  }
}

// RFC 3720 appendix B.4's check value, and its 32-byte test vectors.
TEST(Crc32cTest, MatchesPublishedValues) {
  EXPECT_EQ(crc32c(0, asBytes("123456789")), 0xE3069283u);
  EXPECT_EQ(crc32cPortable(0, asBytes("123456789")), 0xE3069283u);
  const std::vector<uint8_t> zeros(32, 0), ones(32, 0xff);
  EXPECT_EQ(crc32c(0, zeros), 0x8A9136AAu);
  EXPECT_EQ(crc32c(0, ones), 0x62A8AB43u);
}

// Every kernel this CPU runs against the table, around each one's block
// sizes: the CRC instruction's 12288-byte blocks of three streams and the
// folding kernel's 256-byte steps and 64-byte registers.
TEST(Crc32cTest, EveryKernelAgreesWithTheTableAtEveryLengthAndAlignment) {
  const std::vector<uint8_t> data = randomBytes(3 * 12288 + 16, 2);
  std::vector<size_t> lengths = {0,    1,    7,     8,     9,     15,    16,           100,
                                 1000, 4000, 12287, 12288, 12289, 24583, 3 * 12288 + 7};
  for (size_t length = 240; length <= 600; ++length) lengths.push_back(length);
  for (Crc32cKernel kernel : crc32cKernelsOnThisCpu()) {
    for (size_t start = 0; start < 9; ++start) {
      for (size_t length : lengths) {
        const auto bytes = std::span(data).subspan(start, length);
        ASSERT_EQ(crc32cWith(kernel, 0, bytes), crc32cPortable(0, bytes))
            << crc32cKernelName(kernel) << " start " << start << " length " << length;
        ASSERT_EQ(crc32cWith(kernel, 0x12345678, bytes), crc32cPortable(0x12345678, bytes))
            << crc32cKernelName(kernel) << " start " << start << " length " << length;
      }
    }
    // Extending a CRC equals the CRC of the concatenation.
    const auto all = std::span(data);
    EXPECT_EQ(crc32cWith(kernel, crc32cWith(kernel, 0, all.first(1001)), all.subspan(1001)),
              crc32cPortable(0, all))
        << crc32cKernelName(kernel);
  }
}

// Two parts' CRCs give the whole one, at lengths around and across the
// size from which crc32cSplit shares the work with a second thread, and the
// pieces it cuts.
TEST(Crc32cTest, PartsCombineIntoTheWhole) {
  const std::vector<uint8_t> data = randomBytes(2 * kSharedPassBytes + 5, 8);
  const auto all = std::span(data);
  for (size_t length : {size_t{0}, size_t{1}, size_t{5}, size_t{4096}, kSharedPieceBytes,
                        kSharedPassBytes - 1, kSharedPassBytes, kSharedPassBytes + 3,
                        kSharedPassBytes + kSharedPieceBytes, data.size()}) {
    const auto bytes = all.first(length);
    const uint32_t whole = crc32cPortable(0, bytes);
    for (size_t split : {size_t{0}, length / 3, length / 2, length}) {
      EXPECT_EQ(crc32cCombine(crc32c(0, bytes.first(split)), crc32c(0, bytes.subspan(split)),
                              length - split),
                whole)
          << "length " << length << " split " << split;
    }
    EXPECT_EQ(crc32cSplit(bytes), whole) << "length " << length;
  }
}

// crc32c runs the last (fastest) kernel of the list.
TEST(Crc32cTest, UsesTheFastestKernel) {
  const std::vector<Crc32cKernel> kernels = crc32cKernelsOnThisCpu();
  ASSERT_FALSE(kernels.empty());
  EXPECT_EQ(kernels.front(), Crc32cKernel::TABLE);
  EXPECT_STREQ(crc32cImplementation(), crc32cKernelName(kernels.back()));
}

// HashWriter buffers its fields; its digest is SHA-256 of the fields' bytes
// in order (little-endian, lengths before strings), whatever their sizes
// against its buffer.
TEST(HashWriterTest, DigestIsSha256OfTheFieldsInOrder) {
  for (size_t large : {0, 1, 1000, 1023, 1024, 1025, 5000}) {
    HashWriter writer;
    std::vector<uint8_t> expected;
    auto little = [&](uint64_t v, int size) {
      for (int i = 0; i < size; ++i) expected.push_back(static_cast<uint8_t>(v >> (8 * i)));
    };
    for (uint32_t i = 0; i < 300; ++i) {
      writer.u32(i * 2654435761u);
      little(static_cast<uint32_t>(i * 2654435761u), 4);
      writer.u64(uint64_t{i} << 40 | i);
      little(uint64_t{i} << 40 | i, 8);
    }
    const std::vector<uint8_t> data = randomBytes(large, 5);
    writer.bytes(data);
    little(data.size(), 8);
    expected.insert(expected.end(), data.begin(), data.end());
    writer.u32s({7, 8, 9});
    little(3, 8);
    for (uint32_t v : {7, 8, 9}) little(v, 4);
    writer.text("end");
    little(3, 8);
    expected.insert(expected.end(), {'e', 'n', 'd'});
    Sha256 sha;
    sha.update(expected);
    EXPECT_EQ(writer.finish(), sha.finish()) << "a string of " << large << " bytes";
  }
}

TEST(Hash128Test, SeesEveryByteAndTheLength) {
  std::vector<uint8_t> data = randomBytes(1000, 3);
  const Hash128 original = hash128(data);
  EXPECT_EQ(hash128(data), original);
  for (size_t at : {0, 7, 8, 15, 16, 500, 999}) {
    std::vector<uint8_t> changed = data;
    changed[at] ^= 1;
    EXPECT_NE(hash128(changed), original) << "byte " << at;
  }
  // Zero padding of the last block is told apart by the length.
  const std::vector<uint8_t> a = {1}, aZero = {1, 0};
  EXPECT_NE(hash128(a), hash128(aZero));
  EXPECT_NE(hash128({}), hash128(std::vector<uint8_t>(16, 0)));
  // Two lanes: both halves of the digest depend on the data.
  std::vector<uint8_t> changed = data;
  changed[3] ^= 0x80;
  const Hash128 other = hash128(changed);
  EXPECT_FALSE(std::equal(original.begin(), original.begin() + 8, other.begin()));
  EXPECT_FALSE(std::equal(original.begin() + 8, original.end(), other.begin() + 8));
}

// Cache keys made on one machine are found on another (a cache directory
// shared, or copied with the application): the digest depends on the bytes
// alone. These were computed on x86-64; the aarch64 run checks them there,
// and a change of the word loads or of the algorithm shows here.
TEST(Hash128Test, TheDigestIsTheSameOnEveryCpu) {
  std::vector<uint8_t> data(3000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 3);
  const std::vector<std::pair<size_t, std::string>> expected = {
      {0, "1d20fcd62b2f8526191eda9f4012996a"},
      {5, "a493bc4890c8b4a9e932f0af6f052894"},
      {64, "d64bfa2136aeea05f857408d176983ef"},
      {1000, "c723a98af365f1469c3c1e51ed4288f9"},
      {3000, "4e09022c77cfa811b4fa06655d4a69f4"}};
  for (const auto& [length, hex] : expected) {
    const Hash128 digest = hash128(std::span<const uint8_t>(data.data(), length));
    std::string text;
    for (uint8_t byte : digest) text += fmt::format("{:02x}", byte);
    EXPECT_EQ(text, hex) << length << " bytes";
  }
}

// Words swapped between the lanes of a stripe (the paired lanes i and
// i ^ 1 included), stripes swapped within a block or between blocks, and
// whole blocks swapped, all change the digest: each stripe of a block has
// its own keys, and each block is scrambled before the next.
TEST(Hash128Test, SwappedWordsStripesAndBlocksChangeTheDigest) {
  const std::vector<uint8_t> data = randomBytes(1024 * 3 + 64 * 5 + 9, 9);
  const Hash128 original = hash128(data);
  auto swapped = [&](size_t size, size_t i, size_t j) {
    std::vector<uint8_t> bytes = data;
    const auto at = [&bytes, size](size_t k) {
      return bytes.begin() + static_cast<std::ptrdiff_t>(size * k);
    };
    std::swap_ranges(at(i), at(i + 1), at(j));
    return hash128(bytes);
  };
  for (auto [i, j] : {std::pair{0, 1}, {2, 3}, {0, 7}, {8, 9}, {1, 12}}) {
    EXPECT_NE(swapped(8, i, j), original) << "words " << i << " and " << j;
  }
  for (auto [i, j] : {std::pair{0, 1}, {0, 15}, {3, 16}, {15, 16}, {20, 50}, {48, 52}}) {
    EXPECT_NE(swapped(64, i, j), original) << "stripes " << i << " and " << j;
  }
  for (auto [i, j] : {std::pair{0, 1}, {0, 2}, {1, 2}}) {
    EXPECT_NE(swapped(1024, i, j), original) << "blocks " << i << " and " << j;
  }
  // The same word in every lane is not the same as another word there.
  const std::vector<uint8_t> same(64, 0x5a);
  std::vector<uint8_t> other = same;
  other[63] ^= 1;
  EXPECT_NE(hash128(same), hash128(other));
}

// Every kernel this CPU runs gives the portable code's digest, at every
// length across the first blocks and from unaligned starts.
TEST(Hash128Test, EveryKernelGivesThePortableDigest) {
  const std::vector<uint8_t> data = randomBytes(4096 + 8, 21);
  const std::vector<Hash128Kernel> kernels = hash128KernelsOnThisCpu();
  ASSERT_EQ(kernels.front(), Hash128Kernel::PORTABLE);
  for (size_t offset = 0; offset < 8; offset += 3) {
    for (size_t length = 0; length <= 4096; length += length < 2200 ? 1 : 61) {
      const std::span<const uint8_t> bytes(data.data() + offset, length);
      const Hash128 portable = hash128With(Hash128Kernel::PORTABLE, bytes);
      for (Hash128Kernel kernel : kernels) {
        ASSERT_EQ(hash128With(kernel, bytes), portable)
            << hash128KernelName(kernel) << ", " << length << " bytes from " << offset;
      }
      ASSERT_EQ(hash128(bytes), portable) << length << " bytes from " << offset;
    }
  }
}

// Every input bit flips about half the 128 output bits (the lanes mix
// their whole state), in full blocks and in the zero-padded tail alike.
TEST(Hash128Test, EveryInputBitFlipsAboutHalfTheOutput) {
  for (size_t size : {3, 64, 100, 200, 1100}) {
    const std::vector<uint8_t> data = randomBytes(size, static_cast<uint32_t>(size));
    const Hash128 original = hash128(data);
    double total = 0;
    for (size_t bit = 0; bit < 8 * size; ++bit) {
      std::vector<uint8_t> changed = data;
      changed[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      const Hash128 other = hash128(changed);
      int flipped = 0;
      for (size_t i = 0; i < original.size(); ++i)
        flipped += std::popcount<uint8_t>(original[i] ^ other[i]);
      ASSERT_GE(flipped, 32) << "size " << size << " bit " << bit;
      total += flipped;
    }
    const double mean = total / (8.0 * size);
    EXPECT_GT(mean, 60.0) << "size " << size;
    EXPECT_LT(mean, 68.0) << "size " << size;
  }
}

Operand tensorOperand(std::vector<uint32_t> dims, Lifetime lifetime) {
  Operand operand;
  operand.shape.dims = std::move(dims);
  operand.lifetime = lifetime;
  return operand;
}

// A model with one of everything the hash covers: constants in
// operandValues (short and long) and in a pool, per-channel quantization,
// extension data, a referenced subgraph, extensions.
Model richModel() {
  Model model;
  model.operandValues = randomBytes(256, 4);
  model.pools.push_back(std::make_shared<test::VectorPool>(randomBytes(512, 5)));
  Subgraph& main = model.main;
  main.operands.push_back(tensorOperand({1, 4}, Lifetime::SUBGRAPH_INPUT));
  Operand longConstant = tensorOperand({4, 32}, Lifetime::CONSTANT_COPY);
  longConstant.shape.type = OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL;
  longConstant.shape.channelQuant = ChannelQuant{0, {0.5f, 0.25f, 0.125f, 1.0f}};
  longConstant.location = {0, 16, 128};
  main.operands.push_back(longConstant);
  Operand shortConstant = tensorOperand({2}, Lifetime::CONSTANT_COPY);
  shortConstant.location = {0, 200, 8};
  main.operands.push_back(shortConstant);
  Operand pooled = tensorOperand({64}, Lifetime::CONSTANT_REFERENCE);
  pooled.shape.type = OperandType::TENSOR_QUANT8_ASYMM;
  pooled.shape.scale = 0.5f;
  pooled.shape.zeroPoint = 3;
  pooled.location = {0, 100, 256};
  main.operands.push_back(pooled);
  Operand branch = tensorOperand({}, Lifetime::SUBGRAPH);
  branch.shape.type = OperandType::SUBGRAPH;
  branch.location.offset = 0;
  main.operands.push_back(branch);
  Operand extension = tensorOperand({3}, Lifetime::TEMPORARY_VARIABLE);
  extension.extensionData = {1, 2, 3};
  main.operands.push_back(extension);
  main.operands.push_back(tensorOperand({1, 4}, Lifetime::SUBGRAPH_OUTPUT));
  main.operations.push_back({OperationType::ADD, {0, 2}, {5}});
  main.operations.push_back({OperationType::MUL, {5, 3}, {6}});
  main.inputIndexes = {0};
  main.outputIndexes = {6};
  Subgraph branchGraph;
  branchGraph.operands = {tensorOperand({1}, Lifetime::SUBGRAPH_INPUT),
                          tensorOperand({1}, Lifetime::SUBGRAPH_OUTPUT)};
  branchGraph.operations.push_back({OperationType::RELU, {0}, {1}});
  branchGraph.inputIndexes = {0};
  branchGraph.outputIndexes = {1};
  model.referenced.push_back(branchGraph);
  model.extensions.push_back({"com.example.ops", 1});
  return model;
}

uint8_t* poolByte(Model& model, size_t at) {
  return model.pools[0]->data() + at;
}

TEST(ModelContentHashTest, EqualModelsHashEqual) {
  EXPECT_EQ(modelContentHash(richModel()), modelContentHash(richModel()));
  // Only values count, not where they are kept: the pooled constant copied
  // into operandValues hashes the same.
  Model moved = richModel();
  const size_t at = moved.operandValues.size();
  moved.operandValues.insert(moved.operandValues.end(), poolByte(moved, 100),
                             poolByte(moved, 100 + 256));
  moved.main.operands[3].lifetime = Lifetime::CONSTANT_COPY;
  moved.main.operands[3].location = {0, at, 256};
  EXPECT_EQ(modelContentHash(moved), modelContentHash(richModel()));
  // Bytes no operand uses are not part of what the model computes.
  Model unused = richModel();
  unused.operandValues[0] ^= 1;
  *poolByte(unused, 0) ^= 1;
  EXPECT_EQ(modelContentHash(unused), modelContentHash(richModel()));
}

TEST(ModelContentHashTest, EveryFieldChangesTheHash) {
  const auto base = modelContentHash(richModel());
  const std::vector<std::pair<const char*, std::function<void(Model&)>>> changes = {
      {"operand type", [](Model& m) { m.main.operands[0].shape.type = OperandType::TENSOR_INT32; }},
      {"dims",
       [](Model& m) {
         m.main.operands[0].shape.dims = {1, 5};
       }},
      {"rank",
       [](Model& m) {
         m.main.operands[0].shape.dims = {1, 4, 1};
       }},
      {"scale", [](Model& m) { m.main.operands[3].shape.scale = 0.25f; }},
      {"zero point", [](Model& m) { m.main.operands[3].shape.zeroPoint = 4; }},
      {"channel dim", [](Model& m) { m.main.operands[1].shape.channelQuant->channelDim = 1; }},
      {"channel scale", [](Model& m) { m.main.operands[1].shape.channelQuant->scales[2] = 2.0f; }},
      {"channel quant absent", [](Model& m) { m.main.operands[1].shape.channelQuant.reset(); }},
      {"extension data", [](Model& m) { m.main.operands[5].extensionData[1] = 9; }},
      {"lifetime", [](Model& m) { m.main.operands[5].lifetime = Lifetime::NO_VALUE; }},
      {"long constant value", [](Model& m) { m.operandValues[16 + 77] ^= 1; }},
      {"short constant value", [](Model& m) { m.operandValues[203] ^= 0x40; }},
      {"constant length", [](Model& m) { m.main.operands[2].location.length = 4; }},
      {"pool constant value", [](Model& m) { *poolByte(m, 100 + 200) ^= 1; }},
      {"pool constant offset", [](Model& m) { m.main.operands[3].location.offset = 101; }},
      {"referenced subgraph index", [](Model& m) { m.main.operands[4].location.offset = 1; }},
      {"operation type", [](Model& m) { m.main.operations[1].type = OperationType::SUB; }},
      {"operation inputs",
       [](Model& m) {
         m.main.operations[0].inputs = {2, 0};
       }},
      {"operation outputs", [](Model& m) { m.main.operations[0].outputs = {6}; }},
      {"operation order", [](Model& m) { std::swap(m.main.operations[0], m.main.operations[1]); }},
      {"input indexes",
       [](Model& m) {
         m.main.inputIndexes = {0, 5};
       }},
      {"output indexes", [](Model& m) { m.main.outputIndexes = {5}; }},
      {"referenced operation",
       [](Model& m) { m.referenced[0].operations[0].type = OperationType::RELU6; }},
      {"referenced operand", [](Model& m) { m.referenced[0].operands[1].shape.dims = {2}; }},
      {"referenced outputs", [](Model& m) { m.referenced[0].outputIndexes = {0}; }},
      {"another referenced subgraph", [](Model& m) { m.referenced.push_back(m.referenced[0]); }},
      {"relaxed", [](Model& m) { m.relaxComputationFloat32toFloat16 = true; }},
      {"extension name", [](Model& m) { m.extensions[0].name = "com.example.other"; }},
      {"extension prefix", [](Model& m) { m.extensions[0].prefix = 2; }},
      {"no extensions", [](Model& m) { m.extensions.clear(); }},
  };
  for (const auto& [what, change] : changes) {
    Model model = richModel();
    change(model);
    EXPECT_NE(modelContentHash(model), base) << what;
  }
}

// Five long constants of a quarter of the size from which their digests are
// computed on two threads (side_thread.h), in a pool and in operandValues,
// the main graph and a referenced one.
constexpr size_t kWeightBytes = kSharedPassBytes / 4;

Model weightyModel() {
  constexpr size_t kBytes = kWeightBytes;
  Model model;
  model.operandValues = randomBytes(2 * kBytes, 6);
  model.pools.push_back(std::make_shared<test::VectorPool>(randomBytes(3 * kBytes, 7)));
  for (size_t i = 0; i < 5; ++i) {
    Operand weights = tensorOperand({static_cast<uint32_t>(kBytes / 4)},
                                    i < 2 ? Lifetime::CONSTANT_COPY : Lifetime::CONSTANT_REFERENCE);
    weights.location = {0, (i < 2 ? i : i - 2) * kBytes, kBytes};
    (i < 4 ? model.main : model.referenced.emplace_back()).operands.push_back(weights);
  }
  return model;
}

TEST(ModelContentHashTest, LongConstantsOnEitherThreadAllCountInOrder) {
  const auto base = modelContentHash(weightyModel());
  EXPECT_EQ(modelContentHash(weightyModel()), base);
  for (size_t i = 0; i < 5; ++i) {
    Model model = weightyModel();
    const size_t at = (i < 2 ? i : i - 2) * kWeightBytes + 1234;
    if (i < 2) {
      model.operandValues[at] ^= 1;
    } else {
      *poolByte(model, at) ^= 1;
    }
    EXPECT_NE(modelContentHash(model), base) << "constant " << i;
  }
  Model swapped = weightyModel();
  std::swap(swapped.main.operands[0].location, swapped.main.operands[1].location);
  EXPECT_NE(modelContentHash(swapped), base);
}

PartitionCacheIdentity identity() {
  PartitionCacheIdentity id;
  id.base.fill(7);
  id.operations = {0, 1, 2};
  id.deviceName = "annrt-cpu";
  id.deviceVersion = "1.0";
  id.preference = 1;
  id.priority = 110;
  id.numThreads = 2;
  id.inputDims = {{1, 2}, {3}};
  return id;
}

TEST(PartitionCacheKeyTest, EveryFieldChangesTheKey) {
  const CacheKey base = partitionCacheKey(identity());
  EXPECT_EQ(partitionCacheKey(identity()), base);
  const std::vector<std::pair<const char*, std::function<void(PartitionCacheIdentity&)>>> changes =
      {
          {"base", [](PartitionCacheIdentity& i) { i.base[31] = 8; }},
          {"operations",
           [](PartitionCacheIdentity& i) {
             i.operations = {0, 1};
           }},
          {"device name", [](PartitionCacheIdentity& i) { i.deviceName = "annrt-cpuX"; }},
          // The length prefix keeps name and version apart.
          {"name/version split",
           [](PartitionCacheIdentity& i) {
             i.deviceName = "annrt-cpu1";
             i.deviceVersion = ".0";
           }},
          {"device version", [](PartitionCacheIdentity& i) { i.deviceVersion = "1.1"; }},
          {"preference", [](PartitionCacheIdentity& i) { i.preference = 2; }},
          {"priority", [](PartitionCacheIdentity& i) { i.priority = 100; }},
          {"relaxed", [](PartitionCacheIdentity& i) { i.relaxed = true; }},
          {"threads", [](PartitionCacheIdentity& i) { i.numThreads = 3; }},
          {"input dims",
           [](PartitionCacheIdentity& i) {
             i.inputDims = {{1, 2, 3}};
           }},
          {"no input dims", [](PartitionCacheIdentity& i) { i.inputDims.clear(); }},
          {"runtime build", [](PartitionCacheIdentity& i) { i.runtimeBuild = "0123abcd"; }},
      };
  for (const auto& [what, change] : changes) {
    PartitionCacheIdentity id = identity();
    change(id);
    EXPECT_NE(partitionCacheKey(id), base) << what;
  }
}

TEST(CacheFileNameTest, KeyRoundTripsThroughItsName) {
  CacheKey key;
  for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<uint8_t>(i * 37 + 5);
  const std::string name = entryFileName(key);
  EXPECT_EQ(name, toHex(key) + ".annrtcc");
  EXPECT_EQ(keyFromFileName(name), key);
  EXPECT_FALSE(keyFromFileName(name.substr(1)));
  std::string upper = name;
  upper[0] = 'A';
  EXPECT_FALSE(keyFromFileName(upper));
  EXPECT_FALSE(keyFromFileName(toHex(key) + ".annrtcx"));
  EXPECT_FALSE(keyFromFileName("." + name + ".1-0.tmp"));
}

}  // namespace
}  // namespace annrt::runtime
