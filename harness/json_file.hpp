// Reading the project's JSON files (matrices, tables, goldens, manifests, bundles): a missing
// file or a parse error is an InputError naming the file and where the parse stopped.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace twinproof {

// `what` completes "cannot open ...", e.g. "the calibration table".
nlohmann::json read_json_file(const std::filesystem::path& file, const std::string& what);

}  // namespace twinproof
