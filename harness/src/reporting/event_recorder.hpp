// Events held back and handed on later, in order: below --verbose a run's own lines wait until its
// verdict is known, so the verdict comes first (docs/cli.md, "Output"). Diagnostics are never held:
// they go to `now` as they happen, when one is given.
#pragma once

#include "reporting/reporter.hpp"

#include <vector>

namespace aorta::reporting {

class event_recorder final : public reporter {
 public:
  explicit event_recorder(reporter* now = nullptr) : now_(now) {}
  void report(const event& happened) override;
  void flush() override;

  // Hands every held event to `to`, in order, and forgets them.
  void replay(reporter& to);
  [[nodiscard]] std::vector<event> take();
  [[nodiscard]] bool empty() const { return held_.empty(); }

 private:
  reporter* now_;
  std::vector<event> held_;
};

}  // namespace aorta::reporting
