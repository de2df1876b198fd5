// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// What the generated facts_*.cpp files record about the public headers. Each
// of those files includes only the header that nnapi-facts.csv says defines
// its names, and names every enumerator, constant and function of that
// header's CSV rows, so a name missing from its header fails the build;
// header_facts_test.cpp then compares values and types with the CSV.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

namespace annrt::testing {

struct HeaderFact {
  const char* header;  // file name, as in the CSV's defined_in column
  const char* kind;    // CSV kind: enum type name, "(constant)", "(anonymous enum)", "Function"
  const char* name;
  bool isFunction;
  int64_t value;           // enumerators and constants
  bool kindMatches;        // the enumerator's type is `kind` (true when the kind is no type)
  const char* returnType;  // functions: the CSV's return type
  bool returnMatches;      // functions: the declared return type is `returnType`
};

std::vector<HeaderFact>& headerFacts();

struct HeaderFactRegistrar {
  explicit HeaderFactRegistrar(std::initializer_list<HeaderFact> facts) {
    headerFacts().insert(headerFacts().end(), facts.begin(), facts.end());
  }
};

template <typename F>
struct ReturnTypeOf;
template <typename R, typename... Args>
struct ReturnTypeOf<R (*)(Args...)> {
  using type = R;
};

}  // namespace annrt::testing

// Used by the generated files; kHeader is defined there.
#define ANNRT_VALUE_FACT(kind, name)                                                    \
  ::annrt::testing::HeaderFact{kHeader, kind, #name, false, static_cast<int64_t>(name), \
                               true,    "",   true},
#define ANNRT_ENUM_FACT(kind, name)                                                    \
  ::annrt::testing::HeaderFact{kHeader,                                                \
                               #kind,                                                  \
                               #name,                                                  \
                               false,                                                  \
                               static_cast<int64_t>(name),                             \
                               std::is_same_v<std::remove_cv_t<decltype(name)>, kind>, \
                               "",                                                     \
                               true},
// NOLINTBEGIN(bugprone-macro-parentheses): ret is a type.
#define ANNRT_FUNCTION_FACT(name, ret) \
  ::annrt::testing::                   \
      HeaderFact{                      \
          kHeader,                     \
          "Function",                  \
          #name,                       \
          true,                        \
          0,                           \
          true,                        \
          #ret,                        \
          std::is_same_v<typename ::annrt::testing::ReturnTypeOf<decltype(&name)>::type, ret>},
// NOLINTEND(bugprone-macro-parentheses)
