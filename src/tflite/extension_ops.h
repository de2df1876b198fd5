// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Operations of the NNAPI extension "com.annrt.tflite" that the importer
// emits (codes within the extension). The reference device implements them in
// src/ops/families/extension_com_annrt_tflite.cpp.
//
// CONVOLUTION_2D_TRANSPOSE_BIAS (code 0), MediaPipe's
// Convolution2DTransposeBias: a TRANSPOSE_CONV_2D with bias, NHWC float32.
//   0: input [batches, height, width, depth_in]
//   1: filter [depth_out, filter_height, filter_width, depth_in]
//   2: bias [depth_out]
//   3: padding scheme, INT32 (1 SAME, 2 VALID)
//   4: stride width, INT32
//   5: stride height, INT32
//   output: [batches, out_height, out_width, depth_out] with
//     out = stride * (in - 1) + filter - pad_total, where pad_total is
//     max(0, filter - (in - 1) % stride - 1) for SAME and 0 for VALID; the
//     leading padding is pad_total / 2.
#pragma once

#include <cstdint>

namespace annrt::tflite {

inline constexpr uint16_t kConvolution2dTransposeBias = 0;
inline constexpr const char* kConvolution2dTransposeBiasName = "CONVOLUTION_2D_TRANSPOSE_BIAS";

}  // namespace annrt::tflite
