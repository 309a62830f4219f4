#include "diff/diff_capture_reading.hpp"

#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "aorta/recipe.hpp"
#include "collectors/capture_reading.hpp"

#include <fmt/format.h>

namespace aorta::detail {

capture read_capture_as(const std::string& path, const std::string& reader) {
  collector_request request;
  request.name = reader;
  const auto* collector = find_collector(reader);
  if (collector == nullptr || !collector->attaches()) {
    throw usage_error(fmt::format("--collector '{}' cannot be read; `aorta collectors` lists the "
                                  "readers",
                                  reader));
  }
  request.config = config_of(request);
  // The one reader a trial uses; an empty capture is read (diff shows what it has).
  auto reading = read_one_capture(request, path, {}, true);
  if (!reading || !reading->got) {
    throw capture_error(reading ? reading->error
                                : fmt::format("--collector '{}' reads nothing", reader));
  }
  return std::move(*reading->got);
}

}  // namespace aorta::detail
