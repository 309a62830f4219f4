#include "json_text.hpp"

#include <fmt/format.h>

namespace aorta::detail {
namespace {

using json = nlohmann::json;

// Refuses a document the moment it opens a level past the limit, before it is built.
json::parser_callback_t depth_guard() {
  return [](int depth, json::parse_event_t event, json& /*parsed*/) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= max_json_depth) {
      throw json_input_error(
          fmt::format("nested deeper than {} levels (aorta's limit on JSON nesting, "
                      "max_json_depth); no profiler writes such a file, so it is damaged or not "
                      "what it claims to be",
                      max_json_depth),
          0);
    }
    return true;
  };
}

template <typename Input>
json parse_limited(Input&& input) {
  try {
    return json::parse(std::forward<Input>(input), depth_guard());
  } catch (const json::parse_error& failure) {
    throw json_input_error(failure.what(), failure.byte);
  } catch (const json::exception& failure) {
    // out_of_range.406: a number too large for a double (1e400).
    throw json_input_error(failure.what(), 0);
  }
}

}  // namespace

json parse_json(std::istream& in) {
  return parse_limited(in);
}

json parse_json(std::string_view text) {
  return parse_limited(text);
}

std::string dump_json(const json& value, int indent) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace aorta::detail
