#include "reporting/event_recorder.hpp"

#include <utility>

namespace aorta::reporting {
namespace {

bool is_diagnostic(const event& happened) {
  if (const auto* note = std::get_if<note_event>(&happened)) return note->to == channel::diagnostic;
  if (const auto* text = std::get_if<text_event>(&happened)) return text->to == channel::diagnostic;
  return false;
}

}  // namespace

void event_recorder::report(const event& happened) {
  if (now_ != nullptr && is_diagnostic(happened)) {
    now_->report(happened);
    return;
  }
  held_.push_back(happened);
}

void event_recorder::flush() {
  if (now_ != nullptr) now_->flush();
}

void event_recorder::replay(reporter& to) {
  for (const auto& happened : take()) to.report(happened);
}

std::vector<event> event_recorder::take() {
  return std::exchange(held_, {});
}

}  // namespace aorta::reporting
