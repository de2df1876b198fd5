// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Whether this build runs under AddressSanitizer or ThreadSanitizer. Their
// shadow memory reserves terabytes of address space, so an RLIMIT_AS cap
// (the driver host's memory limit, the out-of-memory tests) cannot work in
// such a build.
#pragma once

// Defined in AddressSanitizer builds, for code that calls its interface
// (<sanitizer/lsan_interface.h>), which only such builds link.
#if defined(__SANITIZE_ADDRESS__)
#define ANNRT_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ANNRT_ADDRESS_SANITIZER 1
#endif
#endif

namespace annrt {

// GCC defines __SANITIZE_*__; Clang answers __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kAddressSpaceSanitized = true;
#elif defined(__has_feature)
inline constexpr bool kAddressSpaceSanitized =
    __has_feature(address_sanitizer) || __has_feature(thread_sanitizer);
#else
inline constexpr bool kAddressSpaceSanitized = false;
#endif

}  // namespace annrt
