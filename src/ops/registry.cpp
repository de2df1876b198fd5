// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// The operation table. Each file src/ops/families/NAME.cpp defines
// annrt::ops::families::NAME::operations(); CMake lists them in families.inc, so adding a
// family is adding a file.
#include <algorithm>
#include <array>
#include <vector>

#include "ops/operation.h"

#define ANNRT_OPERATION_FAMILY(name)                   \
  namespace annrt::ops::families::name {               \
  std::span<const OperationRegistration> operations(); \
  }
#include "families.inc"
#undef ANNRT_OPERATION_FAMILY

namespace annrt::ops {
namespace {

using FamilyFunction = std::span<const OperationRegistration> (*)();

constexpr FamilyFunction kFamilies[] = {
#define ANNRT_OPERATION_FAMILY(name) &families::name::operations,
#include "families.inc"
#undef ANNRT_OPERATION_FAMILY
};

class OperationTable {
 public:
  OperationTable() {
    for (FamilyFunction family : kFamilies) {
      for (const OperationRegistration& registration : family()) {
        (registration.extension ? extensions_ : all_).push_back(&registration);
      }
    }
    std::sort(all_.begin(), all_.end(), [](auto* a, auto* b) { return a->type < b->type; });
  }

  const OperationRegistration* find(OperationType type) const {
    auto it = std::lower_bound(all_.begin(), all_.end(), type,
                               [](auto* r, OperationType t) { return r->type < t; });
    return it != all_.end() && (*it)->type == type ? *it : nullptr;
  }

  std::span<const OperationRegistration* const> all() const { return all_; }

  const OperationRegistration* findExtension(std::string_view extension, uint16_t code) const {
    for (const OperationRegistration* registration : extensions_) {
      if (registration->extension == extension && registration->extensionCode == code) {
        return registration;
      }
    }
    return nullptr;
  }

  bool knowsExtension(std::string_view extension) const {
    return std::any_of(extensions_.begin(), extensions_.end(),
                       [&](auto* registration) { return registration->extension == extension; });
  }

 private:
  std::vector<const OperationRegistration*> all_;
  std::vector<const OperationRegistration*> extensions_;
};

const OperationTable& table() {
  static const OperationTable instance;
  return instance;
}

}  // namespace

const OperationRegistration* findOperation(OperationType type) {
  return table().find(type);
}

std::span<const OperationRegistration* const> allOperations() {
  return table().all();
}

const OperationRegistration* findExtensionOperation(std::string_view extension, uint16_t code) {
  return table().findExtension(extension, code);
}

bool isKnownExtension(std::string_view extension) {
  return table().knowsExtension(extension);
}

const OperationRegistration* findModelOperation(std::span<const ExtensionPrefix> extensions,
                                                OperationType type) {
  const auto code = static_cast<int32_t>(type);
  if (!isExtensionCode(code)) return findOperation(type);
  const auto prefix = static_cast<uint32_t>(code) >> kExtensionTypeBits;
  for (const ExtensionPrefix& extension : extensions) {
    if (extension.prefix == prefix) {
      return findExtensionOperation(extension.name, static_cast<uint16_t>(code & 0xffff));
    }
  }
  return nullptr;
}

}  // namespace annrt::ops
