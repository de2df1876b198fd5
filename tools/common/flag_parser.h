// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Command-line flags with TensorFlow Lite's tool conventions: every flag is
// --name=value (a bare --name sets a boolean to true); booleans accept
// true/false/1/0. Unknown flags, stray arguments and malformed values are
// errors that name the offending argument.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace annrt::tools {

class FlagSet {
 public:
  // `target` holds the default and receives the parsed value; it must outlive
  // the FlagSet.
  void addBool(std::string name, bool* target, std::string help);
  void addInt(std::string name, int32_t* target, std::string help);
  void addFloat(std::string name, float* target, std::string help);
  void addString(std::string name, std::string* target, std::string help);

  // Parses argv[1..argc-1].
  Result<void> parse(int argc, const char* const* argv);
  Result<void> parse(const std::vector<std::string>& args);

  // Whether the command line gave the flag a value.
  bool wasSet(std::string_view name) const;
  // One line per flag: "--name=<default>  help".
  std::string usage() const;

 private:
  enum class Kind { kBool, kInt, kFloat, kString };
  struct Flag {
    std::string name;
    Kind kind;
    void* target;
    std::string help;
    std::string defaultText;
    bool set = false;
  };

  void add(std::string name, Kind kind, void* target, std::string help);
  Flag* find(std::string_view name);
  Result<void> parseOne(std::string_view argument);
  static Result<void> assign(Flag& flag, std::string_view value);

  std::vector<Flag> flags_;
};

// Value parsers shared by the flags and list-valued flags. Each returns an
// error mentioning `what` when `text` is not entirely a valid value.
Result<bool> parseBool(std::string_view text, std::string_view what);
Result<int32_t> parseInt(std::string_view text, std::string_view what);
Result<float> parseFloat(std::string_view text, std::string_view what);

}  // namespace annrt::tools
