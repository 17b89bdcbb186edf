#include "harness/io/score_files.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "harness/support/errors.hpp"
#include "harness/support/json_file.hpp"

namespace twinproof {
using nlohmann::json;

std::optional<ScoreFileFormat> parse_score_file_format(std::string_view name) {
  if (name == "json") return ScoreFileFormat::libvmaf_json;
  if (name == "xml") return ScoreFileFormat::libvmaf_xml;
  if (name == "csv") return ScoreFileFormat::libvmaf_csv;
  if (name == "vmafmotion") return ScoreFileFormat::ffmpeg_vmafmotion;
  return std::nullopt;
}

std::string_view to_string(ScoreFileFormat f) {
  switch (f) {
    case ScoreFileFormat::libvmaf_json: return "json";
    case ScoreFileFormat::libvmaf_xml: return "xml";
    case ScoreFileFormat::libvmaf_csv: return "csv";
    case ScoreFileFormat::ffmpeg_vmafmotion: return "vmafmotion";
  }
  return "?";
}

std::optional<ScoreFileFormat> score_file_format_of(const std::string& path) {
  const auto dot = path.rfind('.');
  if (dot == std::string::npos) return std::nullopt;
  return parse_score_file_format(path.substr(dot + 1));
}

namespace {

std::string excerpt(std::string_view s) { return std::string(s.substr(0, 60)) + (s.size() > 60 ? "..." : ""); }

// The whole text is one number (decimal, exponent, hex float, inf, nan), or an error.
double number(std::string_view text, const std::string& file, const std::string& field) {
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const double v = s.empty() ? 0 : std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size()) throw InputError(file, field, excerpt(s), "not a number");
  return v;
}

long long frame_number(std::string_view text, const std::string& file, const std::string& field) {
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const long long n = s.empty() ? -1 : std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || n < 0)
    throw InputError(file, field, excerpt(s), "a frame number is an integer >= 0");
  return n;
}

class Builder {
 public:
  explicit Builder(const std::string& file) : file_(file) {}
  void frame(long long n, const std::string& field) {
    if (!seen_.insert(n).second) throw InputError(file_, field, std::to_string(n), "frame listed twice");
    out_.frames.push_back(n);
  }
  // A metric given twice for one frame (an XML attribute, a CSV column, a stats word) is refused:
  // keeping either value would judge a twin on a guess.
  void value(const std::string& key, long long frame, double v, const std::string& field) {
    if (!out_.values[key].emplace(frame, v).second)
      throw InputError(file_, field, key, fmt::format("metric given twice for frame {}", frame));
  }
  ScoreFile done() { return std::move(out_); }

 private:
  const std::string& file_;
  std::set<long long> seen_;
  ScoreFile out_;
};

ScoreFile parse_json(const std::string& text, const std::string& file) {
  const json doc = parse_json_text(text, file, "document");
  if (!doc.is_object() || !doc.contains("frames") || !doc["frames"].is_array())
    throw InputError(file, "frames", doc.is_object() && doc.contains("frames") ? json_excerpt(doc["frames"]) : "(missing)",
                     "libvmaf's JSON lists its frames in a \"frames\" array");
  Builder b(file);
  const json& frames = doc["frames"];
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const json& f = frames[i];
    const std::string where = fmt::format("frames[{}]", i);
    if (!f.is_object() || !f.contains("frameNum") || !f["frameNum"].is_number_integer() || f["frameNum"].get<long long>() < 0)
      throw InputError(file, where + ".frameNum",
                       f.is_object() && f.contains("frameNum") ? json_excerpt(f["frameNum"]) : "(missing)",
                       "each frame has an integer frameNum >= 0");
    const long long n = f["frameNum"].get<long long>();
    b.frame(n, where + ".frameNum");
    if (!f.contains("metrics") || !f["metrics"].is_object())
      throw InputError(file, where + ".metrics", f.contains("metrics") ? json_excerpt(f["metrics"]) : "(missing)",
                       "each frame has a metrics object");
    for (const auto& [key, v] : f["metrics"].items()) {
      if (v.is_null()) {
        b.value(key, n, std::numeric_limits<double>::quiet_NaN(),
                where + ".metrics." + key);  // libvmaf writes NaN and infinities as null
      } else if (v.is_number()) {
        b.value(key, n, v.get<double>(), where + ".metrics." + key);  // nlohmann reads numbers with strtod: exact
      } else {
        throw InputError(file, where + ".metrics." + key, json_excerpt(v), "not a number");
      }
    }
  }
  return b.done();
}

ScoreFile parse_xml(const std::string& text, const std::string& file) {
  pugi::xml_document doc;
  const pugi::xml_parse_result ok = doc.load_buffer(text.data(), text.size());
  if (!ok)
    throw InputError(file, fmt::format("offset {}", ok.offset), excerpt(text), std::string("not XML: ") + ok.description());
  const pugi::xml_node frames = doc.child("VMAF").child("frames");
  if (!frames) throw InputError(file, "VMAF/frames", "(missing)", "libvmaf's XML lists its frames under <VMAF><frames>");
  Builder b(file);
  std::size_t i = 0;
  for (const pugi::xml_node f : frames.children()) {
    const std::string where = fmt::format("frames/frame[{}]", i++);
    if (std::string_view(f.name()) != "frame")
      throw InputError(file, where, f.name(), "only <frame> elements belong in <frames>");
    const pugi::xml_attribute num = f.attribute("frameNum");
    if (!num) throw InputError(file, where + "@frameNum", "(missing)", "each frame has a frameNum");
    const long long n = frame_number(num.value(), file, where + "@frameNum");
    b.frame(n, where + "@frameNum");
    for (const pugi::xml_attribute a : f.attributes())
      if (std::string_view(a.name()) != "frameNum")
        b.value(a.name(), n, number(a.value(), file, where + "@" + a.name()), where + "@" + a.name());
  }
  return b.done();
}

std::vector<std::string_view> split(std::string_view line, char sep) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = line.find(sep, start);
    out.push_back(line.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines = split(text, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  for (std::string_view& l : lines)
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return lines;
}

// Frame,key1,key2,...  then  N,v1,v2,...  (libvmaf ends each line with a comma; an empty field
// is a missing value).
ScoreFile parse_csv(const std::string& text, const std::string& file) {
  const std::vector<std::string_view> lines = lines_of(text);
  if (lines.empty()) throw InputError(file, "line 1", "", "an empty CSV has no header");
  std::vector<std::string_view> header = split(lines[0], ',');
  if (header.size() > 1 && header.back().empty()) header.pop_back();
  if (header.empty() || header[0] != "Frame")
    throw InputError(file, "line 1", excerpt(lines[0]), "libvmaf's CSV header starts with Frame");
  for (std::size_t c = 1; c < header.size(); ++c)
    if (std::find(header.begin() + 1, header.begin() + static_cast<std::ptrdiff_t>(c), header[c]) !=
        header.begin() + static_cast<std::ptrdiff_t>(c))
      throw InputError(file, fmt::format("line 1 column {}", c + 1), excerpt(header[c]), "a column named twice in the header");
  Builder b(file);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string where = fmt::format("line {}", i + 1);
    std::vector<std::string_view> fields = split(lines[i], ',');
    if (fields.size() == header.size() + 1 && fields.back().empty()) fields.pop_back();
    if (fields.size() != header.size())
      throw InputError(file, where, excerpt(lines[i]),
                       fmt::format("{} fields where the header has {}", fields.size(), header.size()));
    const long long n = frame_number(fields[0], file, where + " Frame");
    b.frame(n, where + " Frame");
    for (std::size_t c = 1; c < fields.size(); ++c)
      if (!fields[c].empty()) {
        const std::string field = fmt::format("{} {}", where, header[c]);
        b.value(std::string(header[c]), n, number(fields[c], file, field), field);
      }
  }
  return b.done();
}

// ffmpeg's vmafmotion stats: one line per frame, "n:1 motion:28.92", frames counted from 1.
ScoreFile parse_vmafmotion(const std::string& text, const std::string& file) {
  Builder b(file);
  const std::vector<std::string_view> lines = lines_of(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string where = fmt::format("line {}", i + 1);
    const std::vector<std::string_view> words = split(lines[i], ' ');
    if (words.size() < 2 || words[0].substr(0, 2) != "n:")
      throw InputError(file, where, excerpt(lines[i]), "a vmafmotion stats line reads n:FRAME NAME:VALUE ...");
    const long long n = frame_number(words[0].substr(2), file, where + " n");
    b.frame(n, where + " n");
    for (std::size_t w = 1; w < words.size(); ++w) {
      const std::size_t colon = words[w].find(':');
      if (colon == std::string_view::npos || colon == 0)
        throw InputError(file, where, excerpt(words[w]), "a vmafmotion stats value reads NAME:VALUE");
      const std::string key(words[w].substr(0, colon));
      b.value(key, n, number(words[w].substr(colon + 1), file, where + " " + key), where + " " + key);
    }
  }
  return b.done();
}

}  // namespace

ScoreFile parse_score_file(const std::string& text, ScoreFileFormat format, const std::string& file) {
  switch (format) {
    case ScoreFileFormat::libvmaf_json: return parse_json(text, file);
    case ScoreFileFormat::libvmaf_xml: return parse_xml(text, file);
    case ScoreFileFormat::libvmaf_csv: return parse_csv(text, file);
    case ScoreFileFormat::ffmpeg_vmafmotion: return parse_vmafmotion(text, file);
  }
  return {};
}

ScoreFile read_score_file(const std::string& path, ScoreFileFormat format) {
  return parse_score_file(read_text_file(path, "a score file"), format, path);
}

}  // namespace twinproof
