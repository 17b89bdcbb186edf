#include "harness/report/render.hpp"
#include "harness/support/json_file.hpp"

#include "harness/support/paths.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pugixml.hpp>

#include "extractors/registry.hpp"
#include "harness/report/markup.hpp"
#include "harness/support/errors.hpp"

namespace twinproof {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::vector<CellResult> sorted(std::vector<CellResult> r) {
  std::sort(r.begin(), r.end(), [](const CellResult& a, const CellResult& b) { return a.cell.id < b.cell.id; });
  return r;
}

std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string diff_text(double d) { return std::isnan(d) ? "NaN" : fmt::format("{:.3g}", d); }

// The cells a reader must look at (failing, erroring, timed out), in the order of `results`.
std::vector<const CellResult*> needing_attention(const std::vector<CellResult>& results) {
  std::vector<const CellResult*> bad;
  for (const CellResult& r : results)
    if (r.needs_attention()) bad.push_back(&r);
  return bad;
}

// Who a row of the reports is about: a twin, or the reference judged against its goldens.
std::string subject(const CellResult& r) {
  const std::string who = r.cell.feature + "/" + r.cell.twin;
  return r.cell.kind == CellKind::regression ? who + " (goldens)" : who;
}

// The twins twinproof did not write that a run called (exec twins' programs, plugins), one entry
// per twin and identity (the provenance of its records without the per-cell command line): which
// build of a tool a report judged belongs beside the host it ran on.
json outside_twins(const std::vector<CellResult>& results) {
  std::map<std::string, json> seen;
  for (const CellResult& r : results) {
    if (!r.twin_provenance.is_object() || r.twin_provenance.empty()) continue;
    json identity = r.twin_provenance;
    identity.erase("command");
    json& entry = seen[r.cell.twin + "\n" + json_text(identity)];
    if (entry.is_null()) {
      entry = identity;
      entry["twin"] = r.cell.twin;
      entry["features"] = json::array();
    }
    if (std::find(entry["features"].begin(), entry["features"].end(), r.cell.feature) == entry["features"].end())
      entry["features"].push_back(r.cell.feature);
  }
  // A cell refused before its program was looked for (a bit depth the twin does not take) has no
  // executable in its provenance; it names no other program, so where the same twin ran it is
  // listed once, as it ran.
  const auto located = [](const json& e) { return !e.value("executable", "").empty() || e.contains("plugin"); };
  std::set<std::string> twins_located;
  for (const auto& [key, entry] : seen)
    if (located(entry)) twins_located.insert(entry.value("twin", ""));
  json out = json::array();
  for (auto& [key, entry] : seen)
    if (located(entry) || !twins_located.contains(entry.value("twin", ""))) out.push_back(std::move(entry));
  return out;
}

// One line for an outside twin: its name, features, where it came from, version and SHA-256.
std::string outside_twin_line(const json& t) {
  std::vector<std::string> features;
  for (const auto& f : t["features"]) features.push_back(f.get<std::string>());
  std::string line = fmt::format("twin {} ({})", t.value("twin", "?"), fmt::join(features, ", "));
  for (const char* key : {"executable", "plugin", "version", "sha256"})
    if (t.contains(key)) line += fmt::format(" · {} {}", key, t.value(key, ""));
  return line;
}

std::string junit_xml(const std::vector<CellResult>& results, const json& env) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  auto suites = doc.append_child("testsuites");
  suites.append_attribute("name") = "twinproof gate";
  const std::string timestamp = env.value("time", ""), host = env.value("host", "");
  double all_time = 0;
  std::map<std::string, std::vector<const CellResult*>> by_suite;
  for (const CellResult& r : results) by_suite[r.cell.feature + "/" + r.cell.twin].push_back(&r);
  for (const auto& [name, cells] : by_suite) {
    auto suite = suites.append_child("testsuite");
    std::vector<CellResult> own;
    double time = 0;
    for (const CellResult* r : cells) {
      own.push_back(*r);
      time += r->seconds;
    }
    const RunTally t = tally_run(own);
    const auto failures = static_cast<unsigned>(t.junit("failure")), errors = static_cast<unsigned>(t.junit("error")),
               skipped = static_cast<unsigned>(t.junit("skipped"));
    all_time += time;
    suite.append_attribute("name") = name.c_str();
    suite.append_attribute("timestamp") = timestamp.c_str();
    suite.append_attribute("hostname") = host.c_str();
    suite.append_attribute("tests") = static_cast<unsigned>(cells.size());
    suite.append_attribute("failures") = failures;
    suite.append_attribute("errors") = errors;
    suite.append_attribute("skipped") = skipped;
    suite.append_attribute("time") = fmt::format("{:.3f}", time).c_str();
    const Cell& suite_cell = cells.front()->cell;
    for (const auto& t : env.value("outside_twins", json::array())) {
      const json& ran = t["features"];
      if (t.value("twin", "") != suite_cell.twin || std::find(ran.begin(), ran.end(), suite_cell.feature) == ran.end()) continue;
      auto properties = suite.append_child("properties");
      for (const auto& [key, value] : t.items()) {
        if (!value.is_string()) continue;
        auto property = properties.append_child("property");
        property.append_attribute("name") = key.c_str();
        property.append_attribute("value") = value.get<std::string>().c_str();
      }
    }
    for (const CellResult* r : cells) {
      auto tc = suite.append_child("testcase");
      tc.append_attribute("classname") = name.c_str();
      tc.append_attribute("name") = r->cell.id.substr(name.size() + 1).c_str();
      tc.append_attribute("time") = fmt::format("{:.3f}", r->seconds).c_str();
      const std::string message = fmt::format("{}: {}", to_string(r->status), r->detail);
      const std::string_view element = junit_element(tally_of(*r));
      if (element == "failure") {
        auto f = tc.append_child("failure");
        f.append_attribute("message") = message.c_str();
        f.text().set((first_difference(*r) + "\nrepro: " + repro_command(*r)).c_str());
      } else if (element == "error") {
        // A required twin that cannot run here did not produce a wrong score: the run could not
        // test it, which JUnit calls an error.
        tc.append_child("error").append_attribute("message") =
            (r->required ? "required but not supported: " + r->detail : message).c_str();
      } else if (element == "skipped") {
        tc.append_child("skipped").append_attribute("message") = (message + (r->waiver.empty() ? "" : "; " + r->waiver)).c_str();
      }
      if (r->unexpected_pass) tc.append_child("system-out").text().set(("unexpected pass under " + r->waiver).c_str());
    }
  }
  const RunTally all = tally_run(results);
  suites.append_attribute("tests") = static_cast<unsigned>(all.total);
  suites.append_attribute("failures") = static_cast<unsigned>(all.junit("failure"));
  suites.append_attribute("errors") = static_cast<unsigned>(all.junit("error"));
  suites.append_attribute("skipped") = static_cast<unsigned>(all.junit("skipped"));
  suites.append_attribute("time") = fmt::format("{:.3f}", all_time).c_str();
  suites.append_attribute("timestamp") = timestamp.c_str();
  std::ostringstream xml;
  doc.save(xml, "  ");
  return xml_text(xml.str());
}

// Heatmap colour of a cell: its status, and for passes how far from exact it was.
std::string cell_class(const CellResult& r) {
  switch (r.status) {
    case CellStatus::pass: return r.max_abs_diff == 0 ? "exact" : "close";
    case CellStatus::fail: return "fail";
    case CellStatus::waived: return "waived";
    case CellStatus::not_supported: return r.required ? "fail" : "ns";
    default: return "err";
  }
}

// One heatmap cell: the largest |difference| (or the status), linked to its detail row when it
// needs attention.
std::string heatmap_cell(const CellResult& r) {
  const std::string label = r.status == CellStatus::not_supported ? "n/s"
                            : r.status == CellStatus::pass || r.status == CellStatus::fail || r.status == CellStatus::waived
                                ? diff_text(r.max_abs_diff)
                                : std::string(to_string(r.status));
  const std::string title = escape_markup(r.cell.id + " — " + std::string(to_string(r.status)) + ": " + r.detail);
  return r.needs_attention()
             ? fmt::format("<td id=\"{}\" class={} title=\"{}\"><a href=\"#detail:{}\">{}</a></td>", escape_markup(r.cell.id),
                           cell_class(r), title, escape_markup(r.cell.id), escape_markup(label))
             : fmt::format("<td id=\"{}\" class={} title=\"{}\">{}</td>", escape_markup(r.cell.id), cell_class(r), title,
                           escape_markup(label));
}

// One heatmap per twin: rows are vector variants, columns option sets.
std::string heatmaps(const std::vector<CellResult>& results) {
  std::string h;
  std::map<std::string, std::vector<const CellResult*>> by_twin;
  for (const CellResult& r : results) by_twin[subject(r)].push_back(&r);
  for (const auto& [twin, cells] : by_twin) {
    std::set<std::string> rows, cols;
    std::map<std::pair<std::string, std::string>, const CellResult*> grid;
    for (const CellResult* r : cells) {
      const std::string row = fmt::format("{}/{}b/{}", r->cell.vector, r->cell.bitdepth, to_string(r->cell.chroma));
      rows.insert(row);
      cols.insert(r->cell.option_set);
      grid[{row, r->cell.option_set}] = r;
    }
    h += "<h2>" + escape_markup(twin) + "</h2><div class=scroll><table class=map><tr><th class=l>vector</th>";
    for (const std::string& c : cols) h += "<th class=opt>" + escape_markup(c) + "</th>";
    h += "</tr>";
    for (const std::string& row : rows) {
      h += "<tr><th class=l>" + escape_markup(row) + "</th>";
      for (const std::string& c : cols) {
        const auto it = grid.find({row, c});
        if (it == grid.end()) {
          h += "<td class=none></td>";
          continue;
        }
        h += heatmap_cell(*it->second);
      }
      h += "</tr>";
    }
    h += "</table></div>";
  }
  return h;
}

// What needs attention comes first, with what to run next.
std::string attention_table(const std::vector<CellResult>& results) {
  std::string h;
  const std::vector<const CellResult*> bad = needing_attention(results);
  if (!bad.empty()) {
    h += fmt::format(
        "<h2>Failing or erroring cells ({})</h2><table class=fails><col style=\"width:30%\"><col style=\"width:7%\">"
        "<col style=\"width:40%\"><col style=\"width:23%\"><tr><th class=l>cell</th><th>status</th>"
        "<th class=l>first difference</th><th class=l>repro</th></tr>",
        bad.size());
    for (const CellResult* r : bad)
      h += fmt::format(
          "<tr id=\"detail:{0}\"><td><a href=\"#{0}\"><code>{0}</code></a>{1}</td><td class={2}>{3}</td><td>{4}</td>"
          "<td><code>{5}</code></td></tr>",
          escape_markup(r->cell.id), r->required ? " (required)" : "", cell_class(*r), to_string(r->status),
          escape_markup(first_difference(*r)), escape_markup(repro_command(*r)));
    h += "</table>";
  }
  return h;
}

// The commit, CPU, CUDA runtime and driver, devices and outside twins the run had.
std::string environment_lines(const json& env) {
  std::string h;
  h += fmt::format("<p>commit <code>{}</code>, {}, CUDA runtime {}, driver {}</p>", escape_markup(env.value("git_commit", "?")),
                   escape_markup(env.value("cpu", "?")), escape_markup(env.value("cuda_runtime", "?")),
                   escape_markup(env.value("cuda_driver", "?")));
  for (const auto& d : env.value("devices", json::array()))
    h += fmt::format("<p>device {}: {} (compute capability {})</p>", d.value("ordinal", 0), escape_markup(d.value("name", "?")),
                     escape_markup(d.value("compute_capability", "?")));
  for (const auto& t : env.value("outside_twins", json::array()))
    h += fmt::format("<p>{}</p>", escape_markup(outside_twin_line(t)));
  return h;
}

std::string html_report(const std::vector<CellResult>& all, const json& env, const std::vector<std::string>& notes,
                        const RunEnd& end) {
  const std::vector<CellResult> results = sorted(all);
  // Fits a 1400 px window: option-set headers are written vertically and a heatmap wider than
  // the page scrolls inside its own box. Every cell is an anchor (report.html#<cell id>); a
  // failing cell links to its detail row and back.
  std::string h = R"(<!DOCTYPE html><html><head><meta charset="utf-8"><title>twinproof gate</title><style>
body{font:13px/1.4 system-ui,sans-serif;margin:20px auto;max-width:1360px;padding:0 20px;color:#222}
table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:2px 5px;text-align:center}
th{background:#f3f3f3}td.l,th.l{text-align:left}.scroll{overflow-x:auto;max-width:100%}
table.map td{font-size:11px;min-width:3.2em}table.map th.opt{writing-mode:vertical-rl;transform:rotate(180deg);
white-space:nowrap;font-weight:normal;font-size:11px;max-height:12em;padding:4px 2px}table.map td a{color:inherit;text-decoration:none}
table.fails{width:100%;table-layout:fixed}table.fails td{text-align:left;overflow-wrap:anywhere;vertical-align:top}
.exact{background:#8fd694}.close{background:#d4edb0}.fail{background:#f08080}.waived{background:#f7c873}
.err{background:#c59ee0}.ns{background:#e4e4e4;color:#777}.none{background:#fff}code{font-size:12px}:target{outline:3px solid #333}
.banner{font-size:20px;font-weight:bold;padding:8px 12px;margin:8px 0}.banner.PASS{background:#8fd694}
.banner.FAIL,.banner.ERROR{background:#f08080}.banner.INCOMPLETE{background:#c59ee0}
</style></head><body><h1>twinproof gate</h1>)";
  const RunTally tally = tally_run(results, end);
  h += fmt::format("<div class=\"banner {}\">{}</div>", tally.verdict, escape_markup(verdict_line(results, end)));
  h += "<p>";
  for (Tally t : kTallies) h += fmt::format("<b>{}</b> {} &nbsp; ", to_string(t), tally.of(t));
  h += "</p>";
  for (const std::string& n : notes) h += "<p><b>note:</b> " + escape_markup(n) + "</p>";
  // What needs attention comes first, with what to run next.
  h += attention_table(results);
  h += environment_lines(env);
  h += "<p>Heatmap: each twin's largest |difference| from the reference per vector and option set "
       "(green: bit-exact; light green: within tolerance; red: fail; orange: waived; purple: error, timeout or no verdict; "
       "grey: not supported). Hover a cell for its id and detail.</p>";
  h += heatmaps(results);
  h += "</body></html>\n";
  return h;
}

}  // namespace

std::string repro_command(const CellResult& r) {
  const Backend* b = find_backend(r.cell.feature, r.cell.twin, true);
  const bool mutant = b != nullptr && b->mutant;
  const std::string finds_it = b != nullptr && !b->rerun_args.empty() ? fmt::format(" {}", b->rerun_args) : std::string();
  return fmt::format("twinproof repro {}{}{}", r.cell.id, mutant ? " --with-mutants" : "", finds_it);
}

std::string first_difference(const CellResult& r) {
  const json& m = r.first_mismatch;
  if (!m.is_object()) return r.detail;
  const auto value = [](const json& v) {
    return v.is_object() ? fmt::format("{} ({})", v.value("decimal", "?"), v.value("hex", "?")) : std::string("absent");
  };
  // A record read back from a file may hold anything: shown as written, never converted.
  const auto shown = [&](const char* key) {
    return m.contains(key) && m[key].is_number_integer() ? m[key].dump() : std::string("?");
  };
  std::string text = fmt::format("frame {} {}: reference {} vs twin {}", shown("frame"), m.value("metric", "?"),
                                 value(m.value("expected", json())), value(m.value("actual", json())));
  if (m.contains("ulp") && m["ulp"].is_number_integer()) text += fmt::format(", {} ULP", shown("ulp"));
  return text;
}

std::string failure_recap(const std::vector<CellResult>& all, std::size_t limit) {
  const std::vector<CellResult> results = sorted(all);
  const std::vector<const CellResult*> bad = needing_attention(results);
  if (bad.empty()) return {};
  std::string out = fmt::format("failing or erroring cells ({}):\n", bad.size());
  for (std::size_t i = 0; i < bad.size() && i < limit; ++i)
    out += fmt::format("  {} {}{}: {}\n    {}\n", to_string(bad[i]->status), bad[i]->cell.id,
                       bad[i]->required ? " (required)" : "", escape_control(first_difference(*bad[i])), repro_command(*bad[i]));
  if (bad.size() > limit) out += fmt::format("  ... and {} more (summary.md, summary.json)\n", bad.size() - limit);
  return out;
}

std::string verdict_line(const std::vector<CellResult>& results, const RunEnd& end) {
  const RunTally t = tally_run(results, end);
  std::string line = t.verdict;
  if (t.of(Tally::no_verdict) && t.verdict != "INCOMPLETE")
    line += fmt::format(" (incomplete: {} cell(s) without a verdict)", t.of(Tally::no_verdict));
  if (end.interrupted_by != 0)
    line += fmt::format(" (stopped by signal {}: exit status {})", end.interrupted_by, 128 + end.interrupted_by);
  if (t.judged_nothing)
    line += end.allow_empty ? ": no cell judged, every selected cell is not supported here (accepted: --allow-empty)"
                            : ": no cell judged, every selected cell is not supported here";
  else if (t.of(Tally::not_supported)) line += fmt::format(", {} cell(s) not supported here", t.of(Tally::not_supported));
  return line;
}

std::string run_verdict(const std::vector<CellResult>& results, const RunEnd& end) { return tally_run(results, end).verdict; }

json status_counts(const std::vector<CellResult>& results) { return tally_run(results).counts_json(); }

std::string markdown_summary(const std::vector<CellResult>& all, const json& env, const std::vector<std::string>& notes,
                             const RunEnd& end) {
  const std::vector<CellResult> results = sorted(all);
  std::string md = fmt::format("## twinproof gate: {}\n\n", verdict_line(results, end));
  for (const std::string& n : notes) md += "> " + n + "\n\n";
  // Counts per twin and status.
  std::map<std::string, std::vector<CellResult>> by_subject;
  for (const CellResult& r : results) by_subject[subject(r)].push_back(r);
  md += "| feature/twin |";
  for (Tally t : kTallies) md += fmt::format(" {} |", to_string(t));
  md += " max \\|diff\\| |\n|---|";
  for (std::size_t i = 0; i < std::size(kTallies); ++i) md += "---:|";
  md += "---:|\n";
  for (const auto& [who, cells] : by_subject) {
    double worst = 0;
    for (const CellResult& r : cells)
      if (r.status != CellStatus::not_supported)
        worst = std::isnan(r.max_abs_diff) || std::isnan(worst) ? std::nan("") : std::max(worst, r.max_abs_diff);
    md += fmt::format("| {} |", who);
    const RunTally c = tally_run(cells);
    for (Tally t : kTallies) md += fmt::format(" {} |", c.of(t));
    md += fmt::format(" {} |\n", diff_text(worst));
  }
  const std::vector<const CellResult*> bad = needing_attention(results);
  if (!bad.empty()) {
    md +=
        fmt::format("\n### Failing cells ({})\n\n| cell | status | first difference | repro |\n|---|---|---|---|\n", bad.size());
    for (std::size_t i = 0; i < bad.size() && i < 200; ++i)
      md += fmt::format("| `{}` | {} | {} | `{}` |\n", bad[i]->cell.id,
                        std::string(to_string(bad[i]->status)) + (bad[i]->required ? " (required)" : ""),
                        md_escape(first_difference(*bad[i])), repro_command(*bad[i]));
    if (bad.size() > 200) md += fmt::format("\n… and {} more (see summary.json)\n", bad.size() - 200);
  }
  std::vector<const CellResult*> unexpected;
  for (const CellResult& r : results)
    if (r.unexpected_pass) unexpected.push_back(&r);
  if (!unexpected.empty()) {
    md += "\n### Unexpected passes (a waiver may be dropped)\n\n";
    for (const CellResult* r : unexpected) md += fmt::format("- `{}`: {}\n", r->cell.id, md_escape(r->waiver));
  }
  md += fmt::format("\ncommit `{}` · {} · CUDA runtime {} · driver {}", env.value("git_commit", "?"), env.value("cpu", "?"),
                    env.value("cuda_runtime", "?"), env.value("cuda_driver", "?"));
  for (const auto& d : env.value("devices", json::array()))
    md += fmt::format(" · {} (sm {})", d.value("name", "?"), d.value("compute_capability", "?"));
  md += "\n";
  for (const auto& t : env.value("outside_twins", json::array())) md += fmt::format("\n{}\n", md_escape(outside_twin_line(t)));
  return md;
}

void render_reports(const fs::path& dir, const std::vector<CellResult>& all, const json& host,
                    const std::vector<std::string>& notes, const RunEnd& end) {
  ensure_directory(dir, "report folder");
  const std::vector<CellResult> results = sorted(all);
  json env = host;
  if (json outside = outside_twins(results); !outside.empty()) env["outside_twins"] = std::move(outside);
  json cells = json::array();
  for (const CellResult& r : results) cells.push_back(to_json(r));
  const RunTally tally = tally_run(results, end);
  const json summary = {{"schema_version", kReportSchemaVersion},
                        {"environment", env},
                        {"counts", tally.counts_json()},
                        {"verdict", tally.verdict},
                        {"complete", tally.complete},
                        {"exit_code", tally.exit_code},
                        {"notes", notes},
                        {"cells", cells}};
  // All four are rendered before any is written, and either all four are written or none of them
  // stays: summary.md must never say PASS beside a junit.xml that could not be written.
  const std::pair<const char*, std::string> reports[] = {
      {"summary.json", json_text(summary, 1) + "\n"},
      {"junit.xml", junit_xml(results, env)},
      {"summary.md", xml_text(markdown_summary(results, env, notes, end))},
      {"report.html", html_report(results, env, notes, end)},
  };
  for (const auto& [name, text] : reports) {
    try {
      write_file(dir / name, text, std::string("the report ") + name, OutputOwner::twinproof);
    } catch (...) {
      for (const auto& [other, unused] : reports) {
        std::error_code ignored;
        if (fs::is_regular_file(fs::symlink_status(dir / other, ignored))) fs::remove(dir / other, ignored);
      }
      throw;
    }
  }
}

}  // namespace twinproof
