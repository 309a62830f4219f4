// An incremental, SAX-style JSON scanner. It reads through a fixed-size buffer that a callback
// refills, so a multi-GB document never sits in memory: memory is the buffer, the nesting stack
// and (rarely) one token longer than the buffer. Events go to a Handler bound at compile time,
// because a virtual call per token would cost more than the scanning itself.
//
// Handler interface (all required):
//   begin_object(), end_object(), begin_array(), end_array(),
//   key(std::string_view), string_value(std::string_view), number(std::string_view raw_text),
//   boolean(bool), null()
// Views point into the scanner's buffer and are valid only during the call. A handler reports a
// document of the wrong shape by throwing json_shape_error; the scanner adds the byte offset.
#pragma once

#include "captures/json_char.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace aorta::detail {

inline constexpr std::size_t json_default_chunk_size = std::size_t{1} << 20;
inline constexpr std::size_t json_max_depth = 4096;

// A malformed document: what was expected, at which byte offset (0-based) of the input.
class json_error : public std::runtime_error {
public:
  json_error(std::uint64_t offset, const std::string& message)
      : std::runtime_error(message), m_offset(offset) {}
  [[nodiscard]] std::uint64_t offset() const noexcept { return m_offset; }

private:
  std::uint64_t m_offset;
};

// Thrown by handlers for valid JSON of the wrong shape; the scanner rethrows it as json_error.
class json_shape_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Fills up to `size` bytes at `data`; returns 0 at end of input. Throws on read errors.
using json_chunk_reader = std::function<std::size_t(char* data, std::size_t size)>;

// Non-template pieces, in json_scanner.cpp.
// Decodes the escapes of a complete raw string body into `out`. Returns the index of the first
// bad escape in `raw`, or npos when it decoded cleanly.
std::size_t json_unescape(std::string_view raw, std::string& out);
// True when `text` matches JSON's number grammar exactly.
bool json_number_is_valid(std::string_view text) noexcept;
// "'x'" or "byte 0x01" or "end of input", for error messages.
std::string json_describe_char(int c);


template <class Handler>
class json_scanner {
public:
  json_scanner(Handler& handler, json_chunk_reader reader,
               std::size_t chunk_size = json_default_chunk_size)
      : m_handler(handler), m_reader(std::move(reader)), m_buf(chunk_size == 0 ? 1 : chunk_size) {
    m_cur = m_lim = m_tok = m_buf.data();
  }

  // Accepts one or more documents back to back (JSON Lines), as Proton's chrome trace writes one
  // object per stream.
  void allow_document_sequence() noexcept { m_sequence = true; }

  // Scans one complete document; throws json_error on malformed or truncated input.
  void run() {
    try {
      scan();
    } catch (const json_shape_error& e) {
      throw json_error(token_offset(), e.what());
    }
  }

private:
  enum class expect : std::uint8_t {
    value,
    first_value_or_end,
    key,
    first_key_or_end,
    colon,
    comma_or_end,
    done
  };

  [[nodiscard]] std::uint64_t offset_of(const char* p) const noexcept {
    return m_base + static_cast<std::uint64_t>(p - m_buf.data());
  }
  [[nodiscard]] std::uint64_t token_offset() const noexcept { return offset_of(m_tok); }

  [[noreturn]] void fail(const char* at, const std::string& message) const {
    throw json_error(offset_of(at), message);
  }

  // Keeps [keep, m_lim), moves it to the front, and reads more behind it. Returns false at end of
  // input. Pointers into the buffer are invalid afterwards except m_cur, m_lim and m_tok, which
  // are rebased (all three must be >= keep).
  bool refill(const char* keep) {
    if (m_eof) return false;
    const auto kept = static_cast<std::size_t>(m_lim - keep);
    const auto shift = static_cast<std::size_t>(keep - m_buf.data());
    const auto cur_off = static_cast<std::size_t>(m_cur - keep);
    const auto tok_off = static_cast<std::size_t>(m_tok - keep);
    if (shift != 0 && kept != 0) std::memmove(m_buf.data(), keep, kept);
    m_base += shift;
    if (kept == m_buf.size()) m_buf.resize(m_buf.size() * 2);  // one token longer than a chunk
    const std::size_t got = m_reader(m_buf.data() + kept, m_buf.size() - kept);
    m_cur = m_buf.data() + cur_off;
    m_tok = m_buf.data() + tok_off;
    m_lim = m_buf.data() + kept + got;
    if (got == 0) m_eof = true;
    return got != 0;
  }

  // Skips whitespace; returns the next character or -1 at end of input.
  int peek_nonspace() {
    for (;;) {
      const char* p = m_cur;
      const char* const lim = m_lim;
      while (p != lim && json_char::is_space(*p)) ++p;
      m_cur = p;
      if (p != lim) return static_cast<unsigned char>(*p);
      m_tok = m_cur;
      if (!refill(m_cur)) return -1;
    }
  }

  // m_cur is at the opening quote. Leaves m_cur after the closing quote.
  std::string_view scan_string() {
    m_tok = m_cur;
    // Most strings are plain and whole in the buffer: one pass finds the closing quote.
    const char* const body = m_cur + 1;
    const char* const stop = json_char::skip_plain_string(body, m_lim);
    if (stop != m_lim && *stop == '"') {
      m_cur = stop + 1;
      return {body, static_cast<std::size_t>(stop - body)};
    }
    return scan_string_rest(static_cast<std::size_t>(stop - m_tok));
  }

  // scan_string past its first plain run: `scanned` bytes from m_tok hold no quote, backslash or
  // control character.
  std::string_view scan_string_rest(std::size_t scanned) {
    bool escaped = false;
    for (;;) {
      const char* p = m_tok + scanned;
      const char* const lim = m_lim;
      while (p < lim) {
        p = json_char::skip_plain_string(p, lim);
        if (p == lim) break;
        if (*p == '"') {
          const char* body = m_tok + 1;
          m_cur = p + 1;
          std::string_view raw(body, static_cast<std::size_t>(p - body));
          if (!escaped) return raw;
          const std::size_t bad = json_unescape(raw, m_scratch);
          if (bad != std::string_view::npos)
            fail(body + bad, "invalid escape sequence in a string (expected \\\" \\\\ \\/ \\b \\f "
                             "\\n \\r \\t or \\uXXXX with paired surrogates)");
          return m_scratch;
        }
        if (*p == '\\') {
          escaped = true;
          if (p + 1 >= lim) break;  // the escaped character is in the next chunk
          p += 2;
          continue;
        }
        fail(p, "unescaped control character " +
                    json_describe_char(static_cast<unsigned char>(*p)) +
                    " inside a string (JSON requires \\n, \\t or \\u00XX)");
      }
      scanned = static_cast<std::size_t>(p - m_tok);
      m_cur = m_tok;
      if (!refill(m_tok)) fail(m_lim, "unexpected end of input inside a string (truncated file?)");
    }
  }

  std::string_view scan_number() {
    m_tok = m_cur;
    // A valid number followed, inside the buffer, by a byte that cannot continue it is the same
    // maximal run the loop below would take and validate.
    const char* const end = json_char::match_number(m_cur, m_lim);
    if (end != nullptr && end != m_lim && !json_char::in_number(*end)) {
      m_cur = end;
      return {m_tok, static_cast<std::size_t>(end - m_tok)};
    }
    std::size_t scanned = 0;
    for (;;) {
      const char* p = m_tok + scanned;
      while (p < m_lim && json_char::in_number(*p)) ++p;
      if (p < m_lim || m_eof) {
        m_cur = p;
        break;
      }
      scanned = static_cast<std::size_t>(p - m_tok);
      m_cur = m_tok;
      if (!refill(m_tok)) {
        m_cur = m_lim;
        break;
      }
    }
    std::string_view text(m_tok, static_cast<std::size_t>(m_cur - m_tok));
    if (!json_number_is_valid(text)) {
      if (text == "-" && m_cur < m_lim && *m_cur == 'I')
        fail(m_tok, "found -Infinity, which is not JSON (a non-finite value was written)");
      fail(m_tok, "malformed number '" + std::string(text) + "'");
    }
    return text;
  }

  // m_cur at the first letter of true/false/null (or a bad token).
  void scan_literal() {
    m_tok = m_cur;
    const char c = *m_cur;
    std::string_view word = c == 't' ? "true" : c == 'f' ? "false" : "null";
    while (static_cast<std::size_t>(m_lim - m_tok) < word.size() && refill(m_tok)) {
    }
    const auto have = static_cast<std::size_t>(m_lim - m_tok);
    if (have < word.size() || std::string_view(m_tok, word.size()) != word) {
      if (std::string_view(m_tok, have).substr(0, word.size()) == word.substr(0, have))
        fail(m_lim, "unexpected end of input inside '" + std::string(word) + "' (truncated file?)");
      fail(m_tok, "invalid literal; expected '" + std::string(word) + "'");
    }
    m_cur = m_tok + word.size();
    if (c == 't')
      m_handler.boolean(true);
    else if (c == 'f')
      m_handler.boolean(false);
    else
      m_handler.null();
  }

  void push(char kind) {
    if (m_depth >= json_max_depth)
      fail(m_cur, "nesting deeper than " + std::to_string(json_max_depth) + " levels");
    m_stack[m_depth++] = kind;
  }
  [[nodiscard]] char innermost() const noexcept { return m_stack[m_depth - 1]; }

  // m_cur at the '}' or ']' that closes the innermost container.
  void close() {
    m_tok = m_cur;
    ++m_cur;
    if (m_stack[--m_depth] == '{')
      m_handler.end_object();
    else
      m_handler.end_array();
  }

  // Starts the value whose first byte `c` is at m_cur: an object or array is opened (returns its
  // '{' or '['), anything else is read whole (returns 0).
  [[gnu::always_inline]] char begin_value(int c) {
    m_tok = m_cur;
    switch (c) {
    case '{':
      ++m_cur;
      push('{');
      m_handler.begin_object();
      return '{';
    case '[':
      ++m_cur;
      push('[');
      m_handler.begin_array();
      return '[';
    case '"': m_handler.string_value(scan_string()); return 0;
    case 't':
    case 'f':
    case 'n': scan_literal(); return 0;
    case 'N':
    case 'I':
      fail(m_cur, "found NaN or Infinity, which is not JSON (a non-finite value was written)");
    default:
      if (c == '-' || (c >= '0' && c <= '9')) {
        m_handler.number(scan_number());
        return 0;
      }
      fail(m_cur, "expected a value (object, array, string, number, true, false or null), "
                  "found " +
                      json_describe_char(c));
    }
  }

  // The next non-space byte, where `state` says what may come; the end of input there is an error.
  [[gnu::always_inline]] int next_in(expect state) {
    // Every byte above ' ' is a token's first byte: one compare, no table load, per token. Space
    // and control bytes take the general path, which skips the one and reports the other.
    if (m_cur != m_lim && static_cast<unsigned char>(*m_cur) > ' ')
      return static_cast<unsigned char>(*m_cur);
    return next_after_space(state);
  }
  int next_after_space(expect state) {
    const int c = peek_nonspace();
    if (c < 0) fail(m_lim, truncated_message(state));
    return c;
  }

  [[nodiscard]] std::string truncated_message(expect state) const {
    std::string what = "unexpected end of input";
    if (m_depth != 0) what += innermost() == '{' ? " inside an object" : " inside an array";
    switch (state) {
    case expect::value:
    case expect::first_value_or_end: what += ": expected a value"; break;
    case expect::key:
    case expect::first_key_or_end: what += ": expected a key"; break;
    case expect::colon: what += ": expected ':'"; break;
    case expect::comma_or_end:
      what += innermost() == '{' ? ": expected ',' or '}'" : ": expected ',' or ']'";
      break;
    case expect::done: break;
    }
    return what + " (the file is truncated, or the writer did not finish)";
  }

  // One label per state of the grammar, so a token leads straight to the code for the next one
  // with no state variable to store and switch on (a turn of such a loop per token was a third
  // of the scanner's instructions).
  void scan() {
    if (peek_nonspace() < 0) fail(m_cur, "empty input: expected a JSON document");
  value:
    switch (begin_value(next_in(expect::value))) {
    case '{': goto first_key_or_end;
    case '[': goto first_value_or_end;
    default: goto after_value;
    }
  first_value_or_end:
    if (next_in(expect::first_value_or_end) != ']') goto value;
    close();
    goto after_value;
  first_key_or_end:
    if (next_in(expect::first_key_or_end) == '}') {
      close();
      goto after_value;
    }
  key:
    if (const int c = next_in(expect::key); c != '"')
      fail(m_cur, "expected a string key, found " + json_describe_char(c));
    m_handler.key(scan_string());
    if (m_cur == m_lim || *m_cur != ':') {  // compact JSON has the colon right behind the key
      if (const int c = next_in(expect::colon); c != ':')
        fail(m_cur, "expected ':' after a key, found " + json_describe_char(c));
    }
    ++m_cur;
    goto value;
  after_value:
    if (m_depth == 0) goto done;
    if (const int c = next_in(expect::comma_or_end); c == ',') {
      ++m_cur;
      if (innermost() == '{') goto key;
      goto value;
    } else if (c == (innermost() == '{' ? '}' : ']')) {
      close();
      goto after_value;
    } else {
      fail(m_cur, std::string("expected ',' or '") + (innermost() == '{' ? '}' : ']') +
                      "', found " + json_describe_char(c));
    }
  done:
    if (const int c = peek_nonspace(); c >= 0) {
      if (!m_sequence)
        fail(m_cur, "unexpected data after the end of the JSON document, found " +
                        json_describe_char(c));
      goto value;
    }
  }

  Handler& m_handler;
  json_chunk_reader m_reader;
  std::vector<char> m_buf;
  std::string m_scratch;      // unescaped string bodies
  std::array<char, json_max_depth> m_stack{};  // '{' or '[' per open container
  std::size_t m_depth = 0;
  const char* m_cur = nullptr;
  const char* m_lim = nullptr;
  const char* m_tok = nullptr;  // start of the token being handled, for error offsets
  std::uint64_t m_base = 0;     // input offset of m_buf[0]
  bool m_eof = false;
  bool m_sequence = false;
};

}  // namespace aorta::detail
