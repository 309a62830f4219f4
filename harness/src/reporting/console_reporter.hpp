// The console: every event as the line a person reads, exactly as aorta has always printed it
// (docs/cli.md, "Output"). The account goes to `out`, diagnostics to `err`.
#pragma once

#include "reporting/reporter.hpp"

#include <iosfwd>
#include <string>

namespace aorta::reporting {

struct console_options {
  std::string check_prefix = "aorta: ";  // `aorta check` prints its check lines bare
  bool progress = true;                  // false under --quiet: no per-trial progress lines
};

class console_reporter final : public reporter {
 public:
  console_reporter(std::ostream& out, std::ostream& err, console_options options = {});
  void report(const event& happened) override;
  void flush() override;

 private:
  std::ostream* out_;
  std::ostream* err_;
  console_options options_;
};

// The argv as one line a POSIX shell reads back unchanged: quoted only where a word needs it.
[[nodiscard]] std::string pasteable_command(const std::vector<std::string>& argv);

}  // namespace aorta::reporting
