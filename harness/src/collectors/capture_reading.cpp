#include "collectors/capture_reading.hpp"

#include "aorta/error.hpp"

#include <algorithm>

namespace aorta::detail {

bool checks_need_frames(const std::vector<check_expression>& checks) {
  return std::any_of(checks.begin(), checks.end(), [](const check_expression& check) {
    return check.scope().has_value() || check.denominator_scope().has_value();
  });
}

std::optional<capture_reading> read_one_capture(const collector_request& request,
                                                const std::filesystem::path& output,
                                                const tool_version_map& versions,
                                                bool frames_needed) {
  const auto* collector = find_collector(request.name);
  if (collector == nullptr || !collector->attaches()) return std::nullopt;
  const auto config = config_of(request);
  capture_reading reading;
  try {
    reading.got =
        collector->read_capture(output, read_context{config.get(), versions, frames_needed});
  } catch (const capture_error& e) {
    reading.error = e.what();
    return reading;
  } catch (const interrupted_error& e) {
    reading.error = e.what();
    reading.interrupted_by = e.signal_number();
    return reading;
  }
  if (reading.got->empty()) reading.empty = collector->explain_empty(*reading.got, *config);
  reading.failure = collector->failure_in_capture(*reading.got, *config);
  return reading;
}

}  // namespace aorta::detail
