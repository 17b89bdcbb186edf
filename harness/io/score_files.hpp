// Reading score files that other tools wrote: libvmaf's JSON, XML and CSV (the `vmaf` tool's
// --json/--xml/--csv, and twinproof's own `score` output, which has their shapes), and the stats
// file of ffmpeg's vmafmotion filter. Values are read with strtod, so a value printed with 17
// significant digits or as a hex float gives back the exact double; a value printed with fewer
// digits gives back what the text says, no more (the `printed` calibration mode judges those).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace twinproof {

enum class ScoreFileFormat { libvmaf_json, libvmaf_xml, libvmaf_csv, ffmpeg_vmafmotion };

// "json", "xml", "csv", "vmafmotion"; nullopt otherwise.
std::optional<ScoreFileFormat> parse_score_file_format(std::string_view name);
std::string_view to_string(ScoreFileFormat f);
// The format a file name's extension suggests (.json .xml .csv), or nullopt.
std::optional<ScoreFileFormat> score_file_format_of(const std::string& path);

// The file's frames in the order it lists them, each frame's number as the file writes it, and
// per metric key (the file's own names) the value of each frame that has one. NaN is a value
// (JSON null, "nan"): it never passes a comparison, but it is not a missing value.
struct ScoreFile {
  std::vector<long long> frames;
  std::map<std::string, std::map<long long, double>> values;
};

// Throws InputError naming `file`, the field (frames[3].metrics.motion2, line 7, frame 2) and the
// value for a document that is not of the format, a duplicate frame, or a value that is not a
// number.
ScoreFile parse_score_file(const std::string& text, ScoreFileFormat format, const std::string& file);
ScoreFile read_score_file(const std::string& path, ScoreFileFormat format);

}  // namespace twinproof
