// The pattern type of every check that names kernels, scopes or functions: searched in the name
// (grep semantics), so `sgemm` matches `sgemm_tiled(float const*, ...)`.
//
// One type owns matching so that the engine behind it (its syntax, cost bounds and limits) is
// decided in one place rather than at each call site.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace aorta {

// Memory one compiled pattern may use (RE2's max_mem). A pattern that needs more, e.g. a huge
// counted repetition like (a{1000}){1000}, is refused at compile with this limit named.
inline constexpr std::int64_t name_regex_max_memory = std::int64_t{8} << 20;

// The syntax is RE2's (github.com/google/re2/wiki/Syntax): Perl-like classes (\d, \w, \s, \b),
// non-greedy repeats and case-insensitive (?i), but no backreferences and no lookaround. Matching
// takes time linear in the name, whatever the pattern; a name that is not UTF-8 is still searched.
class name_regex {
public:
  // Throws std::invalid_argument whose what() says why the pattern does not compile; callers
  // rethrow it with their own context (the check expression and its column, a recipe key).
  [[nodiscard]] static name_regex compile(std::string_view pattern);

  // True when the pattern matches anywhere in the name.
  [[nodiscard]] bool search(std::string_view name) const;

  // The pattern as given.
  [[nodiscard]] const std::string& pattern() const noexcept { return m_pattern; }

private:
  struct engine;
  name_regex(std::string pattern, std::shared_ptr<const engine> compiled);

  std::string m_pattern;
  std::shared_ptr<const engine> m_engine;  // shared: compiled patterns are immutable
};

}  // namespace aorta
