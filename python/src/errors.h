// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt::Result errors as Python exceptions carrying annrt's message:
// RuntimeError by default, ValueError where the caller's argument was wrong.
#pragma once

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <utility>

#include "common/result.h"

namespace annrt::python {

template <typename T>
T unwrap(Result<T> result) {
  if (!result.ok()) throw std::runtime_error(result.error().message);
  return std::move(result).value();
}

inline void unwrap(const Result<void>& result) {
  if (!result.ok()) throw std::runtime_error(result.error().message);
}

template <typename T>
T unwrapArgument(Result<T> result) {
  if (!result.ok()) throw pybind11::value_error(result.error().message);
  return std::move(result).value();
}

}  // namespace annrt::python
