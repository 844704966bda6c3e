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
    // Not words (not compared): the destination address the key was made for and whether that
    // destination overlapped what the expression reads. A key_match whose tree words all equal
    // these, into the same address, takes that answer instead of finding the overlap again.
    const void* made_for = nullptr;
    bool overlapped = false;

    void add(std::uintptr_t w) {
        if (count < inline_words)
            head[count] = w;
        else
            spill.push_back(w);
        ++count;
    }
    friend bool operator==(const plan_key& a, const plan_key& b) {
        return a.count == b.count
               && std::memcmp(
                      a.head, b.head, std::min(a.count, inline_words) * sizeof(std::uintptr_t))
                      == 0
               && a.spill == b.spill;
    }
};

/// The words of a key compared, as they are made, with a kept key's (`key_of(...) == kept`
/// without making the key): a repeated evaluation, the cache's common case, reads each kept
/// word once and writes none, and no two keys are compared after.
struct key_match {
    const plan_key& kept;
    std::size_t count = 0;
    // The kept words in `head`: below this, a word is compared without a further test.
    std::size_t inline_end = std::min(kept.count, plan_key::inline_words);
    std::uintptr_t differences = 0; // the bits in which compared words differed

    FUSOR_INLINE void add(std::uintptr_t w) {
        if (count < inline_end) [[likely]]
            differences |= kept.head[count] ^ w;
        else
            differences |= count < kept.count ? kept.spill[count - plan_key::inline_words] ^ w : 1;
        ++count;
    }
    // A run of `n` words compared at once (compare_run, below): the kept words it is compared
    // with, when all `n` are inline (else null), then `took(n, diff)` with the number of words
    // compared and their differences.
    FUSOR_INLINE const std::uintptr_t* next_words(std::size_t n) const {
        return count + n <= inline_end ? kept.head + count : nullptr;
    }
    FUSOR_INLINE void took(std::size_t n, std::uintptr_t diff) {
        differences |= diff;
        count += n;
    }
    bool matches() const { return differences == 0 && count == kept.count; }
};

// A run of words compared with the kept words at `kept`, the differences gathered in this
// object, a local of compare_run: stores to a key_match between the loads of kept words (both of
// type uintptr_t, so they may alias) made g++ keep its count and differences in memory for
// every word, about 7 instructions a word.
struct run_compare {
    const std::uintptr_t* kept;
    std::uintptr_t differences = 0;
    std::size_t count = 0;
    FUSOR_INLINE void add(std::uintptr_t w) { differences |= kept[count++] ^ w; }
};

// Past the kept key's inline words, word by word, out of line: inlined, this path doubled the
// code of every leaf's compare at -O3 (tests/exec/test_assign.cpp's object 1,196 KB with it out
// of line, 1,267 KB inlined).
template <class Words>
[[gnu::noinline]] void compare_words_slowly(key_match& k, Words words) {
    words(k);
}
// The `n` words that `words(sink)` sends to a sink, compared with `k`'s kept words as one run
// when they are all inline, else word by word. `n` is the number of words sent (the word layout
// itself is written once, in `words`: add_leaf_words, add_destination_words).
template <class Words>
FUSOR_INLINE void compare_run(key_match& k, std::size_t n, Words words) {
    if (const std::uintptr_t* kept = k.next_words(n)) [[likely]] {
        run_compare r{kept};
        words(r);
        k.took(r.count, r.differences);
    } else {
        compare_words_slowly(k, words);
    }
}

// A key's words (`Sink`: plan_key stores them, key_match compares them).
template <class Sink>
FUSOR_INLINE void add_int(Sink& k, index_t v) {
    k.add(static_cast<std::uintptr_t>(v));
}
template <class Sink>
FUSOR_INLINE void add_pointer(Sink& k, const void* p) {
    k.add(reinterpret_cast<std::uintptr_t>(p));
}
template <class Sink>
FUSOR_INLINE void add_shape(Sink& k, const shape_t& s) {
    add_int(k, s.rank());
    for (const index_t e : s)
        add_int(k, e);
}
// A shape in a run: its rank and extents compared in a plain loop over the extents (the
// generic add_shape's loop of `add` calls cost S9 48 more instructions per evaluation).
FUSOR_INLINE void add_shape(run_compare& r, const shape_t& s) {
    const std::size_t rank = s.size();
    const std::uintptr_t* kept = r.kept + r.count;
    const index_t* extents = s.data();
    std::uintptr_t differences = kept[0] ^ rank;
    for (std::size_t i = 0; i < rank; ++i)
        differences |= kept[1 + i] ^ static_cast<std::uintptr_t>(extents[i]);
    r.differences |= differences;
    r.count += 1 + rank;
}
// A shape against kept words: as one run when they are inline (compare_run's way), else word
// by word.
FUSOR_INLINE void add_shape(key_match& k, const shape_t& s) {
    if (const std::uintptr_t* kept = k.next_words(1 + s.size())) [[likely]] {
        run_compare r{kept};
        add_shape(r, s);
        k.took(r.count, r.differences);
        return;
    }
    add_int(k, s.rank());
    for (const index_t e : s)
        add_int(k, e);
}
template <class Sink>
void add_map(Sink& k, const affine_map& m) {
    add_shape(k, m.in_shape);
    add_shape(k, m.out_shape);
    for (const index_t c : m.coef)
        add_int(k, c);
    add_shape(k, m.offset);
}

// A leaf's words: its data and base addresses, whether it is a view and whether it owns what
// it reads (a reshape copy's view is labelled so), its shape and strides.
template <class Sink>
FUSOR_INLINE void add_leaf_words(Sink& k,
                                 const void* data,
                                 const void* base,
                                 bool is_view,
                                 bool owner,
                                 const shape_t& shape,
                                 const strides_t& strides) {
    add_pointer(k, data);
    add_pointer(k, base);
    add_int(k, is_view ? 1 : 0);
    add_int(k, owner ? 1 : 0);
    add_shape(k, shape);
    add_shape(k, strides);
}

// Writing a key happens on a cache miss only: its leaf and destination words are written out
// of line (not templates: compiled once, not once per expression type), while a key_match
// compares them inline, on every evaluation.
FUSOR_DECL void add_leaf(plan_key& k,
                         const void* data,
                         const void* base,
                         bool is_view,
                         bool owner,
                         const shape_t& shape,
                         const strides_t& strides);
FUSOR_INLINE void add_leaf(key_match& k,
                           const void* data,
                           const void* base,
                           bool is_view,
                           bool owner,
                           const shape_t& shape,
                           const strides_t& strides) {
    compare_run(k, 6 + shape.size() + strides.size(), [&](auto& sink) FUSOR_FORWARD_LAMBDA {
        add_leaf_words(sink, data, base, is_view, owner, shape, strides);
    });
}

// What the key records of each node: every leaf's address, layout and role, every scalar's
// bits, every view's map, every reshape's and reduction's parameters, in tree order.
template <class Sink>
struct key_builder {
    Sink& k;
    template <class N>
    void on_leaf(const N& n) {
        add_leaf(k, n.data, n.base, n.is_view, static_cast<bool>(n.owner), n.shape(), n.strides());
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
        add_map(k, n.map);
        traverse(n.child, *this);
    }
    template <class N>
    void on_reshaped(const N& n) {
        add_shape(k, n.out_shape);
        add_int(k, n.split ? 1 : 0);
        if (n.split)
            add_map(k, *n.split);
        traverse(n.child, *this);
    }
    template <class N>
    void on_reduction(const N& n) {
        add_shape(k, n.axes);
        add_int(k, (n.keepdims ? 1 : 0) + (n.flat ? 2 : 0));
        traverse(n.child, *this);
    }
};

// The destination's words, after the tree's (`overlaps`: whether it overlaps what the
// expression reads).
template <class Sink>
FUSOR_INLINE void add_destination_words(Sink& k, const destination_ref& d, bool overlaps) {
    add_pointer(k, d.dtype.data()); // one expression type may be assigned to several dtypes
    add_int(k, d.itemsize);
    add_shape(k, d.shape);
    add_shape(k, d.strides);
    add_pointer(k, overlaps ? d.address : nullptr);
    add_int(k, num_threads());
    add_int(k, // test hooks (kernel_choice.hpp, make_plan.hpp), and a fresh destination
            math_in_registers_enabled + 2 * small_gemm_enabled + 4 * flat_plans_enabled
                + 8 * stream_stores_enabled + 16 * d.fresh);
}
FUSOR_DECL void add_destination(plan_key& k, const destination_ref& d, bool overlaps);
FUSOR_LAZY FUSOR_INLINE void
add_destination(key_match& k, const destination_ref& d, bool overlaps) {
    compare_run(k, 7 + d.shape.size() + d.strides.size(), [&](auto& sink) FUSOR_FORWARD_LAMBDA {
        add_destination_words(sink, d, overlaps);
    });
}

// Whether the destination `d` overlaps what `e` reads.
template <class E>
bool destination_overlaps(const E& e, const destination_ref& d) {
    const std::pair<const char*, const char*> touched =
        bytes_touched(d.address, d.shape, d.strides, d.itemsize);
    return touched.first && reads_overlap(e, touched.first, touched.second);
}
// The same, for a key compared with a kept one: when every word of the tree so far equals the
// kept key's (the same leaves, addresses and layouts) and the destination is at the address the
// kept key was made for, the kept answer (were the destination's layout different, its words,
// compared next, would differ whatever the answer).
template <class E>
bool destination_overlaps(const key_match& k, const E& e, const destination_ref& d) {
    if (k.differences == 0 && d.address == k.kept.made_for)
        return k.kept.overlapped;
    return destination_overlaps(e, d);
}
template <class E>
bool destination_overlaps(const plan_key&, const E& e, const destination_ref& d) {
    return destination_overlaps(e, d);
}

// The words of the key of evaluating `e` into `d`, sent to `k`.
template <class Sink, class E>
void add_key_words(Sink& k, const E& e, const destination_ref& d) {
    traverse(e, key_builder<Sink>{k});
    add_destination(k, d, destination_overlaps(k, e, d));
}

/// The key of evaluating `e` into `d`.
template <class E>
plan_key key_of(const E& e, const destination_ref& d) {
    plan_key k;
    add_key_words(k, e, d);
    return k;
}

/// Whether `kept` is the key of evaluating `e` into `d` (`key_of(e, d) == kept`), without
/// making that key.
template <class E>
bool is_key_of(const plan_key& kept, const E& e, const destination_ref& d) {
    key_match m{kept};
    add_key_words(m, e, d);
    return m.matches();
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

/// Whether `slot` holds an entry made for the key of evaluating `e` into `d` (an entry made
/// but never filled holds none).
template <class Entry, class E>
bool holds_key_of(const std::unique_ptr<Entry>& slot, const E& e, const destination_ref& d) {
    return slot && slot->key.count > 0 && is_key_of(slot->key, e, d);
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

// A cache miss's two steps around the planning, out of line so that no expression type compiles
// loop_plan's reset, move or destruction or plan_key's move (cached_plan was ~2 KB of code per
// expression type at -O3): the slot's plan emptied to be planned into and its key dropped (the
// slot made on first use), then the new key kept. A plan that throws between them leaves an
// entry that holds no key, so the next evaluation plans again.
FUSOR_DECL loop_plan& plan_to_fill(std::unique_ptr<plan_cache_entry>& slot);
FUSOR_DECL void keep_key(plan_cache_entry& entry, plan_key& key);

/// The plan for evaluating `e` into `d`: this thread's last plan for `E` when it was made for
/// the same key (`hit` true; the key compared as it is made, key_match), else a new one, which
/// replaces it.
template <class E>
const loop_plan& cached_plan(const E& e, const destination_ref& d, bool& hit) {
    auto& slot = plan_cache_slot<E>();
    hit = holds_key_of(slot, e, d);
    if (hit) {
        retarget(slot->plan, d.address);
    } else {
        plan_key key = key_of(e, d);
        plan_root(plan_to_fill(slot), e, d, nullptr);
        keep_key(*slot, key); // after the plan: a throwing planner leaves no key
    }
    return slot->plan;
}

/// True when this thread's cache holds the plan for evaluating `e` into `d` (its last
/// evaluation of `E` had the same key): what explain reports.
template <class E>
bool plan_is_cached(const E& e, const destination_ref& d) {
    return holds_key_of(plan_cache_slot<E>(), e, d);
}

} // namespace fusor::planning

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/plan/plan_cache.ipp>
#endif
