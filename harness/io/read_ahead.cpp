#include "harness/io/read_ahead.hpp"

#include <algorithm>
#include <utility>

namespace twinproof {

ReadAhead::ReadAhead(FrameSource& inner, unsigned depth, unsigned threads)
    : inner_(inner),
      format_(inner.format()),
      name_(inner.name()),
      frames_at_start_(inner.frames_left()),
      by_place_(threads > 1 ? inner.random_access() : std::nullopt),
      ring_(std::max(depth, 1u)) {
  const unsigned n = by_place_ ? std::clamp(threads, 1u, static_cast<unsigned>(ring_.size())) : 1;
  readers_ = std::make_unique<WorkerThreads>(
      n, [this](unsigned) { read(); }, "--readers");
}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  changed_.notify_all();
  readers_.reset();  // joins
}

void ReadAhead::use_memory(std::shared_ptr<HostMemory> memory) {
  std::lock_guard lock(mu_);
  memory_ = std::move(memory);
}

void ReadAhead::read_leading_planes(int planes) {
  std::lock_guard lock(mu_);
  planes_ = planes;
}

std::optional<unsigned> ReadAhead::frames_left() const {
  if (!frames_at_start_) return std::nullopt;
  std::lock_guard lock(mu_);
  return *frames_at_start_ > handed_ ? *frames_at_start_ - handed_ : 0;
}

void ReadAhead::prepare(Frame& f, const std::shared_ptr<HostMemory>& memory) {
  try {
    f.reset(format_, memory);
  } catch (const DeviceError&) {
    f.reset(format_, nullptr);
    std::lock_guard lock(mu_);
    if (memory_ == memory) memory_ = nullptr;
  }
}

void ReadAhead::read() {
  std::unique_lock lock(mu_);
  for (;;) {
    // A frame may be taken on once the frame a ring's length before it was handed over.
    changed_.wait(lock, [this] { return stop_ || no_more_ || claimed_ < handed_ + ring_.size(); });
    if (stop_ || no_more_) return;
    if (by_place_ && claimed_ >= *by_place_) {
      no_more_ = true;  // every frame is taken on; the caller knows the count
      return;
    }
    const unsigned index = claimed_++;
    Slot& slot = ring_[index % ring_.size()];
    if (slot.frame.held_elsewhere()) {
      // The backend still uploads from it: a set-aside buffer it has let go of takes its place,
      // else a new one (prepare allocates it).
      Frame replacement;
      if (const auto free = std::find_if(held_.begin(), held_.end(), [](const Frame& f) { return !f.held_elsewhere(); });
          free != held_.end()) {
        replacement = std::move(*free);
        held_.erase(free);
      }
      held_.push_back(std::move(slot.frame));
      slot.frame = std::move(replacement);
    }
    const std::shared_ptr<HostMemory> memory = memory_;
    slot.frame.read_leading_planes(planes_);
    lock.unlock();
    bool more = false;
    std::exception_ptr fault;
    try {
      if (slot.frame.memory() != memory || slot.frame.size() == 0) prepare(slot.frame, memory);
      if (by_place_) {
        inner_.read_frame(index, slot.frame);
        more = true;
      } else {
        more = inner_.next(slot.frame);
      }
    } catch (...) {
      fault = std::current_exception();
    }
    lock.lock();
    slot.fault = fault;
    slot.end = !more && !fault;
    slot.ready = true;
    if (fault || !more) no_more_ = true;
    changed_.notify_all();
  }
}

bool ReadAhead::next(Frame& f) {
  std::unique_lock lock(mu_);
  if (finished_ || (by_place_ && handed_ >= *by_place_)) return false;
  Slot& slot = ring_[handed_ % ring_.size()];
  changed_.wait(lock, [&] { return slot.ready; });
  if (slot.fault || slot.end) {
    finished_ = true;
    if (slot.fault) std::rethrow_exception(std::exchange(slot.fault, nullptr));
    return false;
  }
  std::swap(f, slot.frame);
  slot.ready = false;
  ++handed_;
  changed_.notify_all();
  return true;
}

}  // namespace twinproof
