// Distortion recipes (vectors/RECIPES.md, "Pairs"): a distorted clip made from its reference
// frame by frame, in integer arithmetic only, so that every machine makes the same bytes.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "harness/support/errors.hpp"
#include "harness/support/json_file.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {
using nlohmann::json;

namespace {

// The orthonormal 8-point DCT-II basis times 4096, rounded: T[u][x] = round(4096 a(u)
// cos((2x + 1) u pi / 16)), a(0) = sqrt(1/8), a(u) = 1/2. Integers, so no machine's cos() enters.
constexpr std::array<std::array<std::int64_t, 8>, 8> kDct = {{
    {1448, 1448, 1448, 1448, 1448, 1448, 1448, 1448},
    {2009, 1703, 1138, 400, -400, -1138, -1703, -2009},
    {1892, 784, -784, -1892, -1892, -784, 784, 1892},
    {1703, -400, -2009, -1138, 1138, 2009, 400, -1703},
    {1448, -1448, -1448, 1448, 1448, -1448, -1448, 1448},
    {1138, -2009, 400, 1703, -1703, -400, 2009, -1138},
    {784, -1892, 1892, -784, -784, 1892, -1892, 784},
    {400, -1138, 1703, -2009, 2009, -1703, 1138, -400},
}};

// a / b rounded half up (towards +infinity on a tie), for b > 0 and any sign of a.
std::int64_t div_round(std::int64_t a, std::int64_t b) {
  const std::int64_t n = 2 * a + b, d = 2 * b;
  return n >= 0 ? n / d : -((-n + d - 1) / d);
}

struct Param {
  const char* name;
  std::int64_t min, max;
};

// The parameters each recipe takes, with their ranges (in 8-bit units where they scale).
struct Recipe {
  const char* name;
  std::vector<Param> params;
};
const std::vector<Recipe>& recipes() {
  static const std::vector<Recipe> r = {
      {"equal", {}},
      {"invert", {}},
      {"noise", {{"seed", 0, INT64_MAX}, {"amplitude", 1, 255}}},
      {"blur", {{"radius", 1, 8}}},
      {"quantise", {{"step", 2, 128}}},
      {"dct", {{"step", 1, 4096}}},
      {"shift", {{"dx", 0, 64}, {"dy", 0, 64}}},
      {"x264", {{"crf", 0, 51}}},
  };
  return r;
}

// One plane of a frame as integers, and back.
struct Plane {
  int w = 0, h = 0;
  std::vector<std::int64_t> s;
  std::int64_t& at(int x, int y) { return s[static_cast<std::size_t>(y) * w + x]; }
  std::int64_t clamped(int x, int y) const {
    x = std::clamp(x, 0, w - 1);
    y = std::clamp(y, 0, h - 1);
    return s[static_cast<std::size_t>(y) * w + x];
  }
};

Plane load_plane(const Frame& f, int p) {
  const PlaneSize ps = stored_plane_size(f.format(), p);
  Plane out{ps.w, ps.h, std::vector<std::int64_t>(static_cast<std::size_t>(ps.w) * ps.h)};
  const std::uint8_t* base = f.bytes() + f.plane_offset(p);
  for (std::size_t i = 0; i < out.s.size(); ++i)
    out.s[i] = f.format().bitdepth == 8 ? base[i] : reinterpret_cast<const std::uint16_t*>(base)[i];
  return out;
}

void store_plane(Frame& f, int p, const Plane& in) {
  std::uint8_t* base = f.bytes() + f.plane_offset(p);
  for (std::size_t i = 0; i < in.s.size(); ++i) {
    if (f.format().bitdepth == 8) base[i] = static_cast<std::uint8_t>(in.s[i]);
    else reinterpret_cast<std::uint16_t*>(base)[i] = static_cast<std::uint16_t>(in.s[i]);
  }
}

class DistortedSource final : public FrameSource {
 public:
  DistortedSource(std::unique_ptr<FrameSource> reference, DistortionSpec d)
      : inner_(std::move(reference)), d_(std::move(d)), name_(inner_->name() + "~" + d_.id), rng_(param("seed", 0)) {}

  const Format& format() const override { return inner_->format(); }
  const std::string& name() const override { return name_; }
  std::optional<unsigned> frames_left() const override { return inner_->frames_left(); }
  bool may_block() const override { return inner_->may_block(); }
  bool checks_at_end() const override { return inner_->checks_at_end(); }

  bool next(Frame& f) override {
    if (!inner_->next(f)) return false;
    const Format& fmt = f.format();
    const std::int64_t max = (std::int64_t{1} << fmt.bitdepth) - 1;
    const int scale = fmt.bitdepth - 8;  // parameters in 8-bit units scale to the clip's depth
    for (int p = 0; p < fmt.planes(); ++p) {
      Plane in = load_plane(f, p);
      Plane out = in;
      const ChromaShift cs = p == 0 ? ChromaShift{0, 0} : chroma_shift(fmt.chroma);
      if (d_.recipe == "invert") {
        for (std::int64_t& v : out.s) v = max - v;
      } else if (d_.recipe == "noise") {
        const std::int64_t a = param("amplitude", 0) << scale;
        for (std::int64_t& v : out.s) {
          const auto r = static_cast<std::int64_t>(rng_.next() % static_cast<std::uint64_t>(2 * a + 1));
          v = std::clamp<std::int64_t>(v + r - a, 0, max);
        }
      } else if (d_.recipe == "blur") {
        const int r = static_cast<int>(param("radius", 0));
        const std::int64_t n = std::int64_t{2 * r + 1} * (2 * r + 1);
        for (int y = 0; y < in.h; ++y)
          for (int x = 0; x < in.w; ++x) {
            std::int64_t sum = 0;
            for (int dy = -r; dy <= r; ++dy)
              for (int dx = -r; dx <= r; ++dx) sum += in.clamped(x + dx, y + dy);
            out.at(x, y) = (sum + n / 2) / n;
          }
      } else if (d_.recipe == "quantise") {
        const std::int64_t q = param("step", 0) << scale;
        for (std::int64_t& v : out.s) v = std::min(max, v / q * q + q / 2);
      } else if (d_.recipe == "dct") {
        dct_quantise(in, out, param("step", 0) << scale, max);
      } else if (d_.recipe == "shift") {
        const int dx = static_cast<int>(param("dx", 0)) >> cs.hs, dy = static_cast<int>(param("dy", 0)) >> cs.vs;
        for (int y = 0; y < in.h; ++y)
          for (int x = 0; x < in.w; ++x) out.at(x, y) = in.clamped(x - dx, y - dy);
      }
      // "equal": the reference's own samples.
      store_plane(f, p, out);
    }
    return true;
  }

 private:
  std::int64_t param(const char* name, std::int64_t fallback) const {
    const auto it = d_.params.find(name);
    return it == d_.params.end() ? fallback : it->get<std::int64_t>();
  }

  // Each 8x8 block (samples past the plane's edge repeat its last row or column): the DCT in
  // integers (basis x 4096 per direction), every coefficient rounded to a multiple of `q`, the
  // inverse, rounded and clamped. The blocking and ringing of a block codec, bit-exactly.
  static void dct_quantise(const Plane& in, Plane& out, std::int64_t q, std::int64_t max) {
    constexpr std::int64_t kScale2 = std::int64_t{4096} * 4096;
    for (int by = 0; by < in.h; by += 8)
      for (int bx = 0; bx < in.w; bx += 8) {
        std::int64_t a[8][8], c[8][8], r[8][8];
        for (int y = 0; y < 8; ++y)  // rows: a[y][u] = sum_x T[u][x] X[y][x]
          for (int u = 0; u < 8; ++u) {
            std::int64_t s = 0;
            for (int x = 0; x < 8; ++x) s += kDct[u][x] * in.clamped(bx + x, by + y);
            a[y][u] = s;
          }
        for (int v = 0; v < 8; ++v)  // columns: c[v][u] = sum_y T[v][y] a[y][u], scaled by 4096^2
          for (int u = 0; u < 8; ++u) {
            std::int64_t s = 0;
            for (int y = 0; y < 8; ++y) s += kDct[v][y] * a[y][u];
            c[v][u] = div_round(s, kScale2 * q) * q;  // quantised, back at scale 1
          }
        for (int y = 0; y < 8; ++y)  // inverse columns: r[y][u] = sum_v T[v][y] c[v][u]
          for (int u = 0; u < 8; ++u) {
            std::int64_t s = 0;
            for (int v = 0; v < 8; ++v) s += kDct[v][y] * c[v][u];
            r[y][u] = s;
          }
        for (int y = 0; y < 8 && by + y < in.h; ++y)  // inverse rows, then / 4096^2 rounded
          for (int x = 0; x < 8 && bx + x < in.w; ++x) {
            std::int64_t s = 0;
            for (int u = 0; u < 8; ++u) s += kDct[u][x] * r[y][u];
            out.at(bx + x, by + y) = std::clamp<std::int64_t>(div_round(s, kScale2), 0, max);
          }
      }
  }

  std::unique_ptr<FrameSource> inner_;
  DistortionSpec d_;
  std::string name_;
  SplitMix64 rng_;
};

}  // namespace

DistortionSpec parse_distortion(const json& j, const std::string& file, const std::string& where) {
  if (!j.is_object()) throw InputError(file, where, json_excerpt(j), "a distortion is an object {id, recipe, params}");
  for (const auto& [key, value] : j.items())
    if (key != "id" && key != "recipe" && key != "params" && key != "purpose" && key != "pins")
      throw InputError(file, where + "." + key, json_excerpt(value),
                       "unknown key (a distortion has id, recipe, params, purpose, pins)");
  const auto text = [&](const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_string())
      throw InputError(file, where + "." + key, it == j.end() ? "(missing)" : json_excerpt(*it), "must be a string");
    return it->get<std::string>();
  };
  DistortionSpec d;
  d.id = text("id");
  if (d.id.empty() || d.id.size() > 32 || !std::all_of(d.id.begin(), d.id.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-';
      }))
    throw InputError(file, where + ".id", d.id, "a distortion id is 1 to 32 of A-Z a-z 0-9 _ -");
  d.recipe = text("recipe");
  const auto& all = recipes();
  const auto r = std::find_if(all.begin(), all.end(), [&](const Recipe& x) { return d.recipe == x.name; });
  if (r == all.end())
    throw InputError(file, where + ".recipe", d.recipe,
                     "no such distortion recipe (equal, invert, noise, blur, quantise, dct, shift, x264)");
  d.params = j.value("params", json::object());
  if (!d.params.is_object()) throw InputError(file, where + ".params", json_excerpt(d.params), "must be an object");
  for (const auto& item : d.params.items()) {
    const std::string key = item.key();
    const auto p = std::find_if(r->params.begin(), r->params.end(), [&](const Param& x) { return key == x.name; });
    if (p == r->params.end())
      throw InputError(file, where + ".params." + key, json_excerpt(item.value()),
                       fmt::format("recipe {} takes no such parameter", d.recipe));
  }
  for (const Param& p : r->params) {
    const auto it = d.params.find(p.name);
    const std::string at = where + ".params." + p.name;
    if (it == d.params.end()) throw InputError(file, at, "(missing)", fmt::format("recipe {} needs it", d.recipe));
    if (!it->is_number_integer() || it->get<std::int64_t>() < p.min || it->get<std::int64_t>() > p.max)
      throw InputError(file, at, json_excerpt(*it), fmt::format("must be an integer in [{}, {}]", p.min, p.max));
  }
  const auto pins = j.find("pins");
  if (!d.encoded()) {
    if (pins != j.end())
      throw InputError(file, where + ".pins", json_excerpt(*pins),
                       fmt::format("recipe {} makes its bytes itself: only an encoded distortion is pinned", d.recipe));
    return d;
  }
  if (pins == j.end() || !pins->is_object() || pins->empty())
    throw InputError(
        file, where + ".pins", pins == j.end() ? "(missing)" : json_excerpt(*pins),
        "an encoded distortion pins its distorted clip per reference: {\"VECTOR\": {\"sha256\": ..., \"made_by\": ...}}");
  for (const auto& [reference, pin] : pins->items()) {
    const std::string at = where + ".pins." + reference;
    if (!pin.is_object() || !pin.contains("sha256") || !pin.contains("made_by") || pin.size() != 2 ||
        !pin["sha256"].is_string() || !pin["made_by"].is_string())
      throw InputError(file, at, json_excerpt(pin),
                       "a pin is {\"sha256\": \"64 hex digits\", \"made_by\": \"the tools' versions\"}");
    const std::string sha = pin["sha256"].get<std::string>();
    if (sha.size() != 64 || !std::all_of(sha.begin(), sha.end(), [](char ch) {
          return std::isxdigit(static_cast<unsigned char>(ch)) && !std::isupper(static_cast<unsigned char>(ch));
        }))
      throw InputError(file, at + ".sha256", sha, "must be 64 lowercase hex digits");
    d.pins[reference] = {sha, pin["made_by"].get<std::string>()};
  }
  return d;
}

std::unique_ptr<FrameSource> distort(std::unique_ptr<FrameSource> reference, const DistortionSpec& d) {
  if (d.encoded())
    throw InputError(d.id, "recipe", d.recipe,
                     "an encoded distortion is read from the cache (its pair's clips), not made frame by frame");
  return std::make_unique<DistortedSource>(std::move(reference), d);
}

PairName split_pair_name(const std::string& vector) {
  const auto tilde = vector.find('~');
  if (tilde == std::string::npos) return {vector, {}};
  PairName name{vector.substr(0, tilde), vector.substr(tilde + 1)};
  // "pan576~" is no pair: read as the vector alone it would score a clip against itself.
  if (name.reference.empty() || name.distortion.empty() || name.distortion.find('~') != std::string::npos)
    throw InputError(vector, "vector", vector, "a pair is VECTOR~DISTORTION: one vector, one distortion, both named");
  return name;
}

}  // namespace twinproof
