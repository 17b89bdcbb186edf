// Plugin twins: shared libraries built against extractors/twinproof_plugin.h, loaded with
// `--plugin PATH` (repeatable) or TWINPROOF_PLUGINS (paths separated by ':'), each twin they
// export registered as a backend like any other (cells, calibration row, reports, repro).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace twinproof {

// The paths in TWINPROOF_PLUGINS, in order (empty entries skipped).
std::vector<std::filesystem::path> plugins_from_environment();

// Loads each plugin and registers its twins. Throws UsageError naming the file and what is wrong
// (no such file, not loadable, not a twinproof plugin, another ABI version, an unknown feature, a
// malformed twin name, a missing function, a twin name already taken). A loaded plugin stays
// loaded for the life of the process.
void register_plugins(const std::vector<std::filesystem::path>& paths);

}  // namespace twinproof
