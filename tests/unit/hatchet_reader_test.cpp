#include "aorta/hatchet_reader.hpp"
#include <gtest/gtest.h>
TEST(hatchet, placeholder_build) { SUCCEED(); }
