// fusor/config.hpp: version and the library's only macros.
#pragma once

// Concepts, requires-clauses and std::span are C++20: say so in one line instead of hundreds.
// (g++ 12 defaults to C++17.) The missing header after #error ends the compilation there.
#if __cplusplus < 202002L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 202002L)
#error "fusor needs C++20: compile with -std=c++20 (g++ 11 or newer, clang++ 14 or newer)"
#include <fusor_stops_here_compile_with_std_cxx20>
#endif

#define FUSOR_VERSION_MAJOR 0
#define FUSOR_VERSION_MINOR 1
#define FUSOR_VERSION_PATCH 0

// Separate compilation (docs/api.md, "Separate compilation"): by default fusor is header-only
// and its non-template functions are `inline`, compiled again in every translation unit that
// uses them. With `FUSOR_SEPARATE_COMPILATION` defined for every translation unit of a program,
// the headers only declare them and one translation unit compiles them all by including
// <fusor/src.hpp> (as Boost.Asio's ASIO_SEPARATE_COMPILATION): a unit that evaluates one
// expression then compiles that expression's kernels and little else.
//
// Header-only, each of those functions is a function template of one defaulted, unused
// parameter (`FUSOR_DECL` on its declaration in a header, `FUSOR_DEF` on its definition in the
// .ipp file), called as before (`f(x)` is `f<void>(x)`). A translation unit then compiles only
// the ones it calls: g++ instantiates every template that a plain inline function's body uses,
// called or not, and the bodies of fusor's 218 such functions had cost every unit that
// includes fusor.hpp about 1.3 s of its 3.9 (docs/performance.md, "Functions compiled only
// where they are called"). `FUSOR_HEADER_INLINE` stays a plain `inline`: member functions, and
// the few that carry an attribute (which cannot precede a template head).
// `FUSOR_LAZY` makes a function defined in a header (a member of a class that is not a template,
// a hidden friend) a template in the same way, in either mode, where its body calls many others
// that a unit would otherwise compile for nothing (explanation's text and JSON forms).
#define FUSOR_LAZY template <class = void>
// `FUSOR_FRIEND` befriends such a function (its friend declaration names the template).
#ifdef FUSOR_SEPARATE_COMPILATION
#define FUSOR_DECL
#define FUSOR_DEF
#define FUSOR_HEADER_INLINE
#define FUSOR_FRIEND friend
#else
#define FUSOR_DECL                                                                                 \
    template <class = void>                                                                        \
    inline
#define FUSOR_DEF                                                                                  \
    template <class>                                                                               \
    inline
#define FUSOR_HEADER_INLINE inline
#define FUSOR_FRIEND                                                                               \
    template <class>                                                                               \
    friend
#endif

// Force-inline for the per-element evaluator calls: the inner kernel must collapse into one
// loop body, and g++ stops inlining deep expression trees at its default limits. Only in an
// optimised build: at -O0 forced inlining only copies unoptimised code into every caller (the
// tests' -O0 oracle files built 20 % faster without it). `FUSOR_NO_FORCE_INLINE` turns it off
// in an optimised build too: a clang++ -O1 ASan build of tests/ops/test_integer_corners.cpp
// took 137 s instead of 233, and a debugging build keeps its calls.
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__)                             \
    && !defined(FUSOR_NO_FORCE_INLINE)
#define FUSOR_INLINE inline __attribute__((always_inline))
#define FUSOR_INLINE_LAMBDA __attribute__((always_inline))
#else
#define FUSOR_INLINE inline
#define FUSOR_INLINE_LAMBDA
#endif

// Force-inline with g++ in every build, -O0 included, for functions that only forward a call
// (the one traversal's dispatch and child access) and for lambdas called once per
// instantiation (pack expansions, per-child visits): inlined, each is one function less per node
// type and visitor and no code copied. g++ -O0 compiled a generated oracle sample 8-20 % faster
// with them. clang++ -O0 with ASan compiled the same sample 15-30 % slower (inlined code is
// instrumented again at each site), so with clang++ they force inlining only when optimising.
#if (defined(__GNUC__) && !defined(__clang__)) || defined(__OPTIMIZE__)
#define FUSOR_FORWARD inline __attribute__((always_inline))
#define FUSOR_FORWARD_LAMBDA __attribute__((always_inline))
#else
#define FUSOR_FORWARD inline
#define FUSOR_FORWARD_LAMBDA
#endif

// Force-inline when optimising only: for the non-template parts of the small-size fast paths
// (plan/make_plan.hpp's row matcher), inlined into each expression type's check at -O2 (a call
// cost 2 ns of 26 at 4 elements) but compiled once, out of line, in an unoptimised build such
// as the tests' (docs/performance.md, "Compile time").
#if (defined(__GNUC__) || defined(__clang__)) && defined(__OPTIMIZE__)
#define FUSOR_INLINE_WHEN_OPTIMIZING inline __attribute__((always_inline))
#else
#define FUSOR_INLINE_WHEN_OPTIMIZING inline
#endif

// g++ at -O1 and -O2 (with -Wall) cannot see that a vector filled lane by lane in a loop has every
// lane written, and warns -Wmaybe-uninitialized in users' builds (fatal under -Werror). The
// kernels that fill vectors so sit between these two; zero-initialising the vectors instead would
// add work to their hot loops.
#if defined(__GNUC__) && !defined(__clang__)
#define FUSOR_LANES_FILLED_BEGIN                                                                   \
    _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
#define FUSOR_LANES_FILLED_END _Pragma("GCC diagnostic pop")
#else
#define FUSOR_LANES_FILLED_BEGIN
#define FUSOR_LANES_FILLED_END
#endif

// Before an element-wise loop whose destination shares no byte with what it reads, or reads
// exactly the element it writes (the planner guarantees it: NumPy's overlap rule sends every
// other overlap through a temporary, plan/make_plan.hpp): no loop-carried dependency, so the
// compiler may vectorise without the run-time alias checks and the scalar copy of the loop it
// would otherwise emit for every expression type. g++ only: clang's counterpart
// (`vectorize(assume_safety)`) also demands vectorisation and warns (-Wpass-failed) on every
// loop it cannot vectorise, such as one calling a scalar math function.
#if defined(__GNUC__) && !defined(__clang__)
#define FUSOR_IVDEP _Pragma("GCC ivdep")
#else
#define FUSOR_IVDEP
#endif

// Checked mode (core/lifetime.hpp): every expression operand records the storage it was built
// over, and evaluating an expression whose operand was since freed, reallocated or reshaped
// throws `fusor::lifetime_error` instead of reading freed memory. On by default where `assert`
// is (no `NDEBUG`: CMake's Debug builds, a plain `g++` without `-DNDEBUG`); set
// `FUSOR_CHECKED=0` or `=1` to choose. It changes the layout of tensors, views and leaves, so
// every translation unit of one program must agree on it (as with `_GLIBCXX_DEBUG`).
#ifndef FUSOR_CHECKED
#ifdef NDEBUG
#define FUSOR_CHECKED 0
#else
#define FUSOR_CHECKED 1
#endif
#endif
