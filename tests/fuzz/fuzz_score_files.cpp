// Score files of other tools (libvmaf's JSON, XML, CSV; ffmpeg's vmafmotion stats): the first
// byte picks the format, the rest is the file an exec twin's program wrote.
#include "harness/io/score_files.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace twinproof;
  if (size == 0) return 0;
  static constexpr ScoreFileFormat kFormats[] = {ScoreFileFormat::libvmaf_json, ScoreFileFormat::libvmaf_xml,
                                                 ScoreFileFormat::libvmaf_csv, ScoreFileFormat::ffmpeg_vmafmotion};
  const ScoreFileFormat format = kFormats[data[0] % 4];
  const auto file = fuzz::write_input("scores.out", data + 1, size - 1);
  fuzz::expect_refusal_or_success([&] {
    const ScoreFile f = read_score_file(file.string(), format);
    std::size_t n = 0;
    for (const auto& [key, column] : f.values) n += column.size() + key.size();
    (void)n;
  });
  return 0;
}
