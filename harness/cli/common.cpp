#include <algorithm>
#include <thread>

#include <fmt/format.h>

#include "harness/cli/commands.hpp"

#include "extractors/feature.hpp"

namespace twinproof::cli {

namespace {

// CLI11 reads "0x40" and " 64" as numbers and "nan" as a double; a flag of this tool takes plain
// decimal digits (and, for a real number, one decimal point), nothing else.
std::string plain_number(const std::string& text, bool real) {
  bool digits = false, point = false;
  for (const char ch : text) {
    if (ch >= '0' && ch <= '9') {
      digits = true;
    } else if (real && ch == '.' && !point) {
      point = true;
    } else {
      return fmt::format("'{}' is not a plain {} (digits{} only)", escape_control(text), real ? "number" : "whole number",
                         real ? " and one '.'" : "");
    }
  }
  if (!digits) return fmt::format("'{}' is not a number", escape_control(text));
  return {};
}

void harden(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    const std::string type = opt->get_type_name();
    // An empty value names nothing: `--report-dir ""` silently wrote no reports, `--matrix ""`
    // meant the default matrix and `-o ""` standard output.
    if (type == "TEXT" && opt->get_expected_max() > 0)
      opt->check(
          CLI::Validator([](std::string& v) { return v.empty() ? std::string("an empty value names nothing") : std::string(); },
                         "", "non-empty"));
    if (type == "UINT" || type == "INT" || type == "NONNEGATIVE")
      opt->check(CLI::Validator([](std::string& v) { return plain_number(v, false); }, "", "plain whole number"));
    else if (type == "FLOAT")
      opt->check(CLI::Validator([](std::string& v) { return plain_number(v, true); }, "", "plain number"));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) harden(*sub);
}

}  // namespace

void harden_numeric_options(CLI::App& app) { harden(app); }

unsigned checked_threads(unsigned threads) {
  if (threads > kMaxThreads)
    throw UsageError("--threads", std::to_string(threads),
                     fmt::format("--threads {}: at most {} (0: every hardware thread)", threads, kMaxThreads));
  return threads;
}

unsigned resolve_readers(unsigned readers, const Backend& b, unsigned threads) {
  if (readers > kMaxReaders)
    throw UsageError("--readers", std::to_string(readers),
                     fmt::format("--readers {}: at most {} (0: by backend)", readers, kMaxReaders));
  if (readers > 0) return readers;
  const unsigned hardware = std::max(std::thread::hardware_concurrency(), 1u);
  // A device twin's host threads mostly wait: readers may take a quarter of the cores. A host
  // twin's threads are the compute, and a reader copies frames about 8 times as fast as a thread
  // of cpu-simd scores them (H200 host, 240 4K frames on 16 threads: 1 reader 400 ms, 2 readers
  // 200 ms, 4 readers 227 ms, the extra readers taking cores from the compute).
  if (b.gpu()) return std::clamp(hardware / 4, 1u, 4u);
  return std::clamp((threads > 0 ? threads : hardware) / 8, 1u, 4u);
}

OptionList parse_option_flags(const std::vector<std::string>& flags) {
  OptionList out;
  for (const std::string& f : flags) {
    const auto eq = f.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--option", f, fmt::format("--option '{}' is not NAME=VALUE", f));
    out.emplace_back(f.substr(0, eq), f.substr(eq + 1));
  }
  return out;
}

void print_columns(const std::vector<std::vector<std::string>>& rows, const std::vector<std::size_t>& right) {
  std::vector<std::size_t> width;
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], row[c].size());
    }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool last = c + 1 == row.size();
      if (std::find(right.begin(), right.end(), c) != right.end()) line += fmt::format("{:>{}}", row[c], width[c]);
      else line += last ? row[c] : fmt::format("{:<{}}", row[c], width[c]);
      if (!last) line += "  ";
    }
    fmt::print("{}\n", line);
  }
}

const Backend& backend_or_throw(const std::string& feature, const std::string& name, bool with_mutants) {
  feature_or_throw(feature, "--feature");  // an unknown feature is named as such, with the known ones
  if (const Backend* b = find_backend(feature, name, with_mutants)) return *b;
  std::string known;
  for (const Backend* b : backends(with_mutants))
    if (b->feature == feature) known += (known.empty() ? "" : ", ") + std::string(b->name);
  throw UsageError("--backend", name, fmt::format("--backend '{}': no such backend for {}; known: {}", name, feature, known));
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
