// encoding_test.cc: (being written)
#include <gtest/gtest.h>
