#include "tests/support.hpp"

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "extractors/registry.hpp"
#include "harness/support/paths.hpp"
#include "harness/support/process.hpp"
#include "harness/support/sha256.hpp"

namespace twinproof::test {
namespace fs = std::filesystem;

TempDir::TempDir() {
  std::random_device rd;
  path_ = fs::temp_directory_path() / ("twinproof-test-" + std::to_string(rd()) + std::to_string(rd()));
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

CliResult run_cli(const std::vector<std::string>& args, const std::string& stdin_file) {
  const char* env = std::getenv("TWINPROOF_BIN");
  return run_program(env != nullptr && *env != '\0' ? env : TWINPROOF_BIN, args, stdin_file);
}

CliResult run_program(const std::string& bin, const std::vector<std::string>& args, const std::string& stdin_file) {
  TempDir tmp;
  std::string cmd = shell_words({bin});
  for (const std::string& a : args) {
    cmd += ' ';
    cmd += shell_words({a});
  }
  cmd += " >" + shell_words({(tmp / "out").string()}) + " 2>" + shell_words({(tmp / "err").string()});
  if (!stdin_file.empty()) cmd += " <" + shell_words({stdin_file});
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(tmp / "out");
  r.err = read_file(tmp / "err");
  return r;
}

void write_table_with_exact_rows(const fs::path& file, const std::vector<std::string>& twins, const std::string& feature) {
  nlohmann::json table = nlohmann::json::parse(read_file(data_root() / "ci" / "calibration.json"));
  for (const std::string& twin : twins)
    table["rows"].push_back({{"feature", feature},
                             {"reference", "cpu"},
                             {"twin", twin},
                             {"mode", "exact"},
                             {"reason", "test fixture"},
                             {"provenance", {{"measured_by", "test"}}}});
  write_file(file, table.dump());
}

std::string stream_sha256(FrameSource& src) {
  Sha256 h;
  Frame f;
  while (src.next(f)) h.update(f.bytes(), f.size());
  return h.hex_digest();
}

std::string without_version_and_fps(const std::string& document) {
  std::istringstream in(document);
  std::string out, line;
  while (std::getline(in, line))
    if (!contains(line, "version") && !contains(line, "fps")) out += line + "\n";
  return out;
}

ScoreTable score_pair(std::string_view feature, std::string_view backend, const Frame& ref, const Frame& dist,
                      const OptionList& options, unsigned threads) {
  auto ex = make_extractor(*find_backend(feature, backend), ExtractorContext{.threads = threads});
  ex->init(ref.format(), options);
  ScoreTable t;
  ex->extract(ref.view(), dist.view(), 0, t);
  ex->flush(t);
  return t;
}

ReproResult replay_cell(const std::string& id) {
  ReproOptions o;
  o.with_mutants = true;
  std::ostringstream out;
  return run_repro(cell_target(find_cell(id)), o, out);
}

}  // namespace twinproof::test
