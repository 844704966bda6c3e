// fusor/plan/plan_cache.ipp: the definitions of plan_cache.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/plan/plan_cache.hpp>

namespace fusor::planning {

FUSOR_DECL void add_destination(plan_key& k, const destination_ref& d, bool overlaps) {
    k.add_pointer(d.dtype.data()); // one expression type may be assigned to several dtypes
    k.add_int(d.itemsize);
    k.add_shape(d.shape);
    k.add_shape(d.strides);
    k.add_pointer(overlaps ? d.address : nullptr);
    k.add_int(num_threads());
    k.add_int(math_in_registers_enabled + 2 * small_gemm_enabled); // test hooks (kernel_choice.hpp)
}

FUSOR_DECL void retarget(loop_plan& p, const void* address) {
    p.operands[0].address = address;
    p.operands[0].base = address;
}

FUSOR_DECL bool
find_cached(std::unique_ptr<plan_cache_entry>& slot, const plan_key& key, const void* address) {
    if (!slot)
        slot = std::make_unique<plan_cache_entry>();
    if (!holds_key(slot, key))
        return false;
    retarget(slot->plan, address);
    return true;
}

} // namespace fusor::planning
