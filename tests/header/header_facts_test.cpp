// Copyright 2026 The annrt Authors
// SPDX-License-Identifier: Apache-2.0
//
// Checks every row of shared/nnapi/nnapi-facts.csv against the public headers:
// enumerators and constants have the CSV's value (and belong to the CSV's enum
// type), functions are declared with the CSV's return type, and each name comes
// from the header the CSV names. The names themselves are compiled into
// generated facts_*.cpp files (see CMakeLists.txt), so a missing name already
// fails the build.

#include "header_facts.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace annrt::testing {

std::vector<HeaderFact>& headerFacts() {
  static std::vector<HeaderFact> facts;
  return facts;
}

namespace {

struct CsvRow {
  int line = 0;
  std::string kind;
  std::string name;
  std::string value;
  std::string definedIn;
  std::string notes;
};

// Splits one CSV line (RFC 4180 quoting, no embedded newlines).
std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

std::optional<std::vector<CsvRow>> readFacts(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = splitCsv(line);
  std::map<std::string, size_t> column;
  for (size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
  std::vector<CsvRow> rows;
  int number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    const std::vector<std::string> fields = splitCsv(line);
    auto field = [&](const char* name) {
      const auto it = column.find(name);
      return it != column.end() && it->second < fields.size() ? fields[it->second] : "";
    };
    rows.push_back({number, field("kind"), field("name"), field("value"), field("defined_in"),
                    field("notes")});
  }
  return rows;
}

const HeaderFact* findFact(const std::string& name) {
  for (const HeaderFact& fact : headerFacts()) {
    if (name == fact.name) return &fact;
  }
  return nullptr;
}

std::string expectedReturnType(const CsvRow& row) {
  static const std::regex kReturns("returns ([A-Za-z0-9_]+)");
  std::smatch match;
  return std::regex_search(row.notes, match, kReturns) ? match[1].str() : "";
}

class HeaderFactsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::optional<std::vector<CsvRow>> rows = readFacts(ANNRT_NNAPI_FACTS_CSV);
    if (!rows) GTEST_SKIP() << "no facts CSV at " << ANNRT_NNAPI_FACTS_CSV;
    rows_ = std::move(*rows);
  }
  std::vector<CsvRow> rows_;
};

TEST_F(HeaderFactsTest, EveryRowIsCompiledIn) {
  EXPECT_EQ(headerFacts().size(), rows_.size())
      << "the generated tables are out of date with the CSV; re-run cmake";
  for (const CsvRow& row : rows_) {
    EXPECT_NE(findFact(row.name), nullptr)
        << "line " << row.line << ": " << row.name << " not in the generated tables; re-run cmake";
  }
}

TEST_F(HeaderFactsTest, EnumeratorsAndConstantsHaveTheirValues) {
  for (const CsvRow& row : rows_) {
    const HeaderFact* fact = findFact(row.name);
    if (fact == nullptr || row.kind == "Function") continue;
    SCOPED_TRACE("line " + std::to_string(row.line) + ": " + row.name);
    EXPECT_FALSE(fact->isFunction);
    EXPECT_EQ(fact->value, std::strtoll(row.value.c_str(), nullptr, 10));
    EXPECT_TRUE(fact->kindMatches) << row.name << " is not an enumerator of " << row.kind;
    EXPECT_EQ(std::string(fact->header), row.definedIn);
  }
}

TEST_F(HeaderFactsTest, FunctionsAreDeclaredWithTheirReturnType) {
  for (const CsvRow& row : rows_) {
    const HeaderFact* fact = findFact(row.name);
    if (fact == nullptr || row.kind != "Function") continue;
    SCOPED_TRACE("line " + std::to_string(row.line) + ": " + row.name);
    EXPECT_TRUE(fact->isFunction);
    EXPECT_EQ(std::string(fact->returnType), expectedReturnType(row));
    EXPECT_TRUE(fact->returnMatches)
        << row.name << " is not declared to return " << fact->returnType;
    EXPECT_EQ(std::string(fact->header), row.definedIn);
  }
}

}  // namespace
}  // namespace annrt::testing
