// The environment a report was produced in: commit, compiler, CPU, CUDA runtime and driver,
// devices. Written into every summary and repro bundle.
#pragma once

#include <nlohmann/json.hpp>

namespace twinproof {

nlohmann::json environment_fingerprint();

}  // namespace twinproof
