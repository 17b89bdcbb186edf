// twinproof vectors list | make | fetch | verify
#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "harness/cli/commands.hpp"
#include "harness/gate/matrix.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/paths.hpp"
#include "harness/support/sha256.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof::cli {
namespace {

std::vector<const VectorSpec*> select(const std::vector<std::string>& ids, bool decoded_only) {
  const Manifest& m = Manifest::project();
  std::vector<const VectorSpec*> out;
  if (ids.empty()) {
    for (const VectorSpec& v : m.vectors())
      if (!decoded_only || v.decoded) out.push_back(&v);
    return out;
  }
  for (const std::string& id : ids) out.push_back(&m.get(id));
  return out;
}

// Every encoded pair the manifest pins ("bbb640_t240~x264crf23"), in manifest order.
std::vector<std::string> encoded_pairs() {
  std::vector<std::string> out;
  for (const DistortionSpec& d : Manifest::project().distortions())
    for (const auto& [reference, pin] : d.pins) out.push_back(reference + "~" + d.id);
  return out;
}

int list() {
  const Manifest& m = Manifest::project();
  std::vector<std::vector<std::string>> rows = {{"id", "recipe", "format", "frames", "source"}};
  for (const VectorSpec& v : m.vectors()) {
    std::string where = "generated";
    if (v.decoded)
      where =
          vector_present(v) ? "cached: " + cached_vector_path(v).string() : "not fetched (twinproof vectors fetch " + v.id + ")";
    rows.push_back({v.id, v.recipe, describe(v.fmt), std::to_string(v.frames), where});
  }
  for (const std::string& id : encoded_pairs()) {
    const PairName name = split_pair_name(id);
    const VectorSpec& v = m.get(name.reference);
    const DistortionSpec& d = m.distortion(name.distortion);
    rows.push_back({id, d.recipe + " " + d.params.dump(), describe(v.fmt), std::to_string(v.frames),
                    clips_present(id) ? "cached: " + cached_pair_path(name.reference, d).string()
                                      : "not fetched (twinproof vectors fetch " + id + ")"});
  }
  print_columns(rows, {3});
  return kExitPass;
}

// Where `vectors make` writes: "-" is standard output, anything else an OutputFile (whole or not
// at all; a device, a pipe or a link's end written through; a folder refused).
// A pair's id (VECTOR~DISTORTION) writes its distorted clip, made from the verified reference.
int make(const std::string& id, std::string out, bool y4m) {
  const VectorSpec& v = Manifest::project().reference_of(id);
  if (out.empty()) out = id + (y4m ? ".y4m" : ".yuv");
  std::optional<OutputFile> file;
  if (out != "-") file.emplace(out, "--output", "the clip");
  const std::string target = file ? file->path().string() : out;
  {
    ClipPair clips = open_pair(id, v.fmt.bitdepth, v.fmt.chroma);
    auto src = clips.distorted ? std::move(clips.distorted) : std::move(clips.reference);
    auto writer = y4m ? create_y4m_writer(target, v.fmt) : create_raw_writer(target);
    Frame f;
    while (src->next(f)) writer->write(f);
    writer->close();
  }
  if (file) file->commit();  // never before the clip is whole and verified: a failure leaves nothing behind
  if (out != "-") {
    const PairName name = split_pair_name(id);
    const DistortionSpec* d = name.distortion.empty() ? nullptr : &Manifest::project().distortion(name.distortion);
    const std::string verified =
        d == nullptr   ? fmt::format("its sha256 {} verified", v.sha256)
        : d->encoded() ? fmt::format("its pinned sha256 {} verified", encoded_pin(*d, v.id, Manifest::project()).sha256)
                       : fmt::format("made from the reference, whose sha256 {} was verified", v.sha256);
    fmt::print(stderr, "{}: {} frames of {} written to {} ({})\n", id, v.frames, describe(v.fmt), out, verified);
  }
  return kExitPass;
}

// The decoded vectors first, then the encoded pairs made from them. A pair's id fetches its
// reference too; no id fetches every decoded vector and every encoded pair.
int fetch(const std::vector<std::string>& ids, bool force) {
  const Manifest& m = Manifest::project();
  std::vector<std::string> vectors, pairs;
  for (const std::string& id : ids) {
    const PairName name = split_pair_name(id);
    if (name.distortion.empty()) {
      vectors.push_back(id);
    } else if (m.distortion(name.distortion).encoded()) {
      vectors.push_back(name.reference);
      pairs.push_back(id);
    } else {
      vectors.push_back(name.reference);
      fmt::print("{}: made from its reference by its recipe as it is read, nothing to fetch for the distortion\n", id);
    }
  }
  if (ids.empty()) pairs = encoded_pairs();
  std::vector<std::string> once;  // each reference once, in order
  for (const std::string& id : vectors)
    if (std::find(once.begin(), once.end(), id) == once.end()) once.push_back(id);
  for (const VectorSpec* v : select(once, true)) fmt::print("{}\n", fetch_vector(*v, force));
  for (const std::string& id : pairs) {
    const PairName name = split_pair_name(id);
    fmt::print("{}\n", encode_pair(m.get(name.reference), m.distortion(name.distortion), force));
  }
  return kExitPass;
}

// Reads each vector (and each encoded pair's distorted clip) through and checks it against its
// pin. No id: every vector and every encoded pair.
int verify(const std::vector<std::string>& ids) {
  const Manifest& m = Manifest::project();
  std::vector<std::string> vectors, pairs;
  for (const std::string& id : ids) (split_pair_name(id).distortion.empty() ? vectors : pairs).push_back(id);
  if (ids.empty()) pairs = encoded_pairs();
  int bad = 0, good = 0;
  // One clip read through; its pin is checked by the stream itself at the end.
  const auto check = [&](const std::string& id, bool present, const std::function<std::unique_ptr<FrameSource>()>& open,
                         unsigned frames, const std::string& sha) {
    if (!present) {
      fmt::print("MISSING {}: not in the cache; run `twinproof vectors fetch {}`\n", id, id);
      ++bad;
      return;
    }
    try {
      auto src = open();
      Frame f;
      while (src->next(f)) {
      }
      fmt::print("OK      {}: {} frames, sha256 {}\n", id, frames, sha);
      ++good;
    } catch (const InputError& e) {
      fmt::print("DRIFTED {}\n", e.what());
      ++bad;
    }
  };
  if (!(vectors.empty() && !ids.empty()))
    for (const VectorSpec* v : select(vectors, false))
      check(
          v->id, vector_present(*v), [&] { return open_vector(*v); }, v->frames, v->sha256);
  for (const std::string& id : pairs) {
    const VectorSpec& v = m.reference_of(id);
    const DistortionSpec& d = m.distortion(split_pair_name(id).distortion);
    if (!d.encoded())
      throw UsageError("ids", id, fmt::format("{} is made from its reference as it is read: verify its reference {}", id, v.id));
    const std::string sha = encoded_pin(d, v.id, m).sha256;
    check(
        id, clips_present(id), [&] { return std::move(open_pair(id, v.fmt.bitdepth, v.fmt.chroma).distorted); }, v.frames, sha);
  }
  fmt::print("{} passed, {} failed\n", good, bad);
  return bad == 0 ? kExitPass : kExitError;
}

// Pins every bit-depth / chroma variant the matrices use and the manifest does not pin yet.
// Existing pins are never rewritten: a variant whose bytes changed is a drift, not a re-pin.
int pin(std::vector<std::string> matrices) {
  namespace fs = std::filesystem;
  if (matrices.empty())
    for (const auto& e : fs::directory_iterator(data_root() / "ci" / "matrices"))
      if (e.path().extension() == ".json") matrices.push_back(e.path().string());
  std::sort(matrices.begin(), matrices.end());
  Manifest manifest = Manifest::load(Manifest::project().file());
  std::map<std::string, VectorSpec> wanted;
  for (const std::string& file : matrices)
    for (const Cell& c : load_matrix(file).cells) {
      const VectorSpec& base = manifest.get(c.vector);
      if (base.fmt.bitdepth == c.bitdepth && base.fmt.chroma == c.chroma) continue;
      VectorSpec v = variant_spec(base, c.bitdepth, c.chroma);
      wanted.emplace(v.id, v);
    }
  std::vector<VectorSpec> pinned;
  std::size_t already = 0;
  for (auto& [id, v] : wanted) {
    if (manifest.find(id) != nullptr) {
      ++already;
      continue;
    }
    auto src = convert_variant(open_vector(manifest.get(v.base), manifest), v);
    Sha256 h;
    Frame f;
    unsigned frames = 0;
    while (src->next(f)) {
      h.update(f.bytes(), f.size());
      ++frames;
    }
    v.sha256 = h.hex_digest();
    v.frames = frames;
    fmt::print("pinned {} ({}, {} frames): {}\n", id, describe(v.fmt), frames, v.sha256);
    pinned.push_back(v);
  }
  if (!pinned.empty()) manifest.add_pins(pinned);
  fmt::print("{} variants used by {} matrices: {} newly pinned, {} already pinned\n", wanted.size(), matrices.size(),
             pinned.size(), already);
  return kExitPass;
}

}  // namespace

void add_vectors(CLI::App& app, int& rc) {
  CLI::App* sub = app.add_subcommand("vectors", "Test vectors: list, make, fetch, verify");
  sub->require_subcommand(1);

  sub->add_subcommand("list", "List the manifest's vectors and where their bytes come from")->callback([&rc] { rc = list(); });

  struct MakeArgs {
    std::string id, out;
    bool y4m = false;
  };
  auto m = std::make_shared<MakeArgs>();
  CLI::App* mk = sub->add_subcommand("make", "Write a vector's frames to a file (verified against its SHA-256)");
  mk->add_option("id", m->id, "Vector id")->required();
  mk->add_option("--output,-O", m->out, "Output file (default ID.yuv or ID.y4m; - for stdout)");
  mk->add_flag("--y4m", m->y4m, "Write YUV4MPEG2 instead of raw planar");
  mk->callback([m, &rc] { rc = make(m->id, m->out, m->y4m); });

  struct FetchArgs {
    std::vector<std::string> ids;
    bool force = false;
  };
  auto f = std::make_shared<FetchArgs>();
  CLI::App* fe = sub->add_subcommand("fetch", "Fetch and decode the real-content vectors into the cache");
  fe->add_option("ids", f->ids, "Vector ids (default: every decoded vector)");
  fe->add_flag("--force", f->force, "Decode again even when the cached copy verifies");
  fe->callback([f, &rc] { rc = fetch(f->ids, f->force); });

  auto matrices = std::make_shared<std::vector<std::string>>();
  CLI::App* pi = sub->add_subcommand("pin", "Pin the SHA-256 of every variant the matrices use (new ones only)");
  pi->add_option("matrices", *matrices, "Matrix files (default: ci/matrices/*.json)");
  pi->callback([matrices, &rc] { rc = pin(*matrices); });

  auto ids = std::make_shared<std::vector<std::string>>();
  CLI::App* ve = sub->add_subcommand("verify", "Check every vector's bytes against its pinned SHA-256");
  ve->add_option("ids", *ids, "Vector ids (default: all)");
  ve->callback([ids, &rc] { rc = verify(*ids); });
}

}  // namespace twinproof::cli
