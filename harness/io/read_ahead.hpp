// Reading overlapped with computing: a source read on threads of its own, a few frames ahead of
// the caller, into a ring of frames it owns. A source whose frames lie at known places of a file
// (random_access) may be read by several threads at once, each fetching whole frames; any other
// is read in order by one. next() hands the frames over in order by swapping buffers (no copy),
// and a reader's fault reaches the caller at the frame where it happened, after every frame
// before it, so a run sees exactly what reading in line would show. A frame's samples are never
// refilled while a backend still holds them (PictureView::keep).
#pragma once

#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "extractors/worker_threads.hpp"
#include "harness/io/frame.hpp"

namespace twinproof {

class ReadAhead final : public FrameSource {
 public:
  // Starts reading `inner` at once (which must not may_block()): `depth` frames at most wait,
  // read by up to `threads` threads (one unless the source is read by place; never more than
  // depth, so that each reader has a frame of its own to fill).
  explicit ReadAhead(FrameSource& inner, unsigned depth = 3, unsigned threads = 1);
  ~ReadAhead() override;  // stops the readers after the reads in progress, and joins them
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // Frames read from now on are read into `memory` (a backend's: page-locked for a device twin);
  // those already read stay where they are. When `memory` cannot give a frame (no page-locked
  // memory left), the readers go back to ordinary memory: only speed is lost.
  void use_memory(std::shared_ptr<HostMemory> memory);
  // Frames read from now on are read only in their leading `planes` planes, where that loses no
  // check (Frame::read_leading_planes); those already read stay whole.
  void read_leading_planes(int planes);
  unsigned readers() const { return static_cast<unsigned>(readers_->size()); }

  const Format& format() const override { return format_; }
  const std::string& name() const override { return name_; }
  std::optional<unsigned> frames_left() const override;
  bool checks_at_end() const override { return inner_.checks_at_end(); }
  bool next(Frame& f) override;

 private:
  struct Slot {
    Frame frame;
    bool ready = false;  // read (or failed, or the end): the caller may take it
    bool end = false;    // the source had no frame at this index
    std::exception_ptr fault;
  };
  void read();
  // Shapes a slot's frame for the source, in the memory asked for (ordinary memory when that fails).
  void prepare(Frame& f, const std::shared_ptr<HostMemory>& memory);

  FrameSource& inner_;
  const Format format_;
  const std::string name_;
  const std::optional<unsigned> frames_at_start_;
  const std::optional<unsigned> by_place_;  // the frame count, when frames are fetched by place
  std::vector<Slot> ring_;                  // frame i waits in ring_[i % size]
  mutable std::mutex mu_;
  std::condition_variable changed_;
  unsigned claimed_ = 0;   // the next frame a reader takes on
  unsigned handed_ = 0;    // the next frame to hand over
  bool no_more_ = false;   // the end or a fault was met: nothing after it is read
  bool finished_ = false;  // the caller was given the end or the fault
  bool stop_ = false;
  std::shared_ptr<HostMemory> memory_;
  int planes_ = 3;  // read_leading_planes
  // Buffers handed over that a backend still holds (an upload from them in flight): set aside
  // rather than refilled, and taken back once let go.
  std::vector<Frame> held_;
  std::unique_ptr<WorkerThreads> readers_;  // last: started once everything above exists
};

}  // namespace twinproof
