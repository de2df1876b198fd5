#!/usr/bin/env python3
# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
"""Kernel timings that survive a shared host: annrt_native_kernel_bench run
in rounds of short repetitions, interleaved, reported as minimum and median.

On the project's 2-vCPU VMs the same library's kernel times vary by 15-30%
from minute to minute (the vCPU shares its core with other tenants), so one
run of two builds, or one long run, decides nothing. The minimum over many
short repetitions, taken in alternation, is the time the code takes when
nothing else runs on its core; the median says how often that holds.

  bench/native_kernel_ab.py BENCH                 # one build: its table
  bench/native_kernel_ab.py BENCH_A BENCH_B ...   # builds compared with A

BENCH is a built annrt_native_kernel_bench. The bench links the library
(libneuralnetworks.so, found through its RUNPATH in the build tree), so to
compare two builds copy each build's bench and library into a directory of
their own: a library beside BENCH is the one it runs (LD_LIBRARY_PATH); a
bench copied alone would run whatever the build tree holds now, and two
benches that would run one library are refused. With one build it prints,
per case, the native row's minimum (median) time, its GFLOP/s at the
minimum and the share of the highest FMA peak the bench measured, and
Debian's XNNPACK row (the bench's own peer) beside it. With several it
prints each build's native row and its time over the first build's, at the
minimum and at the median.
"""
import argparse
import collections
import json
import os
import re
import statistics
import subprocess
import sys


def environment(binary):
    """The environment `binary` runs in: the library beside it, if any."""
    env = dict(os.environ, ANNRT_CACHE_CAPACITY="0")
    here = os.path.dirname(os.path.abspath(binary))
    if os.path.exists(os.path.join(here, "libneuralnetworks.so")):
        env["LD_LIBRARY_PATH"] = here
    return env


def library_of(binary):
    """The libneuralnetworks.so `binary` loads, as the dynamic loader finds it."""
    env = dict(environment(binary), LD_TRACE_LOADED_OBJECTS="1")
    listing = subprocess.run([binary], capture_output=True, text=True, env=env).stdout
    found = re.search(r"libneuralnetworks\.so => (\S+)", listing)
    return os.path.realpath(found.group(1)) if found else None


def run_once(binary, case_filter, repetitions):
    """One run of `binary`: {case: [times us]}, {case: FLOP per call}, peak."""
    env = environment(binary)
    proc = subprocess.run(
        [binary, "--native=all", f"--benchmark_filter={case_filter}",
         "--benchmark_min_time=0.05", f"--benchmark_repetitions={repetitions}",
         "--benchmark_format=json"],
        capture_output=True, text=True, env=env, check=True)
    report = json.loads(proc.stdout)
    times, flop = collections.defaultdict(list), {}
    for row in report["benchmarks"]:
        if row.get("run_type") != "iteration":
            continue
        times[row["name"]].append(row["real_time"])
        if "flops" in row:  # a rate: FLOP/s
            flop[row["name"]] = row["flops"] * row["real_time"] * 1e-6
    peak = re.match(r"([0-9.]+)", report["context"].get("fma_peak", ""))
    return times, flop, float(peak.group(1)) if peak else None


def collect(binaries, case_filter, rounds, repetitions):
    times = {b: collections.defaultdict(list) for b in binaries}
    flop, peaks = {}, []
    for r in range(rounds):
        # Alternate the order, so that neither build always runs first.
        for binary in binaries if r % 2 == 0 else binaries[::-1]:
            got, got_flop, peak = run_once(binary, case_filter, repetitions)
            for name, values in got.items():
                times[binary][name].extend(values)
            flop.update(got_flop)
            if peak:
                peaks.append(peak)
    return times, flop, max(peaks) if peaks else None


def case_of(name):
    return name.split("/")[0]


def side_rows(times, side):
    return {case_of(n): v for n, v in times.items() if f"/{side}" in n}


def table(binary, times, flop, peak):
    native = side_rows(times[binary], "native")
    xnnpack = side_rows(times[binary], "xnnpack")
    flop_of = {case_of(n): f for n, f in flop.items() if "/native" in n}
    print(f"FMA peak, the highest the bench measured: {peak} GFLOP/s")
    print("| case | native min (median) us | GFLOP/s at min | % of peak | "
          "XNNPACK min (median) us | native / XNNPACK at min |")
    print("|---|---:|---:|---:|---:|---:|")
    for case, values in native.items():
        low = min(values)
        gflops = flop_of[case] / low * 1e-3 if case in flop_of else None
        share = f"{100 * gflops / peak:.0f}%" if gflops and peak else "-"
        rate = f"{gflops:.1f}" if gflops else "-"
        peer = xnnpack.get(case)
        peer_text = (f"{min(peer):.1f} ({statistics.median(peer):.1f}) | {low / min(peer):.2f}"
                     if peer else "- | -")
        print(f"| {case} | {low:.1f} ({statistics.median(values):.1f}) | {rate} | {share} | "
              f"{peer_text} |")


def compare(binaries, times):
    native = [side_rows(times[b], "native") for b in binaries]
    base = native[0]
    names = [os.path.basename(b) for b in binaries]
    print("| case | " + " | ".join(f"{n} min (median) us" for n in names) + " | " +
          " | ".join(f"{n} / {names[0]} min, median" for n in names[1:]) + " |")
    print("|---|" + "---:|" * (2 * len(binaries) - 1))
    for case, first in base.items():
        cells, ratios = [], []
        for i, rows in enumerate(native):
            values = rows.get(case)
            if not values:
                cells.append("-")
                if i > 0:
                    ratios.append("-")
                continue
            cells.append(f"{min(values):.1f} ({statistics.median(values):.1f})")
            if i > 0:
                ratios.append(f"{min(values) / min(first):.3f}, "
                              f"{statistics.median(values) / statistics.median(first):.3f}")
        print(f"| {case} | " + " | ".join(cells + ratios) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binaries", nargs="+", help="annrt_native_kernel_bench builds")
    parser.add_argument("--filter", default="Pointwise", help="cases (a regex, as "
                        "--benchmark_filter)")
    parser.add_argument("--rounds", type=int, default=4, help="runs of each build (default 4)")
    parser.add_argument("--repetitions", type=int, default=5,
                        help="repetitions of 0.05 s a run (default 5)")
    args = parser.parse_args()
    libraries = collections.defaultdict(list)
    for binary in args.binaries:
        libraries[library_of(binary)].append(binary)
    for library, binaries in libraries.items():
        if len(binaries) > 1:
            sys.exit(f"{' and '.join(binaries)} would all run {library}: copy each "
                     "build's libneuralnetworks.so beside its bench")
    times, flop, peak = collect(args.binaries, args.filter, args.rounds, args.repetitions)
    if len(args.binaries) == 1:
        table(args.binaries[0], times, flop, peak)
    else:
        compare(args.binaries, times)
    return 0


if __name__ == "__main__":
    sys.exit(main())
