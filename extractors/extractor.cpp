#include "extractor.hpp"

#include <fmt/format.h>

namespace twinproof {

std::string_view to_string(Chroma c) {
  switch (c) {
    case Chroma::c400: return "400";
    case Chroma::c420: return "420";
    case Chroma::c422: return "422";
    case Chroma::c444: return "444";
  }
  return "?";
}

std::optional<Chroma> parse_chroma(std::string_view s) {
  if (s == "400") return Chroma::c400;
  if (s == "420") return Chroma::c420;
  if (s == "422") return Chroma::c422;
  if (s == "444") return Chroma::c444;
  return std::nullopt;
}

ChromaShift chroma_shift(Chroma c) {
  switch (c) {
    case Chroma::c420: return {1, 1};
    case Chroma::c422: return {1, 0};
    default: return {0, 0};
  }
}

std::string describe(const Format& f) {
  const std::string_view c = to_string(f.chroma);
  return fmt::format("{}x{} {}-bit {}:{}:{}", f.width, f.height, f.bitdepth, c[0], c[1], c[2]);
}

PlaneSize stored_plane_size(const Format& f, int plane) {
  if (plane == 0) return {f.width, f.height};
  switch (f.chroma) {
    case Chroma::c400: return {0, 0};
    case Chroma::c420: return {(f.width + 1) / 2, (f.height + 1) / 2};
    case Chroma::c422: return {(f.width + 1) / 2, f.height};
    case Chroma::c444: return {f.width, f.height};
  }
  return {0, 0};
}

}  // namespace twinproof
