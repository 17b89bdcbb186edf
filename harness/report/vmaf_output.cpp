#include "harness/report/vmaf_output.hpp"
#include "harness/support/json_file.hpp"

#include <cmath>

#include <fmt/format.h>
#include <fmt/printf.h>

#include "extractors/pooling.hpp"
#include "harness/report/markup.hpp"
#include "harness/support/errors.hpp"

namespace twinproof {
using nlohmann::json;

VmafFormat parse_vmaf_format(std::string_view text, std::string_view flag) {
  if (text == "json") return VmafFormat::json;
  if (text == "xml") return VmafFormat::xml;
  if (text == "csv") return VmafFormat::csv;
  if (text == "sub") return VmafFormat::sub;
  throw UsageError(std::string(flag), std::string(text), fmt::format("{} '{}': expected json, xml, csv or sub", flag, text));
}

namespace {

struct Pooled {
  bool complete = true;
  double min = 0, max = 0, mean = 0, harmonic_mean = 0;
};

Pooled pool(const ScoreTable& t, const std::string& metric) {
  Pooling pooling;
  for (unsigned i = 0; i < t.frames(); ++i) {
    const std::optional<double> v = t.get(metric, t.first_frame() + i);
    if (!v) return Pooled{false};
    pooling.add(*v);
  }
  if (t.frames() == 0) return Pooled{false};
  return Pooled{true, pooling.min(), pooling.max(), pooling.mean(), pooling.harmonic_mean()};
}

// A JSON number: null where JSON has none (NaN, infinities), as libvmaf writes them.
std::string json_number(double v, NumberStyle style) { return std::isfinite(v) ? format_number(v, style) : "null"; }
std::string quoted(const std::string& s) { return json_text(json(s)); }

std::string render_json(const VmafDocument& d, NumberStyle style) {
  const ScoreTable& t = *d.table;
  std::string out = "{\n";
  out += fmt::format("  \"version\": {},\n", quoted(d.version));
  out += fmt::format("  \"fps\": {},\n", std::isfinite(d.fps) ? fmt::format("{:.2f}", d.fps) : "null");
  if (!d.provenance.is_null()) out += fmt::format("  \"twinproof\": {},\n", json_text(d.provenance));
  out += "  \"frames\": [";
  bool first_frame = true;
  for (unsigned i = 0; i < t.frames(); ++i) {
    const unsigned f = t.first_frame() + i;
    std::vector<std::string> entries;
    for (const auto& [metric, key] : d.columns)
      if (const auto v = t.get(metric, f)) entries.push_back(fmt::format("        {}: {}", quoted(key), json_number(*v, style)));
    if (entries.empty()) continue;
    out += first_frame ? "\n" : ",\n";
    first_frame = false;
    out +=
        fmt::format("    {{\n      \"frameNum\": {},\n      \"metrics\": {{\n{}\n      }}\n    }}", f, fmt::join(entries, ",\n"));
  }
  out += "\n  ],\n  \"pooled_metrics\": {";
  for (std::size_t c = 0; c < d.columns.size(); ++c) {
    const Pooled p = pool(t, d.columns[c].first);
    out += fmt::format("{}\n    {}: {{", c ? "," : "", quoted(d.columns[c].second));
    if (p.complete)
      out += fmt::format("\n      \"min\": {},\n      \"max\": {},\n      \"mean\": {},\n      \"harmonic_mean\": {}\n    ",
                         json_number(p.min, style), json_number(p.max, style), json_number(p.mean, style),
                         json_number(p.harmonic_mean, style));
    out += "}";
  }
  out += "\n  },\n  \"aggregate_metrics\": {\n  }\n}\n";
  return out;
}

std::string render_xml(const VmafDocument& d, NumberStyle style) {
  const ScoreTable& t = *d.table;
  std::string out = fmt::format("<VMAF version=\"{}\">\n", escape_markup(d.version));
  out += fmt::format("  <params qualityWidth=\"{}\" qualityHeight=\"{}\" />\n", d.width, d.height);
  out += fmt::format("  <fyi fps=\"{:.2f}\" />\n  <frames>\n", d.fps);
  for (unsigned i = 0; i < t.frames(); ++i) {
    const unsigned f = t.first_frame() + i;
    std::string attributes;
    for (const auto& [metric, key] : d.columns)
      if (const auto v = t.get(metric, f)) attributes += fmt::format("{}=\"{}\" ", escape_markup(key), format_number(*v, style));
    if (!attributes.empty()) out += fmt::format("    <frame frameNum=\"{}\" {}/>\n", f, attributes);
  }
  out += "  </frames>\n  <pooled_metrics>\n";
  for (const auto& [metric, key] : d.columns) {
    const Pooled p = pool(t, metric);
    out += fmt::format("    <metric name=\"{}\" ", escape_markup(key));
    if (p.complete)
      out += fmt::format("min=\"{}\" max=\"{}\" mean=\"{}\" harmonic_mean=\"{}\" ", format_number(p.min, style),
                         format_number(p.max, style), format_number(p.mean, style), format_number(p.harmonic_mean, style));
    out += "/>\n";
  }
  out += "  </pooled_metrics>\n  <aggregate_metrics />\n</VMAF>\n";
  return out;
}

std::string render_csv(const VmafDocument& d, NumberStyle style) {
  const ScoreTable& t = *d.table;
  std::string out = "Frame,";
  for (const auto& column : d.columns) out += column.second + ",";
  out += "\n";
  for (unsigned i = 0; i < t.frames(); ++i) {
    const unsigned f = t.first_frame() + i;
    std::string row;
    bool any = false;
    for (const auto& column : d.columns) {
      const auto v = t.get(column.first, f);
      any = any || v.has_value();
      row += (v ? format_number(*v, style) : std::string()) + ",";  // an empty field keeps the columns aligned
    }
    if (any) out += fmt::format("{},{}\n", f, row);
  }
  return out;
}

// libvmaf's subtitle lines: "{i}{i+1}frame: i|key: value|...", one per frame with a value.
std::string render_sub(const VmafDocument& d, NumberStyle style) {
  const ScoreTable& t = *d.table;
  std::string out;
  for (unsigned i = 0; i < t.frames(); ++i) {
    const unsigned f = t.first_frame() + i;
    std::string fields;
    for (const auto& [metric, key] : d.columns)
      if (const auto v = t.get(metric, f)) fields += fmt::format("{}: {}|", key, format_number(*v, style));
    if (!fields.empty()) out += fmt::format("{{{}}}{{{}}}frame: {}|{}\n", f, f + 1, f, fields);
  }
  return out;
}

}  // namespace

std::string render_vmaf(const VmafDocument& doc, VmafFormat format, NumberStyle style) {
  switch (format) {
    case VmafFormat::json: return render_json(doc, style);
    case VmafFormat::xml: return render_xml(doc, style);
    case VmafFormat::csv: return render_csv(doc, style);
    case VmafFormat::sub: return render_sub(doc, style);
  }
  return {};
}

}  // namespace twinproof
