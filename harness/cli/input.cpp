#include "harness/cli/input.hpp"

#include <fmt/format.h>

#include "harness/support/errors.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof::cli {

void add_input_flags(CLI::App& sub, InputArgs& a) {
  // INPUT, or vmaf's -r/--reference: one of the two. The short flags are the vmaf tool's.
  CLI::Option* input =
      sub.add_option("input", a.path, "A .y4m or raw .yuv file, - for stdin (Y4M), or vector:ID (vector:ID~DIST: a pair)");
  CLI::Option* reference = sub.add_option("-r,--reference", a.path, "The reference clip (as INPUT; vmaf's flag)");
  input->excludes(reference);
  reference->excludes(input);
  sub.add_option("-w,--width", a.width, "Raw input: width");
  sub.add_option("-h,--height", a.height, "Raw input: height");
  sub.add_option("-p,--pixfmt,--pixel_format", a.pixfmt, "Raw input: 400, 420, 422 or 444");
  sub.add_option("-b,--bitdepth", a.bitdepth, "Raw input: 8, 10, 12 or 16");
}

void require_input(const InputArgs& a) {
  if (a.path.empty()) throw UsageError("input", "", "give the clip: INPUT, or -r/--reference FILE as vmaf takes it");
}

std::unique_ptr<FrameSource> open_cli_input(const InputArgs& a) {
  if (a.path.rfind("vector:", 0) == 0) return open_vector(Manifest::project().get(a.path.substr(7)));
  const bool raw = a.width || a.height || a.bitdepth || !a.pixfmt.empty();
  if (!raw) return open_input(a.path, std::nullopt);
  const auto missing = [&](const char* flag) {
    return InputError(a.path, flag, "(missing)", "raw input needs --width, --height, --pixfmt and --bitdepth");
  };
  if (!a.width) throw missing("--width");
  if (!a.height) throw missing("--height");
  if (a.pixfmt.empty()) throw missing("--pixfmt");
  if (!a.bitdepth) throw missing("--bitdepth");
  Format f;
  f.width = *a.width;
  f.height = *a.height;
  f.bitdepth = *a.bitdepth;
  const auto c = parse_chroma(a.pixfmt);
  if (!c) throw InputError(a.path, "--pixfmt", a.pixfmt, "must be 400, 420, 422 or 444");
  f.chroma = *c;
  return open_yuv(a.path, f);
}

bool names_a_pair(const InputArgs& a, const std::string& distorted) {
  return !distorted.empty() || (a.path.rfind("vector:", 0) == 0 && a.path.find('~') != std::string::npos);
}

ClipPair open_cli_pair(const InputArgs& a, const std::string& distorted) {
  if (a.path.rfind("vector:", 0) == 0 && a.path.find('~') != std::string::npos) {
    if (!distorted.empty())
      throw UsageError("--distorted", distorted,
                       fmt::format("{} is a pair already; --distorted names a second clip for a single one", a.path));
    const Manifest& m = Manifest::project();
    const VectorSpec& v = m.reference_of(a.path.substr(7));
    return open_pair(a.path.substr(7), v.fmt.bitdepth, v.fmt.chroma, m);
  }
  ClipPair pair;
  pair.reference = open_cli_input(a);
  if (!distorted.empty()) {
    InputArgs d = a;
    d.path = distorted;
    pair.distorted = open_cli_input(d);
  }
  return pair;
}

}  // namespace twinproof::cli
