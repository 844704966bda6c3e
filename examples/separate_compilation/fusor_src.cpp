// separate_compilation/fusor_src.cpp: fusor's non-template functions, compiled once for the whole
// program (docs/api.md, "Separate compilation"). The only line a program adds to use the mode.
#include <fusor/src.hpp>
