// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "ops/util/convolution.h"

#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "ops/util/quantization.h"
#include "ops/util/shape_helpers.h"
#include "ops/util/validation.h"

namespace annrt::ops::conv {
namespace {

// Input counts and scalar positions of one form (explicit or implicit) of a
// signature.
struct Form {
  bool explicitPadding = true;
  uint32_t paddingIndex = 3;  // first padding, or the padding scheme
  uint32_t strideIndex = 0;
  uint32_t baseCount = 0;  // inputs up to and including the activation
};

Form explicitForm(const Signature& signature) {
  const uint32_t strideIndex = signature.firstScalar + 4;
  return {true, signature.firstScalar, strideIndex, strideIndex + 2 + signature.extraScalars + 1};
}

Form implicitForm(const Signature& signature) {
  const uint32_t schemeIndex = signature.firstScalar + (signature.implicitOutputShape ? 1 : 0);
  const uint32_t strideIndex = schemeIndex + 1;
  return {false, schemeIndex, strideIndex, strideIndex + 2 + signature.extraScalars + 1};
}

// Explicit padding when there are enough inputs and the input where the
// implicit form would put its layout BOOL is an INT32 (as AOSP decides).
template <typename Context>
Form formOf(const Context& context, const Signature& signature) {
  const Form explicitF = explicitForm(signature);
  const Form implicitF = implicitForm(signature);
  const uint32_t count = context.inputCount();
  if (count >= explicitF.baseCount && implicitF.baseCount < count &&
      context.inputType(implicitF.baseCount) == OperandType::INT32) {
    return explicitF;
  }
  return implicitF;
}

bool countAllowed(uint32_t count, const Form& form, const Signature& signature) {
  if (count == form.baseCount) return !signature.layoutRequired;
  if (count == form.baseCount + 1) return true;
  return signature.hasDilation && count == form.baseCount + 3;
}

Result<void> expectType(const ValidationContext& context, uint32_t index, OperandType type) {
  ANNRT_CHECK(context.inputType(index) == type, "input {} has type {}, expected {}", index,
              operandTypeName(context.inputType(index)), operandTypeName(type));
  return {};
}

}  // namespace

Result<void> validateScalars(const ValidationContext& context, const Signature& signature) {
  const Form form = formOf(context, signature);
  const uint32_t count = context.inputCount();
  ANNRT_CHECK(countAllowed(count, form, signature), "{} inputs do not match the {} padding form",
              count, form.explicitPadding ? "explicit" : "implicit");
  for (uint32_t i = 3; i < form.paddingIndex; ++i) {
    ANNRT_RETURN_IF_ERROR(expectType(context, i, OperandType::TENSOR_INT32));
  }
  for (uint32_t i = form.paddingIndex; i < form.baseCount; ++i) {
    ANNRT_RETURN_IF_ERROR(expectType(context, i, OperandType::INT32));
  }
  if (count > form.baseCount) {
    ANNRT_RETURN_IF_ERROR(expectType(context, form.baseCount, OperandType::BOOL));
  }
  for (uint32_t i = form.baseCount + 1; i < count; ++i) {
    ANNRT_RETURN_IF_ERROR(expectType(context, i, OperandType::INT32));
  }
  return {};
}

Result<void> validateTensors(const ValidationContext& context,
                             std::optional<uint32_t> perChannelDim) {
  ANNRT_RETURN_IF_ERROR(validateOutputCount(context, 1));
  const OperandType input = context.inputType(kInput);
  ANNRT_RETURN_IF_ERROR(
      validateTypeIn(input,
                     {OperandType::TENSOR_FLOAT32, OperandType::TENSOR_FLOAT16,
                      OperandType::TENSOR_QUANT8_ASYMM, OperandType::TENSOR_QUANT8_ASYMM_SIGNED},
                     "input"));
  const OperandType filter = context.inputType(kFilter);
  const OperandType bias = context.inputType(kBias);
  if (isQuant8Tensor(input)) {
    const bool perChannel = filter == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL;
    ANNRT_CHECK(filter == input || (perChannel && perChannelDim.has_value()),
                "filter type {} does not go with input type {}", operandTypeName(filter),
                operandTypeName(input));
    const auto& channelQuant = context.inputShape(kFilter).channelQuant;
    if (perChannel && channelQuant.has_value()) {
      ANNRT_CHECK(channelQuant->channelDim == *perChannelDim,
                  "per-channel filter quantized along dimension {}, expected {}",
                  channelQuant->channelDim, *perChannelDim);
    }
    ANNRT_CHECK(bias == OperandType::TENSOR_INT32, "quantized op needs a TENSOR_INT32 bias, got {}",
                operandTypeName(bias));
  } else {
    ANNRT_CHECK(filter == input && bias == input, "filter {} and bias {} must have input type {}",
                operandTypeName(filter), operandTypeName(bias), operandTypeName(input));
  }
  ANNRT_CHECK(context.outputType(0) == input, "output type {} differs from input type {}",
              operandTypeName(context.outputType(0)), operandTypeName(input));
  return {};
}

Result<void> validateImageOp(const ValidationContext& context, const Signature& signature,
                             std::optional<uint32_t> perChannelDim) {
  ANNRT_RETURN_IF_ERROR(validateScalars(context, signature));
  ANNRT_RETURN_IF_ERROR(validateTensors(context, perChannelDim));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kInput), 4, "input"));
  ANNRT_RETURN_IF_ERROR(validateRank(context.inputShape(kFilter), 4, "filter"));
  return validateRank(context.inputShape(kBias), 1, "bias");
}

Result<Params> readParams(const ExecutionContext& context, const Signature& signature) {
  const Form form = formOf(context, signature);
  Params params;
  params.explicitPadding = form.explicitPadding;
  auto scalar = [&](uint32_t index) { return context.scalar<int32_t>(index); };
  if (form.explicitPadding) {
    params.padLeft = scalar(form.paddingIndex);
    params.padRight = scalar(form.paddingIndex + 1);
    params.padTop = scalar(form.paddingIndex + 2);
    params.padBottom = scalar(form.paddingIndex + 3);
  } else {
    params.paddingScheme = scalar(form.paddingIndex);
  }
  params.strideWidth = scalar(form.strideIndex);
  params.strideHeight = scalar(form.strideIndex + 1);
  for (uint32_t i = 0; i < signature.extraScalars && i < 2; ++i) {
    params.extra[i] = scalar(form.strideIndex + 2 + i);
  }
  ANNRT_ASSIGN_OR_RETURN(params.activation, toFusedActivation(scalar(form.baseCount - 1)));
  const uint32_t count = context.inputCount();
  if (count > form.baseCount) params.nchw = context.scalar<uint8_t>(form.baseCount) != 0;
  if (count == form.baseCount + 3) {
    params.dilationWidth = scalar(form.baseCount + 1);
    params.dilationHeight = scalar(form.baseCount + 2);
  }
  ANNRT_CHECK(params.strideWidth > 0 && params.strideHeight > 0,
              "strides ({}, {}) must be positive", params.strideWidth, params.strideHeight);
  ANNRT_CHECK(params.dilationWidth > 0 && params.dilationHeight > 0,
              "dilation factors ({}, {}) must be positive", params.dilationWidth,
              params.dilationHeight);
  ANNRT_CHECK(params.padLeft >= 0 && params.padTop >= 0, "paddings left {} and top {} are negative",
              params.padLeft, params.padTop);
  return params;
}

ImageDims imageDims(const Shape& shape, bool nchw) {
  const auto& d = shape.dims;
  if (d.size() != 4) return {};
  return nchw ? ImageDims{d[0], d[2], d[3], d[1]} : ImageDims{d[0], d[1], d[2], d[3]};
}

std::vector<uint32_t> toLayout(const ImageDims& dims, bool nchw) {
  if (nchw) return {dims.batches, dims.channels, dims.height, dims.width};
  return {dims.batches, dims.height, dims.width, dims.channels};
}

Result<ImageDims> inputImage(const ExecutionContext& context, bool nchw) {
  const Shape& input = context.inputShape(kInput);
  const Shape& filter = context.inputShape(kFilter);
  ANNRT_CHECK(rank(input) == 4 && rank(filter) == 4, "input {} and filter {} must have rank 4",
              toString(input.dims), toString(filter.dims));
  return imageDims(input, nchw);
}

namespace {

// Resolves one spatial axis of a forward convolution.
Result<uint32_t> resolveSpatialAxis(int32_t scheme, bool explicitPadding, uint32_t inSize,
                                    uint32_t filterSize, int32_t stride, int32_t dilation,
                                    int32_t* head, int32_t* tail) {
  if (!explicitPadding) {
    ANNRT_ASSIGN_OR_RETURN(Padding padding,
                           implicitPadding(scheme, inSize, stride, dilation, filterSize));
    *head = static_cast<int32_t>(padding.head);
    *tail = static_cast<int32_t>(padding.tail);
  }
  ANNRT_CHECK(*head >= 0 && *tail >= 0, "paddings ({}, {}) must not be negative", *head, *tail);
  const int64_t effectiveFilter = (static_cast<int64_t>(filterSize) - 1) * dilation + 1;
  ANNRT_CHECK(*head < effectiveFilter && *tail < effectiveFilter,
              "paddings ({}, {}) must be smaller than the dilated filter size {}", *head, *tail,
              effectiveFilter);
  return windowOutputSize(inSize, filterSize, stride, dilation,
                          Padding{static_cast<uint32_t>(*head), static_cast<uint32_t>(*tail)});
}

}  // namespace

Result<Geometry> forwardGeometry(Params& params, const ImageDims& input, uint32_t filterHeight,
                                 uint32_t filterWidth, uint32_t outChannels) {
  ANNRT_CHECK(input.height > 0 && input.width > 0 && input.channels > 0,
              "input height {}, width {} and depth {} must be positive", input.height, input.width,
              input.channels);
  ANNRT_CHECK(filterHeight > 0 && filterWidth > 0 && outChannels > 0,
              "filter height {}, width {} and output depth {} must be positive", filterHeight,
              filterWidth, outChannels);
  Geometry g;
  g.input = input;
  g.output = {input.batches, 0, 0, outChannels};
  ANNRT_ASSIGN_OR_RETURN(
      g.output.height,
      resolveSpatialAxis(params.paddingScheme, params.explicitPadding, input.height, filterHeight,
                         params.strideHeight, params.dilationHeight, &params.padTop,
                         &params.padBottom));
  ANNRT_ASSIGN_OR_RETURN(
      g.output.width, resolveSpatialAxis(params.paddingScheme, params.explicitPadding, input.width,
                                         filterWidth, params.strideWidth, params.dilationWidth,
                                         &params.padLeft, &params.padRight));
  g.filterHeight = filterHeight;
  g.filterWidth = filterWidth;
  g.ocStride = static_cast<size_t>(filterHeight) * filterWidth * input.channels;
  g.tapStride = input.channels;
  g.strideHeight = params.strideHeight;
  g.strideWidth = params.strideWidth;
  g.dilationHeight = params.dilationHeight;
  g.dilationWidth = params.dilationWidth;
  g.padTop = params.padTop;
  g.padLeft = params.padLeft;
  return g;
}

Result<void> checkBiasAndQuantization(const ExecutionContext& context, uint32_t outChannels) {
  const Shape& input = context.inputShape(kInput);
  const Shape& filter = context.inputShape(kFilter);
  const Shape& bias = context.inputShape(kBias);
  const Shape& output = context.outputShape(0);
  ANNRT_CHECK(rank(bias) == 1 && bias.dims[0] == outChannels,
              "bias shape {} must be [{}], one value per output channel", toString(bias.dims),
              outChannels);
  if (!isQuant8Tensor(input.type)) return {};
  if (filter.type != OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    ANNRT_RETURN_IF_ERROR(
        convolutionMultiplier(input.scale, filter.scale, bias.scale, output.scale));
    return {};
  }
  ANNRT_CHECK(filter.channelQuant.has_value() && filter.channelQuant->scales.size() == outChannels,
              "per-channel filter needs {} scales", outChannels);
  for (float scale : filter.channelQuant->scales) {
    ANNRT_CHECK(scale > 0, "per-channel filter scale {} must be positive", scale);
    // The bias scale of each channel is implied by the spec, not stored.
    ANNRT_RETURN_IF_ERROR(
        convolutionMultiplier(input.scale, scale, input.scale * scale, output.scale));
  }
  return {};
}

namespace {

// The input row (or column) that feeds output position `o` through filter
// tap `t`, or false when that tap falls into the padding.
inline bool sourceIndex(uint32_t o, uint32_t t, int32_t stride, int32_t dilation, int32_t pad,
                        uint32_t size, bool transposed, uint32_t* source) {
  int64_t s = 0;
  if (transposed) {
    const int64_t n = static_cast<int64_t>(o) + pad - t;
    if (n < 0 || n % stride != 0) return false;
    s = n / stride;
  } else {
    s = static_cast<int64_t>(o) * stride - pad + static_cast<int64_t>(t) * dilation;
    if (s < 0) return false;
  }
  if (s >= size) return false;
  *source = static_cast<uint32_t>(s);
  return true;
}

// The one reference loop: for every output element, accumulates
// load(input) * load(filter) over the taps that land inside the input and
// hands the sum to `epilogue(outputIndex, outputChannel, sum)`.
template <typename Acc, typename In, typename Filter, typename LoadIn, typename LoadFilter,
          typename Epilogue>
void convolve(const Geometry& g, const In* input, const Filter* filter, LoadIn loadIn,
              LoadFilter loadFilter, Epilogue epilogue) {
  const ImageDims& in = g.input;
  const ImageDims& out = g.output;
  const uint32_t groupIn = in.channels / g.groups;
  const uint32_t groupOut = out.channels / g.groups;
  const size_t imageSize = static_cast<size_t>(in.height) * in.width * in.channels;
  size_t outIndex = 0;
  for (uint32_t b = 0; b < out.batches; ++b) {
    for (uint32_t oh = 0; oh < out.height; ++oh) {
      for (uint32_t ow = 0; ow < out.width; ++ow) {
        for (uint32_t oc = 0; oc < out.channels; ++oc, ++outIndex) {
          const In* image = input + b * imageSize + static_cast<size_t>(oc / groupOut) * groupIn;
          const Filter* kernel = filter + oc * g.ocStride;
          Acc sum = 0;
          for (uint32_t i = 0; i < g.filterHeight; ++i) {
            uint32_t ih = 0;
            if (!sourceIndex(oh, i, g.strideHeight, g.dilationHeight, g.padTop, in.height,
                             g.transposed, &ih)) {
              continue;
            }
            for (uint32_t j = 0; j < g.filterWidth; ++j) {
              uint32_t iw = 0;
              if (!sourceIndex(ow, j, g.strideWidth, g.dilationWidth, g.padLeft, in.width,
                               g.transposed, &iw)) {
                continue;
              }
              const In* pixel = image + (static_cast<size_t>(ih) * in.width + iw) * in.channels;
              const Filter* tap =
                  kernel + (static_cast<size_t>(i) * g.filterWidth + j) * g.tapStride;
              for (uint32_t k = 0; k < groupIn; ++k) sum += loadIn(pixel[k]) * loadFilter(tap[k]);
            }
          }
          epilogue(outIndex, oc, sum);
        }
      }
    }
  }
}

size_t count(const ImageDims& d) {
  return static_cast<size_t>(d.batches) * d.height * d.width * d.channels;
}

// Float data as float: a view for float32, a converted copy for float16.
template <typename T>
const float* asFloat(const T* data, size_t n, std::vector<float>& storage) {
  if constexpr (std::is_same_v<T, float>) {
    return data;
  } else {
    storage.resize(n);
    for (size_t i = 0; i < n; ++i) storage[i] = static_cast<float>(data[i]);
    return storage.data();
  }
}

// Float16 is computed in float32 and rounded once at the end. Sums are
// accumulated in double so that the result does not depend on a summation
// order (optimized references sum in blocks).
template <typename T>
void runFloat(const ExecutionContext& context, const Geometry& g, FusedActivation activation,
              const void* inputData, void* outputData) {
  std::vector<float> input, filter, bias, output;
  const float* in = asFloat(static_cast<const T*>(inputData), count(g.input), input);
  const float* f =
      asFloat(context.input<T>(kFilter), elementCount(context.inputShape(kFilter)), filter);
  const float* b = asFloat(context.input<T>(kBias), g.output.channels, bias);
  float* out = static_cast<float*>(outputData);
  if constexpr (!std::is_same_v<T, float>) {
    output.resize(count(g.output));
    out = output.data();
  }
  float lo = 0.0f, hi = 0.0f;
  activationRangeFloat(activation, &lo, &hi);
  auto widen = [](float v) { return static_cast<double>(v); };
  convolve<double>(g, in, f, widen, widen, [&](size_t index, uint32_t oc, double sum) {
    out[index] = std::clamp(static_cast<float>(sum + b[oc]), lo, hi);
  });
  if constexpr (!std::is_same_v<T, float>) {
    T* result = static_cast<T*>(outputData);
    for (size_t i = 0; i < output.size(); ++i) result[i] = static_cast<T>(output[i]);
  }
}

// One requantization multiplier per output channel (all equal unless the
// filter is per-channel quantized).
Result<std::vector<QuantizedMultiplier>> outputMultipliers(const ExecutionContext& context,
                                                           uint32_t outChannels) {
  const Shape& input = context.inputShape(kInput);
  const Shape& filter = context.inputShape(kFilter);
  const Shape& output = context.outputShape(0);
  std::vector<QuantizedMultiplier> multipliers(outChannels);
  for (uint32_t c = 0; c < outChannels; ++c) {
    double real = 0.0;
    if (filter.type == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
      ANNRT_CHECK(filter.channelQuant && filter.channelQuant->scales.size() == outChannels,
                  "per-channel filter needs {} scales", outChannels);
      const float scale = filter.channelQuant->scales[c];
      ANNRT_ASSIGN_OR_RETURN(
          real, convolutionMultiplier(input.scale, scale, input.scale * scale, output.scale));
    } else {
      ANNRT_ASSIGN_OR_RETURN(
          real, convolutionMultiplier(input.scale, filter.scale, context.inputShape(kBias).scale,
                                      output.scale));
    }
    multipliers[c] = quantizeMultiplier(real);
  }
  return multipliers;
}

// Integer accumulation in 64 bits (no overflow UB), then the spec's
// fixed-point requantization into the output's zero point and range.
template <typename T, typename Filter>
Result<void> runQuantized(const ExecutionContext& context, const Geometry& g,
                          FusedActivation activation, const void* inputData, void* outputData) {
  ANNRT_ASSIGN_OR_RETURN(auto multipliers, outputMultipliers(context, g.output.channels));
  const Shape& output = context.outputShape(0);
  int32_t lo = 0, hi = 0;
  activationRange(activation, output, &lo, &hi);
  const int32_t inputOffset = -context.inputShape(kInput).zeroPoint;
  const int32_t filterOffset = -context.inputShape(kFilter).zeroPoint;
  const int32_t* bias = context.input<int32_t>(kBias);
  T* out = static_cast<T*>(outputData);
  auto loadIn = [inputOffset](T v) { return static_cast<int64_t>(v) + inputOffset; };
  auto loadFilter = [filterOffset](Filter v) { return static_cast<int64_t>(v) + filterOffset; };
  convolve<int64_t>(g, static_cast<const T*>(inputData), context.input<Filter>(kFilter), loadIn,
                    loadFilter, [&](size_t index, uint32_t oc, int64_t sum) {
                      const auto total = static_cast<int32_t>(
                          std::clamp<int64_t>(sum + bias[oc], std::numeric_limits<int32_t>::min(),
                                              std::numeric_limits<int32_t>::max()));
                      const int32_t q =
                          multiplyByQuantizedMultiplier(total, multipliers[oc]) + output.zeroPoint;
                      out[index] = static_cast<T>(std::clamp(q, lo, hi));
                    });
  return {};
}

template <typename T>
Result<void> runQuantized(const ExecutionContext& context, const Geometry& g,
                          FusedActivation activation, const void* inputData, void* outputData) {
  if (context.inputType(kFilter) == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
    return runQuantized<T, int8_t>(context, g, activation, inputData, outputData);
  }
  return runQuantized<T, T>(context, g, activation, inputData, outputData);
}

Result<void> dispatch(const ExecutionContext& context, const Geometry& g,
                      FusedActivation activation, const void* input, void* output) {
  switch (context.inputType(kInput)) {
    case OperandType::TENSOR_FLOAT32:
      runFloat<float>(context, g, activation, input, output);
      return {};
    case OperandType::TENSOR_FLOAT16:
      runFloat<Float16>(context, g, activation, input, output);
      return {};
    case OperandType::TENSOR_QUANT8_ASYMM:
      return runQuantized<uint8_t>(context, g, activation, input, output);
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
      return runQuantized<int8_t>(context, g, activation, input, output);
    default:
      return makeError(ErrorCode::OP_FAILED, "unsupported input type {}",
                       operandTypeName(context.inputType(kInput)));
  }
}

}  // namespace

Result<void> run(ExecutionContext& context, const Geometry& geometry, FusedActivation activation,
                 bool nchw) {
  const Shape& inputShape = context.inputShape(kInput);
  if (!nchw) {
    return dispatch(context, geometry, activation, context.inputData(kInput),
                    context.outputData(0));
  }
  const size_t bytes = elementSize(inputShape.type);
  std::vector<uint8_t> input(count(geometry.input) * bytes);
  std::vector<uint8_t> output(count(geometry.output) * bytes);
  nchwToNhwc(context.inputData(kInput), input.data(), inputShape.dims, bytes);
  ANNRT_RETURN_IF_ERROR(dispatch(context, geometry, activation, input.data(), output.data()));
  nhwcToNchw(output.data(), context.outputData(0), toLayout(geometry.output, false), bytes);
  return {};
}

Result<void> prepare(ExecutionContext& context, const Signature& signature,
                     GeometryFunction geometry) {
  ANNRT_ASSIGN_OR_RETURN(Params params, readParams(context, signature));
  ANNRT_ASSIGN_OR_RETURN(Geometry g, geometry(context, params));
  ANNRT_RETURN_IF_ERROR(checkBiasAndQuantization(context, g.output.channels));
  Shape output = context.outputShape(0);
  output.dims = toLayout(g.output, params.nchw);
  return context.setOutputShape(0, output);
}

Result<void> execute(ExecutionContext& context, const Signature& signature,
                     GeometryFunction geometry) {
  ANNRT_ASSIGN_OR_RETURN(Params params, readParams(context, signature));
  ANNRT_ASSIGN_OR_RETURN(Geometry g, geometry(context, params));
  return run(context, g, params.activation, params.nchw);
}

}  // namespace annrt::ops::conv
