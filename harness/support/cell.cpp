#include "harness/support/cell.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

#include "harness/support/json_file.hpp"

namespace twinproof {

std::string_view to_string(CellKind k) { return k == CellKind::parity ? "parity" : "regression"; }

nlohmann::json to_json(const Cell& c) {
  nlohmann::json options = nlohmann::json::object();
  for (const auto& [k, v] : c.options) options[k] = v;
  return {{"id", c.id},
          {"kind", std::string(to_string(c.kind))},
          {"feature", c.feature},
          {"reference", c.reference},
          {"twin", c.twin},
          {"vector", c.vector},
          {"bitdepth", c.bitdepth},
          {"chroma", std::string(to_string(c.chroma))},
          {"option_set", c.option_set},
          {"options", options},
          {"golden", c.golden}};
}

Cell cell_from_json(const nlohmann::json& j) {
  Cell c;
  c.id = j.at("id").get<std::string>();
  const std::string kind = j.at("kind").get<std::string>();
  if (kind != "regression" && kind != "parity") throw std::invalid_argument("unknown cell kind '" + escape_control(kind) + "'");
  c.kind = kind == "regression" ? CellKind::regression : CellKind::parity;
  c.feature = j.at("feature").get<std::string>();
  c.reference = j.at("reference").get<std::string>();
  c.twin = j.at("twin").get<std::string>();
  c.vector = j.at("vector").get<std::string>();
  c.bitdepth = json_integer<int>(j.at("bitdepth"), "bitdepth");
  const std::string chroma = j.at("chroma").get<std::string>();
  const auto pc = parse_chroma(chroma);
  if (!pc) throw std::invalid_argument("unknown chroma '" + escape_control(chroma) + "'");
  c.chroma = *pc;
  c.option_set = j.at("option_set").get<std::string>();
  if (j.contains("options"))
    for (const auto& [k, v] : j.at("options").items()) c.options.emplace_back(k, v.get<std::string>());
  if (j.contains("golden")) c.golden = j.at("golden").get<std::string>();
  return c;
}

std::string cell_id(const std::string& feature, const std::string& twin, const std::string& vector, int bitdepth, Chroma chroma,
                    const std::string& option_set) {
  return fmt::format("{}/{}/{}/{}b/{}/{}", feature, twin, vector, bitdepth, to_string(chroma), option_set);
}

std::string Cell::unit() const {
  return fmt::format("{}/{}/{}b/{}/{}", feature, vector, bitdepth, to_string(chroma), option_set);
}

bool is_plain_name(std::string_view name) {
  return !name.empty() && name.size() <= 64 && name[0] != '.' && std::all_of(name.begin(), name.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.' || ch == '=' || ch == '+' ||
           ch == '~';
  });
}

}  // namespace twinproof
