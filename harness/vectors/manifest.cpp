#include <fstream>

#include <fmt/format.h>

#include "harness/support/errors.hpp"
#include "harness/support/json_file.hpp"
#include "harness/support/paths.hpp"
#include "harness/support/sha256.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

template <class T>
T field(const json& j, const std::string& file, const std::string& where, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) throw InputError(file, where + "." + key, "(missing)", "required field is missing");
  try {
    return it->get<T>();
  } catch (const json::exception&) {
    throw InputError(file, where + "." + key, it->dump(), "has the wrong type");
  }
}

VectorSpec parse_vector(const json& j, const std::string& file, std::size_t index) {
  const std::string where = fmt::format("vectors[{}]", index);
  VectorSpec v;
  v.id = field<std::string>(j, file, where, "id");
  const std::string at = fmt::format("vectors[{}] ({})", index, v.id);
  v.recipe = field<std::string>(j, file, at, "recipe");
  v.fmt.width = field<int>(j, file, at, "width");
  v.fmt.height = field<int>(j, file, at, "height");
  v.fmt.bitdepth = field<int>(j, file, at, "bitdepth");
  const std::string chroma = field<std::string>(j, file, at, "chroma");
  const auto c = parse_chroma(chroma);
  if (!c) throw InputError(file, at + ".chroma", chroma, "must be one of 400, 420, 422, 444");
  v.fmt.chroma = *c;
  validate_format(v.fmt, file + " " + at);
  v.frames = field<unsigned>(j, file, at, "frames");
  if (v.frames == 0) throw InputError(file, at + ".frames", "0", "a vector has at least one frame");
  v.sha256 = field<std::string>(j, file, at, "sha256");
  if (v.sha256.size() != 64 || v.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw InputError(file, at + ".sha256", v.sha256, "not a lowercase hex SHA-256");
  v.params = j.value("params", json::object());
  if (v.recipe == "variant") v.base = field<std::string>(j, file, at, "base");
  if (v.recipe == "decoded") {
    const json src = field<json>(j, file, at, "source");
    DecodedOrigin d;
    d.npm = src.value("npm", "");
    d.deb = src.value("deb", "");
    d.version = src.value("version", "");
    d.file = field<std::string>(src, file, at + ".source", "file");
    d.licence = src.value("licence", "");
    if (d.npm.empty() == d.deb.empty())
      throw InputError(file, at + ".source", json_excerpt(src), "a decoded vector names exactly one of npm or deb");
    d.ffmpeg_args = field<std::vector<std::string>>(j, file, at, "ffmpeg");
    v.decoded = std::move(d);
  }
  return v;
}

class VerifiedSource final : public FrameSource {
 public:
  VerifiedSource(std::unique_ptr<FrameSource> inner, std::string id, std::string sha, unsigned frames)
      : inner_(std::move(inner)), id_(std::move(id)), sha_(std::move(sha)), frames_(frames) {}
  const Format& format() const override { return inner_->format(); }
  const std::string& name() const override { return id_; }
  std::optional<unsigned> frames_left() const override { return frames_ > seen_ ? frames_ - seen_ : 0; }
  bool may_block() const override { return inner_->may_block(); }
  bool checks_at_end() const override { return true; }
  bool next(Frame& f) override {
    f.read_leading_planes(3);  // the pinned hash covers every byte of every frame
    if (!inner_->next(f)) {
      finish();
      return false;
    }
    if (++seen_ > frames_)
      throw InputError(id_, "frames", std::to_string(seen_),
                       fmt::format("vector drifted: more than the pinned {} frames", frames_));
    hash_.update(f.bytes(), f.size());
    return true;
  }

 private:
  void finish() {
    if (done_) return;
    done_ = true;
    if (seen_ != frames_)
      throw InputError(id_, "frames", std::to_string(seen_), fmt::format("vector drifted: {} frames pinned", frames_));
    const std::string got = hash_.hex_digest();
    if (got != sha_)
      throw InputError(id_, "sha256", got, fmt::format("vector drifted: its bytes do not hash to the pinned {}", sha_));
  }
  std::unique_ptr<FrameSource> inner_;
  std::string id_, sha_;
  unsigned frames_, seen_ = 0;
  bool done_ = false;
  Sha256 hash_;
};

}  // namespace

Manifest Manifest::load(const fs::path& file) {
  const std::string name = file.string();
  const json j = read_json_file(file, "the vector manifest");
  return walking_json_file(name, [&] { return from_json(j, file); });
}

Manifest Manifest::from_json(const json& j, const fs::path& file) {
  const std::string name = file.string();
  if (!j.is_object()) throw InputError(name, "manifest", json_excerpt(j), "the manifest is a JSON object");
  Manifest m;
  m.file_ = file;
  const json vectors = j.value("vectors", json());
  if (!vectors.is_array()) throw InputError(name, "vectors", json_excerpt(vectors), "must be an array");
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    VectorSpec v = parse_vector(vectors[i], name, i);
    if (m.find(v.id) != nullptr) throw InputError(name, fmt::format("vectors[{}].id", i), v.id, "duplicate vector id");
    m.vectors_.push_back(std::move(v));
  }
  const json distortions = j.value("distortions", json::array());
  if (!distortions.is_array()) throw InputError(name, "distortions", json_excerpt(distortions), "must be an array");
  for (std::size_t i = 0; i < distortions.size(); ++i) {
    DistortionSpec d = parse_distortion(distortions[i], name, fmt::format("distortions[{}]", i));
    for (const DistortionSpec& e : m.distortions_)
      if (e.id == d.id) throw InputError(name, fmt::format("distortions[{}].id", i), d.id, "duplicate distortion id");
    m.distortions_.push_back(std::move(d));
  }
  for (const VectorSpec& v : m.vectors_)
    if (v.recipe == "variant" && m.find(v.base) == nullptr)
      throw InputError(name, "vectors (" + v.id + ").base", v.base, "the variant's base vector is not in the manifest");
  return m;
}

const VectorSpec& Manifest::variant(const std::string& base, int bitdepth, Chroma chroma) const {
  const VectorSpec& b = get(base);
  if (b.fmt.bitdepth == bitdepth && b.fmt.chroma == chroma) return b;
  const std::string id = variant_id(base, bitdepth, chroma);
  if (const VectorSpec* v = find(id)) return *v;
  throw InputError(file_.string(), "variant", id, "this variant is not pinned in the manifest; run `twinproof vectors pin`");
}

void Manifest::add_pins(const std::vector<VectorSpec>& pinned) {
  json j = read_json_file(file_, "the vector manifest");
  for (const VectorSpec& v : pinned) {
    if (find(v.id) != nullptr) continue;
    j["vectors"].push_back({{"id", v.id},
                            {"recipe", "variant"},
                            {"base", v.base},
                            {"width", v.fmt.width},
                            {"height", v.fmt.height},
                            {"bitdepth", v.fmt.bitdepth},
                            {"chroma", std::string(to_string(v.fmt.chroma))},
                            {"frames", v.frames},
                            {"sha256", v.sha256},
                            {"purpose", "libyuv variant"}});
    vectors_.push_back(v);
  }
  std::ofstream out(file_);
  if (!(out << j.dump(2) << "\n")) throw InputError(file_.string(), "file", file_.string(), "cannot rewrite the manifest");
}

const Manifest& Manifest::project() {
  static const Manifest m = load(data_root() / "vectors" / "manifest.json");
  return m;
}

const VectorSpec* Manifest::find(const std::string& id) const {
  for (const VectorSpec& v : vectors_)
    if (v.id == id) return &v;
  return nullptr;
}

const VectorSpec& Manifest::get(const std::string& id) const {
  if (const VectorSpec* v = find(id)) return *v;
  throw InputError(file_.string(), "vector", id, "no such vector in the manifest (see `twinproof vectors list`)");
}

const DistortionSpec& Manifest::distortion(const std::string& id) const {
  for (const DistortionSpec& d : distortions_)
    if (d.id == id) return d;
  throw InputError(file_.string(), "distortion", id, "no such distortion in the manifest (see `twinproof vectors list`)");
}

const VectorSpec& Manifest::reference_of(const std::string& vector_or_pair) const {
  const PairName name = split_pair_name(vector_or_pair);
  if (!name.distortion.empty()) (void)distortion(name.distortion);
  return get(name.reference);
}

fs::path cached_vector_path(const VectorSpec& v) { return cache_root() / "vectors" / (v.id + ".yuv"); }

bool vector_present(const VectorSpec& v, const Manifest& m) {
  if (v.recipe == "variant") return vector_present(m.get(v.base), m);
  if (!v.decoded) return true;
  std::error_code ec;
  return fs::is_regular_file(cached_vector_path(v), ec);
}

std::unique_ptr<FrameSource> verify_stream(std::unique_ptr<FrameSource> inner, std::string id, std::string sha, unsigned frames) {
  return std::make_unique<VerifiedSource>(std::move(inner), std::move(id), std::move(sha), frames);
}

std::unique_ptr<FrameSource> open_vector(const VectorSpec& v, const Manifest& m) {
  std::unique_ptr<FrameSource> src;
  if (v.recipe == "variant") {
    src = convert_variant(open_vector(m.get(v.base), m), v);
  } else if (v.decoded) {
    if (!vector_present(v, m))
      throw InputError(v.id, "cache", cached_vector_path(v).string(),
                       fmt::format("decoded vector is not in the cache; run `twinproof vectors fetch {}`", v.id));
    src = open_yuv(cached_vector_path(v).string(), v.fmt);
  } else {
    src = generate(v);
  }
  return verify_stream(std::move(src), v.id, v.sha256, v.frames);
}

}  // namespace twinproof
