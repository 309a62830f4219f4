// One lambda per event for std::visit over reporting::event; a reporter's visitor that lacks a
// case for an event does not compile, so every reporter says what it does with each.
#pragma once

namespace aorta::reporting {

template <class... Handlers>
struct event_visitor : Handlers... {
  using Handlers::operator()...;
};
// Spelt out for clang 14 (the sanitizer build), which does not deduce an aggregate's arguments.
template <class... Handlers>
event_visitor(Handlers...) -> event_visitor<Handlers...>;

}  // namespace aorta::reporting
