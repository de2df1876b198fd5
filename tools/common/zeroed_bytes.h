// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// A buffer of zeroed bytes that does not touch its pages to zero them:
// calloc's large blocks are fresh pages from the kernel, already zero, where
// a std::vector<uint8_t> writes every byte (a page fault per 4 KB, a few
// hundred microseconds for a model's inputs and outputs, which the tools
// would count in the model's initialization; TensorFlow Lite's benchmark
// allocates its tensors without touching them too).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace annrt::tools {

class ZeroedBytes {
 public:
  // At least one byte, so that data() is never null.
  explicit ZeroedBytes(size_t size) : size_(size > 0 ? size : 1) {
    data_.reset(static_cast<uint8_t*>(std::calloc(size_, 1)));
    if (!data_) throw std::bad_alloc();
  }

  uint8_t* data() { return data_.get(); }
  const uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  size_t size_;
  std::unique_ptr<uint8_t, Free> data_;
};

}  // namespace annrt::tools
