// Errors of the harness's inputs. Any of them ends a run with exit code 2 and one line that
// names the file, the field and the value.
#pragma once

#include <stdexcept>
#include <string>

#include "extractors/extractor.hpp"

namespace twinproof {

class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::string field, std::string value, const std::string& message)
      : std::runtime_error(compose(file, field, value, message)),
        file_(std::move(file)),
        field_(std::move(field)),
        value_(std::move(value)) {}
  const std::string& file() const { return file_; }
  const std::string& field() const { return field_; }
  const std::string& value() const { return value_; }

 private:
  static std::string compose(const std::string& file, const std::string& field, const std::string& value,
                             const std::string& message) {
    return escape_control(file) + ": " + escape_control(field) + " '" + escape_control(value) + "': " + escape_control(message);
  }
  std::string file_, field_, value_;
};

// A ConfigError raised while working on `file` (options or geometry of that input), as one line.
inline InputError in_file(const std::string& file, const ConfigError& e) {
  return InputError(file, e.subject(), e.value(), e.what());
}

// Exit codes of every command.
inline constexpr int kExitPass = 0;
inline constexpr int kExitFail = 1;
inline constexpr int kExitError = 2;

}  // namespace twinproof
