#include "harness/io/read_ahead.hpp"

#include <utility>

namespace twinproof {

ReadAhead::ReadAhead(FrameSource& inner, unsigned depth)
    : inner_(inner), format_(inner.format()), name_(inner.name()), frames_at_start_(inner.frames_left()),
      ring_(depth == 0 ? 1 : depth), reader_([this] { read(); }) {}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  changed_.notify_all();
  // reader_ joins as it is destroyed.
}

std::optional<unsigned> ReadAhead::frames_left() const {
  if (!frames_at_start_) return std::nullopt;
  return *frames_at_start_ > handed_ ? *frames_at_start_ - handed_ : 0;
}

void ReadAhead::read() {
  std::unique_lock lock(mu_);
  for (;;) {
    changed_.wait(lock, [this] { return stop_ || count_ < ring_.size(); });
    if (stop_) return;
    // The slot after the read frames: the caller touches only slots it was handed.
    Frame& slot = ring_[(head_ + count_) % ring_.size()];
    lock.unlock();
    bool more = false;
    std::exception_ptr fault;
    try {
      more = inner_.next(slot);
    } catch (...) {
      fault = std::current_exception();
    }
    lock.lock();
    if (fault || !more) {
      error_ = fault;
      ended_ = true;
      changed_.notify_all();
      return;
    }
    ++count_;
    changed_.notify_all();
  }
}

bool ReadAhead::next(Frame& f) {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [this] { return count_ > 0 || ended_; });
  if (count_ == 0) {
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    return false;
  }
  std::swap(f, ring_[head_]);
  head_ = (head_ + 1) % ring_.size();
  --count_;
  ++handed_;
  changed_.notify_all();
  return true;
}

}  // namespace twinproof
