#include <fmt/format.h>

#include "harness/cli/commands.hpp"

namespace twinproof::cli {

OptionList parse_option_flags(const std::vector<std::string>& flags) {
  OptionList out;
  for (const std::string& f : flags) {
    const auto eq = f.find('=');
    if (eq == std::string::npos || eq == 0)
      throw ConfigError("--option", f, fmt::format("--option '{}' is not NAME=VALUE", f));
    out.emplace_back(f.substr(0, eq), f.substr(eq + 1));
  }
  return out;
}

const Backend& backend_or_throw(const std::string& feature, const std::string& name, bool with_mutants) {
  if (const Backend* b = find_backend(feature, name, with_mutants)) return *b;
  std::string known;
  for (const Backend* b : backends(with_mutants))
    if (b->feature == feature) known += (known.empty() ? "" : ", ") + std::string(b->name);
  throw ConfigError("--backend", name, fmt::format("--backend '{}': no such backend for {}; known: {}", name, feature, known));
}

std::vector<std::string> split_list(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const auto end = s.find(sep, start);
    const std::string part = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!part.empty()) out.push_back(part);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace twinproof::cli
