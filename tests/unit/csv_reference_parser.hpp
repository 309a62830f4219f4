// A byte-at-a-time CSV parser written from the scanner's documented rules (RFC 4180 plus: a
// quote opens a quoted field only as its first byte, bytes after a closing quote are dropped,
// CR, LF and CRLF end a row), the reference the scanner's block-mask paths are compared with.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::test::csv_reference {

struct row {
  std::vector<std::string> fields;
  bool unterminated = false;
  bool operator==(const row&) const = default;
};

inline bool ends_field(char c) { return c == ',' || c == '\n' || c == '\r'; }

// One quoted field from `p` (at its opening quote); returns the position after the closing quote,
// or the end when the quote is never closed.
inline std::size_t reference_quoted(std::string_view s, std::size_t p, std::string& field,
                                    bool& open) {
  std::size_t i = p + 1;
  while (i < s.size()) {
    if (s[i] != '"') {
      field.push_back(s[i++]);
    } else if (i + 1 < s.size() && s[i + 1] == '"') {
      field.push_back('"');
      i += 2;
    } else {
      return i + 1;
    }
  }
  open = true;
  return s.size();
}

inline std::vector<row> reference_parse(std::string_view s) {
  if (s.starts_with("\xEF\xBB\xBF")) s.remove_prefix(3);
  std::vector<row> rows;
  std::size_t p = 0;
  while (p < s.size()) {
    row r;
    for (;;) {
      std::string field;
      std::size_t q = p;
      if (q < s.size() && s[q] == '"') {
        q = reference_quoted(s, q, field, r.unterminated);
        while (q < s.size() && !ends_field(s[q])) ++q;
      } else {
        while (q < s.size() && !ends_field(s[q])) field.push_back(s[q++]);
      }
      r.fields.push_back(field);
      if (q == s.size()) {
        r.unterminated = true;
        p = q;
        break;
      }
      if (s[q] == ',') {
        p = q + 1;
        if (p < s.size()) continue;
        r.fields.emplace_back();
        r.unterminated = true;
        break;
      }
      p = s[q] == '\r' && q + 1 < s.size() && s[q + 1] == '\n' ? q + 2 : q + 1;
      break;
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace aorta::test::csv_reference
