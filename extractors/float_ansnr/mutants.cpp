// float_ansnr's deliberately broken twin, registered only with --with-mutants: the self-test's
// proof that the gate fails a twin whose filter window slips at an edge, and that repro traces it
// to the filtered pictures: the last row is filtered from the window one row higher.
#include "extractors/float_ansnr/cpu.hpp"

namespace twinproof::float_ansnr {
namespace {

class MirrorMutantEngine final : public CpuEnergyEngine {
 public:
  explicit MirrorMutantEngine(const ExtractorContext& ctx) : CpuEnergyEngine(ctx, 1) {}

 protected:
  // The last row filtered from the pictures shifted one row down, so that its window ends a row
  // higher (pictures of 4 rows or more: the window then stays inside them).
  void rows(const PictureView& ref, const PictureView& dist, int begin, int end) override {
    CpuEnergyEngine::rows(ref, dist, begin, end);
    const int h = ref.fmt.height;
    if (end != h || h < 4) return;
    PictureView r = ref, d = dist;
    for (PictureView* pic : {&r, &d}) pic->data[0] += pic->stride[0] * -1;  // row y reads y - 1
    const std::size_t w = static_cast<std::size_t>(ref.fmt.width);
    rows_[h - 1] = row_energy(r, d, h - 1, ctx_.capture_stages ? ref_filtered_.data() + w * (h - 1) : nullptr,
                              ctx_.capture_stages ? dis_filtered_.data() + w * (h - 1) : nullptr);
  }
};

}  // namespace

std::unique_ptr<Extractor> make_mutant_mirror(const ExtractorContext& ctx) {
  return std::make_unique<FloatAnsnrExtractor>(std::make_unique<MirrorMutantEngine>(ctx), ctx);
}

}  // namespace twinproof::float_ansnr
