#include "harness/cli/input.hpp"

#include <fmt/format.h>

#include "harness/support/errors.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof::cli {

void add_input_flags(CLI::App& sub, ClipSpec& a) {
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

void require_input(const ClipSpec& a) {
  if (a.path.empty()) throw UsageError("input", "", "give the clip: INPUT, or -r/--reference FILE as vmaf takes it");
}

}  // namespace twinproof::cli
