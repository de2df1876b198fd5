// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "drivers/cpu/cpu_cache.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <deque>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "common/align.h"
#include "drivers/cpu/native_kernel_table.h"

namespace annrt::cpu {
namespace {

constexpr char kMagic[8] = {'A', 'N', 'N', 'R', 'T', 'C', 'P', 'U'};
constexpr uint32_t kVersion = 4;
constexpr uint64_t kBlobAlignment = 64;
constexpr uint32_t kThreadedFlag = 1, kNativeFlag = 2;

struct CacheHeader {
  char magic[8];
  uint32_t version;
  uint32_t threads;
  uint32_t operationCount;  // of the model's main subgraph
  uint32_t operandCount;
  uint8_t codeIsa, decisionIsa, nativeKernels, reserved;
  uint32_t stageCount;
  uint32_t planWords;  // uint32 values of the plan, right after the header
  uint32_t entryCount;
  uint64_t fingerprint;  // modelFingerprint
  uint64_t indexOffset;
  uint64_t totalBytes;
};
static_assert(sizeof(CacheHeader) == 64);

enum class EntryKind : uint32_t {
  PACKED = 1,  // a native kernel's buffer: stage, operation, slot (WeightKey)
  HALF = 2,    // float16 weights as float32: operation is the CAST's output operand
};

struct CacheEntry {
  uint32_t kind;
  uint32_t stage, operation, slot;
  uint64_t offset, bytes;
};
static_assert(sizeof(CacheEntry) == 32);

// 64-bit words, each mixed in as in MurmurHash3's 64-bit body: fields go in
// whole, not byte by byte (byte-wise FNV-1a was a tenth of a warm compile).
class Fingerprint {
 public:
  void add(const void* data, size_t bytes) {
    const auto* p = static_cast<const uint8_t*>(data);
    for (; bytes >= sizeof(uint64_t); bytes -= sizeof(uint64_t), p += sizeof(uint64_t)) {
      uint64_t word;
      std::memcpy(&word, p, sizeof word);
      mix(word);
    }
    if (bytes > 0) {
      uint64_t word = 0;
      std::memcpy(&word, p, bytes);
      mix(word ^ (uint64_t{bytes} << 56));
    }
  }
  template <typename T>
  void add(const T& value) {
    add(&value, sizeof value);
  }
  void add(const std::vector<uint32_t>& values) {
    add(values.size());
    add(values.data(), values.size() * sizeof(uint32_t));
  }
  uint64_t value() const { return hash_; }

 private:
  void mix(uint64_t word) {
    word = std::rotl(word * 0x87C37B91114253D5ull, 31) * 0x4CF5AD432745937Full;
    hash_ = std::rotl(hash_ ^ word, 27) * 5 + 0x52DCE729;
  }

  uint64_t hash_ = 0xCBF29CE484222325ull;
};

// The model's structure (operations, operand types, shapes and
// quantization) and a sample of each constant's bytes: the runtime keys
// cache files by partition already, and this keeps another model's bytes
// (one of the same structure, as a landscape variant is) from being used,
// without reading every weight.
uint64_t modelFingerprint(const Model& model) {
  constexpr size_t kSamples = 8, kSampleBytes = 8;
  Fingerprint f;
  for (const Operand& operand : model.main.operands) {
    f.add(operand.shape.type);
    f.add(operand.shape.dims);
    f.add(operand.shape.scale);
    f.add(operand.shape.zeroPoint);
    f.add(operand.lifetime);
    const uint8_t* data = model.constantData(operand);
    if (data == nullptr) continue;
    const size_t length = operand.location.length;
    f.add(length);
    for (size_t k = 0; k < kSamples && length > 0; ++k) {
      const size_t at = length * k / kSamples;
      f.add(data + at, std::min(kSampleBytes, length - at));
    }
  }
  for (const Operation& op : model.main.operations) {
    f.add(op.type);
    f.add(op.inputs);
    f.add(op.outputs);
  }
  f.add(model.main.inputIndexes);
  f.add(model.main.outputIndexes);
  return f.value();
}

// Writes the layout front to back, zeros between its parts.
class SequentialWriter {
 public:
  explicit SequentialWriter(CacheWriter& out) : out_(out) {}
  void put(const void* data, size_t bytes) {
    ok_ = ok_ && out_.write({static_cast<const uint8_t*>(data), bytes});
    at_ += bytes;
  }
  void padTo(uint64_t offset) {
    static constexpr uint8_t kZeros[64] = {};
    while (at_ < offset) put(kZeros, std::min<uint64_t>(sizeof kZeros, offset - at_));
  }
  bool ok() const { return ok_; }

 private:
  CacheWriter& out_;
  uint64_t at_ = 0;
  bool ok_ = true;
};

uint64_t planOffset() {
  return sizeof(CacheHeader);
}

uint64_t indexOffset(uint32_t planWords) {
  return alignUp(planOffset() + uint64_t{planWords} * sizeof(uint32_t), 8);
}

std::vector<uint32_t> planWords(const std::vector<PlannedStage>& stages) {
  std::vector<uint32_t> words;
  for (const PlannedStage& stage : stages) {
    words.push_back((stage.threaded ? kThreadedFlag : 0) | (stage.native ? kNativeFlag : 0));
    words.push_back(static_cast<uint32_t>(stage.operations.size()));
    words.insert(words.end(), stage.operations.begin(), stage.operations.end());
  }
  return words;
}

// The main-model CAST operation writing each folded float16 CAST's output.
std::map<uint32_t, uint32_t> halfCasts(const Model& model, const FusionPlan& fusions) {
  std::map<uint32_t, uint32_t> casts;
  for (uint32_t op = 0; op < model.main.operations.size(); ++op) {
    if (fusions.role(op) == FusionRole::HALF_CAST) casts[model.main.operations[op].outputs[0]] = op;
  }
  return casts;
}

// Whether an operation of an XNNPACK stage reads each operand.
std::vector<bool> readByXnnpack(const Model& model, const std::vector<PlannedStage>& stages) {
  std::vector<bool> read(model.main.operands.size(), false);
  for (const PlannedStage& stage : stages) {
    if (stage.native) continue;
    for (uint32_t op : stage.operations) {
      for (uint32_t input : model.main.operations[op].inputs) read[input] = true;
    }
  }
  return read;
}

template <typename T>
T readAt(std::span<const uint8_t> bytes, uint64_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

// The stages in `words`, checked to be a plan of `fusions`' staged
// operations: each exactly once, in order.
Result<std::vector<PlannedStage>> readPlan(std::span<const uint8_t> bytes, uint32_t stageCount,
                                           uint32_t wordCount, const FusionPlan& fusions) {
  std::vector<uint32_t> words(wordCount);
  if (!words.empty()) {
    std::memcpy(words.data(), bytes.data() + planOffset(), words.size() * sizeof(uint32_t));
  }
  const std::vector<uint32_t>& staged = fusions.staged();
  std::vector<PlannedStage> stages;
  size_t at = 0, next = 0;  // next: index into staged
  for (uint32_t s = 0; s < stageCount; ++s) {
    ANNRT_CHECK(words.size() - at >= 2, "annrt-cpu cache: the plan ends in stage {}", s);
    const uint32_t flags = words[at++];
    const uint32_t count = words[at++];
    ANNRT_CHECK(flags <= (kThreadedFlag | kNativeFlag), "annrt-cpu cache: stage {} has flags {}", s,
                flags);
    ANNRT_CHECK(count > 0 && count <= words.size() - at && count <= staged.size() - next,
                "annrt-cpu cache: stage {} has {} operations, past the plan's end", s, count);
    PlannedStage stage{{}, (flags & kThreadedFlag) != 0, (flags & kNativeFlag) != 0};
    for (uint32_t k = 0; k < count; ++k, ++at, ++next) {
      ANNRT_CHECK(words[at] == staged[next],
                  "annrt-cpu cache: stage {} runs operation {} where the model's next is {}", s,
                  words[at], staged[next]);
      stage.operations.push_back(words[at]);
    }
    stages.push_back(std::move(stage));
  }
  ANNRT_CHECK(at == words.size() && next == staged.size(),
              "annrt-cpu cache: the plan covers {} of the model's {} operations", next,
              staged.size());
  return stages;
}

// The fusions of `stages` for `model`, as planStages made them.
std::shared_ptr<FusionPlan> fusionsOf(const Model& model, std::shared_ptr<FusionPlan> fusions,
                                      const std::vector<PlannedStage>& stages) {
  std::vector<bool> native(model.main.operations.size(), false);
  for (const PlannedStage& stage : stages) {
    for (uint32_t op : stage.operations) native[op] = stage.native;
  }
  fusions->foldIntoNative(model, native);
  return fusions;
}

}  // namespace

Result<void> writeCompileCache(const Model& model, const CompileSettings& settings,
                               const std::vector<PlannedStage>& stages, const FusionPlan& fusions,
                               const WeightStore& weights, CacheWriter& out) {
  const std::vector<uint32_t> plan = planWords(stages);
  std::vector<CacheEntry> entries;
  std::vector<const void*> blobs;
  // By key, so that a compile writes the same bytes whichever order its
  // kernels were made in (a warm start's store is a map).
  std::vector<WeightStore::Recorded> recorded = weights.recorded();
  std::sort(recorded.begin(), recorded.end(), [](const auto& a, const auto& b) {
    return std::tie(a.key.stage, a.key.operation, a.key.slot) <
           std::tie(b.key.stage, b.key.operation, b.key.slot);
  });
  for (const WeightStore::Recorded& packed : recorded) {
    entries.push_back({static_cast<uint32_t>(EntryKind::PACKED), packed.key.stage,
                       packed.key.operation, packed.key.slot, 0, packed.floats * sizeof(float)});
    blobs.push_back(packed.data.get());
  }
  // Converted now rather than kept from the compile: XNNPACK packs its own
  // copy, so keeping them would cost their size for the prepared model's life.
  std::deque<std::vector<float>> halves;
  std::unordered_set<const uint8_t*> converted;  // CASTs may share their float16 data
  const std::vector<bool> xnnpackReads = readByXnnpack(model, stages);
  for (const auto& [output, cast] : halfCasts(model, fusions)) {
    // Native kernels have theirs packed already.
    if (!xnnpackReads[output]) continue;
    const Operand& source = model.main.operands[model.main.operations[cast].inputs[0]];
    const uint8_t* data = model.constantData(source);
    ANNRT_CHECK(data != nullptr, "annrt-cpu: float16 weights of operand {} have no data", output);
    if (!converted.insert(data).second) continue;
    const std::vector<float>& floats =
        halves.emplace_back(halfToFloat(data, elementCount(source.shape)));
    entries.push_back(
        {static_cast<uint32_t>(EntryKind::HALF), 0, output, 0, 0, floats.size() * sizeof(float)});
    blobs.push_back(floats.data());
  }
  CacheHeader header{};
  std::memcpy(header.magic, kMagic, sizeof kMagic);
  header.version = kVersion;
  header.threads = settings.threads;
  header.operationCount = static_cast<uint32_t>(model.main.operations.size());
  header.operandCount = static_cast<uint32_t>(model.main.operands.size());
  header.codeIsa = static_cast<uint8_t>(nativeCodeIsa());
  header.decisionIsa = static_cast<uint8_t>(nativeDecisionIsa());
  header.nativeKernels = static_cast<uint8_t>(settings.nativeKernels);
  header.stageCount = static_cast<uint32_t>(stages.size());
  header.planWords = static_cast<uint32_t>(plan.size());
  header.entryCount = static_cast<uint32_t>(entries.size());
  header.fingerprint = modelFingerprint(model);
  header.indexOffset = indexOffset(header.planWords);
  uint64_t end = header.indexOffset + entries.size() * sizeof(CacheEntry);
  for (CacheEntry& entry : entries) {
    entry.offset = alignUp(end, kBlobAlignment);
    end = entry.offset + entry.bytes;
  }
  header.totalBytes = end;
  SequentialWriter writer(out);
  writer.put(&header, sizeof header);
  writer.put(plan.data(), plan.size() * sizeof(uint32_t));
  writer.padTo(header.indexOffset);
  writer.put(entries.data(), entries.size() * sizeof(CacheEntry));
  for (size_t i = 0; i < entries.size(); ++i) {
    writer.padTo(entries[i].offset);
    writer.put(blobs[i], entries[i].bytes);
  }
  ANNRT_CHECK_CODE(ErrorCode::OP_FAILED, writer.ok(),
                   "annrt-cpu cache: the runtime did not take "
                   "the bytes");
  return {};
}

Result<CachedCompile> readCompileCache(const Model& model, const CompileSettings& settings,
                                       const CachedBytes& cached) {
  const std::span<const uint8_t> bytes = cached.bytes;
  ANNRT_CHECK(reinterpret_cast<uintptr_t>(bytes.data()) % kBlobAlignment == 0,
              "annrt-cpu cache: the bytes are not 64-byte aligned");
  ANNRT_CHECK(bytes.size() >= sizeof(CacheHeader), "annrt-cpu cache: {} bytes hold no header",
              bytes.size());
  const auto header = readAt<CacheHeader>(bytes, 0);
  ANNRT_CHECK(std::memcmp(header.magic, kMagic, sizeof kMagic) == 0 && header.version == kVersion &&
                  header.reserved == 0,
              "annrt-cpu cache: not annrt-cpu's format version {}", kVersion);
  ANNRT_CHECK(header.totalBytes == bytes.size(), "annrt-cpu cache: {} bytes of {}", bytes.size(),
              header.totalBytes);
  ANNRT_CHECK(header.threads == settings.threads &&
                  header.nativeKernels == static_cast<uint8_t>(settings.nativeKernels),
              "annrt-cpu cache: planned for {} threads (native kernel mode {}), not {} ({})",
              header.threads, header.nativeKernels, settings.threads,
              static_cast<unsigned>(settings.nativeKernels));
  ANNRT_CHECK(header.codeIsa == static_cast<uint8_t>(nativeCodeIsa()) &&
                  header.decisionIsa == static_cast<uint8_t>(nativeDecisionIsa()),
              "annrt-cpu cache: packed for another instruction set");
  ANNRT_CHECK(header.operationCount == model.main.operations.size() &&
                  header.operandCount == model.main.operands.size(),
              "annrt-cpu cache: made for a model of {} operations and {} operands, not {} and {}",
              header.operationCount, header.operandCount, model.main.operations.size(),
              model.main.operands.size());
  ANNRT_CHECK(header.fingerprint == modelFingerprint(model),
              "annrt-cpu cache: made for another model of as many operations");
  const uint64_t indexBegin = indexOffset(header.planWords);
  ANNRT_CHECK(header.indexOffset == indexBegin &&
                  indexBegin + uint64_t{header.entryCount} * sizeof(CacheEntry) <= bytes.size(),
              "annrt-cpu cache: the plan or the index is past the end");
  const uint64_t indexEnd = indexBegin + uint64_t{header.entryCount} * sizeof(CacheEntry);
  auto fusions = std::make_shared<FusionPlan>(model);
  ANNRT_ASSIGN_OR_RETURN(std::vector<PlannedStage> stages,
                         readPlan(bytes, header.stageCount, header.planWords, *fusions));
  const std::map<uint32_t, uint32_t> casts = halfCasts(model, *fusions);
  std::unordered_map<WeightKey, WeightStore::CachedEntry, WeightKeyHash> packed;
  std::unordered_map<const uint8_t*, WeightStore::CachedEntry> halves;
  // The blobs follow the index in its order, each on the next 64-byte
  // boundary, as writeCompileCache lays them out: an offset or a size
  // changed in any entry breaks the chain.
  uint64_t blobEnd = indexEnd;
  for (uint32_t i = 0; i < header.entryCount; ++i) {
    const auto entry = readAt<CacheEntry>(bytes, indexBegin + uint64_t{i} * sizeof(CacheEntry));
    ANNRT_CHECK(entry.offset == alignUp(blobEnd, kBlobAlignment) && entry.offset <= bytes.size() &&
                    entry.bytes <= bytes.size() - entry.offset && entry.bytes % sizeof(float) == 0,
                "annrt-cpu cache: entry {} ({} bytes at {}) is misplaced", i, entry.bytes,
                entry.offset);
    blobEnd = entry.offset + entry.bytes;
    const WeightStore::CachedEntry blob{reinterpret_cast<const float*>(bytes.data() + entry.offset),
                                        entry.bytes / sizeof(float)};
    if (entry.kind == static_cast<uint32_t>(EntryKind::PACKED)) {
      ANNRT_CHECK(entry.stage < stages.size() && stages[entry.stage].native,
                  "annrt-cpu cache: entry {} is of stage {}, not a native stage", i, entry.stage);
      const bool added =
          packed.emplace(WeightKey{entry.stage, entry.operation, entry.slot}, blob).second;
      ANNRT_CHECK(added, "annrt-cpu cache: entry {} repeats a kernel's buffer", i);
      continue;
    }
    ANNRT_CHECK(entry.kind == static_cast<uint32_t>(EntryKind::HALF),
                "annrt-cpu cache: entry {} is of kind {}", i, entry.kind);
    auto cast = casts.find(entry.operation);
    ANNRT_CHECK(cast != casts.end(), "annrt-cpu cache: entry {}: operand {} is no folded CAST's", i,
                entry.operation);
    const Operand& source = model.main.operands[model.main.operations[cast->second].inputs[0]];
    const uint8_t* data = model.constantData(source);
    ANNRT_CHECK(data != nullptr && blob.floats == elementCount(source.shape),
                "annrt-cpu cache: entry {} has {} floats for operand {} of {}", i, blob.floats,
                entry.operation, toString(source.shape.dims));
    ANNRT_CHECK(halves.emplace(data, blob).second, "annrt-cpu cache: entry {} repeats weights", i);
  }
  return CachedCompile{
      {fusionsOf(model, std::move(fusions), stages), std::move(stages)},
      std::make_shared<WeightStore>(cached.owner, std::move(packed), std::move(halves))};
}

}  // namespace annrt::cpu
