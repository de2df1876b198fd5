// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "flag_parser.h"

#include <fmt/format.h>

#include <charconv>
#include <sstream>

#include "tool_result.h"

namespace annrt::tools {
namespace {

std::string formatDefault(bool value) {
  return value ? "true" : "false";
}
std::string formatDefault(int32_t value) {
  return std::to_string(value);
}
std::string formatDefault(float value) {
  std::ostringstream stream;
  stream << value;
  return stream.str();
}
std::string formatDefault(const std::string& value) {
  return value.empty() ? "\"\"" : value;
}

}  // namespace

Result<bool> parseBool(std::string_view text, std::string_view what) {
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  return toolError("{}: '{}' is not a boolean (use true, false, 1 or 0)", what, text);
}

Result<int32_t> parseInt(std::string_view text, std::string_view what) {
  int32_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return toolError("{}: '{}' is not a 32-bit integer", what, text);
  }
  return value;
}

Result<float> parseFloat(std::string_view text, std::string_view what) {
  float value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return toolError("{}: '{}' is not a number", what, text);
  }
  return value;
}

void FlagSet::addBool(std::string name, bool* target, std::string help) {
  add(std::move(name), Kind::kBool, target, std::move(help));
  flags_.back().defaultText = formatDefault(*target);
}

void FlagSet::addInt(std::string name, int32_t* target, std::string help) {
  add(std::move(name), Kind::kInt, target, std::move(help));
  flags_.back().defaultText = formatDefault(*target);
}

void FlagSet::addFloat(std::string name, float* target, std::string help) {
  add(std::move(name), Kind::kFloat, target, std::move(help));
  flags_.back().defaultText = formatDefault(*target);
}

void FlagSet::addString(std::string name, std::string* target, std::string help) {
  add(std::move(name), Kind::kString, target, std::move(help));
  flags_.back().defaultText = formatDefault(*target);
}

void FlagSet::add(std::string name, Kind kind, void* target, std::string help) {
  flags_.push_back(Flag{std::move(name), kind, target, std::move(help), "", false});
}

FlagSet::Flag* FlagSet::find(std::string_view name) {
  for (Flag& flag : flags_) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

bool FlagSet::wasSet(std::string_view name) const {
  for (const Flag& flag : flags_) {
    if (flag.name == name) return flag.set;
  }
  return false;
}

Result<void> FlagSet::parse(int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  return parse(args);
}

Result<void> FlagSet::parse(const std::vector<std::string>& args) {
  for (const std::string& argument : args) {
    ANNRT_RETURN_IF_ERROR(parseOne(argument));
  }
  return {};
}

Result<void> FlagSet::parseOne(std::string_view argument) {
  if (!argument.starts_with("--") || argument.size() == 2) {
    return toolError("unexpected argument '{}': flags take the form --name=value", argument);
  }
  std::string_view body = argument.substr(2);
  const size_t equals = body.find('=');
  std::string_view name = body.substr(0, equals);
  Flag* flag = find(name);
  if (flag == nullptr) {
    return toolError("unknown flag --{} (run with --help for the list of flags)", name);
  }
  if (equals == std::string_view::npos) {
    if (flag->kind != Kind::kBool) {
      return toolError("flag --{} needs a value: --{}=VALUE", name, name);
    }
    return assign(*flag, "true");
  }
  return assign(*flag, body.substr(equals + 1));
}

Result<void> FlagSet::assign(Flag& flag, std::string_view value) {
  const std::string what = "--" + flag.name;
  switch (flag.kind) {
    case Kind::kBool: {
      ANNRT_ASSIGN_OR_RETURN(*static_cast<bool*>(flag.target), parseBool(value, what));
      break;
    }
    case Kind::kInt: {
      ANNRT_ASSIGN_OR_RETURN(*static_cast<int32_t*>(flag.target), parseInt(value, what));
      break;
    }
    case Kind::kFloat: {
      ANNRT_ASSIGN_OR_RETURN(*static_cast<float*>(flag.target), parseFloat(value, what));
      break;
    }
    case Kind::kString: *static_cast<std::string*>(flag.target) = std::string(value); break;
  }
  flag.set = true;
  return {};
}

std::string FlagSet::usage() const {
  std::string text;
  for (const Flag& flag : flags_) {
    text += fmt::format("  --{}={}\n      {}\n", flag.name, flag.defaultText, flag.help);
  }
  return text;
}

}  // namespace annrt::tools
