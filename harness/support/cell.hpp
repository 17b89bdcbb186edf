// A cell: one twin of one feature on one input and option set, the unit every room speaks of (a
// matrix expands into cells, a gate judges them, a record and a repro bundle hold them). Its id is
// its coordinates: feature/twin/vector/NNb/CCC/option_set.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "extractors/extractor.hpp"

namespace twinproof {

struct GoldenFile;  // harness/goldens/goldens.hpp; a cell only carries one

enum class CellKind {
  parity,      // a twin against the reference, judged by the calibration table
  regression,  // the reference against its goldens, exact
};
std::string_view to_string(CellKind k);

struct Cell {
  std::string id;  // feature/twin/vector/NNb/CCC/option_set
  CellKind kind = CellKind::parity;
  std::string feature, reference, twin;
  std::string vector;  // base vector id, or a pair's: "VECTOR~DISTORTION"
  int bitdepth = 8;
  Chroma chroma = Chroma::c420;
  std::string option_set;
  OptionList options;
  std::string golden;  // regression cells: the golden case or refusal id
  // Regression cells of a matrix: the golden file the matrix read to make the cell, carried so that
  // judging and repro do not read it again (nullptr for a cell read back from a record: read by name).
  std::shared_ptr<const GoldenFile> golden_file;

  // The reference run this cell needs: shared by every twin of the same input and options.
  std::string unit() const;
};

// A cell's record: id, kind, feature, reference, twin, vector, bitdepth, chroma, option_set,
// options, golden. Results records and repro bundles both start from it.
nlohmann::json to_json(const Cell& c);
// The same read back (options and golden may be absent: older records); throws std::exception.
Cell cell_from_json(const nlohmann::json& j);

std::string cell_id(const std::string& feature, const std::string& twin, const std::string& vector, int bitdepth, Chroma chroma,
                    const std::string& option_set);

// A name that becomes one part of a cell id and of paths (option sets, vector ids in bundles): 1 to
// 64 of A-Z a-z 0-9 _ - . = + ~, not starting with '.' ('~' joins a pair's vector and distortion).
bool is_plain_name(std::string_view name);

}  // namespace twinproof
