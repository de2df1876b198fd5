// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// annrt's TFLite delegate inside real TensorFlow Lite 2.9: every default
// model through TFLite + the delegate equals TFLite alone; unsupported nodes
// split the graph into delegated and TFLite partitions; options are checked;
// TFLite's external-delegate loader takes the library unchanged.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include "common/sanitizers.h"
#if defined(ANNRT_ADDRESS_SANITIZER)
#include <sanitizer/lsan_interface.h>
#endif

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "annrt_tflite_delegate.h"
#include "common/default_models.h"
#include "common/output_error.h"
#include "tensorflow/lite/delegates/external/external_delegate.h"
#include "tflite/tflite_builder.h"
#include "tflite_delegate/tflite_runner.h"

namespace annrt::tflite::delegate::testing {
namespace {

namespace fs = std::filesystem;
namespace fb = ::annrt::tflite::fb;
constexpr double kTolerance = test::kAccuracyTolerance;

using test::defaultModels;
using test::modelPath;

// `spec` as a .tflite file in the temporary directory.
fs::path writeModel(const annrt::tflite::testing::ModelSpec& spec, const std::string& name) {
  const std::vector<uint8_t> file = annrt::tflite::testing::serialize(spec);
  fs::path path = fs::temp_directory_path() / ("annrt_delegate_" + name + ".tflite");
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(file.data()), static_cast<std::streamsize>(file.size()));
  return path;
}

struct DelegateDeleter {
  void operator()(TfLiteDelegate* d) const { tflite_plugin_destroy_delegate(d); }
};
using DelegatePtr = std::unique_ptr<TfLiteDelegate, DelegateDeleter>;

std::vector<std::string>& reportedErrors() {
  static std::vector<std::string> errors;
  return errors;
}

DelegatePtr createDelegate(const std::map<std::string, std::string>& options) {
  std::vector<std::string> keys, values;
  for (const auto& [key, value] : options) {
    keys.push_back(key);
    values.push_back(value);
  }
  std::vector<char*> keyPointers, valuePointers;
  for (size_t i = 0; i < keys.size(); ++i) {
    keyPointers.push_back(keys[i].data());
    valuePointers.push_back(values[i].data());
  }
  return DelegatePtr(tflite_plugin_create_delegate(
      keyPointers.data(), valuePointers.data(), keys.size(),
      [](const char* message) { reportedErrors().push_back(message); }));
}

AnnrtTfliteDelegateStats stats() {
  AnnrtTfliteDelegateStats s{};
  annrt_tflite_delegate_stats(&s);
  return s;
}

// TFLite alone lacks MediaPipe's Convolution2DTransposeBias: it runs the
// model with them rewritten as TRANSPOSE_CONV (as the accuracy tests' oracle
// does, tests/tflite/tflite_builtin_variant.cpp).
RunResult runTfliteAlone(const std::string& path, const RunSettings& settings) {
  RunResult alone = runModel(path, settings);
  if (alone.error.find("Convolution2DTransposeBias") == std::string::npos) return alone;
  const fs::path variant =
      fs::temp_directory_path() / ("annrt_delegate_builtin_" + fs::path(path).filename().string());
  const std::string command =
      std::string(ANNRT_TFLITE_BUILTIN_VARIANT) + " " + path + " " + variant.string();
  if (std::system(command.c_str()) != 0) return alone;
  return runModel(variant.string(), settings);
}

// TFLite alone and TFLite + `delegate` on the same inputs.
double compareWithTflite(const std::string& path, TfLiteDelegate* delegate,
                         RunSettings settings = {}) {
  const RunResult alone = runTfliteAlone(path, settings);
  EXPECT_EQ(alone.error, "");
  settings.delegate = delegate;
  const RunResult delegated = runModel(path, settings);
  EXPECT_EQ(delegated.error, "");
  EXPECT_EQ(delegated.outputs.size(), alone.outputs.size());
  for (size_t i = 0; i < delegated.outputs.size() && i < alone.outputs.size(); ++i) {
    EXPECT_EQ(delegated.outputs[i].size(), alone.outputs[i].size()) << "output " << i;
  }
  return outputError(delegated.outputs, alone.outputs);
}

class DefaultModel : public ::testing::TestWithParam<std::string> {};

TEST_P(DefaultModel, MatchesTfliteAlone) {
  const AnnrtTfliteDelegateStats before = stats();
  DelegatePtr delegate = createDelegate({{"devices", "annrt-cpu"}, {"num_threads", "2"}});
  ASSERT_NE(delegate, nullptr);
  const double error = compareWithTflite(modelPath(GetParam()), delegate.get());
  EXPECT_LE(error, kTolerance) << GetParam();
  const AnnrtTfliteDelegateStats after = stats();
  // annrt-cpu takes every node of the default models but the weights'.
  EXPECT_GT(after.delegatedNodes, before.delegatedNodes) << "the delegate replaced no node";
  EXPECT_EQ(after.delegatedNodes - before.delegatedNodes + after.weightNodes - before.weightNodes,
            after.nodes - before.nodes)
      << "nodes left to TFLite (log_level:verbose says why)";
  EXPECT_GT(after.invocations, before.invocations) << "no annrt partition ran";
}

INSTANTIATE_TEST_SUITE_P(Models, DefaultModel, ::testing::ValuesIn(defaultModels()),
                         [](const auto& info) { return info.param; });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DefaultModel);

// ADD nodes left to TFLite cut selfie_segmentation into several annrt
// partitions with TFLite kernels between them.
TEST(Partitions, UnsupportedNodesStayWithTflite) {
  const std::string path = modelPath("selfie_segmentation");
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path << " (scripts/fetch-models.sh)";
  const AnnrtTfliteDelegateStats before = stats();
  DelegatePtr delegate =
      createDelegate({{"devices", "annrt-cpu"}, {"skip_ops", "ADD"}, {"max_partitions", "0"}});
  ASSERT_NE(delegate, nullptr);
  EXPECT_LE(compareWithTflite(path, delegate.get()), kTolerance);
  const AnnrtTfliteDelegateStats after = stats();
  EXPECT_GE(after.partitions - before.partitions, 2);
  EXPECT_LT(after.delegatedNodes - before.delegatedNodes, after.nodes - before.nodes)
      << "the skipped nodes were delegated";
}

// ADD, SQUARE (which annrt's importer does not map), ADD: two annrt
// partitions around TFLite's SQUARE kernel.
TEST(Partitions, UnmappedOperatorSplitsTheGraph) {
  namespace t = annrt::tflite::testing;
  t::ModelSpec spec;
  const uint32_t add = spec.addOpcode(0);      // ADD
  const uint32_t square = spec.addOpcode(92);  // SQUARE
  const std::vector<float> constant{0.5f, -1.0f, 2.0f, 0.25f};
  const uint32_t buffer = spec.addBuffer(constant);
  t::SubgraphSpec main;
  main.tensors = {{{1, 2, 2, 1}, 0, 0, "x"},
                  {{1, 2, 2, 1}, 0, buffer, "c"},
                  {{1, 2, 2, 1}, 0, 0, "sum"},
                  {{1, 2, 2, 1}, 0, 0, "squared"},
                  {{1, 2, 2, 1}, 0, 0, "out"}};
  const t::Options addOptions{fb::BuiltinOptions::AddOptions,
                              [](auto& b) { return fb::CreateActivationOptions(b).Union(); }};
  main.operators = {t::OperatorSpec{add, {0, 1}, {2}, addOptions},
                    t::OperatorSpec{square, {2}, {3}},
                    t::OperatorSpec{add, {3, 1}, {4}, addOptions}};
  main.inputs = {0};
  main.outputs = {4};
  spec.subgraphs = {main};
  const fs::path path = writeModel(spec, "add_square_add");
  DelegatePtr delegate = createDelegate({{"devices", "annrt-cpu"}});
  ASSERT_NE(delegate, nullptr);
  const AnnrtTfliteDelegateStats before = stats();
  EXPECT_LE(compareWithTflite(path.string(), delegate.get()), kTolerance);
  const AnnrtTfliteDelegateStats after = stats();
  EXPECT_EQ(after.nodes - before.nodes, 3);
  EXPECT_EQ(after.delegatedNodes - before.delegatedNodes, 2);
  EXPECT_EQ(after.partitions - before.partitions, 2);
  EXPECT_EQ(after.invocations - before.invocations, 2);
}

TEST(Partitions, MaxPartitionsKeepsTheLargest) {
  const std::string path = modelPath("hand_landmark_full");
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path;
  const AnnrtTfliteDelegateStats before = stats();
  DelegatePtr delegate =
      createDelegate({{"devices", "annrt-cpu"}, {"skip_ops", "ADD"}, {"max_partitions", "1"}});
  ASSERT_NE(delegate, nullptr);
  EXPECT_LE(compareWithTflite(path, delegate.get()), kTolerance);
  EXPECT_EQ(stats().partitions - before.partitions, 1);
}

TEST(Options, WrongKeysAndValuesAreReported) {
  const std::vector<std::map<std::string, std::string>> wrong = {
      {{"device", "annrt-cpu"}},
      {{"num_threads", "two"}},
      {{"num_threads", "0"}},
      {{"devices", "no-such-device"}},
      {{"execution_preference", "fastest"}},
      {{"allow_fp16", "maybe"}},
      {{"log_level", "loud"}},
      {{"max_partitions", "-1"}},
      {{"min_nodes_per_partition", "0"}},
      {{"cache_dir", "/tmp"}},  // without model_token
  };
  for (const auto& options : wrong) {
    reportedErrors().clear();
    EXPECT_EQ(createDelegate(options), nullptr) << options.begin()->first;
    ASSERT_EQ(reportedErrors().size(), 1u) << options.begin()->first;
    EXPECT_NE(reportedErrors()[0].find(options.begin()->first), std::string::npos)
        << reportedErrors()[0];
  }
}

TEST(Options, EveryDocumentedKeyIsAccepted) {
  const fs::path cache = fs::temp_directory_path() / "annrt_tflite_delegate_cache";
  fs::remove_all(cache);
  fs::create_directories(cache);
  DelegatePtr delegate = createDelegate({{"devices", "annrt-cpu,nnapi-reference"},
                                         {"num_threads", "1"},
                                         {"execution_preference", "sustained_speed"},
                                         {"max_partitions", "2"},
                                         {"min_nodes_per_partition", "2"},
                                         {"cache_dir", cache.string()},
                                         {"model_token", "test"},
                                         {"allow_fp16", "false"},
                                         {"log_level", "verbose"}});
  ASSERT_NE(delegate, nullptr);
  const std::string path = modelPath("hand_landmark_lite");
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path;
  EXPECT_LE(compareWithTflite(path, delegate.get()), kTolerance);
}

TEST(Options, DevicesAreTheCompilationsDevices) {
  const std::string path = modelPath("face_detection_short_range");
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path;
  DelegatePtr delegate = createDelegate({{"devices", "nnapi-reference"}});
  ASSERT_NE(delegate, nullptr);
  ::testing::internal::CaptureStderr();
  const double error = compareWithTflite(path, delegate.get());
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_LE(error, kTolerance);
  EXPECT_NE(log.find("partition(s) on nnapi-reference"), std::string::npos) << log;
}

// annrt-cpu logs the threads it compiles for with ANNRT_VLOG=driver, which
// is read once per process: ctest runs this test with it
// (tflite_delegate_threads in CMakeLists.txt).
TEST(Options, NumThreadsReachesTheDevice) {
  const char* vlog = std::getenv("ANNRT_VLOG");
  if (vlog == nullptr || std::string(vlog).find("driver") == std::string::npos) {
    GTEST_SKIP() << "needs ANNRT_VLOG=driver from the start (ctest -R tflite_delegate_threads)";
  }
  const std::string path = modelPath("hand_landmark_lite");
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path;
  for (const int threads : {1, 2}) {
    DelegatePtr delegate =
        createDelegate({{"devices", "annrt-cpu"}, {"num_threads", std::to_string(threads)}});
    ASSERT_NE(delegate, nullptr);
    ::testing::internal::CaptureStderr();
    EXPECT_LE(compareWithTflite(path, delegate.get()), kTolerance);
    const std::string log = ::testing::internal::GetCapturedStderr();
    // annrt-cpu's plan: "... on 2 threads" for its threaded stages.
    EXPECT_EQ(log.find("2 threads") != std::string::npos, threads == 2) << log;
  }
}

// A resized input re-prepares the partition with the new shapes: ADD of a
// [1,2,2,1] constant to an input resized from [1,2,2,1] to [3,2,2,1].
TEST(Resize, InputResizeRebuildsThePartition) {
  const fs::path path = writeModel(annrt::tflite::testing::addModel(), "resize_add");
  DelegatePtr delegate = createDelegate({{"devices", "annrt-cpu"}});
  ASSERT_NE(delegate, nullptr);
  const AnnrtTfliteDelegateStats before = stats();
  RunSettings settings;
  settings.inputShapes = {{3, 2, 2, 1}};
  EXPECT_LE(compareWithTflite(path.string(), delegate.get(), settings), kTolerance);
  const AnnrtTfliteDelegateStats after = stats();
  EXPECT_EQ(after.delegatedNodes - before.delegatedNodes, 1);
  EXPECT_EQ(after.builds - before.builds, 2) << "no rebuild after the resize";
}

// While alive, LeakSanitizer (in ASan builds) ignores what is allocated.
struct LeaksIgnored {
#if defined(ANNRT_ADDRESS_SANITIZER)
  LeaksIgnored() {
    __lsan_disable();
  }
  ~LeaksIgnored() {
    __lsan_enable();
  }
  LeaksIgnored(const LeaksIgnored&) = delete;
  LeaksIgnored& operator=(const LeaksIgnored&) = delete;
#endif
};

// TFLite's own loader (libexternal_delegate_obj.so, what benchmark_model's
// --external_delegate_path and Python's load_delegate use) takes the library.
TEST(ExternalDelegate, LoaderTakesTheLibrary) {
  const std::string path = modelPath("hand_landmark_lite");
  if (!fs::exists(path)) GTEST_SKIP() << "no " << path;
  void* loader = dlopen(ANNRT_EXTERNAL_DELEGATE_LOADER, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(loader, nullptr) << dlerror();
  using Defaults = TfLiteExternalDelegateOptions (*)(const char*);
  using Create = TfLiteDelegate* (*)(const TfLiteExternalDelegateOptions*);
  using Delete = void (*)(TfLiteDelegate*);
  auto defaults = reinterpret_cast<Defaults>(dlsym(loader, "TfLiteExternalDelegateOptionsDefault"));
  auto create = reinterpret_cast<Create>(dlsym(loader, "TfLiteExternalDelegateCreate"));
  auto destroy = reinterpret_cast<Delete>(dlsym(loader, "TfLiteExternalDelegateDelete"));
  ASSERT_TRUE(defaults && create && destroy);
  TfLiteExternalDelegateOptions options = defaults(ANNRT_TFLITE_DELEGATE_LIBRARY);
  ASSERT_EQ(options.insert(&options, "devices", "annrt-cpu"), kTfLiteOk);
  ASSERT_EQ(options.insert(&options, "num_threads", "2"), kTfLiteOk);
  TfLiteDelegate* delegate = create(&options);
  ASSERT_NE(delegate, nullptr);
  const AnnrtTfliteDelegateStats before = stats();
  EXPECT_LE(compareWithTflite(path, delegate), kTolerance);
  EXPECT_GT(stats().delegatedNodes, before.delegatedNodes);
  destroy(delegate);

  // TFLite 2.9's loader passes no report_error: the delegate logs the
  // error, and the loader's wrapper then delegates nothing.
  TfLiteExternalDelegateOptions wrong = defaults(ANNRT_TFLITE_DELEGATE_LIBRARY);
  ASSERT_EQ(wrong.insert(&wrong, "num_threads", "many"), kTfLiteOk);
  // Its result is not deleted: TFLite 2.9's TfLiteExternalDelegateDelete
  // crashes on a wrapper whose plug-in refused the options, so the wrapper
  // is TFLite's leak, not annrt's: LeakSanitizer is told to ignore it.
  ::testing::internal::CaptureStderr();
  {
    [[maybe_unused]] const LeaksIgnored ignored;
    create(&wrong);
  }
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(log.find("option num_threads: 'many' is not an integer"), std::string::npos) << log;
  dlclose(loader);
}

}  // namespace
}  // namespace annrt::tflite::delegate::testing
