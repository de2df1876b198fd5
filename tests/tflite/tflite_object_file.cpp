// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "tflite_object_file.h"

#include <fmt/format.h>

#include <fstream>
#include <iterator>
#include <vector>

namespace annrt::tflite::testing {

std::unique_ptr<fb::ModelT> readModelFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  flatbuffers::Verifier verifier(bytes.data(), bytes.size());
  if (bytes.empty() || !fb::VerifyModelBuffer(verifier)) {
    fmt::print(stderr, "{}: not a valid TFLite model\n", path);
    return nullptr;
  }
  return std::unique_ptr<fb::ModelT>(fb::GetModel(bytes.data())->UnPack());
}

bool writeModelFile(const fb::ModelT& model, const std::string& path) {
  flatbuffers::FlatBufferBuilder builder;
  builder.Finish(fb::Model::Pack(builder, &model), fb::ModelIdentifier());
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(builder.GetBufferPointer()), builder.GetSize());
  if (!out.good()) fmt::print(stderr, "cannot write {}\n", path);
  return out.good();
}

int rewriteModelFile(int argc, char** argv, const char* name,
                     const std::function<bool(fb::ModelT&, const std::string& out)>& rewrite) {
  if (argc != 3) {
    fmt::print(stderr, "usage: {} IN.tflite OUT.tflite\n", name);
    return 2;
  }
  std::unique_ptr<fb::ModelT> model = readModelFile(argv[1]);
  if (model == nullptr || !rewrite(*model, argv[2])) return 1;
  return writeModelFile(*model, argv[2]) ? 0 : 1;
}

}  // namespace annrt::tflite::testing
