#!/usr/bin/env bash
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
#
# Checks that an install of the build relocates (issue 17 item 4): installs it
# with `cmake --install --prefix` into a fresh temporary directory, checks
# that no installed text file names the build, the sources or a prefix, then
# uses the tree there and again after moving it elsewhere:
#   - client.c built with `cc $(pkg-config --cflags --libs annrt)`, the
#     library found through -Wl,-rpath set to pkg-config's libdir;
#   - client.c built by cmake_client/ with find_package(annrt CONFIG);
#   - the installed programs, which must find libneuralnetworks.so in the
#     prefix through their RUNPATH;
#   - with --python, the installed Python module, imported from the prefix,
#     which must load the prefix's libneuralnetworks.so.
# Nothing runs with LD_LIBRARY_PATH. The temporary directory is removed.
#
# usage: check_install.sh --build-dir=DIR --configured-prefix=DIR --libdir=DIR
#          --cmake=CMAKE --cc=CC [--devices-tool=BINDIR/annrt-devices]
#          [--sanitize=LIST] [--python=PYTHON --python-dir=DIR]
#   --libdir: CMAKE_INSTALL_LIBDIR; --devices-tool: the installed
#   annrt-devices relative to the prefix (empty when tools are not built);
#   --sanitize: ANNRT_SANITIZE, which the clients must be built with too;
#   --python-dir: where the module is installed, relative to the prefix.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source_dir="$(cd "$here/../.." && pwd)"
build_dir="" configured_prefix="" libdir="" cmake="" cc="" devices_tool="" sanitize=""
python="" python_dir=""
for argument in "$@"; do
  case "$argument" in
    --build-dir=*) build_dir="${argument#*=}" ;;
    --configured-prefix=*) configured_prefix="${argument#*=}" ;;
    --libdir=*) libdir="${argument#*=}" ;;
    --cmake=*) cmake="${argument#*=}" ;;
    --cc=*) cc="${argument#*=}" ;;
    --devices-tool=*) devices_tool="${argument#*=}" ;;
    --sanitize=*) sanitize="${argument#*=}" ;;
    --python=*) python="${argument#*=}" ;;
    --python-dir=*) python_dir="${argument#*=}" ;;
    *) echo "check_install: unknown argument $argument" >&2; exit 2 ;;
  esac
done
if [ -z "$build_dir" ] || [ -z "$configured_prefix" ] || [ -z "$libdir" ] || [ -z "$cmake" ] ||
   [ -z "$cc" ]; then
  echo "check_install: --build-dir, --configured-prefix, --libdir, --cmake and --cc are required" >&2
  exit 2
fi
if [ "${libdir#/}" != "$libdir" ]; then
  echo "check_install: skipped: CMAKE_INSTALL_LIBDIR $libdir is absolute, so the install cannot move"
  exit 77
fi
unset LD_LIBRARY_PATH
client_flags=()
if [ -n "$sanitize" ]; then client_flags=("-fsanitize=$sanitize"); fi
# clang links a C program without the C++ half of the UBSan runtime, which
# the C++ library's checks call into, nor the libstdc++ that half needs.
if [ -n "$sanitize" ] && "$cc" --version 2>/dev/null | grep -q clang; then
  client_flags+=(-fsanitize-link-c++-runtime -Wl,--push-state,--no-as-needed -lstdc++ -Wl,--pop-state)
fi

fail() {
  echo "check_install: FAILED: $*" >&2
  exit 1
}

work="$(mktemp -d "${TMPDIR:-/tmp}/annrt-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# expect_library_in_prefix BINARY PREFIX: BINARY loads the prefix's
# libneuralnetworks.so, not one found elsewhere on the system.
expect_library_in_prefix() {
  local binary="$1" prefix="$2" line found
  line="$(ldd "$binary" | grep -F 'libneuralnetworks.so =>' || true)"
  found="$(echo "$line" | awk '{ print $3 }')"
  if [ -z "$found" ] || [ ! -e "$found" ] ||
     [ "$(realpath "$found")" != "$(realpath "$prefix/$libdir/libneuralnetworks.so")" ]; then
    fail "$binary does not load $prefix/$libdir/libneuralnetworks.so: ldd says '$line'"
  fi
}

# expect_client_runs CLIENT PREFIX: the client loads the prefix's library,
# lists the devices and runs its ADD model.
expect_client_runs() {
  local client="$1" prefix="$2"
  expect_library_in_prefix "$client" "$prefix"
  "$client" || fail "$client failed"
}

# spellings DIR: DIR as given and as its real path, for the grep checks.
spellings() {
  printf '%s\n' "$1"
  if [ -e "$1" ]; then realpath "$1"; fi
}

# (c) no installed text file names an absolute path of this build: its
# directories, the prefix it was configured for, or where it was installed.
check_no_absolute_paths() {
  local prefix="$1" path
  local package_files=("$prefix/$libdir/pkgconfig/annrt.pc" "$prefix/$libdir/cmake/annrt/"*.cmake)
  while read -r path; do
    if grep -rIlF -- "$path" "$prefix"; then fail "installed files above name $path"; fi
  done < <({ spellings "$build_dir"; spellings "$source_dir"; spellings "$prefix"; } | sort -u)
  # CMake's own guard for a package loaded through a "/usr move" symlink
  # (/lib -> /usr/lib) names the configured prefix, and applies only when the
  # files are where that prefix put them: it is left out, as are comments.
  if [ "$configured_prefix" != / ] &&
     awk '/^get_filename_component\(_realOrig / { guard = 1 }
          !guard && !/^#/ { print FILENAME ": " $0 }
          /^unset\(_realOrig\)/ { guard = 0 }' "${package_files[@]}" |
     grep -F -- "$configured_prefix"; then
    fail "installed package files name the configured prefix $configured_prefix (above)"
  fi
}

# (a) client.c compiled with the flags pkg-config gives, through the .pc file
# only (PKG_CONFIG_LIBDIR replaces the default search path).
check_pkg_config_client() {
  local prefix="$1" client="$work/pkg-config-client" cflags libs rpath
  export PKG_CONFIG_LIBDIR="$prefix/$libdir/pkgconfig"
  unset PKG_CONFIG_PATH
  cflags="$(pkg-config --cflags annrt)" || fail "pkg-config --cflags annrt"
  libs="$(pkg-config --libs annrt)" || fail "pkg-config --libs annrt"
  rpath="$(pkg-config --variable=libdir annrt)" || fail "pkg-config --variable=libdir annrt"
  echo "-- C client built with: $cflags $libs -Wl,-rpath,$rpath"
  # shellcheck disable=SC2086 # pkg-config's output is a list of flags
  "$cc" -std=c11 -Wall "${client_flags[@]}" "$here/client.c" $cflags $libs \
    "-Wl,-rpath,$rpath" -o "$client" || fail "cannot build client.c with pkg-config"
  expect_client_runs "$client" "$prefix"
  rm -f "$client"
}

# (b) client.c built by a CMake project with find_package(annrt CONFIG).
check_cmake_client() {
  local prefix="$1" build="$work/cmake-client"
  "$cmake" -S "$here/cmake_client" -B "$build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DANNRT_EXPECTED_PREFIX="$prefix" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_C_FLAGS="${client_flags[*]}" -DCMAKE_EXE_LINKER_FLAGS="${client_flags[*]}" \
    >"$work/cmake-client.log" 2>&1 || { cat "$work/cmake-client.log"; fail "cannot configure cmake_client"; }
  "$cmake" --build "$build" >>"$work/cmake-client.log" 2>&1 ||
    { cat "$work/cmake-client.log"; fail "cannot build cmake_client"; }
  echo "-- CMake client built with $(grep -o 'annrt_DIR:PATH=.*' "$build/CMakeCache.txt")"
  expect_client_runs "$build/client" "$prefix"
  rm -rf "$build"
}

# Every installed binary that needs libneuralnetworks.so finds the prefix's
# through its RUNPATH; annrt-devices, run, lists the reference device.
check_installed_programs() {
  local prefix="$1" binary
  while read -r binary; do
    if readelf -d "$binary" 2>/dev/null | grep -q 'NEEDED.*\[libneuralnetworks\.so\]'; then
      expect_library_in_prefix "$binary" "$prefix"
    fi
  done < <(find "$prefix" -type f -perm -u+x)
  if [ -n "$devices_tool" ]; then
    "$prefix/$devices_tool" --names | grep -qx nnapi-reference ||
      fail "$prefix/$devices_tool --names does not list nnapi-reference"
  fi
}

# The installed module, imported from the prefix only, lists the devices
# and has loaded the prefix's libneuralnetworks.so.
check_python_package() {
  local prefix="$1"
  [ -n "$python" ] || return 0
  PYTHONPATH="$prefix/$python_dir" PYTHONDONTWRITEBYTECODE=1 "$python" -c '
import sys
import annrt
names = [d["name"] for d in annrt.devices()]
assert "nnapi-reference" in names, names
assert annrt.__file__.startswith(sys.argv[1]), annrt.__file__
libraries = {l.split()[-1] for l in open("/proc/self/maps") if "libneuralnetworks" in l}
assert libraries and all(l.startswith(sys.argv[1]) for l in libraries), libraries
print("-- Python module", annrt.__file__, "with", *sorted(libraries))
' "$prefix" || fail "$python cannot use the module installed in $prefix/$python_dir"
}

check_prefix() {
  local prefix="$1"
  echo "== using the install in $prefix"
  check_pkg_config_client "$prefix"
  check_cmake_client "$prefix"
  check_installed_programs "$prefix"
  check_python_package "$prefix"
}

installed="$work/prefix"
"$cmake" --install "$build_dir" --prefix "$installed" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; fail "cmake --install $build_dir --prefix $installed"; }
echo "annrt.pc as installed:"
cat "$installed/$libdir/pkgconfig/annrt.pc"
check_no_absolute_paths "$installed"
check_prefix "$installed"

# (d) the same tree, moved deeper elsewhere: nothing may still point at the
# directory it was installed in, which no longer exists.
moved="$work/moved/to/another/prefix"
mkdir -p "$(dirname "$moved")"
mv "$installed" "$moved"
check_prefix "$moved"
echo "check_install: the install works in place and after moving it"
