// The multiplexer: one reporter the stages see, every event handed to each reporter in the order
// they were added (nvbench's printer multiplexer). The reporters are not owned.
#pragma once

#include "reporting/reporter.hpp"

#include <vector>

namespace aorta::reporting {

class reporter_fanout final : public reporter {
 public:
  void add(reporter& each) { reporters_.push_back(&each); }
  void report(const event& happened) override {
    for (reporter* each : reporters_) each->report(happened);
  }
  void flush() override {
    for (reporter* each : reporters_) each->flush();
  }

 private:
  std::vector<reporter*> reporters_;
};

}  // namespace aorta::reporting
