// Small text helpers shared by the command line and the rooms it drives.
#pragma once

#include <string>
#include <vector>

namespace twinproof {

// The non-empty parts of `s` between `sep`s: "a,,b," is {"a", "b"}.
std::vector<std::string> split_list(const std::string& s, char sep = ',');

}  // namespace twinproof
