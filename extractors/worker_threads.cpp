#include "extractors/worker_threads.hpp"

#include <atomic>
#include <memory>
#include <new>
#include <system_error>

#include <fmt/format.h>

#include "extractors/extractor.hpp"

namespace twinproof {

void WorkerFault::keep(std::exception_ptr e) {
  std::lock_guard lock(mu_);
  if (!first_) first_ = std::move(e);
}

bool WorkerFault::kept() const {
  std::lock_guard lock(mu_);
  return first_ != nullptr;
}

void WorkerFault::rethrow_if_kept() const {
  std::lock_guard lock(mu_);
  if (first_) std::rethrow_exception(first_);
}

namespace {
enum : int { kWait, kRun, kCancel };  // start_workers' signal to the threads it started
}  // namespace

std::vector<std::thread> start_workers(unsigned count, const std::function<void(unsigned)>& body,
                                       const std::function<void()>& stop, WorkerFault& fault, const std::string& flag) {
  // Workers wait until every thread has started: when one cannot start, the others end without
  // having run any of `body`. A run with its threads half started can only fail where memory is
  // short (the address space full of their stacks), and there a job's own allocations could fail
  // in a destructor, which no handler can catch.
  auto go = std::make_shared<std::atomic<int>>(kWait);
  std::vector<std::thread> pool;
  pool.reserve(count);
  for (unsigned t = 0; t < count; ++t) {
    std::string refused;
    try {
      // The thread keeps its own copies of body and stop: the caller's may be temporaries.
      pool.emplace_back([body, stop, go, &fault, t] {
        go->wait(kWait);
        if (go->load() != kRun) return;
        try {
          body(t);
        } catch (...) {
          fault.keep(std::current_exception());
          stop();
        }
      });
    } catch (const std::system_error& e) {
      refused = e.code().message();
    } catch (const std::bad_alloc&) {
      refused = "no memory for the thread's state";
    }
    if (refused.empty()) continue;
    go->store(kCancel);
    go->notify_all();
    // Joinable threads left to a vector's destructor would call std::terminate.
    for (std::thread& th : pool) th.join();
    throw UsageError(flag, std::to_string(count),
                     fmt::format("cannot start worker thread {} of {}: {} (a process or memory limit; lower {})", t + 1, count,
                                 refused, flag));
  }
  go->store(kRun);
  go->notify_all();
  return pool;
}

}  // namespace twinproof
