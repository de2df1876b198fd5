#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Cross-builds annrt for aarch64 Linux on an x86-64 Debian 12 machine, and
# prepares running it under qemu-user.
#
# usage: scripts/cross-aarch64.sh [--prepare] [BUILD_DIR [TARGET...]]
#   BUILD_DIR defaults to build-aarch64; TARGETs default to everything.
#   --prepare: steps 1-3 only (packages, sysroot, emulator), which are mostly
#   downloads: run-tests.sh runs them in the background while it builds.
#
# 1. Installs the cross compiler and qemu-user with apt-get (when missing).
# 2. Makes BUILD_DIR/sysroot: the arm64 Debian packages annrt links against,
#    downloaded with `apt-get download` and extracted with `dpkg -x`. They are
#    not installed: the arm64 -dev packages of XNNPACK, pthreadpool and
#    cpuinfo replace or clash with the amd64 ones (docs/aarch64.md), which
#    would break the native build.
# 3. Writes BUILD_DIR/qemu-aarch64.sh, which runs an aarch64 program under
#    qemu-user with the sysroot's libraries, and configures BUILD_DIR with
#    cmake/aarch64-toolchain.cmake using it as CMAKE_CROSSCOMPILING_EMULATOR,
#    so `ctest --test-dir BUILD_DIR` runs the tests under qemu.
# 4. Builds the TARGETs.
#
# Idempotent: the sysroot is made again only when its package list changes.
# Exits 77, saying why, when the packages cannot be fetched (no network).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
prepare_only=0
if [ "${1:-}" = --prepare ]; then
  prepare_only=1
  shift
fi
build="${1:-$root/build-aarch64}"
shift || true
mkdir -p "$build"
build="$(cd "$build" && pwd)"
sysroot="$build/sysroot"
jobs="${ANNRT_JOBS:-$(nproc)}"

# arm64 packages in the sysroot: every library annrt, its tests and tools
# link, with their shared-library dependencies (libstdc++ and libc are the
# cross toolchain's). flatbuffers-compiler-dev only holds the CMake target
# of flatc, which runs on the build machine (see below).
packages=(
  libxnnpack0 libxnnpack-dev libpthreadpool0 libpthreadpool-dev libcpuinfo0 libcpuinfo-dev
  libfmt9 libfmt-dev libflatbuffers2 libflatbuffers-dev flatbuffers-compiler-dev
  libgtest-dev libgmock-dev
)
# Architecture-independent (headers only).
all_packages=(nlohmann-json3-dev)
# clang compiles (cmake/aarch64-toolchain.cmake says why); g++-aarch64-linux-gnu
# brings the aarch64 binutils, libstdc++ and libc it links with.
host_packages=(clang g++-aarch64-linux-gnu qemu-user)

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
say() { echo "cross-aarch64: $*" >&2; }
unavailable() { say "SKIPPED: $*"; exit 77; }

missing=()
for package in "${host_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  { "${sudo_cmd[@]}" apt-get update -qq &&
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } ||
    unavailable "could not install ${missing[*]} (offline?)"
fi

make_sysroot() {
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    "${sudo_cmd[@]}" dpkg --add-architecture arm64
  fi
  # The arm64 package lists come with the first apt-get update after that.
  if ! apt-cache show libxnnpack0:arm64 >/dev/null 2>&1; then
    "${sudo_cmd[@]}" apt-get update -qq || unavailable "apt-get update failed (offline?)"
    apt-cache show libxnnpack0:arm64 >/dev/null 2>&1 ||
      unavailable "no arm64 packages in the configured Debian archive"
  fi
  local debs="$build/sysroot-debs"
  rm -rf "$sysroot" "$debs"
  mkdir -p "$debs"
  (cd "$debs" && apt-get download -qq "${packages[@]/%/:arm64}" "${all_packages[@]}") ||
    unavailable "apt-get download of the arm64 packages failed (offline?)"
  for deb in "$debs"/*.deb; do dpkg -x "$deb" "$sysroot"; done
  # flatc generates sources at build time, so it is the build machine's
  # (same Debian version as the arm64 headers); the arm64 CMake target finds
  # it here.
  mkdir -p "$sysroot/usr/bin"
  ln -sf "$(command -v flatc)" "$sysroot/usr/bin/flatc"
  rm -rf "$debs"
  echo "${packages[*]} ${all_packages[*]}" > "$sysroot/.packages"
  say "sysroot of ${#packages[@]} arm64 and ${#all_packages[@]} arch-independent packages in $sysroot"
}
command -v flatc >/dev/null || unavailable "flatc is missing (run scripts/setup.sh)"
if [ "$(cat "$sysroot/.packages" 2>/dev/null)" != "${packages[*]} ${all_packages[*]}" ]; then
  make_sysroot
fi

# The emulator for ctest: QEMU_LD_PREFIX gives the toolchain's loader and
# libc, LD_LIBRARY_PATH the sysroot's libraries. The CPU is a Cortex-A53
# (i.MX8M's; no FP16 arithmetic) unless QEMU_CPU says otherwise: qemu's
# default, `max`, has FP16 arithmetic, where XNNPACK runs relaxed models in
# float16 (docs/aarch64.md says what fails there).
emulator="$build/qemu-aarch64.sh"
cat > "$emulator" <<WRAPPER
#!/bin/sh
# Runs an aarch64 program under qemu-user (written by scripts/cross-aarch64.sh).
export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
export QEMU_CPU="\${QEMU_CPU:-cortex-a53}"
export LD_LIBRARY_PATH="$sysroot/usr/lib/aarch64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
exec qemu-aarch64 "\$@"
WRAPPER
chmod +x "$emulator"
[ "$prepare_only" = 0 ] || exit 0

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}" \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-toolchain.cmake" \
  -DANNRT_AARCH64_SYSROOT="$sysroot" -DANNRT_AARCH64_EMULATOR="$emulator" \
  -DANNRT_BUILD_BENCHMARKS=OFF "${launcher[@]}"
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build "$build" -j"$jobs" "${targets[@]}"
