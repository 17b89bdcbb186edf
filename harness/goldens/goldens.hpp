// Goldens: expected scores per vector and option set, with provenance. Oracle goldens
// (computed by libvmaf) are never rewritten.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <nlohmann/json.hpp>

#include "extractors/registry.hpp"
#include "harness/scoring/scores.hpp"
#include "harness/support/cell.hpp"

namespace twinproof {

struct GoldenCase {
  std::string id;          // "pan576/default"
  std::string vector;      // "pan576"
  std::string option_set;  // "default"
  OptionList options;
  ScoreTable expected;
};

struct GoldenRefusal {
  std::string id;
  std::string vector;
  OptionList options;
  bool refused_by_libvmaf = false;
};

struct GoldenFile {
  std::filesystem::path file;
  std::string feature, vector;
  nlohmann::json provenance;
  std::vector<GoldenCase> cases;
  std::vector<GoldenRefusal> refusals;
};

// goldens/<feature>/*.json, sorted by vector. Throws InputError on a malformed file.
std::vector<GoldenFile> load_goldens(const std::string& feature);
GoldenFile load_golden_file(const std::filesystem::path& file);
// A regression cell's golden file: the one its matrix read, or (a cell read back from a record or a
// bundle) goldens/FEATURE/VECTOR.json read now.
std::shared_ptr<const GoldenFile> golden_file_of(const Cell& cell);
// The same from a parsed document (`file` names it in errors; used by the fuzz target).
GoldenFile golden_from_json(const nlohmann::json& document, const std::filesystem::path& file);

OptionList options_from_json(const nlohmann::json& j, const std::string& file, const std::string& where);

enum class GoldenStatus { pass, fail, absent, error };
std::string_view to_string(GoldenStatus s);

struct GoldenResult {
  std::string id;
  GoldenStatus status = GoldenStatus::error;
  std::string detail;
  double seconds = 0;
  TableComparison comparison;  // scored cases
};

// Scores the case's vector with the backend and compares every value (bit for bit by default).
GoldenResult check_case(const Backend& b, const GoldenCase& c, const ExtractorContext& ctx,
                        const Tolerance& t = Tolerance::exact());
// The backend must refuse the configuration at init.
GoldenResult check_refusal(const Backend& b, const GoldenRefusal& r, const ExtractorContext& ctx);

}  // namespace twinproof
