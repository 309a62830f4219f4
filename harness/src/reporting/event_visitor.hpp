// One lambda per event for std::visit over reporting::event; a reporter's visitor that lacks a
// case for an event does not compile, so every reporter says what it does with each.
#pragma once

namespace aorta::reporting {

template <class... Handlers>
struct event_visitor : Handlers... {
  using Handlers::operator()...;
};

}  // namespace aorta::reporting
