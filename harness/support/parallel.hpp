// Runs independent jobs on a few threads and reports each result in job order as soon as it and
// every job before it are done, so output stays deterministic while work overlaps.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "extractors/worker_threads.hpp"

namespace twinproof {

unsigned default_jobs();  // hardware threads, at least 1

// The most workers any command starts: far above any machine's cores, far below what exhausts a
// process limit by accident.
inline constexpr unsigned kMaxJobs = 1024;

// Checks a -j value (0: every core) and returns the workers to start for `tasks` tasks: never
// more than the tasks, never more than kMaxJobs. Throws ConfigError for a value above kMaxJobs.
unsigned worker_count(unsigned requested, std::size_t tasks);

template <class Result>
void run_ordered(std::size_t n, unsigned jobs, const std::function<Result(std::size_t)>& work,
                 const std::function<void(std::size_t, Result&)>& done) {
  std::vector<std::optional<Result>> results(n);
  std::vector<std::exception_ptr> errors(n);
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i; (i = next++) < n;) {
      std::optional<Result> r;
      std::exception_ptr e;
      try {
        r.emplace(work(i));
      } catch (...) {
        e = std::current_exception();
      }
      std::lock_guard lock(mu);
      results[i] = std::move(r);
      errors[i] = e;
      cv.notify_all();
    }
  };
  WorkerFault fault;
  const auto stop = [&] {
    next = n;
    std::lock_guard lock(mu);
    cv.notify_all();  // a wait below for a job that a faulted worker held ends
  };
  std::vector<std::thread> pool = start_workers(
      worker_count(jobs, n), [&](unsigned) { worker(); }, stop, fault, "--jobs");
  // The first error (a job's, or done's own) ends the run: workers take no further job, and the
  // loop stops waiting, since a job no worker took would never arrive.
  std::exception_ptr first_error;
  for (std::size_t i = 0; i < n && !first_error; ++i) {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return results[i].has_value() || errors[i] || fault.kept(); });
    lock.unlock();
    if (!results[i] && !errors[i]) break;  // a worker faulted: rethrown once all are joined
    if (errors[i]) {
      first_error = errors[i];
    } else {
      try {
        done(i, *results[i]);
      } catch (...) {
        first_error = std::current_exception();
      }
    }
    results[i].reset();
  }
  stop();
  for (auto& t : pool) t.join();
  fault.rethrow_if_kept();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace twinproof
