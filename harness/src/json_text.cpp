#include "json_text.hpp"

#include <fmt/format.h>

#include <iterator>

namespace aorta::detail {
namespace {

using json = nlohmann::json;

[[noreturn]] void too_deep() {
  throw json_input_error(fmt::format("nested deeper than {} levels (aorta's limit on JSON nesting, "
                                     "max_json_depth); no profiler writes such a file, so it is "
                                     "damaged or not what it claims to be",
                                     max_json_depth),
                         0);
}

[[noreturn]] void too_many() {
  throw json_input_error(fmt::format("holds more than {} values (aorta's limit on one JSON "
                                     "document, max_json_values); no aorta or profiler file read "
                                     "this way holds as many, so it is damaged or not what it "
                                     "claims to be",
                                     max_json_values),
                         0);
}

// A first pass over the text that builds nothing: the depth and value-count limits and the
// syntax are checked here, so the second pass (nlohmann's plain parser, iterative) only builds
// what is known to be within bounds. A parser callback would do it in one pass, but nlohmann's
// callback parser scans the parent container at every object's end: quadratic, 10 s for 10^5
// rocprofv3 dispatch records.
class limit_checker final : public nlohmann::json_sax<json> {
public:
  bool null() override { return value(); }
  bool boolean(bool /*v*/) override { return value(); }
  bool number_integer(number_integer_t /*v*/) override { return value(); }
  bool number_unsigned(number_unsigned_t /*v*/) override { return value(); }
  bool number_float(number_float_t /*v*/, const string_t& /*s*/) override { return value(); }
  bool string(string_t& /*v*/) override { return value(); }
  bool binary(binary_t& /*v*/) override { return value(); }
  bool start_object(std::size_t /*n*/) override { return open(); }
  bool key(string_t& /*k*/) override { return true; }
  bool end_object() override { return close(); }
  bool start_array(std::size_t /*n*/) override { return open(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t position, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& failure) override {
    // A syntax error has a byte; out_of_range.406 (1e400) has none that means anything.
    const bool syntax = failure.id >= 100 && failure.id < 200;
    throw json_input_error(failure.what(), syntax ? position : 0);
  }

private:
  bool value() {
    if (++m_values > max_json_values) too_many();
    return true;
  }
  bool open() {
    if (m_depth >= static_cast<std::size_t>(max_json_depth)) too_deep();
    ++m_depth;
    return value();
  }
  bool close() {
    --m_depth;
    return true;
  }
  std::size_t m_depth = 0;
  std::size_t m_values = 0;
};

json parse_limited(std::string_view text) {
  check_json_text(text);
  try {
    return json::parse(text);
  } catch (const json::exception& failure) {
    throw json_input_error(failure.what(), 0);  // not reached: the first pass saw the same text
  }
}

}  // namespace

void check_json_text(std::string_view text) {
  limit_checker checker;
  (void)json::sax_parse(text, &checker);
}

json parse_json(std::istream& in) {
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_limited(text);
}

json parse_json(std::string_view text) {
  return parse_limited(text);
}

json read_json_file(const std::filesystem::path& file, std::uint64_t max_bytes) {
  return parse_json(std::string_view(read_input_file(file, max_bytes, "max_json_file_bytes")));
}

std::string dump_json(const json& value, int indent) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace aorta::detail
