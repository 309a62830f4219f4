// The one trimming rule (text_trim.hpp) with each character set its parsers pass: the cases are
// those the copies it replaced treated differently (a CRLF line end, a leading carriage return,
// tabs around a hatchet key that only spaces may surround, a value that is all blanks).
#include "text_trim.hpp"

#include <gtest/gtest.h>

namespace {

using namespace aorta::detail;

TEST(TextTrim, WhitespaceIsWhatIsspaceAcceptsInTheCLocale) {
  EXPECT_EQ(trim(" \t\n\v\f\r value \r\n"), "value");
  EXPECT_EQ(trim("a b"), "a b");
  EXPECT_EQ(trim(" \t\r\n"), "");
  EXPECT_EQ(trim(""), "");
}

TEST(TextTrim, BlanksLeaveLineEndsInPlace) {
  EXPECT_EQ(trim("\t 42 \t", blanks), "42");
  EXPECT_EQ(trim("42\r", blanks), "42\r");
  EXPECT_EQ(trim("\n42", blanks), "\n42");
  EXPECT_EQ(trim(" \t ", blanks), "");
}

TEST(TextTrim, ASetOfOneCharacter) {
  EXPECT_EQ(trim("  time (ns) ", " "), "time (ns)");
  EXPECT_EQ(trim("\ttime", " "), "\ttime");
}

TEST(TextTrim, ALineLosesItsCrlfEndButNotALeadingCarriageReturn) {
  EXPECT_EQ(trim_line("  fn=(1) main \r"), "fn=(1) main");
  EXPECT_EQ(trim_line("x \r \r"), "x");
  EXPECT_EQ(trim_line("\rx"), "\rx");
  EXPECT_EQ(trim_line("\r"), "");
  EXPECT_EQ(trim_line(" \t"), "");
}

static_assert(trim("  a  ") == "a", "usable in constant expressions");

}  // namespace
