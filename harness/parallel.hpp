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

namespace twinproof {

unsigned default_jobs();  // hardware threads, at least 1

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
  const unsigned threads = std::max(1u, std::min<unsigned>(jobs, static_cast<unsigned>(n)));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  std::exception_ptr first_error;
  for (std::size_t i = 0; i < n; ++i) {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return results[i].has_value() || errors[i]; });
    lock.unlock();
    if (errors[i]) {
      if (!first_error) first_error = errors[i];
      next = n;  // stop handing out work
      continue;
    }
    if (!first_error) done(i, *results[i]);
    results[i].reset();
  }
  for (auto& t : pool) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace twinproof
