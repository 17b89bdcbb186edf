// The environment a report was produced in: commit, compiler, CPU, CUDA runtime and driver,
// devices. Written into every summary and repro bundle.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace twinproof {

nlohmann::json environment_fingerprint();

// Today's date as YYYY-MM-DD (UTC).
std::string today_utc();

}  // namespace twinproof
