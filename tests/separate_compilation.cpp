// fusor's non-template functions, compiled once for the tests built with
// FUSOR_SEPARATE_COMPILATION (tests/CMakeLists.txt: one object per group of compile options).
#include <fusor/src.hpp>
