// fusor/plan/plan_cache.ipp: the definitions of plan_cache.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/plan/plan_cache.hpp>

namespace fusor::planning {

FUSOR_DECL void retarget(loop_plan& p, const void* address) {
    p.operands[0].address = address;
    p.operands[0].base = address;
}

} // namespace fusor::planning
