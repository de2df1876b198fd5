// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The node parameter structs (TfLiteNode::builtin_data) of the operators the
// delegate converts, as TensorFlow Lite 2.9's C ABI lays them out
// (tensorflow/lite/c/builtin_op_data.h, which the C API package does not
// ship). Later releases only append fields, so reading these prefixes stays
// valid for them.
#pragma once

#include <stdbool.h>

#include "tensorflow/lite/c/common.h"

namespace annrt::tflite::delegate::abi {

enum TfLitePadding { kTfLitePaddingUnknown = 0, kTfLitePaddingSame, kTfLitePaddingValid };

enum TfLiteFusedActivation {
  kTfLiteActNone = 0,
  kTfLiteActRelu,
  kTfLiteActReluN1To1,
  kTfLiteActRelu6,
  kTfLiteActTanh,
  kTfLiteActSignBit,
  kTfLiteActSigmoid,
};

struct TfLitePaddingValues {
  int width;
  int height;
  int width_offset;
  int height_offset;
};

struct TfLiteConvParams {
  TfLitePadding padding;
  int stride_width;
  int stride_height;
  TfLiteFusedActivation activation;
  int dilation_width_factor;
  int dilation_height_factor;
};

struct TfLitePoolParams {
  TfLitePadding padding;
  int stride_width;
  int stride_height;
  int filter_width;
  int filter_height;
  TfLiteFusedActivation activation;
  struct {
    TfLitePaddingValues padding;
  } computed;
};

struct TfLiteDepthwiseConvParams {
  TfLitePadding padding;
  int stride_width;
  int stride_height;
  int depth_multiplier;
  TfLiteFusedActivation activation;
  int dilation_width_factor;
  int dilation_height_factor;
};

enum TfLiteFullyConnectedWeightsFormat {
  kTfLiteFullyConnectedWeightsFormatDefault = 0,
  kTfLiteFullyConnectedWeightsFormatShuffled4x16Int8 = 1,
};

struct TfLiteFullyConnectedParams {
  TfLiteFusedActivation activation;
  TfLiteFullyConnectedWeightsFormat weights_format;
  bool keep_num_dims;
  bool asymmetric_quantize_inputs;
};

struct TfLiteSoftmaxParams {
  float beta;
};

struct TfLiteConcatenationParams {
  int axis;
  TfLiteFusedActivation activation;
};

// ADD and SUB append bool pot_scale_int16; MUL and DIV have the activation only.
struct TfLiteActivationParams {
  TfLiteFusedActivation activation;
};

struct TfLiteResizeBilinearParams {
  bool align_corners;
  bool half_pixel_centers;
};

inline constexpr int kReshapeMaxDimensions = 8;  // TFLITE_RESHAPE_PARAMS_MAX_DIMENSION_COUNT
struct TfLiteReshapeParams {
  int shape[kReshapeMaxDimensions];
  int num_dimensions;
};

struct TfLiteReducerParams {
  bool keep_dims;
};

struct TfLiteDepthToSpaceParams {
  int block_size;
};

// TFLite 2.9 has these three fields; later releases append the activation.
struct TfLiteTransposeConvParams {
  TfLitePadding padding;
  int stride_width;
  int stride_height;
};

}  // namespace annrt::tflite::delegate::abi
