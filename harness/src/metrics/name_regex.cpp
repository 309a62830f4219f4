#include "aorta/name_regex.hpp"

#include <regex>
#include <stdexcept>
#include <utility>

namespace aorta {

struct name_regex::engine {
  std::regex compiled;
};

name_regex::name_regex(std::string pattern, std::shared_ptr<const engine> compiled)
    : m_pattern(std::move(pattern)), m_engine(std::move(compiled)) {}

name_regex name_regex::compile(std::string_view pattern) {
  try {
    auto compiled = std::make_shared<const engine>(
        engine{std::regex(pattern.begin(), pattern.end(), std::regex::ECMAScript)});
    return name_regex(std::string(pattern), std::move(compiled));
  } catch (const std::regex_error& error) {
    throw std::invalid_argument(error.what());
  }
}

bool name_regex::search(std::string_view name) const {
  return std::regex_search(name.begin(), name.end(), m_engine->compiled);
}

}  // namespace aorta
