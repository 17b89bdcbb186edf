// The subcommands of the twinproof command line. Each registers itself on the app; its callback
// stores the command's exit code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "extractors/extractor.hpp"
#include "extractors/registry.hpp"

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

// Shared helpers.
OptionList parse_option_flags(const std::vector<std::string>& flags);  // NAME=VALUE
const Backend& backend_or_throw(const std::string& feature, const std::string& name, bool with_mutants = false);
std::vector<std::string> split_list(const std::string& s, char sep = ',');
// --threads of the commands that run CPU backends on one clip: 0 (every hardware thread) or a
// count up to kMaxThreads; UsageError beyond.
inline constexpr unsigned kMaxThreads = 1024;
inline constexpr const char* threads_help =
    "Threads a CPU backend splits each plane's rows over (0: every hardware thread; each row's arithmetic is unchanged, "
    "so the scores are the same bits with any count)";
unsigned checked_threads(unsigned threads);
// --readers of the commands that score one file: threads reading frames ahead, each fetching
// whole frames where the file allows it. 0 picks by backend (resolve_readers).
inline constexpr unsigned kMaxReaders = 64;
inline constexpr const char* readers_help =
    "Threads reading the input ahead, each fetching whole frames of a raw or plain Y4M file (0: by backend, 1 to 4: a "
    "device twin a quarter of the hardware threads, a host twin one per 8 threads it computes on)";
// The readers for `b` computing on `threads` threads (0: every hardware thread) when --readers is
// `readers`; UsageError above kMaxReaders.
unsigned resolve_readers(unsigned readers, const Backend& b, unsigned threads);
// Prints rows (the first is the header) with every column but the last padded to its widest
// value, so that long values never push a column out of line. `right` lists right-aligned columns.
void print_columns(const std::vector<std::vector<std::string>>& rows, const std::vector<std::size_t>& right = {});
// Every numeric option of every subcommand takes plain decimal digits (no sign, hex, spaces,
// nan or inf): called once after the subcommands are added.
void harden_numeric_options(CLI::App& app);

}  // namespace twinproof::cli
