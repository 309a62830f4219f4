// The SAX events nlohmann's parser sends, routed to three hooks of a handler that builds a DOM of
// part of a document (the report's result.json and matrix.json readers): the handler decides
// where each value goes, nlohmann's own DOM builder (`builder`) builds what is kept.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace aorta::detail {

// Derived provides scalar(event), open(is_object, n), close(is_object) and key(name); `event` is
// a callable that sends the scalar to a builder.
template <typename Derived>
class routed_dom_sax {
public:
  using builder = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;

  bool null() {
    return self().scalar([](builder& to) { return to.null(); });
  }
  bool boolean(bool v) {
    return self().scalar([v](builder& to) { return to.boolean(v); });
  }
  bool number_integer(std::int64_t v) {
    return self().scalar([v](builder& to) { return to.number_integer(v); });
  }
  bool number_unsigned(std::uint64_t v) {
    return self().scalar([v](builder& to) { return to.number_unsigned(v); });
  }
  bool number_float(double v, const std::string& text) {
    return self().scalar([v, &text](builder& to) { return to.number_float(v, text); });
  }
  bool string(std::string& v) {
    return self().scalar([&v](builder& to) { return to.string(v); });
  }
  bool binary(nlohmann::json::binary_t& v) {
    return self().scalar([&v](builder& to) { return to.binary(v); });
  }
  bool start_object(std::size_t n) { return self().open(true, n); }
  bool start_array(std::size_t n) { return self().open(false, n); }
  bool end_object() { return self().close(true); }
  bool end_array() { return self().close(false); }
  // Not reached: the readers check the text with check_json_text before this pass.
  bool parse_error(std::size_t /*position*/, const std::string& /*token*/,
                   const nlohmann::detail::exception& failure) {
    throw failure;
  }

private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

}  // namespace aorta::detail
