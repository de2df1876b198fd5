// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "runtime/build_id.h"

#include <elf.h>
#include <link.h>

#include <cstring>

#include "common/log.h"

namespace annrt::runtime {
namespace {

struct Search {
  const void* address;  // a symbol of this library
  std::string id;
};

bool containsAddress(const dl_phdr_info& info, const void* address) {
  const auto target = reinterpret_cast<ElfW(Addr)>(address);
  for (ElfW(Half) i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info.dlpi_phdr[i];
    if (header.p_type != PT_LOAD) continue;
    const ElfW(Addr) start = info.dlpi_addr + header.p_vaddr;
    if (target >= start && target < start + header.p_memsz) return true;
  }
  return false;
}

// The NT_GNU_BUILD_ID note among the PT_NOTE segments of `info`.
std::string buildIdOf(const dl_phdr_info& info) {
  for (ElfW(Half) i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info.dlpi_phdr[i];
    if (header.p_type != PT_NOTE) continue;
    // NOLINTNEXTLINE(performance-no-int-to-ptr): the loader gives the base as a number.
    const auto* at = reinterpret_cast<const uint8_t*>(info.dlpi_addr + header.p_vaddr);
    const uint8_t* end = at + header.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof(note));
      const uint8_t* name = at + sizeof(note);
      const uint8_t* desc = name + ((note.n_namesz + 3) & ~3u);
      const uint8_t* next = desc + ((note.n_descsz + 3) & ~3u);
      if (next > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
          std::memcmp(name, "GNU", 4) == 0) {
        std::string hex;
        for (uint32_t b = 0; b < note.n_descsz; ++b) hex += fmt::format("{:02x}", desc[b]);
        return hex;
      }
      at = next;
    }
  }
  return {};
}

int visit(dl_phdr_info* info, size_t /*size*/, void* data) {
  auto* search = static_cast<Search*>(data);
  if (!containsAddress(*info, search->address)) return 0;
  search->id = buildIdOf(*info);
  return 1;
}

}  // namespace

const std::string& runtimeBuildId() {
  static const std::string id = [] {
    Search search{reinterpret_cast<const void*>(&runtimeBuildId), {}};
    dl_iterate_phdr(visit, &search);
    return search.id;
  }();
  return id;
}

}  // namespace annrt::runtime
