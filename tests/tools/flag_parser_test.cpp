// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "flag_parser.h"

#include <gtest/gtest.h>

namespace annrt::tools {
namespace {

struct Values {
  bool b = false;
  int32_t i = 7;
  float f = 1.5f;
  std::string s = "x";
};

FlagSet makeFlags(Values& v) {
  FlagSet flags;
  flags.addBool("b", &v.b, "a bool");
  flags.addInt("i", &v.i, "an int");
  flags.addFloat("f", &v.f, "a float");
  flags.addString("s", &v.s, "a string");
  return flags;
}

TEST(FlagParserTest, DefaultsStayWhenNotGiven) {
  Values v;
  FlagSet flags = makeFlags(v);
  ASSERT_TRUE(flags.parse(std::vector<std::string>{}).ok());
  EXPECT_FALSE(v.b);
  EXPECT_EQ(v.i, 7);
  EXPECT_FLOAT_EQ(v.f, 1.5f);
  EXPECT_EQ(v.s, "x");
  EXPECT_FALSE(flags.wasSet("i"));
}

TEST(FlagParserTest, ParsesEveryKind) {
  Values v;
  FlagSet flags = makeFlags(v);
  ASSERT_TRUE(flags.parse({"--b=true", "--i=-3", "--f=0.25", "--s=a=b:c"}).ok());
  EXPECT_TRUE(v.b);
  EXPECT_EQ(v.i, -3);
  EXPECT_FLOAT_EQ(v.f, 0.25f);
  EXPECT_EQ(v.s, "a=b:c");  // only the first '=' separates name and value
  EXPECT_TRUE(flags.wasSet("i"));
  EXPECT_TRUE(flags.wasSet("s"));
}

TEST(FlagParserTest, BoolAcceptsDigitsAndBareName) {
  Values v;
  FlagSet flags = makeFlags(v);
  ASSERT_TRUE(flags.parse({"--b=1"}).ok());
  EXPECT_TRUE(v.b);
  ASSERT_TRUE(flags.parse({"--b=0"}).ok());
  EXPECT_FALSE(v.b);
  ASSERT_TRUE(flags.parse({"--b"}).ok());
  EXPECT_TRUE(v.b);
}

TEST(FlagParserTest, EmptyStringValue) {
  Values v;
  FlagSet flags = makeFlags(v);
  ASSERT_TRUE(flags.parse({"--s="}).ok());
  EXPECT_EQ(v.s, "");
}

TEST(FlagParserTest, RejectsUnknownFlag) {
  Values v;
  FlagSet flags = makeFlags(v);
  auto result = flags.parse({"--nope=1"});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("unknown flag --nope"), std::string::npos);
}

TEST(FlagParserTest, RejectsStrayArgument) {
  Values v;
  FlagSet flags = makeFlags(v);
  auto result = flags.parse({"model.tflite"});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message.find("--name=value"), std::string::npos);
  EXPECT_FALSE(flags.parse({"-i=3"}).ok());
  EXPECT_FALSE(flags.parse({"--"}).ok());
}

TEST(FlagParserTest, RejectsMalformedValues) {
  Values v;
  FlagSet flags = makeFlags(v);
  EXPECT_FALSE(flags.parse({"--i=3x"}).ok());
  EXPECT_FALSE(flags.parse({"--i="}).ok());
  EXPECT_FALSE(flags.parse({"--i=99999999999"}).ok());
  EXPECT_FALSE(flags.parse({"--f=fast"}).ok());
  EXPECT_FALSE(flags.parse({"--b=yes"}).ok());
  EXPECT_FALSE(flags.parse({"--i"}).ok());  // non-bool needs a value
  EXPECT_EQ(v.i, 7);
}

TEST(FlagParserTest, UsageListsFlagsWithDefaults) {
  Values v;
  FlagSet flags = makeFlags(v);
  const std::string usage = flags.usage();
  EXPECT_NE(usage.find("--i=7"), std::string::npos);
  EXPECT_NE(usage.find("--f=1.5"), std::string::npos);
  EXPECT_NE(usage.find("--b=false"), std::string::npos);
  EXPECT_NE(usage.find("an int"), std::string::npos);
}

}  // namespace
}  // namespace annrt::tools
