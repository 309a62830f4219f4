// A word as a POSIX shell reads it back unchanged, for the command lines aorta prints for a user
// to paste (a bisect hint, a record command); aorta itself never runs a shell.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace aorta::detail {

// Quoted only when it needs to be.
[[nodiscard]] inline std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("-_./:=@%+,").find(c) != std::string_view::npos;
  });
  if (plain) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace aorta::detail
