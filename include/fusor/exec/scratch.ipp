// fusor/exec/scratch.ipp: the definitions of scratch.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/exec/scratch.hpp>

namespace fusor::exec {
namespace detail {

FUSOR_DEF scratch_pool& thread_scratch_pool() {
    thread_local scratch_pool pool;
    return pool;
}

} // namespace detail
} // namespace fusor::exec
