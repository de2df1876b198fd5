// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt-diff's inputs: the --input_layer, --input_layer_shape and
// --input_layer_value_files flags checked against a model input, that
// input's value file read (input_data) and its bytes turned into numbers
// (tensor_values). Input: i32 type, u8 rank, u8 dims[rank], f32 scale,
// i32 zeroPoint, u16 n, n bytes of flags (the three values separated by
// '\n'), then the value file's bytes.
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "annrt-diff/tensor_values.h"
#include "byte_stream.h"
#include "common/input_data.h"
#include "common/input_layers.h"

namespace {

using annrt::fuzz::ByteReader;
using annrt::tools::TensorDesc;

std::string valueFile;

TensorDesc readDesc(ByteReader& in) {
  TensorDesc desc;
  desc.name = "input";
  desc.type = in.read<int32_t>();
  desc.dims.resize(in.read<uint8_t>() % 5);
  for (uint32_t& d : desc.dims) d = in.read<uint8_t>();
  desc.scale = in.read<float>();
  desc.zeroPoint = in.read<int32_t>();
  return desc;
}

void checkFlags(const std::string& text, const TensorDesc& desc) {
  const auto parts = annrt::tools::splitList(text, '\n');
  auto flags = annrt::tools::parseInputLayerFlags(parts.size() > 0 ? parts[0] : "",
                                                  parts.size() > 1 ? parts[1] : "",
                                                  parts.size() > 2 ? parts[2] : "");
  if (!flags.ok()) return;
  (void)annrt::tools::checkInputLayers(*flags, {desc});
  (void)annrt::tools::resolveValueFiles(*flags, {desc});
  (void)annrt::tools::applyInputShapes(*flags, {desc});
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char path[] = "/tmp/annrt-fuzz-input.XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) abort();
  close(fd);
  valueFile = path;
  atexit([] { unlink(valueFile.c_str()); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ByteReader in({data, size});
  const TensorDesc desc = readDesc(in);
  const auto flags = in.take(in.read<uint16_t>());
  checkFlags(std::string(flags.begin(), flags.end()), desc);
  const auto file = in.take(size);
  std::ofstream(valueFile, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));
  if (auto bytes = annrt::tools::readTensorFile(valueFile, desc); bytes.ok()) {
    (void)annrt::tools::tensorValues(desc, *bytes);
  }
  (void)annrt::tools::tensorValues(desc, file);
  return 0;
}
