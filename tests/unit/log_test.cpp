// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "common/log.h"

#include <gtest/gtest.h>

namespace annrt {
namespace {

unsigned mask(std::initializer_list<LogArea> areas) {
  unsigned m = 0;
  for (LogArea a : areas) m |= static_cast<unsigned>(a);
  return m;
}

TEST(VlogTest, ParsesAreasWithAnySeparator) {
  EXPECT_EQ(parseVlogAreas("model"), mask({LogArea::MODEL}));
  EXPECT_EQ(parseVlogAreas("model compilation"), mask({LogArea::MODEL, LogArea::COMPILATION}));
  EXPECT_EQ(parseVlogAreas("execution,cpuexe"), mask({LogArea::EXECUTION, LogArea::CPUEXE}));
  EXPECT_EQ(parseVlogAreas("manager:model"), mask({LogArea::MANAGER, LogArea::MODEL}));
}

TEST(VlogTest, AllAndOneEnableEverything) {
  const unsigned all = mask({LogArea::MODEL, LogArea::COMPILATION, LogArea::EXECUTION,
                             LogArea::CPUEXE, LogArea::MANAGER, LogArea::DRIVER});
  EXPECT_EQ(parseVlogAreas("all"), all);
  EXPECT_EQ(parseVlogAreas("1"), all);
}

TEST(VlogTest, IgnoresUnknownWordsAndEmptyInput) {
  EXPECT_EQ(parseVlogAreas(""), 0u);
  EXPECT_EQ(parseVlogAreas("bogus,,  "), 0u);
  EXPECT_EQ(parseVlogAreas("bogus model"), mask({LogArea::MODEL}));
}

}  // namespace
}  // namespace annrt
