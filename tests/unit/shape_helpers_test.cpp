// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/shape_helpers.h"

#include <gtest/gtest.h>

#include <numeric>

namespace annrt::ops {
namespace {

using Dims = std::vector<uint32_t>;

TEST(ShapeHelpersTest, BroadcastAlignsTrailingDimensions) {
  EXPECT_EQ(*broadcastDims({2, 3, 4}, {4}), (Dims{2, 3, 4}));
  EXPECT_EQ(*broadcastDims({2, 1, 4}, {3, 1}), (Dims{2, 3, 4}));
  EXPECT_EQ(*broadcastDims({}, {5}), (Dims{5}));
  EXPECT_FALSE(broadcastDims({2, 3}, {4}).ok());
}

TEST(ShapeHelpersTest, BroadcastIndexRepeatsSizeOneDimensions) {
  EXPECT_EQ(broadcastIndex({1, 4}, {2, 3}), 3u);
  EXPECT_EQ(broadcastIndex({3, 1}, {2, 3}), 2u);
  EXPECT_EQ(broadcastIndex({4}, {1, 2}), 2u);
}

TEST(ShapeHelpersTest, NextCoordinateWalksRowMajor) {
  Dims coord{0, 0};
  int steps = 1;
  while (nextCoordinate({2, 3}, coord)) ++steps;
  EXPECT_EQ(steps, 6);
  EXPECT_EQ(coord, (Dims{0, 0}));
}

TEST(ShapeHelpersTest, SamePaddingCentersTheWindow) {
  // in 5, filter 3, stride 2: out 3, needs (3-1)*2+3-5 = 2 -> 1/1.
  Padding p = *implicitPadding(1, 5, 2, 1, 3);
  EXPECT_EQ(p.head, 1u);
  EXPECT_EQ(p.tail, 1u);
  // in 4, filter 3, stride 2: out 2, needs (2-1)*2+3-4 = 1 -> 0/1 (extra at the end).
  p = *implicitPadding(1, 4, 2, 1, 3);
  EXPECT_EQ(p.head, 0u);
  EXPECT_EQ(p.tail, 1u);
  p = *implicitPadding(2, 4, 2, 1, 3);
  EXPECT_EQ(p.head + p.tail, 0u);
  EXPECT_FALSE(implicitPadding(3, 4, 2, 1, 3).ok());
}

TEST(ShapeHelpersTest, WindowOutputSizeHonoursDilationAndRejectsOversizedWindows) {
  EXPECT_EQ(*windowOutputSize(7, 3, 1, 2, {}), 3u);  // effective filter 5
  EXPECT_EQ(*windowOutputSize(5, 3, 2, 1, {1, 1}), 3u);
  EXPECT_FALSE(windowOutputSize(2, 3, 1, 1, {}).ok());
  EXPECT_FALSE(windowOutputSize(5, 3, 0, 1, {}).ok());
}

TEST(ShapeHelpersTest, LayoutConversionsAreInverse) {
  const Dims nchw{2, 3, 2, 2};
  std::vector<int16_t> in(24);
  std::iota(in.begin(), in.end(), 0);
  std::vector<int16_t> nhwc(24);
  std::vector<int16_t> back(24);
  nchwToNhwc(in.data(), nhwc.data(), nchw, sizeof(int16_t));
  // NHWC element (n=0, h=0, w=1, c=2) is NCHW element (0, 2, 0, 1) = 2*4 + 1 = 9.
  EXPECT_EQ(nhwc[(0 * 2 + 1) * 3 + 2], 9);
  nhwcToNchw(nhwc.data(), back.data(), nchwToNhwcDims(nchw), sizeof(int16_t));
  EXPECT_EQ(back, in);
  EXPECT_EQ(nhwcToNchwDims(nchwToNhwcDims(nchw)), nchw);
}

TEST(ShapeHelpersTest, AxesResolveNegativeValues) {
  EXPECT_EQ(*resolveAxis(-1, 4), 3u);
  EXPECT_EQ(*resolveAxis(0, 4), 0u);
  EXPECT_FALSE(resolveAxis(4, 4).ok());
  EXPECT_FALSE(resolveAxis(-5, 4).ok());
}

}  // namespace
}  // namespace annrt::ops
