// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0

#include "op_profile_table.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

namespace annrt::tools {
namespace {

constexpr size_t kTopByTimeRows = 10;  // benchmark_model's default time_limit

// One row of the per-operation tables.
struct Row {
  std::string type;
  std::string name;
  std::string device;
  double startMs = 0;
  double avgMs = 0;     // per call
  double perRunMs = 0;  // per execution (avg x times called)
  int64_t timesCalled = 0;
};

std::ostream& field(std::ostream& stream, int width) {
  return stream << "\t" << std::right << std::setw(width) << std::fixed << std::setprecision(3);
}

std::string sectionTitle(const std::string& title) {
  return "============================== " + title + " ==============================\n";
}

const ProfiledOperation* findOperation(const CompilationProfile& profile, uint32_t index) {
  for (const ProfiledOperation& op : profile.operations) {
    if (op.index == index) return &op;
  }
  return nullptr;
}

Row makeRow(const CompilationProfile& profile, const std::vector<OperationLabel>& labels,
            uint32_t index, int64_t executions) {
  Row row;
  const ProfiledOperation* op = findOperation(profile, index);
  if (index < labels.size()) {
    row.type = labels[index].type;
    row.name = labels[index].name;
  } else {
    row.type = op != nullptr ? op->type : "?";
    row.name = "operation " + std::to_string(index);
  }
  if (op == nullptr) return row;
  row.device = op->device;
  if (op->count > 0) row.avgMs = static_cast<double>(op->totalNs) / op->count / 1e6;
  if (executions > 0) {
    row.perRunMs = static_cast<double>(op->totalNs) / executions / 1e6;
    row.timesCalled = op->count / executions;
  }
  return row;
}

std::vector<Row> runOrderRows(const CompilationProfile& profile,
                              const std::vector<OperationLabel>& labels, int64_t executions) {
  const uint32_t count =
      std::max<uint32_t>(profile.modelOperations, static_cast<uint32_t>(labels.size()));
  std::vector<Row> rows;
  double start = 0;
  for (uint32_t i = 0; i < count; ++i) {
    Row row = makeRow(profile, labels, i, executions);
    row.startMs = start;
    start += row.perRunMs;
    rows.push_back(std::move(row));
  }
  return rows;
}

double totalPerRunMs(const std::vector<Row>& rows) {
  double total = 0;
  for (const Row& row : rows) total += row.perRunMs;
  return total;
}

double percent(double part, double total) {
  return total > 0 ? part * 100.0 / total : 0.0;
}

std::string operationHeader() {
  std::ostringstream s;
  field(s, 24) << "[node type]";
  field(s, 17) << "[start]";
  field(s, 9) << "[first]";
  field(s, 9) << "[avg ms]";
  field(s, 8) << "[%]";
  field(s, 8) << "[cdf%]";
  field(s, 10) << "[mem KB]";
  field(s, 9) << "[times called]";
  field(s, 16) << "[device]";
  s << "\t[Name]\n";
  return s.str();
}

std::string operationLine(const Row& row, double cumulativeMs, double totalMs) {
  std::ostringstream s;
  field(s, 24) << row.type;
  field(s, 17) << row.startMs;
  field(s, 9) << row.avgMs;
  field(s, 9) << row.avgMs;
  field(s, 7) << percent(row.perRunMs, totalMs) << "%";
  field(s, 7) << percent(cumulativeMs, totalMs) << "%";
  field(s, 10) << 0.0;
  field(s, 9) << row.timesCalled;
  field(s, 16) << (row.device.empty() ? "?" : row.device);
  s << "\t" << row.name << "\n";
  return s.str();
}

std::string operationTable(const std::string& title, const std::vector<Row>& rows, double totalMs) {
  std::string text = sectionTitle(title) + operationHeader();
  double cumulative = 0;
  for (const Row& row : rows) {
    cumulative += row.perRunMs;
    text += operationLine(row, cumulative, totalMs);
  }
  return text + "\n";
}

std::vector<Row> topByTime(std::vector<Row> rows) {
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& a, const Row& b) { return a.avgMs > b.avgMs; });
  if (rows.size() > kTopByTimeRows) rows.resize(kTopByTimeRows);
  return rows;
}

struct TypeSummary {
  int64_t nodes = 0;
  double perRunMs = 0;
  int64_t timesCalled = 0;
};

std::string typeSummary(const std::vector<Row>& rows, double totalMs) {
  std::map<std::string, TypeSummary> byType;
  for (const Row& row : rows) {
    TypeSummary& summary = byType[row.type];
    ++summary.nodes;
    summary.perRunMs += row.perRunMs;
    summary.timesCalled += row.timesCalled;
  }
  std::vector<std::pair<std::string, TypeSummary>> sorted(byType.begin(), byType.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second.perRunMs > b.second.perRunMs;
  });
  std::ostringstream s;
  s << "Number of nodes executed: " << rows.size() << "\n" << sectionTitle("Summary by node type");
  field(s, 24) << "[Node type]";
  field(s, 9) << "[count]";
  field(s, 10) << "[avg ms]";
  field(s, 11) << "[avg %]";
  field(s, 11) << "[cdf %]";
  field(s, 10) << "[mem KB]";
  field(s, 10) << "[times called]";
  s << "\n";
  double cdf = 0;
  for (const auto& [type, summary] : sorted) {
    cdf += percent(summary.perRunMs, totalMs);
    field(s, 24) << type;
    field(s, 9) << summary.nodes;
    field(s, 10) << summary.perRunMs;
    field(s, 10) << percent(summary.perRunMs, totalMs) << "%";
    field(s, 10) << cdf << "%";
    field(s, 10) << 0.0;
    field(s, 9) << summary.timesCalled;
    s << "\n";
  }
  s << "\n";
  return s.str();
}

// "0-3,7,9,10": runs of three or more consecutive indexes as ranges.
std::string operationList(const std::vector<uint32_t>& operations) {
  std::string text;
  for (size_t i = 0; i < operations.size();) {
    size_t j = i;
    while (j + 1 < operations.size() && operations[j + 1] == operations[j] + 1) ++j;
    if (!text.empty()) text += ',';
    if (j - i >= 2) {
      text += std::to_string(operations[i]) + "-" + std::to_string(operations[j]);
      i = j + 1;
    } else {
      text += std::to_string(operations[i]);
      ++i;
    }
  }
  return text;
}

std::string partitionSummary(const CompilationProfile& profile, const std::vector<Row>& rows,
                             double totalMs) {
  std::ostringstream s;
  s << "Number of partitions: " << profile.steps.size() << "\n"
    << sectionTitle("Summary by partition");
  field(s, 11) << "[partition]";
  field(s, 16) << "[device]";
  field(s, 7) << "[ops]";
  field(s, 10) << "[avg ms]";
  field(s, 10) << "[%]";
  s << "\t[operations]\n";
  for (size_t i = 0; i < profile.steps.size(); ++i) {
    const ProfiledStep& step = profile.steps[i];
    double ms = 0;
    for (uint32_t index : step.operations) {
      if (index < rows.size()) ms += rows[index].perRunMs;
    }
    field(s, 11) << i;
    field(s, 16) << (step.device.empty() ? "?" : step.device);
    field(s, 7) << step.operations.size();
    field(s, 10) << ms;
    field(s, 9) << percent(ms, totalMs) << "%";
    s << "\t" << operationList(step.operations) << "\n";
  }
  s << "\n";
  return s.str();
}

}  // namespace

std::string formatOperatorProfile(const CompilationProfile& profile,
                                  const std::vector<OperationLabel>& labels, int64_t executions) {
  const std::vector<Row> rows = runOrderRows(profile, labels, executions);
  const double totalMs = totalPerRunMs(rows);
  std::string text = "Operator-wise Profiling Info for Regular Benchmark Runs:\n";
  text += operationTable("Run Order", rows, totalMs);
  text += operationTable("Top by Computation Time", topByTime(rows), totalMs);
  text += typeSummary(rows, totalMs);
  text += partitionSummary(profile, rows, totalMs);
  return text;
}

}  // namespace annrt::tools
