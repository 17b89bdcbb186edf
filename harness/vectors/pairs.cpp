// Opening a pair of the manifest: the reference vector at the asked depth and chroma, and its
// distorted clip, by recipe or from the cache of encoded clips. Above both the manifest and the
// distortions (each of which the other reads no further than its names).
#include <filesystem>

#include <fmt/format.h>

#include "harness/support/errors.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {

const DistortionSpec::EncodedPin& encoded_pin(const DistortionSpec& d, const std::string& reference, const Manifest& m) {
  const auto pin = d.pins.find(reference);
  if (pin == d.pins.end())
    throw InputError(m.file().string(), fmt::format("distortions.{}.pins", d.id), reference,
                     fmt::format("encoded distortion {} is pinned for other references only; pair it with one of those", d.id));
  return pin->second;
}

ClipPair open_pair(const std::string& vector, int bitdepth, Chroma chroma, const Manifest& m) {
  const PairName name = split_pair_name(vector);
  const VectorSpec& reference = m.variant(name.reference, bitdepth, chroma);
  ClipPair pair;
  pair.reference = open_vector(reference, m);
  if (name.distortion.empty()) return pair;
  const DistortionSpec& d = m.distortion(name.distortion);
  if (!d.encoded()) {
    pair.distorted = distort(open_vector(reference, m), d);
    return pair;
  }
  const VectorSpec& base = m.get(name.reference);
  const DistortionSpec::EncodedPin& pin = encoded_pin(d, base.id, m);
  const std::filesystem::path path = cached_pair_path(base.id, d);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(vector, "cache", path.string(),
                     fmt::format("the encoded clip is not in the cache; run `twinproof vectors fetch {}~{}`", base.id, d.id));
  std::unique_ptr<FrameSource> distorted =
      verify_stream(open_yuv(path.string(), base.fmt), base.id + "~" + d.id, pin.sha256, base.frames);
  if (reference.id == base.id) {
    pair.distorted = std::move(distorted);
  } else {
    VectorSpec target = reference;  // the reference's depth and chroma, under the pair's name
    target.id = fmt::format("{}~{}", reference.id, d.id);
    pair.distorted = convert_variant(std::move(distorted), target);
  }
  return pair;
}

}  // namespace twinproof
