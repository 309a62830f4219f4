#include "baseline/fingerprint_diff.hpp"

#include "baseline/card_identity.hpp"

#include <set>

namespace aorta::detail {

std::vector<fingerprint_difference> fingerprint_differences(const measured_test& base,
                                                            const measured_test& fresh) {
  std::set<std::string> keys;
  for (const auto& [key, value] : base.fingerprint) keys.insert(key);
  for (const auto& [key, value] : fresh.fingerprint) keys.insert(key);
  std::vector<fingerprint_difference> differences;
  for (const auto& key : keys) {
    if (key == card_key) continue;
    const auto old_value = base.fingerprint.find(key);
    const auto new_value = fresh.fingerprint.find(key);
    std::string before = old_value == base.fingerprint.end() ? "(absent)" : old_value->second;
    std::string after = new_value == fresh.fingerprint.end() ? "(absent)" : new_value->second;
    if (before != after) differences.push_back({key, std::move(before), std::move(after)});
  }
  return differences;
}

}  // namespace aorta::detail
