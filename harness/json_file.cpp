#include "harness/json_file.hpp"

#include <fstream>

#include <fmt/format.h>

#include "harness/errors.hpp"

namespace twinproof {

nlohmann::json read_json_file(const std::filesystem::path& path, const std::string& what) {
  const std::string file = path.string();
  std::ifstream in(path);
  if (!in) throw InputError(file, "file", file, "cannot open " + what);
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(file, "json", fmt::format("byte {}", e.byte), e.what());
  }
}

}  // namespace twinproof
