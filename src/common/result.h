// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Result<T>: the error-or-value type used everywhere inside annrt. Errors carry
// an NNAPI result code and a human-readable message; only the C entry points
// turn them into plain int codes (after logging the message).
#pragma once

#include <fmt/format.h>

#include <string>
#include <utility>
#include <variant>

namespace annrt {

// Same values as the NNAPI ResultCode enum.
enum class ErrorCode : int {
  NO_ERROR = 0,
  OUT_OF_MEMORY = 1,
  INCOMPLETE = 2,
  UNEXPECTED_NULL = 3,
  BAD_DATA = 4,
  OP_FAILED = 5,
  BAD_STATE = 6,
  UNMAPPABLE = 7,
  OUTPUT_INSUFFICIENT_SIZE = 8,
  UNAVAILABLE_DEVICE = 9,
  MISSED_DEADLINE_TRANSIENT = 10,
  MISSED_DEADLINE_PERSISTENT = 11,
  RESOURCE_EXHAUSTED_TRANSIENT = 12,
  RESOURCE_EXHAUSTED_PERSISTENT = 13,
  DEAD_OBJECT = 14,
};

const char* errorCodeName(ErrorCode code);

struct Error {
  ErrorCode code = ErrorCode::OP_FAILED;
  std::string message;
};

template <typename... Args>
Error makeError(ErrorCode code, fmt::format_string<Args...> format, Args&&... args) {
  return Error{code, fmt::format(format, std::forward<Args>(args)...)};
}

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : value_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(value_); }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return std::get<Error>(value_); }
  Error&& takeError() { return std::get<Error>(std::move(value_)); }
  T& value() & { return std::get<T>(value_); }
  const T& value() const& { return std::get<T>(value_); }
  T&& value() && { return std::get<T>(std::move(value_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Error> value_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error)
      : error_(std::move(error)), ok_(false) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }
  Error&& takeError() { return std::move(error_); }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace annrt

#define ANNRT_CONCAT_INNER(a, b) a##b
#define ANNRT_CONCAT(a, b) ANNRT_CONCAT_INNER(a, b)

// Propagates the error of an expression returning Result<...>.
#define ANNRT_RETURN_IF_ERROR(expr)     \
  do {                                  \
    auto annrt_result_ = (expr);        \
    if (!annrt_result_.ok()) {          \
      return annrt_result_.takeError(); \
    }                                   \
  } while (0)

// NOLINTBEGIN(bugprone-macro-parentheses): lhs may be a declaration.
#define ANNRT_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                \
  if (!tmp.ok()) {                                  \
    return tmp.takeError();                         \
  }                                                 \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)

// `ANNRT_ASSIGN_OR_RETURN(auto x, computeX());`
#define ANNRT_ASSIGN_OR_RETURN(lhs, expr) \
  ANNRT_ASSIGN_OR_RETURN_IMPL(ANNRT_CONCAT(annrt_tmp_, __LINE__), lhs, expr)

// Returns an error with `code` when `cond` is false; the message is fmt-formatted.
#define ANNRT_CHECK_CODE(code, cond, ...)                    \
  do {                                                       \
    if (!(cond)) {                                           \
      return ::annrt::Error{code, fmt::format(__VA_ARGS__)}; \
    }                                                        \
  } while (0)

// The common case: a violated requirement on model or request data.
#define ANNRT_CHECK(cond, ...) ANNRT_CHECK_CODE(::annrt::ErrorCode::BAD_DATA, cond, __VA_ARGS__)
