// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Where annrt-cpu's own kernels (native_kernel.h) run instead of XNNPACK's,
// per kernel form and instruction set, as XNNPACK keeps one table of
// kernels per CPU: each entry is decided by a measurement of the native
// kernel against XNNPACK on that instruction set (native_kernel_table.cpp
// and docs/native-kernels.md hold the numbers). A form not measured on an
// instruction set is not used there.
//
// The instruction set also picks the code: every kernel loop is built once
// per x86-64 level (ANNRT_NATIVE_VARIANTS, native_vector.h) and the kernels
// call the variant of the level selected here, so that tests can run each
// variant the host executes, whether or not the table uses it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

// Whether the x86-64-v3 and v4 variants are built. They are plain functions
// with a target attribute, picked by the kernels (no ifunc resolver, which
// had run before the sanitizer runtime was up and crashed under it).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ANNRT_NATIVE_VARIANTS_BUILT 1
#else
#define ANNRT_NATIVE_VARIANTS_BUILT 0
#endif

namespace annrt::cpu {

// The instruction sets the table has a column for. The x86-64 levels are
// baseline (SSE2), x86-64-v3 (AVX2 + FMA) and x86-64-v4 (AVX-512); NEON is
// what aarch64 builds run (the baseline code built for aarch64).
enum class NativeIsa : uint8_t { BASELINE, AVX2, AVX512, NEON };
inline constexpr size_t kNativeIsaCount = 4;

std::string_view nativeIsaName(NativeIsa isa);
// "baseline", "avx2", "avx512" or "neon", as ANNRT_CPU_ISA takes them.
std::optional<NativeIsa> parseNativeIsa(std::string_view name);

// Whether this build has the code of `isa` and the host can execute it.
bool nativeIsaRuns(NativeIsa isa);
// The best instruction set nativeIsaRuns allows.
NativeIsa hostNativeIsa();

// The native kernel forms, as the kernels' makers choose them.
enum class NativeForm : uint8_t {
  // Depthwise 3x3 and 5x5, stride 1 or 2, dilation 1, any 8 or more
  // channels (the last group of 8 or 16 overlapping): each input column loaded once
  // per filter row for every tap reading it, 8 output pixels a block
  // (native_convolution.cpp).
  DEPTHWISE_COLUMNS,
  // Depthwise of 8 channels (multiplier 1), loading per tap.
  DEPTHWISE_8,
  // Depthwise of 16 or more channels (a multiple of 8), loading per tap.
  DEPTHWISE_WIDE,
  // Convolution from up to 16 channels to 8 or 16 (each input channel
  // broadcast against output-channel vectors).
  CONV_BY_OUTPUT,
  // Convolution from 8 or 16 channels to at most 8 (dot products).
  CONV_BY_INPUT,
  // Convolution from an image's 3 channels to 16, 24 or 32, 3x3 or 5x5 (the
  // first layer of every default model): as by output, channels and taps
  // unrolled.
  IMAGE_STEM,
  // Transposed convolution whose filter is its stride, 8 or 16 channels to
  // at most 8.
  TRANSPOSED_BLOCKS,
  // 1x1 convolution as a matrix product (native_pointwise.cpp).
  POINTWISE_GEMM,
  // ADD of two tensors of one shape.
  ADD,
  // ADD with a zero PAD of channels folded in (face detection's widening
  // residuals).
  ADD_PADDED_CHANNELS,
  RESIZE_BILINEAR,
  // MAX_POOL_2D of 8 or more channels (native_max_pool.cpp).
  MAX_POOL,
  // CONCATENATION, copied block by block (native_concatenation.cpp).
  CONCATENATION,
  // RESHAPE, SQUEEZE and EXPAND_DIMS, copied (native_reshape.cpp); the
  // planner then lets a native operation be followed by reshapes.
  RESHAPE,
  // AVERAGE_POOL_2D over the whole image, and MEAN (native_average_pool.cpp).
  GLOBAL_AVERAGE_POOL,
  // MUL of one shape, or by a vector of channels (native_multiply.cpp).
  MUL,
  // Element by element (native_unary.cpp).
  HARD_SWISH,
  LOGISTIC,
  // RELU, RELU1 and RELU6 that no operation before them takes in.
  CLAMP,
  // FULLY_CONNECTED as POINTWISE_GEMM's product (native_pointwise.cpp).
  FULLY_CONNECTED,
  // HARD_SWISH or LOGISTIC taken into the native convolution before it
  // (FusionRole::ACTIVATION), applied to each part of its output as it is
  // written.
  FOLDED_ACTIVATION,
  // A window kernel run band by band with the kernel writing its input
  // image (band_pair.h), against the two one after the other.
  BANDED_PAIR,
  // An ADD of a native convolution's, resize's or MUL's output and a tensor of its shape
  // computed before it, taken into the convolution (FusionRole::ADDEND): the
  // tensor added to each part of the output as it is written.
  FOLDED_ADD,
  // An ADD whose output only a global average (AVERAGE_POOL_2D over the
  // whole image, MEAN) reads, folded into that average: it sums the ADD's
  // two inputs (FusionRole::AVERAGED_ADD).
  FOLDED_SUM,
  // A band pair on the pool, one part of the consumer's rows per thread
  // (runBandPairOnPool), against its two kernels one after the other there.
  POOLED_BANDS,
};
inline constexpr size_t kNativeFormCount = 25;

std::string_view nativeFormName(NativeForm form);

// What the table says of one form on one instruction set.
enum class NativeUse : uint8_t {
  NO,         // not measured there, or slower than XNNPACK
  GAP,        // only between preferred operations, or just after the last
              // of a partition, to keep their run whole
  PREFERRED,  // faster than XNNPACK: runs wherever its kernel applies
};

struct NativeDecision {
  NativeUse use;
  // The measurement that decided it (native vs XNNPACK on named shapes, the
  // host and date), or why there is none.
  std::string_view evidence;
};

// The table's entry for `form` on `isa`.
const NativeDecision& nativeDecision(NativeForm form, NativeIsa isa);

// The instruction set whose code the kernels run, and the one whose table
// column decides which forms are used: both hostNativeIsa(), or the one
// ANNRT_CPU_ISA names (for tests and debugging; one the host cannot run is
// ignored with a warning). Read when a kernel is made: a kernel keeps the
// variant it was made with.
NativeIsa nativeCodeIsa();
NativeIsa nativeDecisionIsa();

// ANNRT_CPU_NATIVE_KERNELS, read when a model is compiled: "0" runs every
// operation on XNNPACK (to compare the two, or to work around a kernel);
// "all" uses every native form wherever its kernel applies, whatever the
// table says (to measure the forms a column leaves out:
// `annrt_native_kernel_bench --native=all`); unset or anything else
// follows the table.
enum class NativeKernelMode : uint8_t { OFF, TABLE, ALL };
NativeKernelMode nativeKernelMode();

// How the table decides `form` for the kernels made now (PREFERRED for every
// form under NativeKernelMode::ALL).
NativeUse nativeFormUse(NativeForm form);
inline bool nativeFormPreferred(NativeForm form) {
  return nativeFormUse(form) == NativeUse::PREFERRED;
}

// For tests: while alive, kernels are made with the code of `code` (which
// must run here) and the decisions of the table's `decisions` column.
class ScopedNativeIsa {
 public:
  ScopedNativeIsa(NativeIsa code, NativeIsa decisions);
  ~ScopedNativeIsa();
  ScopedNativeIsa(const ScopedNativeIsa&) = delete;
  ScopedNativeIsa& operator=(const ScopedNativeIsa&) = delete;

 private:
  NativeIsa savedCode_, savedDecisions_;
};

}  // namespace annrt::cpu
