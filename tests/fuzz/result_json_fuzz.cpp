// Fuzz target: `aorta report`'s result.json reader (record/result_reader.hpp), which converts the
// metrics and kernel rows as it parses, held to the DOM path it replaced: for every input the two
// give the same record or the same error, or the target aborts.
#include "aorta/error.hpp"
#include "aorta/trial_record.hpp"
#include "json_text.hpp"
#include "record/result_reader.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

template <typename Read>
std::string outcome(const Read& read) {
  try {
    return aorta::detail::dump_json(aorta::to_json(read()));
  } catch (const aorta::detail::json_input_error& failure) {
    return std::string("json error: ") + failure.what();
  } catch (const aorta::error& failure) {
    return std::string("error: ") + failure.what();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string streamed = outcome([&] { return aorta::detail::trial_record_from_text(text); });
  const std::string through_dom = outcome(
      [&] { return aorta::trial_record_from_json(aorta::detail::parse_json(text)); });
  if (streamed != through_dom) {
    std::fprintf(stderr, "streamed: %s\nthrough the DOM: %s\n", streamed.c_str(),
                 through_dom.c_str());
    std::abort();
  }
  return 0;
}
