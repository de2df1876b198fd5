#!/usr/bin/env bash
# Installs dependencies, builds annrt and runs the main job: annrt-benchmark on
# the default model. Extra arguments go to annrt-benchmark.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build"
if [ -x "$root/scripts/fetch-models.sh" ]; then "$root/scripts/fetch-models.sh"; fi
cd "$root"
exec "$root/build/tools/annrt-benchmark/annrt-benchmark" "$@"
