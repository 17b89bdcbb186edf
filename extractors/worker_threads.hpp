// Starting the threads an object works with (the gate's workers, a plane's row bands, frames in
// flight, clip readers), one way: when the system refuses a thread (a process or memory limit,
// `ulimit -v`), the threads already started end without running their body, are joined, and a
// UsageError names the thread and the reason. Never a std::terminate from a joinable thread left
// behind, and never a join that waits for ever on a thread parked for work that will not come.
#pragma once

#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace twinproof {

// What escapes a worker's body (memory exhausted outside the body's own handling, say while it
// records a result) is kept here, the run is stopped, and the owner rethrows it once every worker
// has been joined: a worker thread never ends the process with a std::terminate.
class WorkerFault {
 public:
  void keep(std::exception_ptr e);
  bool kept() const;
  void rethrow_if_kept() const;  // the first fault kept, if any

 private:
  mutable std::mutex mu_;
  std::exception_ptr first_;
};

// Starts `count` threads running `body(i)` (i: the thread's index from 0), which begin once all of
// them have started. When one cannot be started, the started ones end without running `body`, are
// joined, and UsageError names `flag` (the setting that asked for the threads: "--jobs",
// "--threads", "--readers"), the thread and the reason. A fault that escapes `body` goes to
// `fault` and calls `stop` (which must make the other workers return).
std::vector<std::thread> start_workers(unsigned count, const std::function<void(unsigned)>& body,
                                       const std::function<void()>& stop, WorkerFault& fault, const std::string& flag);

// The same for workers whose body handles its own faults: one escaping is kept and rethrown by
// the returned pool's owner through `fault()`.
class WorkerThreads {
 public:
  WorkerThreads() = default;
  WorkerThreads(unsigned count, const std::function<void(unsigned)>& body, const std::string& flag)
      : threads_(start_workers(
            count, body, [] {}, fault_, flag)) {}
  ~WorkerThreads() { join(); }
  WorkerThreads(const WorkerThreads&) = delete;
  WorkerThreads& operator=(const WorkerThreads&) = delete;
  WorkerThreads(WorkerThreads&&) = delete;
  WorkerThreads& operator=(WorkerThreads&&) = delete;

  std::size_t size() const { return threads_.size(); }
  // Joins every thread; the owner has told them to return first.
  void join() {
    for (std::thread& t : threads_)
      if (t.joinable()) t.join();
  }

 private:
  WorkerFault fault_;
  std::vector<std::thread> threads_;
};

}  // namespace twinproof
