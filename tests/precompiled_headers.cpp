// The owner of one group's precompiled headers (tests/CMakeLists.txt, FUSOR_TEST_PCH): CMake
// builds doctest.h and fusor.hpp into a precompiled header beside this empty translation unit,
// and the group's tests reuse it.
