#include "harness/vectors/clip_spec.hpp"

#include <fmt/format.h>

#include "harness/support/errors.hpp"

namespace twinproof {

std::unique_ptr<FrameSource> open_clip(const ClipSpec& a) {
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

bool names_a_pair(const ClipSpec& a, const std::string& distorted) {
  return !distorted.empty() || (a.path.rfind("vector:", 0) == 0 && a.path.find('~') != std::string::npos);
}

ClipPair open_clip_pair(const ClipSpec& a, const std::string& distorted) {
  if (a.path.rfind("vector:", 0) == 0 && a.path.find('~') != std::string::npos) {
    if (!distorted.empty())
      throw UsageError("--distorted", distorted,
                       fmt::format("{} is a pair already; --distorted names a second clip for a single one", a.path));
    const Manifest& m = Manifest::project();
    const VectorSpec& v = m.reference_of(a.path.substr(7));
    return open_pair(a.path.substr(7), v.fmt.bitdepth, v.fmt.chroma, m);
  }
  ClipPair pair;
  pair.reference = open_clip(a);
  if (!distorted.empty()) {
    ClipSpec d = a;
    d.path = distorted;
    pair.distorted = open_clip(d);
  }
  return pair;
}

}  // namespace twinproof
