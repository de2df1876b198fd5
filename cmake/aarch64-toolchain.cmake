# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Cross-builds annrt for aarch64 Linux with Debian's cross toolchain
# (g++-aarch64-linux-gnu: binutils, libstdc++, libc) against a sysroot of
# extracted arm64 Debian packages (scripts/cross-aarch64.sh makes it; the arm64
# -dev packages cannot be installed beside the amd64 ones).
#
# The compiler is Debian's clang targeting aarch64 with that toolchain, not
# aarch64-linux-gnu-g++: annrt's Float16 is _Float16 (src/common/types.h),
# which GCC 12 (Debian 12's) supports in C++ on x86-64 but not on aarch64
# (GCC 13 adds it); clang has it on aarch64.
#
#   -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-toolchain.cmake
#   -DANNRT_AARCH64_SYSROOT=/path/to/sysroot   (the packages' files under it)
#   -DANNRT_AARCH64_EMULATOR=/path/to/wrapper  (optional: runs aarch64 programs,
#                                               e.g. under qemu-user, for ctest)
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_C_COMPILER clang)
set(CMAKE_C_COMPILER_TARGET aarch64-linux-gnu)
set(CMAKE_CXX_COMPILER clang++)
set(CMAKE_CXX_COMPILER_TARGET aarch64-linux-gnu)

# try_compile projects read the toolchain file again: pass them the sysroot.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ANNRT_AARCH64_SYSROOT ANNRT_AARCH64_EMULATOR)
if(NOT ANNRT_AARCH64_SYSROOT)
  message(FATAL_ERROR "Set ANNRT_AARCH64_SYSROOT to the arm64 sysroot (scripts/cross-aarch64.sh)")
endif()

# Packages, headers and libraries only from the sysroot and the toolchain;
# programs run at build time (flatc) from the build machine.
set(CMAKE_FIND_ROOT_PATH ${ANNRT_AARCH64_SYSROOT} /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The sysroot's shared libraries need each other (XNNPACK needs cpuinfo and
# pthreadpool); the linker finds those through -rpath-link.
set(ANNRT_AARCH64_LIBDIR ${ANNRT_AARCH64_SYSROOT}/usr/lib/aarch64-linux-gnu)
foreach(kind EXE SHARED MODULE)
  set(CMAKE_${kind}_LINKER_FLAGS_INIT "-Wl,-rpath-link,${ANNRT_AARCH64_LIBDIR}")
endforeach()

# ctest (and gtest_discover_tests) run the test programs through it.
if(ANNRT_AARCH64_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${ANNRT_AARCH64_EMULATOR})
endif()
