// Reading overlapped with computing: a source read on a thread of its own, a few frames ahead of
// the caller, into a ring of frames it owns. next() hands the frames over in order by swapping
// buffers (no copy), and a reader's fault reaches the caller at the frame where it happened,
// after every frame read before it, so a run sees exactly what reading in line would show.
#pragma once

#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "harness/io/frame.hpp"

namespace twinproof {

class ReadAhead final : public FrameSource {
 public:
  // Starts reading `inner` at once (which must not may_block()); `depth` frames at most wait.
  explicit ReadAhead(FrameSource& inner, unsigned depth = 3);
  ~ReadAhead() override;  // stops the reader after the read in progress, and joins it
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  const Format& format() const override { return format_; }
  const std::string& name() const override { return name_; }
  std::optional<unsigned> frames_left() const override;
  bool next(Frame& f) override;

 private:
  void read();

  FrameSource& inner_;
  const Format format_;
  const std::string name_;
  const std::optional<unsigned> frames_at_start_;
  std::vector<Frame> ring_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::size_t head_ = 0, count_ = 0;  // the next frame to hand over, and how many are read
  unsigned handed_ = 0;
  bool ended_ = false, stop_ = false;
  std::exception_ptr error_;
  std::jthread reader_;  // last: started once everything above exists
};

}  // namespace twinproof
