// A matrix names axes (twin, vector, bit depth, chroma, option set) plus include / exclude
// rules; it expands into cells. Describing cells is cheap and runs nothing, so listing,
// filtering and sharding are free.
#pragma once

#include <filesystem>

#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "extractors/extractor.hpp"
#include "harness/support/cell.hpp"

namespace twinproof {

// A matrix covers one feature, or several ("features": [block, ...]); a block names its feature,
// optionally its reference (default: the feature's), option sets, axes and rules. The twin axis
// may say "*": every registered twin of the feature.
struct Matrix {
  std::filesystem::path file;
  std::string name;
  std::vector<std::string> features;  // in file order
  std::vector<Cell> cells;            // sorted by id
};

// Loads and expands a matrix file. Throws InputError naming the file and the field.
Matrix load_matrix(const std::filesystem::path& file);
// The same from a parsed document (`file` names it in errors).
Matrix matrix_from_json(const nlohmann::json& document, const std::filesystem::path& file);

// --filter semantics, for cell ids and golden case ids alike: an id is kept when it matches no
// exclude glob (a leading '-') and, if any include glob is given, at least one of them.
bool matches_filters(const std::vector<std::string>& globs, const std::string& id);
// The same for a thing known by several names (a golden case as "vector/set" and as
// "feature/vector/set"): a glob that matches any of the names counts, for excludes too.
bool matches_filters(const std::vector<std::string>& globs, std::initializer_list<std::string> names);
std::vector<Cell> filter_cells(const std::vector<Cell>& cells, const std::vector<std::string>& globs);

struct Shard {
  unsigned index = 0, count = 1;
};
// "I/N"; throws ConfigError.
Shard parse_shard(const std::string& s);
// GTEST_SHARD_INDEX / GTEST_TOTAL_SHARDS when set (and touches GTEST_SHARD_STATUS_FILE).
std::optional<Shard> shard_from_environment();
// Cell k of the sorted list goes to shard k mod N.
std::vector<Cell> take_shard(const std::vector<Cell>& sorted, const Shard& s);

}  // namespace twinproof
