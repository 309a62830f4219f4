// An ostream whose every finished line becomes a text event: the bridge for a stage that still
// writes to a stream (the regression gate, until it reports events of its own), so its lines
// reach every reporter in the order they happen, between the events around them.
#pragma once

#include "reporting/reporter.hpp"

#include <ostream>
#include <streambuf>
#include <string>

namespace aorta::reporting {

class line_buffer final : public std::streambuf {
public:
  explicit line_buffer(reporter& to) : to_(&to) {}
  ~line_buffer() override { emit(); }
  line_buffer(const line_buffer&) = delete;
  line_buffer& operator=(const line_buffer&) = delete;

protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    pending_ += traits_type::to_char_type(c);
    if (pending_.back() == '\n') emit();
    return c;
  }
  std::streamsize xsputn(const char* text, std::streamsize count) override {
    for (std::streamsize i = 0; i < count; ++i) overflow(traits_type::to_int_type(text[i]));
    return count;
  }
  int sync() override {
    emit();
    to_->flush();
    return 0;
  }

private:
  void emit() {
    if (pending_.empty()) return;
    to_->report(text_event{std::move(pending_)});
    pending_.clear();
  }
  reporter* to_;
  std::string pending_;
};

class line_stream final : public std::ostream {
public:
  explicit line_stream(reporter& to) : std::ostream(nullptr), buffer_(to) { rdbuf(&buffer_); }

private:
  line_buffer buffer_;
};

}  // namespace aorta::reporting
