// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The compilation cache's reader. At start-up the built-in model
// (builtin:mobilenet_block) is compiled on annrt-cpu with the automatic
// cache in a temporary directory (ANNRT_CACHE_PATH, one thread: what
// make-seeds.sh does with annrt-benchmark, so the seeds' keys are this
// entry's), which leaves one real entry. Each input then
// replaces that entry and the model is compiled again, so the runtime reads
// it (cache_file: header, checksum) and hands the payload to annrt-cpu
// (cpu_cache). The first byte chooses what the rest is:
//   even: the whole file, header included (most fail the header checks);
//   odd:  annrt-cpu's payload, wrapped in a correct header and checksum, so
//         that cpu_cache's own checks see it.
// A bad entry must be a miss (the model is then compiled from scratch).
#include <android/NeuralNetworks.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "client/devices.h"
#include "common/builtin_models.h"
#include "runtime/cache_file.h"

namespace {

namespace fs = std::filesystem;
using annrt::runtime::CacheHeader;

struct Fixture {
  std::unique_ptr<annrt::tools::ModelSource> model;
  std::string dir;
  fs::path entry;
  CacheHeader header;  // of the entry annrt-cpu wrote
};

Fixture* fixture = nullptr;
void compileCached() {
  const ANeuralNetworksDevice* device = annrt::client::findDevice("annrt-cpu");
  ANeuralNetworksCompilation* compilation = nullptr;
  if (ANeuralNetworksCompilation_createForDevices(fixture->model->model(), &device, 1,
                                                  &compilation) == 0) {
    ANeuralNetworksCompilation_finish(compilation);
  }
  ANeuralNetworksCompilation_free(compilation);
}

std::vector<uint8_t> readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeFile(const fs::path& path, std::span<const uint8_t> bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

// The model's entry, written by a compile; aborts when there is none (no
// annrt-cpu, or it no longer caches), which would make the fuzzer useless.
void setUp() {
  char dir[] = "/tmp/annrt-fuzz-cache.XXXXXX";
  if (!mkdtemp(dir)) abort();
  setenv("ANNRT_NUM_THREADS", "1", 1);
  setenv("ANNRT_CACHE_PATH", dir, 1);
  fixture = new Fixture;
  fixture->dir = dir;
  auto model = annrt::tools::makeBuiltinModel("mobilenet_block", {});
  if (!model.ok() || !annrt::client::findDevice("annrt-cpu")) abort();
  fixture->model = std::move(model).value();
  compileCached();
  // The partition's entry: the largest (the other is annrt-cpu's supported
  // operations; the directory's .count is not an entry).
  uintmax_t largest = 0;
  for (const auto& file : fs::directory_iterator(fixture->dir)) {
    if (file.path().extension() != ".annrtcc" || file.file_size() <= largest) continue;
    largest = file.file_size();
    fixture->entry = file.path();
  }
  auto header = annrt::runtime::parseCacheHeader(readFile(fixture->entry));
  if (!header.ok()) abort();
  fixture->header = *header;
  atexit([] {
    std::error_code ignored;
    fs::remove_all(fixture->dir, ignored);
  });
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setUp();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::span<const uint8_t> rest(data + 1, size - 1);
  std::vector<uint8_t> file(rest.begin(), rest.end());
  if (data[0] & 1) {
    const CacheHeader& h = fixture->header;
    auto header = annrt::runtime::encodeCacheHeader(h.key, h.deviceName, h.deviceVersion, rest);
    if (!header.ok()) abort();
    file.insert(file.begin(), header->begin(), header->end());
  }
  writeFile(fixture->entry, file);
  compileCached();
  return 0;
}
