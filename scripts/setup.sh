#!/usr/bin/env bash
# Installs every Debian package annrt needs to build, test and benchmark.
# Idempotent and non-interactive; runs apt-get only when something is missing.
set -euo pipefail

# usage: scripts/setup.sh [build|tests|lint|all]   (default: all)
#   build: what configuring and building needs; tests: what only some tests
#   need (PyTorch for tests/pytorch, clang-16 for the sanitizer phase's
#   build), which run-tests.sh installs in the background while it builds;
#   lint: clang-tidy 16 for scripts/run-clang-tidy.sh.
group="${1:-all}"
build_packages=(
  build-essential cmake g++ pkg-config git ca-certificates
  libfmt-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libflatbuffers-dev flatbuffers-compiler
  libxnnpack-dev libpthreadpool-dev libcpuinfo-dev
  python3 python3-dev python3-numpy pybind11-dev
  clang-format binutils
)
# clang-16 builds run-tests.sh's ASan+UBSan phase with the fuzzers (docs/fuzzing.md).
test_packages=(python3-torch python3-pytest clang-16 libclang-rt-16-dev)
# clang-tidy 14 cannot parse _Float16 on x86-64; 16 can (scripts/run-clang-tidy.sh).
lint_packages=(clang-tidy-16)
case "$group" in
  build) packages=("${build_packages[@]}") ;;
  tests) packages=("${test_packages[@]}") ;;
  lint) packages=("${lint_packages[@]}") ;;
  all) packages=("${build_packages[@]}" "${test_packages[@]}" "${lint_packages[@]}") ;;
  *) echo "usage: scripts/setup.sh [build|tests|lint|all]" >&2; exit 2 ;;
esac
# Node.js and npm (model fetching, the TFLite oracle): Debian's packages only
# when the machine has none, since Debian's npm conflicts with other nodejs builds.
if [ "$group" = build ] || [ "$group" = all ]; then
  if ! command -v node >/dev/null 2>&1; then packages+=(nodejs); fi
  if ! command -v npm >/dev/null 2>&1; then packages+=(npm); fi
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
