// fusor/plan/loop_plan.ipp: the definitions of loop_plan.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/plan/loop_plan.hpp>

namespace fusor {

FUSOR_HEADER_INLINE loop_plan::loop_plan() = default;
FUSOR_HEADER_INLINE loop_plan::loop_plan(const loop_plan&) = default;
FUSOR_HEADER_INLINE loop_plan::loop_plan(loop_plan&&) = default;
FUSOR_HEADER_INLINE loop_plan& loop_plan::operator=(const loop_plan&) = default;
FUSOR_HEADER_INLINE loop_plan& loop_plan::operator=(loop_plan&&) = default;
FUSOR_HEADER_INLINE loop_plan::~loop_plan() = default;

} // namespace fusor
