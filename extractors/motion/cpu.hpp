// The scalar CPU reference of integer motion: the contract line by line, whole planes for every
// stage (difference, vertical pass, horizontal pass, row sums, total).
#pragma once

#include <cstdint>
#include <vector>

#include "extractors/large_pages.hpp"
#include "extractors/motion/frame_loop.hpp"
#include "extractors/ready_queue.hpp"
#include "extractors/row_bands.hpp"

namespace twinproof::motion {

// The latest frames' luma, kept as the engine saw it: a ring of `distance + 1` copies.
class LumaRing {
 public:
  void init(const Format& fmt, unsigned distance);
  // Copies rows [begin, end) of the picture's luma in as those of frame `index`.
  void store(const PictureView& pic, unsigned index, int begin, int end);
  const std::uint16_t* frame(unsigned index) const;  // w x h, row-major
  int width() const { return w_; }
  int height() const { return h_; }

 private:
  int w_ = 0, h_ = 0;
  std::vector<PlaneVector<std::uint16_t>> slots_;
};

class CpuSadEngine : public SadEngine {
 public:
  explicit CpuSadEngine(const ExtractorContext& ctx) : ctx_(ctx), bands_(ctx.threads) {}
  void init(const Format& fmt, unsigned distance) override;
  void submit(const PictureView& pic) override;
  std::optional<std::uint64_t> take(bool) override { return queue_.take(); }
  std::optional<Probe> inspect(std::string_view stage) const override;

 protected:
  // T of the pair (earlier P, later C), filling rows_ (and the planes when capturing).
  virtual std::uint64_t pair_total(const std::uint16_t* p, const std::uint16_t* c);
  // T from rows_: the 64-bit sum of the pair's 32-bit row sums.
  std::uint64_t total_of_rows() const;

  const ExtractorContext ctx_;
  RowBands bands_;  // the rows of a pair, split over ctx_.threads threads
  Format fmt_{};
  unsigned distance_ = 1;
  unsigned frames_ = 0;
  LumaRing ring_;
  ReadyQueue<std::uint64_t> queue_;
  // Stages of the latest pair.
  PlaneVector<std::int32_t> diff_, vertical_, horizontal_;
  std::vector<std::uint32_t> rows_;
  std::uint64_t total_ = 0;
  bool have_pair_ = false;
};

}  // namespace twinproof::motion
