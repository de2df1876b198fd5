// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Fingerprint64 against known values. LSH_PROJECTION's outputs are only
// right if every byte length hashes exactly as in FarmHash, and the
// conformance vectors only exercise 12-byte keys.
#include "ops/util/fingerprint64.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace annrt::ops {
namespace {

uint64_t fingerprint(std::string_view text) {
  return fingerprint64({reinterpret_cast<const uint8_t*>(text.data()), text.size()});
}

// Values published with other Fingerprint64 implementations: TensorFlow's
// frozen-fingerprint test, the FARM_FINGERPRINT examples of BigQuery and
// Redshift (as signed INT64), and the string table shared by several ports.
TEST(Fingerprint64Test, PublishedValues) {
  EXPECT_EQ(fingerprint(""), 0x9ae16a3b2f90404fULL);
  EXPECT_EQ(fingerprint("a"), 0xb3454265b6df75e3ULL);
  EXPECT_EQ(fingerprint("abc"), 0x24a5b3a074e7f369ULL);
  EXPECT_EQ(fingerprint("Hello"), 15404698994557526151ULL);
  EXPECT_EQ(fingerprint("World"), 18308117990299812472ULL);
  EXPECT_EQ(static_cast<int64_t>(fingerprint("1footrue")), -1541654101129638711LL);
  EXPECT_EQ(static_cast<int64_t>(fingerprint("2applefalse")), 2794438866806483259LL);
  EXPECT_EQ(static_cast<int64_t>(fingerprint("3true")), -4880158226897771312LL);
  EXPECT_EQ(static_cast<int64_t>(fingerprint("alphabet")), -2427165924636348523LL);
  EXPECT_EQ(fingerprint("Amazon Redshift"), 8085098817162212970ULL);
  EXPECT_EQ(fingerprint("0123456789=012345"), 0x46a7416ed4861e3bULL);
  EXPECT_EQ(fingerprint("C is as portable as Stonehedge!!"), 0xb944f8a16261e414ULL);
  EXPECT_EQ(fingerprint("Discard medicine more than two years old."), 0xe8f89ab6df9bdd25ULL);
  EXPECT_EQ(fingerprint("The fugacity of a constituent in a mixture of gases at a given "
                        "temperature is proportional to its mole fraction.  Lewis-Randall Rule"),
            0x098eff6958c5e91aULL);
}

// Every length class and block boundary (0-3, 4-7, 8-16, 17-32, 33-64, and
// the 64-byte loop with and without a partial last block), over bytes
// (i * 131 + 7) mod 256. Expected values from Google's FarmHash library.
TEST(Fingerprint64Test, EveryLengthClass) {
  const std::vector<std::pair<size_t, uint64_t>> expected = {
      {0, 0x9ae16a3b2f90404fULL},   {1, 0x57821efdee1b7472ULL},   {3, 0xbeedf37b20babe01ULL},
      {4, 0x78e5c39592d63067ULL},   {7, 0x04dd505220c44e7eULL},   {8, 0xc19f34cbc54f4865ULL},
      {16, 0x08b48f7ec30e084eULL},  {17, 0xe8255d05f537d5f5ULL},  {31, 0x27c23ea18dbddfc4ULL},
      {32, 0xeff8e4a51615d6dfULL},  {33, 0x73ddd0098c2d6111ULL},  {63, 0xad805636300d1112ULL},
      {64, 0xe21627d5817d4f6fULL},  {65, 0x97cc91b3a8f4e680ULL},  {127, 0xea9c203d31e7d08bULL},
      {128, 0x1c164782a87793e4ULL}, {129, 0x986a5ebcf9b59191ULL}, {256, 0x289bc8766d49012dULL},
      {300, 0x85fe25aa6a8b15ffULL},
  };
  for (const auto& [length, hash] : expected) {
    std::vector<uint8_t> bytes(length);
    for (size_t i = 0; i < length; ++i) bytes[i] = static_cast<uint8_t>(i * 131 + 7);
    EXPECT_EQ(fingerprint64(bytes), hash) << "length " << length;
  }
}

}  // namespace
}  // namespace annrt::ops
