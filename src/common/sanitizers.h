// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Whether this build runs under AddressSanitizer or ThreadSanitizer. Their
// shadow memory reserves terabytes of address space, so an RLIMIT_AS cap
// (the driver host's memory limit, the out-of-memory tests) cannot work in
// such a build.
#pragma once

// Defined in AddressSanitizer and ThreadSanitizer builds, for code that
// calls their interfaces (<sanitizer/lsan_interface.h>,
// <sanitizer/tsan_interface.h>), which only such builds link. GCC defines
// __SANITIZE_*__; Clang answers __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define ANNRT_ADDRESS_SANITIZER 1
#endif
#if defined(__SANITIZE_THREAD__)
#define ANNRT_THREAD_SANITIZER 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(ANNRT_ADDRESS_SANITIZER)
#define ANNRT_ADDRESS_SANITIZER 1
#endif
#if __has_feature(thread_sanitizer) && !defined(ANNRT_THREAD_SANITIZER)
#define ANNRT_THREAD_SANITIZER 1
#endif
#endif

namespace annrt {

#if defined(ANNRT_ADDRESS_SANITIZER) || defined(ANNRT_THREAD_SANITIZER)
inline constexpr bool kAddressSpaceSanitized = true;
#else
inline constexpr bool kAddressSpaceSanitized = false;
#endif

}  // namespace annrt
