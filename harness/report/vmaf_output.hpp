// Score tables written the way libvmaf's `vmaf` tool writes them (its JSON, XML and CSV shapes), so
// that twinproof's output diffs directly against a vmaf run.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/scoring/scores.hpp"
#include "harness/support/numbers.hpp"

namespace twinproof {

enum class VmafFormat { json, xml, csv, sub };
// "json", "xml", "csv", "sub"; throws ConfigError naming `flag`.
VmafFormat parse_vmaf_format(std::string_view text, std::string_view flag);

struct VmafDocument {
  const ScoreTable* table = nullptr;
  // Each column: the table's metric and the key it is written under ("motion2" or
  // "integer_motion2_mfw_2"), in output order.
  std::vector<std::pair<std::string, std::string>> columns;
  std::string version;  // "version" of JSON and XML
  double fps = 0;       // frames scored per second of extraction
  unsigned width = 0, height = 0;
  nlohmann::json provenance;  // JSON only, under "twinproof" (input, feature, backend, options); null: left out
};

// The whole document. Frames without any value are left out (libvmaf writes no entry for them). A
// metric's pooled min, max, mean and harmonic mean (libvmaf's formulas: mean = sum/n, harmonic
// mean = n / sum(1/(v+1)) - 1, summed in frame order) are written only when every frame has a
// value, as libvmaf leaves them out when one is missing. A missing value is an empty CSV field.
std::string render_vmaf(const VmafDocument& doc, VmafFormat format, NumberStyle style);

}  // namespace twinproof
