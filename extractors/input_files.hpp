// Files a run reads from outside (clips, model files, matrices, tables): read bounded, and noted,
// so that no output of the same run can land on one of them (`-o` naming the reference clip, a
// proposed table written over the table in force). Every layer that opens such a file goes
// through here, so the check needs no list of which flags name inputs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace twinproof {

// Notes the file behind the open descriptor `fd` (its device and inode, so that another path to it,
// through `..` or a link, is the same file) as an input of this run; `role` says what it is ("the
// reference clip"). Descriptors that are not regular files (stdin, a pipe) are not noted.
void note_run_input(int fd, const std::string& path, std::string_view role);

// The input of this run that `target` is (following links), as "ROLE PATH", or nullopt when
// `target` is none of them (or does not exist).
std::optional<std::string> run_input_at(const std::filesystem::path& target);

// The whole of a regular file of at most `max_bytes`, its type and size checked on the opened file
// before a byte is read (a 500 MB file is refused, not read), then noted as an input of the run.
// Throws ConfigError(subject "file" or "size", value, "cannot open WHAT: why") otherwise; the caller
// names the file.
std::string read_bounded_file(const std::filesystem::path& file, std::uintmax_t max_bytes, const std::string& what);

// Calls visit(i) for each byte i of a JSON text outside its strings (their quotes included); visit
// returns the index it has read up to (i, or the last byte of a token it took whole), or npos to
// stop the walk.
template <class Visit>
void for_each_outside_json_strings(std::string_view text, Visit visit) {
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if ((i = visit(i)) == std::string_view::npos) {
      return;
    }
  }
}

// The deepest nesting of arrays and objects in a JSON text, found by one pass over its brackets
// outside strings, stopping once it passes `limit`: a reader refuses a text deeper than its limit
// before building (and later printing, both recursive) a tree of it.
int json_nesting_depth(std::string_view text, int limit);

// The first number of a JSON text that a double cannot hold (1e999), as "byte N: TEXT", or
// nullopt: what a parser's overflow fault does not say.
std::optional<std::string> json_overflowing_number(std::string_view text);

}  // namespace twinproof
