// Shared helpers for the option and recipe tests: build option maps and catch typed errors.
#pragma once

#include "aorta/error.hpp"
#include "aorta/recipe.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

namespace aorta::testing_support {

inline option_map make_options(std::initializer_list<std::pair<std::string, std::string>> pairs) {
  option_map options;
  for (const auto& [key, text] : pairs) options.emplace(key, option_value{text, {}});
  return options;
}

inline collector_request
request(std::string name, std::initializer_list<std::pair<std::string, std::string>> pairs = {}) {
  return collector_request{std::move(name), make_options(pairs), {}};
}

// The error `action` throws, or nullopt (with a test failure) when it throws none.
template <class Error, class Action>
std::optional<Error> thrown(Action&& action) {
  try {
    action();
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected an exception, none was thrown";
  return std::nullopt;
}

}  // namespace aorta::testing_support
