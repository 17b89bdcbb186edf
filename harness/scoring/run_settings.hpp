// How one backend's run on one clip is set up from what a user gave: the options as NAME=VALUE,
// the threads a CPU backend computes on, the threads reading the clip ahead. `score` and `bench`
// take them alike.
#pragma once

#include <string>
#include <vector>

#include "extractors/extractor.hpp"
#include "extractors/registry.hpp"

namespace twinproof {

// NAME=VALUE each (--option); UsageError for one without a name or an '='.
OptionList parse_option_flags(const std::vector<std::string>& flags);

// --threads: 0 (every hardware thread) or a count up to kMaxThreads; UsageError beyond.
inline constexpr unsigned kMaxThreads = 1024;
unsigned checked_threads(unsigned threads);

// --readers: threads reading frames ahead, each fetching whole frames where the file allows it;
// 0 picks by backend. The readers for `b` computing on `threads` threads (0: every hardware
// thread); UsageError above kMaxReaders.
inline constexpr unsigned kMaxReaders = 64;
unsigned resolve_readers(unsigned readers, const Backend& b, unsigned threads);

// --host-memory: whether frames wait in pinned memory ("pinned"; "pageable" does not); UsageError
// otherwise.
bool pinned_host_memory(const std::string& value);

}  // namespace twinproof
