// fusor/plan/plan_cache.hpp: the last plan of each expression type, per thread. An expression
// evaluated again over the same operands (addresses, shapes, strides, views, scalar values,
// reduction axes) into a destination of the same shape and strides gets the same plan, so the
// evaluator reuses it instead of planning again: in a loop over small tensors planning costs
// more than the arithmetic. The key is everything the planner reads, so a reused plan is the
// plan make_plan would build, and results never depend on the cache.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/parallel.hpp>
#include <fusor/core/traverse.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/plan/make_plan.hpp>

namespace fusor::planning {

/// What a plan is made from, as a list of words: for every node of the tree, depth-first, the
/// values the planner reads (a leaf's data and base addresses, shape and strides; a scalar's
/// bits; a view's index map; a reshape's map; a reduction's axes), then the destination's
/// element type, shape and strides, whether it overlaps what the expression reads (its address
/// when it does: the aliasing copy depends on it), and the thread cap.
struct plan_key {
    // Words inline up to `inline_words`, the rest in `spill`: building and comparing a key must
    // cost next to nothing. A rank-2 leaf takes 10 words, a reduction 3, the destination 11: a
    // softmax takes 60 and a layer norm with weight and bias 78, so 128 (1 KiB, never cleared;
    // comparisons read `count` words) holds about ten leaves.
    static constexpr std::size_t inline_words = 128;
    std::uintptr_t head[inline_words];
    std::size_t count = 0;
    std::vector<std::uintptr_t> spill;

    void add(std::uintptr_t w) {
        if (count < inline_words)
            head[count] = w;
        else
            spill.push_back(w);
        ++count;
    }
    void add_int(index_t v) { add(static_cast<std::uintptr_t>(v)); }
    void add_pointer(const void* p) { add(reinterpret_cast<std::uintptr_t>(p)); }
    void add_shape(const shape_t& s) {
        add_int(s.rank());
        for (const index_t e : s)
            add_int(e);
    }
    void add_map(const affine_map& m) {
        add_shape(m.in_shape);
        add_shape(m.out_shape);
        for (const index_t c : m.coef)
            add_int(c);
        add_shape(m.offset);
    }
    friend bool operator==(const plan_key& a, const plan_key& b) {
        return a.count == b.count
               && std::memcmp(
                      a.head, b.head, std::min(a.count, inline_words) * sizeof(std::uintptr_t))
                      == 0
               && a.spill == b.spill;
    }
};

// What the key records of each node: every leaf's address, layout and role, every scalar's
// bits, every view's map, every reshape's and reduction's parameters, in tree order.
struct key_builder {
    plan_key& k;
    template <class N>
    void on_leaf(const N& n) {
        k.add_pointer(n.data);
        k.add_pointer(n.base);
        k.add_int(n.is_view ? 1 : 0);
        k.add_int(n.owner ? 1 : 0); // a reshape copy's view is labelled so
        k.add_shape(n.shape());
        k.add_shape(n.strides());
    }
    template <class N>
    void on_scalar(const N& n) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &n.value, sizeof(n.value));
        k.add(static_cast<std::uintptr_t>(bits));
    }
    template <class N>
    void on_elementwise(const N& n) {
        for_each_child(n, [this](const auto& c) FUSOR_FORWARD_LAMBDA { traverse(c, *this); });
    }
    template <class N>
    void on_remap(const N& n) {
        k.add_map(n.map);
        traverse(n.child, *this);
    }
    template <class N>
    void on_reshaped(const N& n) {
        k.add_shape(n.out_shape);
        k.add_int(n.split ? 1 : 0);
        if (n.split)
            k.add_map(*n.split);
        traverse(n.child, *this);
    }
    template <class N>
    void on_reduction(const N& n) {
        k.add_shape(n.axes);
        k.add_int((n.keepdims ? 1 : 0) + (n.flat ? 2 : 0));
        traverse(n.child, *this);
    }
};

// key_of after the tree's words: the destination's (`overlaps`: whether it overlaps what the
// expression reads). Not a template.
FUSOR_DECL void add_destination(plan_key& k, const destination_ref& d, bool overlaps);

template <class E>
plan_key key_of(const E& e, const destination_ref& d) {
    plan_key k;
    traverse(e, key_builder{k});
    const std::pair<const char*, const char*> touched =
        bytes_touched(d.address, d.shape, d.strides, d.itemsize);
    add_destination(k, d, touched.first && reads_overlap(e, touched.first, touched.second));
    return k;
}

/// A plan cache slot's content: the key and the plan made for it. One type for every
/// expression type (the slot, below, is what is per type), so `std::unique_ptr` of it is
/// compiled once, not once per expression type.
struct plan_cache_entry {
    plan_key key;
    loop_plan plan;
};

/// This thread's slot for an `Entry` (a key and what was made for it) of expression type `E`:
/// the plan cache's below, the row blocks' (plan/row_blocks.hpp).
template <class Entry, class E>
std::unique_ptr<Entry>& cache_slot() {
    // A pointer per expression type and thread (the entry itself is on the heap, made on the
    // first evaluation): thread-local storage stays small however many types a program has.
    thread_local std::unique_ptr<Entry> slot;
    return slot;
}

/// Whether `slot` holds an entry made for `key` (an entry made but never filled holds none).
template <class Entry>
bool holds_key(const std::unique_ptr<Entry>& slot, const plan_key& key) {
    return slot && slot->key.count > 0 && slot->key == key;
}

/// The plan cache slot of expression type `E` on this thread.
template <class E>
std::unique_ptr<plan_cache_entry>& plan_cache_slot() {
    return cache_slot<plan_cache_entry, E>();
}

// Points the plan's destination at `address`: a cached plan was made for an earlier
// destination of the same shape and strides that overlapped nothing, like this one, so that is
// the only field that differs from what make_plan would build now.
FUSOR_DECL void retarget(loop_plan& p, const void* address);

// cached_plan's lookup: makes the slot's entry on first use; true (and the plan retargeted at
// `address`) when it holds the plan for `key`. Not a template.
FUSOR_DECL bool
find_cached(std::unique_ptr<plan_cache_entry>& slot, const plan_key& key, const void* address);

/// The plan for evaluating `e` into `d` whose key is `key` (`key_of(e, d)`): this thread's last
/// plan for `E` when it was made for the same key (`hit` true), else a new one, which replaces
/// it. An evaluation that looked up its row blocks (plan/row_blocks.hpp) with the key passes it
/// on, so the tree is walked once.
template <class E>
const loop_plan& cached_plan(const E& e, const destination_ref& d, plan_key&& key, bool& hit) {
    auto& slot = plan_cache_slot<E>();
    hit = find_cached(slot, key, d.address);
    if (!hit) {
        slot->plan = make_plan(e, d);
        slot->key = std::move(key);
    }
    return slot->plan;
}

/// As above, making the key.
template <class E>
const loop_plan& cached_plan(const E& e, const destination_ref& d, bool& hit) {
    return cached_plan(e, d, key_of(e, d), hit);
}

/// True when this thread's cache holds the plan for evaluating `e` into `d` (its last
/// evaluation of `E` had the same key): what explain reports.
template <class E>
bool plan_is_cached(const E& e, const destination_ref& d) {
    return holds_key(plan_cache_slot<E>(), key_of(e, d));
}

} // namespace fusor::planning

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/plan/plan_cache.ipp>
#endif
