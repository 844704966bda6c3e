// fusor/plan/plan_cache.ipp: the definitions of plan_cache.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/plan/plan_cache.hpp>

namespace fusor::planning {

FUSOR_DEF void add_leaf(plan_key& k,
                        const void* data,
                        const void* base,
                        bool is_view,
                        bool owner,
                        const shape_t& shape,
                        const strides_t& strides) {
    add_leaf_words(k, data, base, is_view, owner, shape, strides);
}

FUSOR_DEF void add_destination(plan_key& k, const destination_ref& d, bool overlaps) {
    add_destination_words(k, d, overlaps);
    k.made_for = d.address;
    k.overlapped = overlaps;
}

FUSOR_DEF loop_plan& plan_to_fill(std::unique_ptr<plan_cache_entry>& slot) {
    if (!slot)
        slot = std::make_unique<plan_cache_entry>();
    slot->key.count = 0; // holds no key until keep_key
    slot->key.spill.clear();
    slot->plan = loop_plan{};
    return slot->plan;
}

FUSOR_DEF void keep_key(plan_cache_entry& entry, plan_key& key) {
    entry.key = std::move(key);
}

FUSOR_DEF void retarget(loop_plan& p, const void* address) {
    p.operands[0].address = address;
    p.operands[0].base = address;
}

} // namespace fusor::planning
