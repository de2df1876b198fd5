// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The tools' input and output buffers (zeroed_bytes.h): zero, and made
// without writing their pages, where a zero-filled vector faults every one.
#include "zeroed_bytes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "common/page_faults.h"

namespace annrt::tools {
namespace {

using test::minorFaults;

TEST(ZeroedBytesTest, IsZeroAndNeverEmpty) {
  const ZeroedBytes empty(0);
  ASSERT_NE(empty.data(), nullptr);
  EXPECT_EQ(empty.size(), 1u);
  EXPECT_EQ(empty.data()[0], 0);
  const ZeroedBytes large(size_t{3} << 20);
  EXPECT_EQ(large.size(), size_t{3} << 20);
  EXPECT_TRUE(
      std::all_of(large.data(), large.data() + large.size(), [](uint8_t b) { return b == 0; }));
}

TEST(ZeroedBytesTest, MovesItsBytes) {
  ZeroedBytes a(4096);
  a.data()[7] = 42;
  ZeroedBytes b = std::move(a);
  EXPECT_EQ(b.data()[7], 42);
  a = ZeroedBytes(16);
  EXPECT_EQ(a.data()[7], 0);
}

TEST(ZeroedBytesTest, DoesNotTouchItsPagesWhereAVectorDoes) {
  constexpr size_t kBytes = size_t{16} << 20;  // 4096 pages of 4 KB
  long before = minorFaults();
  { const std::vector<uint8_t> filled(kBytes); }
  const long vectorFaults = minorFaults() - before;
  if (vectorFaults < 1024)
    GTEST_SKIP() << "a zero-filled vector faulted " << vectorFaults << " times here";
  before = minorFaults();
  { const ZeroedBytes zeroed(kBytes); }
  EXPECT_LT(minorFaults() - before, vectorFaults / 8);
}

}  // namespace
}  // namespace annrt::tools
