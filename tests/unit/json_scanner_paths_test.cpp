// The scanner's one-pass paths (a plain string, a number, a colon, a comma and the value behind a
// key, all whole in the buffer) against its general loop. A one-byte buffer leaves every token
// at a chunk end, where only the general loop runs; every larger buffer must give the same events
// and, for a malformed document, the same message at the same byte.
#include "captures/hatchet_reader_sax.hpp"
#include "captures/json_scanner.hpp"
#include "captures/literal_equal.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace aorta::detail {
namespace {

// Writes every event as text, so two scans compare as two strings.
struct event_log {
  std::string text;
  void begin_object() { text += "{"; }
  void end_object() { text += "}"; }
  void begin_array() { text += "["; }
  void end_array() { text += "]"; }
  void key(std::string_view k) { add('k', k); }
  void string_value(std::string_view s) { add('s', s); }
  void number(std::string_view raw) { add('n', raw); }
  void boolean(bool b) { text += b ? "T;" : "F;"; }
  void null() { text += "N;"; }

private:
  void add(char kind, std::string_view body) {
    text += kind;
    text += std::to_string(body.size());  // the length keeps bodies with ';' unambiguous
    text += ':';
    text += body;
    text += ';';
  }
};

// The events of `doc` read through a buffer of `chunk` bytes, then "error@<byte>: <message>" if
// it failed.
std::string scan_with(const std::string& doc, std::size_t chunk) {
  event_log log;
  std::size_t at = 0;
  json_scanner<event_log> scanner(
      log,
      [&](char* data, std::size_t size) {
        const std::size_t n = std::min(size, doc.size() - at);
        std::memcpy(data, doc.data() + at, n);
        at += n;
        return n;
      },
      chunk);
  scanner.allow_document_sequence();
  try {
    scanner.run();
  } catch (const json_error& e) {
    log.text += "error@" + std::to_string(e.offset()) + ": " + e.what();
  }
  return log.text;
}

void expect_every_buffer_agrees(const std::string& doc) {
  const std::string general = scan_with(doc, 1);
  for (const std::size_t chunk : {2, 3, 5, 7, 16, 17, 31, 64, 1 << 20}) {
    EXPECT_EQ(scan_with(doc, chunk), general) << "chunk " << chunk << ", document: " << doc;
  }
}

const std::vector<std::string> tricky_documents = {
    // escaped quotes and backslashes at every distance from a 16-byte block's end
    R"j({"a\"b":"x\\","c\\\"":"\\\\\"","long key with \" inside it here":"0123456789abcdef\\"})j",
    R"j(["\\","\"","\\\\","a\\\"b","\u0041\u00e9\ud83d\ude00","\/\b\f\n\r\t"])j",
    // numbers of every form, valid and not, followed by each kind of byte
    R"j([0,-0,1.5,-0.0,1e5,1E+5,1e-5,123456789012345678901234567890,0.000001,7])j",
    "[1 ,2\n,3\t]",
    R"j({"n":12}{"n":-3.25e-2}[]  )j",
    "[01]",
    "[1.]",
    "[-]",
    "[1e]",
    "[1e+]",
    "[.5]",
    "[1.5.5]",
    "[--1]",
    "[-Infinity]",
    "[1x]",
    "[12",
    // a colon or comma that is not right behind its token, or is missing
    R"j({"a" : 1 , "b":[ 1 ,2] ,"c" :{ } })j",
    R"j({"a" 1})j",
    R"j({"a":1 "b":2})j",
    R"j({"a":,"b":1})j",
    R"j([1,,2])j",
    R"j([1,])j",
    R"j({"a":1,})j",
    R"j({"a":})j",
    R"j({"a":tru})j",
    R"j({"a":true,"b":false,"c":null,"d":nul)j",
    R"j({"a":"unterminated)j",
    "{\"a\":\"control\x01\"}",
    R"j({"a":"bad \x escape"})j",
    R"j({"a":"lone \ud83d"})j",
    R"j({"a":1}x)j",
    R"j({"a":{"b":{"c":[[[{"d":"e"}]]]}}})j",
    "",
    "   ",
};

TEST(json_scanner_paths, every_buffer_size_gives_the_events_and_errors_of_the_general_loop) {
  for (const std::string& doc : tricky_documents) expect_every_buffer_agrees(doc);
}

TEST(json_scanner_paths, every_prefix_of_a_tricky_document_agrees) {
  const std::string doc =
      R"j({"k\"":["\\\"",-12.5e+3,0,{"x":true,"y":null},"abcdefghijklmnopq\\"],"z" : 7})j";
  for (std::size_t len = 0; len <= doc.size(); ++len) expect_every_buffer_agrees(doc.substr(0, len));
}

TEST(json_scanner_paths, strings_and_numbers_longer_than_the_buffer_agree) {
  const std::string long_text(300, 'q');
  const std::string digits(300, '7');
  expect_every_buffer_agrees("{\"" + long_text + "\":\"" + long_text + "\\\"" + long_text +
                             "\",\"n\":[" + digits + "," + digits + "." + digits + "e-" +
                             digits + "]}");
}

TEST(json_scanner_paths, nesting_at_and_past_the_limit_agrees) {
  const std::string deep_ok =
      std::string(json_max_depth - 1, '[') + "{\"a\":1}" + std::string(json_max_depth - 1, ']');
  const std::string too_deep = std::string(json_max_depth, '[') + "{\"a\":1}";
  for (const std::string& doc : {deep_ok, too_deep}) {
    const std::string general = scan_with(doc, 1);
    EXPECT_EQ(scan_with(doc, 1 << 20), general);
    EXPECT_EQ(scan_with(doc, 7), general);
  }
  EXPECT_NE(scan_with(too_deep, 1 << 20).find("nesting deeper than"), std::string::npos);
}

// parse_metric_number's short-decimal path must give from_chars' double, bit for bit.
TEST(json_scanner_paths, short_decimals_parse_exactly_as_from_chars) {
  std::mt19937_64 random(21);
  const auto from_chars_value = [](const std::string& text) -> std::optional<double> {
    double v = 0.0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return v;
  };
  std::vector<std::string> texts = {"0",   "-0",    "0.0", "-0.0", "1.",  ".5", "-",
                                    "1.5", "007.5", "1e3", "",     "1.5x", "9007199254740993",
                                    "999999999999999", "0.000000000000001", "123456789012345.6"};
  for (int i = 0; i < 20000; ++i) {
    std::string text = random() % 4 == 0 ? "-" : "";
    const std::size_t whole = 1 + random() % 17;
    for (std::size_t d = 0; d < whole; ++d) text += static_cast<char>('0' + random() % 10);
    if (random() % 3 != 0) {
      text += '.';
      const std::size_t fraction = 1 + random() % 17;
      for (std::size_t d = 0; d < fraction; ++d) text += static_cast<char>('0' + random() % 10);
    }
    texts.push_back(text);
  }
  for (const std::string& text : texts) {
    const std::optional<double> expected = from_chars_value(text);
    const std::optional<double> got = parse_metric_number(text);
    ASSERT_EQ(got.has_value(), expected.has_value()) << text;
    if (!got) continue;
    EXPECT_EQ(std::memcmp(&*got, &*expected, sizeof(double)), 0)
        << text << ": " << *got << " vs " << *expected;
  }
}

// The readers' key and value compares: the length first, then every byte of the literal.
TEST(json_scanner_paths, equals_literal_compares_the_length_and_every_byte) {
  EXPECT_TRUE(equals_literal("children", "children"));
  EXPECT_TRUE(equals_literal("", ""));
  EXPECT_FALSE(equals_literal("", "X"));
  EXPECT_FALSE(equals_literal("childre", "children"));
  EXPECT_FALSE(equals_literal("childrens", "children"));
  EXPECT_FALSE(equals_literal("xhildren", "children"));
  EXPECT_FALSE(equals_literal("chilxren", "children"));
  EXPECT_FALSE(equals_literal("childrex", "children"));
  // A view into a longer text, and a NUL inside the text: only the view's bytes count.
  EXPECT_TRUE(equals_literal(std::string_view("kernels").substr(0, 6), "kernel"));
  EXPECT_FALSE(equals_literal(std::string_view("ke\0nel", 6), "kernel"));
}

}  // namespace
}  // namespace aorta::detail
