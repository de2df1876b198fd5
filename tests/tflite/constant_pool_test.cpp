// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The importer's ConstantPool: room for computed constants that the model
// references through NNAPI memories instead of copying them at finish, and
// models reading them computing alike on every device, before and after the
// pool drops its own views.
#include "tflite/constant_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <string>
#include <vector>

#include "model_runner.h"
#include "tflite/nnapi_writer.h"

namespace annrt::tflite {
namespace {

std::span<uint8_t> allocated(ConstantPool& pool, size_t bytes) {
  Result<std::span<uint8_t>> room = pool.allocate(bytes);
  EXPECT_TRUE(room.ok()) << room.error().message;
  return room.ok() ? *room : std::span<uint8_t>();
}

TEST(ConstantPoolTest, RoomIsZeroedAlignedApartAndPlaced) {
  ConstantPool pool;
  std::vector<std::span<uint8_t>> rooms;
  for (size_t bytes : {1u, 129u, 4096u, 100000u, 3u}) {
    std::span<uint8_t> room = allocated(pool, bytes);
    ASSERT_EQ(room.size(), bytes);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(room.data()) % 64, 0u);
    EXPECT_TRUE(std::all_of(room.begin(), room.end(), [](uint8_t b) { return b == 0; }));
    std::fill(room.begin(), room.end(), static_cast<uint8_t>(rooms.size() + 1));
    rooms.push_back(room);
  }
  ANeuralNetworksMemory* memory = nullptr;
  for (size_t i = 0; i < rooms.size(); ++i) {
    // Writing one room left the others as they were.
    EXPECT_TRUE(std::all_of(rooms[i].begin(), rooms[i].end(),
                            [&](uint8_t b) { return b == static_cast<uint8_t>(i + 1); }));
    auto place = pool.find(rooms[i]);
    ASSERT_TRUE(place.has_value());
    ASSERT_NE(place->memory, nullptr);
    if (i == 0) memory = place->memory;
    EXPECT_EQ(place->memory, memory) << "small rooms share one chunk";
    EXPECT_EQ(place->offset % 64, 0u);
    // Part of a room is placed at its own offset.
    auto inner = pool.find(rooms[i].subspan(rooms[i].size() / 2));
    ASSERT_TRUE(inner.has_value());
    EXPECT_EQ(inner->offset, place->offset + rooms[i].size() / 2);
  }
  std::vector<uint8_t> elsewhere(16);
  EXPECT_FALSE(pool.find(elsewhere).has_value());
  EXPECT_FALSE(pool.find({}).has_value());
  EXPECT_GE(pool.usedBytes(), 1u + 129 + 4096 + 100000 + 3);
}

TEST(ConstantPoolTest, RoomLargerThanAChunkGetsOneOfItsOwn) {
  ConstantPool pool;
  std::span<uint8_t> small = allocated(pool, 256);
  std::span<uint8_t> large = allocated(pool, size_t{40} << 20);
  ASSERT_EQ(large.size(), size_t{40} << 20);
  large.back() = 7;
  auto smallPlace = pool.find(small);
  auto largePlace = pool.find(large);
  ASSERT_TRUE(smallPlace && largePlace);
  EXPECT_NE(smallPlace->memory, largePlace->memory);
  EXPECT_EQ(largePlace->offset, 0u);
  // The room after it goes to a chunk with space: none is spanned twice.
  std::span<uint8_t> next = allocated(pool, 256);
  auto nextPlace = pool.find(next);
  ASSERT_TRUE(nextPlace.has_value());
  EXPECT_FALSE(nextPlace->memory == largePlace->memory && nextPlace->offset < large.size());
}

TEST(ConstantPoolTest, SealedPoolPlacesNothingAndStartsAnotherChunk) {
  ConstantPool pool;
  std::span<uint8_t> before = allocated(pool, 512);
  auto placed = pool.find(before);
  ASSERT_TRUE(placed.has_value());
  pool.seal();
  std::span<uint8_t> after = allocated(pool, 512);
  auto placedAfter = pool.find(after);
  ASSERT_TRUE(placedAfter.has_value());
  EXPECT_NE(placedAfter->memory, placed->memory);
}

size_t openDescriptors() {
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator("/proc/self/fd"),
                                           std::filesystem::directory_iterator()));
}

TEST(ConstantPoolTest, LeavesNoDescriptorOpen) {
  const size_t before = openDescriptors();
  {
    ConstantPool pool;
    allocated(pool, 1000);
    allocated(pool, size_t{20} << 20);
    pool.seal();
    allocated(pool, 1000);
    // The runtime's memories keep one each, the pool none.
    EXPECT_LE(openDescriptors(), before + 3);
  }
  EXPECT_EQ(openDescriptors(), before);
}

// y = x + c with c (256 floats) computed into the pool and given to the model
// by the writer as a range of the pool's memory.
TEST(ConstantPoolTest, ModelReadsItsConstantFromThePoolOnEveryDevice) {
  constexpr uint32_t kCount = 256;
  ConstantPool pool;
  std::span<uint8_t> room = allocated(pool, kCount * sizeof(float));
  ASSERT_EQ(room.size(), kCount * sizeof(float));
  std::vector<float> values(kCount);
  for (uint32_t i = 0; i < kCount; ++i) values[i] = 0.25f * static_cast<float>(i) - 3.0f;
  std::memcpy(room.data(), values.data(), room.size());

  NnapiWriter writer;
  ASSERT_TRUE(writer.create().ok());
  writer.referencePool(&pool);
  const Shape vector = makeShape(OperandType::TENSOR_FLOAT32, {kCount});
  Result<uint32_t> x = writer.addOperand(vector);
  Result<uint32_t> c = writer.addConstant(vector, room);
  Result<uint32_t> none = writer.addInt32(ANEURALNETWORKS_FUSED_NONE);
  Result<uint32_t> y = writer.addOperand(vector);
  ASSERT_TRUE(x.ok() && c.ok() && none.ok() && y.ok());
  ASSERT_TRUE(writer.addOperation(ANEURALNETWORKS_ADD, {*x, *c, *none}, {*y}).ok());
  ASSERT_TRUE(writer.identifyInputsAndOutputs({*x}, {*y}).ok());
  auto finished = writer.finish(false);
  ASSERT_TRUE(finished.ok()) << finished.error().message;
  // The runtime reads the pool's memory through its own mapping.
  pool.seal();

  std::vector<float> in(kCount);
  for (uint32_t i = 0; i < kCount; ++i) in[i] = static_cast<float>(i % 7);
  std::vector<uint8_t> input(sizeof(float) * kCount);
  std::memcpy(input.data(), in.data(), input.size());
  TensorInfo output;
  output.type = ANEURALNETWORKS_TENSOR_FLOAT32;
  output.dims = {kCount};
  for (const std::string device : {"nnapi-reference", "annrt-cpu", ""}) {
    auto outputs = testing::runModel(writer.model(), {input}, {output}, device);
    ASSERT_TRUE(outputs.ok()) << device << ": " << outputs.error().message;
    std::vector<float> out(kCount);
    std::memcpy(out.data(), (*outputs)[0].data(), sizeof(float) * kCount);
    for (uint32_t i = 0; i < kCount; ++i) {
      ASSERT_EQ(out[i], in[i] + values[i]) << "device '" << device << "', element " << i;
    }
  }
}

}  // namespace
}  // namespace annrt::tflite
