// The subcommands of the twinproof command line. Each registers itself on the app; its callback
// stores the command's exit code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "extractors/extractor.hpp"
#include "extractors/registry.hpp"
#include "harness/scoring/run_settings.hpp"
#include "harness/support/text.hpp"

namespace twinproof::cli {

void add_score(CLI::App& app, int& rc);
void add_backends(CLI::App& app, int& rc);
void add_features(CLI::App& app, int& rc);
void add_vectors(CLI::App& app, int& rc);
void add_goldens(CLI::App& app, int& rc);
void add_bench(CLI::App& app, int& rc);
void add_gate(CLI::App& app, int& rc);  // gate, merge, report
void add_repro(CLI::App& app, int& rc);
void add_compare(CLI::App& app, int& rc);

// Shared helpers: the help of --threads and --readers (harness/scoring/run_settings.hpp checks
// their values).
inline constexpr const char* threads_help =
    "Threads a CPU backend splits each plane's rows over (0: every hardware thread; each row's arithmetic is unchanged, "
    "so the scores are the same bits with any count)";
inline constexpr const char* readers_help =
    "Threads reading the input ahead, each fetching whole frames of a raw or plain Y4M file (0: by backend, 1 to 4: a "
    "device twin a quarter of the hardware threads, a host twin one per 8 threads it computes on)";
// Prints rows (the first is the header) with every column but the last padded to its widest
// value, so that long values never push a column out of line. `right` lists right-aligned columns.
void print_columns(const std::vector<std::vector<std::string>>& rows, const std::vector<std::size_t>& right = {});
// Every numeric option of every subcommand takes plain decimal digits (no sign, hex, spaces,
// nan or inf): called once after the subcommands are added.
void harden_numeric_options(CLI::App& app);

}  // namespace twinproof::cli
