// fusor/config.hpp: version and the library's only macros.
#pragma once

#define FUSOR_VERSION_MAJOR 0
#define FUSOR_VERSION_MINOR 1
#define FUSOR_VERSION_PATCH 0

// Force-inline for the per-element evaluator calls: the inner kernel must collapse into one
// loop body, and g++ stops inlining deep expression trees at its default limits.
#if defined(__GNUC__) || defined(__clang__)
#define FUSOR_INLINE inline __attribute__((always_inline))
#else
#define FUSOR_INLINE inline
#endif
