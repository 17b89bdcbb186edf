#include "harness/report/results.hpp"

#include <algorithm>

#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "harness/support/errors.hpp"
#include "harness/support/json_file.hpp"

namespace twinproof {
using nlohmann::json;

std::string_view to_string(CellStatus s) {
  switch (s) {
    case CellStatus::pass: return "pass";
    case CellStatus::fail: return "fail";
    case CellStatus::not_supported: return "not-supported";
    case CellStatus::waived: return "waived";
    case CellStatus::error: return "error";
    case CellStatus::timeout: return "timeout";
    case CellStatus::no_verdict: return "no-verdict";
  }
  return "?";
}

CellStatus parse_cell_status(const std::string& s) {
  for (CellStatus c : {CellStatus::pass, CellStatus::fail, CellStatus::not_supported, CellStatus::waived, CellStatus::error,
                       CellStatus::timeout})
    if (to_string(c) == s) return c;
  throw std::invalid_argument("unknown cell status '" + escape_control(s) + "'");
}

bool CellResult::failing() const { return status == CellStatus::fail || (status == CellStatus::not_supported && required); }
bool CellResult::needs_attention() const { return failing() || status == CellStatus::error || status == CellStatus::timeout; }

json to_json(const CellResult& r) {
  json j = to_json(r.cell);
  j.update({{"status", std::string(to_string(r.status))},
            {"detail", r.detail},
            {"tolerance", r.tolerance},
            {"values", r.values},
            {"mismatches", r.mismatches},
            {"max_abs_diff", r.max_abs_diff},
            {"max_ulp", r.max_ulp},
            {"first_mismatch", r.first_mismatch},
            {"seconds", r.seconds},
            {"device", r.device},
            {"required", r.required},
            {"unexpected_pass", r.unexpected_pass},
            {"waiver", r.waiver}});
  if (!r.twin_provenance.is_null()) j["twin_provenance"] = r.twin_provenance;
  if (!r.per_metric.empty()) j["per_metric"] = r.per_metric;
  return j;
}

CellResult cell_result_from_json(const json& j) {
  CellResult r;
  r.cell = cell_from_json(j);
  r.status = parse_cell_status(j.at("status").get<std::string>());
  r.detail = j.at("detail").get<std::string>();
  r.tolerance = j.at("tolerance").get<std::string>();
  r.values = json_integer<std::size_t>(j.at("values"), "values");
  r.mismatches = json_integer<std::size_t>(j.at("mismatches"), "mismatches");
  // JSON has no NaN: a NaN difference is written as null and read back as NaN.
  r.max_abs_diff = j.at("max_abs_diff").is_null() ? std::numeric_limits<double>::quiet_NaN() : j.at("max_abs_diff").get<double>();
  r.max_ulp = json_integer<std::uint64_t>(j.at("max_ulp"), "max_ulp");
  r.first_mismatch = j.at("first_mismatch");
  r.seconds = j.at("seconds").get<double>();
  r.device = j.at("device").get<std::string>();
  r.required = j.at("required").get<bool>();
  r.unexpected_pass = j.at("unexpected_pass").get<bool>();
  r.waiver = j.at("waiver").get<std::string>();
  if (const auto it = j.find("per_metric"); it != j.end() && it->is_object()) r.per_metric = *it;
  if (const auto it = j.find("twin_provenance"); it != j.end() && it->is_object()) r.twin_provenance = *it;
  return r;
}

std::vector<CellResult> read_results(const std::filesystem::path& file, std::size_t* truncated) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec))
    throw InputError(file.string(), "file", file.string(),
                     std::filesystem::exists(file, ec) ? "not a regular file: cannot read the results record"
                                                       : "cannot open the results record: no such file");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "file", file.string(), "cannot open the results record");
  std::vector<CellResult> out;
  std::string line;
  std::size_t n = 0, bad = 0;
  while (std::getline(in, line)) {
    ++n;
    // A line without its newline is the last one, cut short when the run was interrupted while
    // writing it; any other line that does not read is a damaged record.
    const bool complete = !in.eof();
    if (line.empty()) continue;
    // A complete line that does not read stops the reading, naming the line (and the field where
    // one is known); a cut-short last line is counted.
    const auto malformed = [&](const std::string& field, const std::string& value, const std::string& why) {
      if (complete) throw InputError(file.string(), "line " + std::to_string(n) + field, value, "malformed record: " + why);
      ++bad;
    };
    try {
      if (line.size() > kMaxRecordBytes)
        throw InputError(file.string(), "line " + std::to_string(n), fmt::format("{} bytes", line.size()),
                         "record longer than allowed");
      const json j = parse_json_text(line, file.string(), "line " + std::to_string(n));
      out.push_back(cell_result_from_json(j));
    } catch (const JsonFieldError& e) {
      malformed(": " + e.field(), e.value(), e.message());
    } catch (const json::exception& e) {
      malformed("", "", "unexpected shape: " + json_fault_text(e));
    } catch (const std::exception& e) {
      malformed("", "", e.what());
    }
  }
  if (in.bad()) throw InputError(file.string(), "file", file.string(), "read failed");
  if (truncated) *truncated = bad;
  return out;
}

CellResult no_verdict(const std::string& cell_id, const std::string& why) {
  CellResult r;
  r.cell.id = cell_id;
  r.status = CellStatus::no_verdict;
  r.detail = why;
  // feature/twin/vector/NNb/CCC/set
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const auto slash = cell_id.find('/', start);
    parts.push_back(cell_id.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  Cell& c = r.cell;
  if (parts.size() == 6) {
    c.feature = parts[0];
    c.twin = parts[1];
    c.vector = parts[2];
    c.bitdepth = std::atoi(parts[3].c_str());
    c.chroma = parse_chroma(parts[4]).value_or(Chroma::c420);
    c.option_set = parts[5];
  } else {
    c.feature = "?";
    c.twin = "?";
  }
  return r;
}

bool judged_nothing(const std::vector<CellResult>& results) {
  return std::all_of(results.begin(), results.end(), [](const CellResult& r) { return r.status == CellStatus::not_supported; });
}

int exit_code_for(const std::vector<CellResult>& results, const RunEnd& end) {
  if (end.interrupted_by != 0) return 128 + end.interrupted_by;
  // A fault outranks a failure; a failure outranks cells left without a verdict (whatever they
  // would have said, the run has failed); those outrank a pass, and a run that judged nothing
  // passed nothing.
  bool failing = false, unjudged = false;
  for (const CellResult& r : results) {
    if (r.status == CellStatus::error || r.status == CellStatus::timeout) return kExitError;
    failing = failing || r.failing();
    unjudged = unjudged || r.status == CellStatus::no_verdict;
  }
  if (failing) return kExitFail;
  if (unjudged || !end.selection_unknown.empty()) return kExitError;
  return judged_nothing(results) && !end.allow_empty ? kExitError : kExitPass;
}

}  // namespace twinproof

namespace twinproof {

std::string_view to_string(Tally t) {
  switch (t) {
    case Tally::pass: return "pass";
    case Tally::fail: return "fail";
    case Tally::required_not_supported: return "required-not-supported";
    case Tally::not_supported: return "not-supported";
    case Tally::waived: return "waived";
    case Tally::error: return "error";
    case Tally::timeout: return "timeout";
    case Tally::no_verdict: return "no-verdict";
  }
  return "?";
}

Tally tally_of(const CellResult& r) {
  switch (r.status) {
    case CellStatus::pass: return Tally::pass;
    case CellStatus::fail: return Tally::fail;
    case CellStatus::not_supported: return r.required ? Tally::required_not_supported : Tally::not_supported;
    case CellStatus::waived: return Tally::waived;
    case CellStatus::error: return Tally::error;
    case CellStatus::timeout: return Tally::timeout;
    case CellStatus::no_verdict: return Tally::no_verdict;
  }
  return Tally::error;
}

std::string_view junit_element(Tally t) {
  switch (t) {
    case Tally::pass: return "";
    case Tally::fail: return "failure";
    case Tally::not_supported:
    case Tally::waived: return "skipped";
    case Tally::required_not_supported:
    case Tally::error:
    case Tally::timeout:
    case Tally::no_verdict: return "error";
  }
  return "error";
}

std::size_t RunTally::junit(std::string_view element) const {
  std::size_t n = 0;
  for (Tally t : kTallies) n += junit_element(t) == element ? of(t) : 0;
  return n;
}

std::size_t RunTally::needing_attention() const {
  return of(Tally::fail) + of(Tally::required_not_supported) + of(Tally::error) + of(Tally::timeout);
}

json RunTally::counts_json() const {
  json c = json::object();
  for (Tally t : kTallies) c[std::string(to_string(t))] = of(t);
  return c;
}

std::string RunTally::counts_text() const {
  std::string text;
  for (Tally t : kTallies)
    if (of(t) != 0) text += fmt::format("{}{} {}", text.empty() ? "" : ", ", of(t), to_string(t));
  return fmt::format("{} cell{}{}{}", total, total == 1 ? "" : "s", text.empty() ? "" : ": ", text);
}

std::string RunTally::junit_text() const {
  return fmt::format("{} passed, {} failed, {} error(s), {} skipped", of(Tally::pass), junit("failure"), junit("error"),
                     junit("skipped"));
}

RunTally tally_run(const std::vector<CellResult>& results, const RunEnd& end) {
  RunTally t;
  t.total = results.size();
  for (const CellResult& r : results) ++t.count[static_cast<std::size_t>(tally_of(r))];
  t.exit_code = exit_code_for(results, end);
  t.judged_nothing = judged_nothing(results);
  t.complete = t.of(Tally::no_verdict) == 0 && end.interrupted_by == 0 && end.selection_unknown.empty();
  // A failure judged is a FAIL whatever the cells left without a verdict would say; without one,
  // a run that did not judge every cell, or that a signal stopped, is INCOMPLETE, never a PASS.
  const int code = exit_code_for(results, {0, end.allow_empty, end.selection_unknown});
  if (code != kExitFail && !t.complete) t.verdict = "INCOMPLETE";
  else t.verdict = code == kExitPass ? "PASS" : code == kExitFail ? "FAIL" : "ERROR";
  return t;
}

}  // namespace twinproof
