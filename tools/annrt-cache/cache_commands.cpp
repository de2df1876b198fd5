// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
#include "cache_commands.h"

#include <fmt/format.h>

#include <optional>

namespace annrt::tools {
namespace {

using runtime::CacheDirectory;
using runtime::CacheEntryInfo;

constexpr const char* kUsage =
    "usage: annrt-cache [--path P] list|verify|clear\n"
    "  list    the entries: key, device, device version, annrt version, size, last use\n"
    "  verify  checks every entry's header and checksum; exit status 1 if any is bad\n"
    "  clear   removes the entries (other files are left alone)\n"
    "Without --path: the automatic cache (ANNRT_CACHE_PATH, $XDG_CACHE_HOME/annrt,\n"
    "$HOME/.cache/annrt).\n";

struct Invocation {
  std::string path, command;
};

std::optional<Invocation> parse(const std::vector<std::string>& args, std::ostream& err) {
  Invocation invocation;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--path" && i + 1 < args.size()) {
      invocation.path = args[++i];
    } else if (arg.starts_with("--path=")) {
      invocation.path = arg.substr(7);
    } else if (!arg.starts_with("-") && invocation.command.empty()) {
      invocation.command = arg;
    } else {
      err << "annrt-cache: unexpected argument '" << arg << "'\n" << kUsage;
      return std::nullopt;
    }
  }
  if (invocation.command != "list" && invocation.command != "verify" &&
      invocation.command != "clear") {
    err << (invocation.command.empty()
                ? "annrt-cache: no command\n"
                : "annrt-cache: unknown command '" + invocation.command + "'\n")
        << kUsage;
    return std::nullopt;
  }
  return invocation;
}

int verify(CacheDirectory& cache, std::ostream& out, std::ostream& err) {
  const auto entries = cache.entries(true);
  size_t bad = 0;
  for (const CacheEntryInfo& entry : entries) {
    if (entry.problem.empty()) continue;
    ++bad;
    err << "BAD " << cache.path() << "/" << entry.fileName << ": " << entry.problem << "\n";
  }
  out << fmt::format("{}: {} entries, {} bad\n", cache.path(), entries.size(), bad);
  return bad == 0 ? 0 : 1;
}

}  // namespace

std::string formatAge(std::chrono::system_clock::duration age) {
  const int64_t seconds =
      std::max<int64_t>(0, std::chrono::duration_cast<std::chrono::seconds>(age).count());
  if (seconds < 120) return fmt::format("{}s", seconds);
  if (seconds < int64_t{120} * 60) return fmt::format("{}m", seconds / 60);
  if (seconds < int64_t{48} * 3600) return fmt::format("{}h", seconds / 3600);
  return fmt::format("{}d", seconds / 86400);
}

std::string formatCacheEntries(const std::vector<CacheEntryInfo>& entries,
                               std::chrono::system_clock::time_point now) {
  std::string text = fmt::format("{:<64}  {:<20} {:<12} {:<8} {:>12} {:>6}\n", "KEY", "DEVICE",
                                 "VERSION", "ANNRT", "BYTES", "USED");
  for (const CacheEntryInfo& entry : entries) {
    text += fmt::format("{:<64}  {:<20} {:<12} {:<8} {:>12} {:>6}", runtime::toHex(entry.key),
                        entry.deviceName, entry.deviceVersion, entry.annrtVersion, entry.fileSize,
                        formatAge(now - entry.lastUsed));
    if (!entry.problem.empty()) text += "  BAD: " + entry.problem;
    text += "\n";
  }
  return text;
}

int runCacheTool(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    out << kUsage;
    return 0;
  }
  const auto invocation = parse(args, err);
  if (!invocation) return 2;
  std::string path = invocation->path;
  if (path.empty()) {
    path = runtime::AutomaticCacheSettings::fromEnvironment().path;
    if (path.empty()) {
      err << "annrt-cache: the automatic cache is disabled (ANNRT_CACHE_CAPACITY=0); give "
             "--path\n";
      return 1;
    }
  }
  // As the application's directory: nothing is created, nothing evicted.
  auto cache = CacheDirectory::openApplication(path);
  if (!cache.ok()) {
    err << "annrt-cache: " << cache.error().message << "\n";
    return 1;
  }
  if (invocation->command == "list") {
    out << formatCacheEntries((*cache)->entries(false), std::chrono::system_clock::now());
    return 0;
  }
  if (invocation->command == "verify") return verify(**cache, out, err);
  const auto removed = (*cache)->clear();
  if (!removed.ok()) {
    err << "annrt-cache: " << removed.error().message << "\n";
    return 1;
  }
  out << fmt::format("{}: removed {} files\n", path, *removed);
  return 0;
}

}  // namespace annrt::tools
