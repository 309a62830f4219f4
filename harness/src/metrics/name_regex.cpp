#include "aorta/name_regex.hpp"

#include <fmt/format.h>
#include <re2/re2.h>

#include <stdexcept>
#include <utility>

namespace aorta {
namespace {

// RE2 matches in time linear in the name and never recurses, so a hostile pattern or a kernel
// name of megabytes cannot hang or crash a check. The price is its syntax: no backreferences and
// no lookaround (docs/checks-and-metrics.md).
RE2::Options engine_options() {
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(name_regex_max_memory);
  return options;
}

std::string explain(const RE2& failed) {
  std::string why = failed.error();
  switch (failed.error_code()) {
  case RE2::ErrorBadEscape:
  case RE2::ErrorBadPerlOp:
  case RE2::ErrorBadNamedCapture:
    why += "; aorta's regexes are RE2 syntax, which has no backreferences (\\1) and no "
           "lookaround ((?=, (?!, (?<=, (?<!)";
    break;
  case RE2::ErrorPatternTooLarge:
    why += fmt::format("; the compiled pattern would need more than {} bytes "
                       "(name_regex_max_memory): write a shorter or simpler pattern",
                       name_regex_max_memory);
    break;
  default: break;
  }
  return why;
}

}  // namespace

struct name_regex::engine {
  explicit engine(std::string_view pattern)
      : compiled(re2::StringPiece(pattern.data(), pattern.size()), engine_options()) {}
  RE2 compiled;
};

name_regex::name_regex(std::string pattern, std::shared_ptr<const engine> compiled)
    : m_pattern(std::move(pattern)), m_engine(std::move(compiled)) {}

name_regex name_regex::compile(std::string_view pattern) {
  auto compiled = std::make_shared<const engine>(pattern);
  if (!compiled->compiled.ok()) throw std::invalid_argument(explain(compiled->compiled));
  return name_regex(std::string(pattern), std::move(compiled));
}

bool name_regex::search(std::string_view name) const {
  return RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), m_engine->compiled);
}

}  // namespace aorta
