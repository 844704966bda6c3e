// fusor/exec/evaluator.hpp: evaluators, the "how" beside each node's "what" (as Eigen's
// TensorEvaluator). Built once per evaluation from a node and its plan, in the plan's
// operand order; inside the inner loop `get<Contiguous>(i)` is the whole per-element work.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <boost/container/small_vector.hpp>

#include <fusor/config.hpp>
#include <fusor/core/child_slots.hpp>
#include <fusor/core/traverse.hpp>
#include <fusor/exec/scratch.hpp>
#include <fusor/exec/temporary_pool.hpp>
#include <fusor/exec/vector_math.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/expr/reshaped.hpp>
#include <fusor/plan/hoisting.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/reduce/reduction.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor::exec {

// The buffer fills of the blocked kernels, compiled once per element type and called, not
// inlined into every expression's kernel (each copy cost the compiler two more loops to
// vectorise per leaf, per kernel: docs/performance.md, "Compile time").
// `len` elements of `src` at `stride` into `dst` (a strided operand's block, gathered).
template <class T>
[[gnu::noinline]] void gather_block(T* dst, const T* src, index_t stride, index_t len) {
    if (stride == 2) { // every second element (a[::2], a complex array's real parts): a
        for (index_t i = 0; i < len; ++i) // constant stride the compiler vectorises
            dst[i] = src[2 * i];
    } else {
        for (index_t i = 0; i < len; ++i)
            dst[i] = src[i * stride];
    }
}

// The row `src` of `period` elements repeated into `dst` to `len` elements: the row, then the
// buffer doubled until a block long.
template <class T>
[[gnu::noinline]] void repeat_row(T* dst, const T* src, index_t period, index_t len) {
    std::copy_n(src, std::min(period, len), dst);
    for (index_t filled = period; filled < len; filled *= 2)
        std::copy_n(dst, std::min(filled, len - filled), dst + filled);
}

// `len` copies of `value` into `dst` (a still operand's splat buffer).
template <class T>
[[gnu::noinline]] void splat_fill(T* dst, T value, index_t len) {
    std::fill_n(dst, len, value);
}

// A column operand's block in the collapsed kernel: the elements of `len / period` rows (`src`,
// `step` apart), each repeated over its row of `period` into `dst`.
template <class T>
[[gnu::noinline]] void
repeat_column(T* dst, const T* src, index_t step, index_t period, index_t len) {
    for (index_t at = 0; at < len; at += period, src += step) {
        const T value = *src; // once: dst may alias src for all g++ knows
        for (index_t i = 0; i < period; ++i)
            dst[at + i] = value;
    }
}

// Element types whose tiles are staged by 16-byte square blocks transposed in registers (4 x 4
// of 4 bytes, 2 x 2 of 8).
template <class T>
inline constexpr bool block_transposable =
    std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);

// The W x W block at `src` (column c's W elements adjacent, columns `stride` apart) into `dst`
// row by row (rows `pitch` apart): W loads of a column, W stores of a row, the transpose
// between them in registers (the unpack-and-move pattern of the SSE transpose).
template <class T>
FUSOR_INLINE void transpose_block(T* dst, const T* src, index_t stride, index_t pitch) {
    constexpr int W = 16 / sizeof(T);
    typedef T vec __attribute__((vector_size(16)));
    vec l[W];
    for (int c = 0; c < W; ++c)
        std::memcpy(&l[c], src + c * stride, sizeof(vec));
    vec s[W];
    if constexpr (W == 4) {
        const vec t0 = __builtin_shufflevector(l[0], l[1], 0, 4, 1, 5);
        const vec t1 = __builtin_shufflevector(l[0], l[1], 2, 6, 3, 7);
        const vec t2 = __builtin_shufflevector(l[2], l[3], 0, 4, 1, 5);
        const vec t3 = __builtin_shufflevector(l[2], l[3], 2, 6, 3, 7);
        s[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
        s[1] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
        s[2] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
        s[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
    } else {
        s[0] = __builtin_shufflevector(l[0], l[1], 0, 2);
        s[1] = __builtin_shufflevector(l[0], l[1], 1, 3);
    }
    for (int r = 0; r < W; ++r)
        std::memcpy(dst + r * pitch, &s[r], sizeof(vec));
}

// The tile of `rows` x `cols` elements at `src` (rows `outer_stride` apart, columns `stride`)
// into `dst`, rows `pitch` apart (`tile_cols`, or the row's length in a packed tile: the rows
// one after another), reading `rows` neighbours per column. A transposed
// operand (`outer_stride` 1: a column's elements adjacent) goes by square blocks transposed in
// registers; element by element, the gather was 58 % of `a + transpose(b)` (perf, 4096 x 4096
// float32), one load and one store per element. The same elements land in the same places.
template <class T>
[[gnu::noinline]] void stage_tile(T* dst,
                                  const T* src,
                                  index_t rows,
                                  index_t cols,
                                  index_t outer_stride,
                                  index_t stride,
                                  index_t pitch) {
    index_t c0 = 0;
    if constexpr (block_transposable<T>) {
        constexpr index_t W = 16 / sizeof(T);
        if (outer_stride == 1 && rows >= W) {
            const index_t whole_rows = rows - rows % W;
            for (; c0 + W <= cols; c0 += W) {
                for (index_t r0 = 0; r0 < whole_rows; r0 += W)
                    transpose_block(dst + r0 * pitch + c0, src + r0 + c0 * stride, stride, pitch);
                if (whole_rows < rows)
                    for (index_t c = c0; c < c0 + W; ++c)
                        for (index_t r = whole_rows; r < rows; ++r)
                            dst[r * pitch + c] = src[r + c * stride];
            }
        }
    }
    for (index_t c = c0; c < cols; ++c)
        for (index_t r = 0; r < rows; ++r)
            dst[r * pitch + c] = src[r * outer_stride + c * stride];
}

/// True when evaluator `Ev` has the register form (FUSOR_MATH_IN_REGISTERS): after
/// `bind_registers(offsets, start, len)`, `get_register<false>(i, lanes)` is lanes [i, i +
/// lanes) of the block in one SIMD register, and `get_register<true>(i, n)` its first `n` lanes
/// (the partial register at the block's end; nothing past them is read). Leaves, scalars,
/// `+ - * /` and unary `-` over those (ops/vector_forms.hpp: register_arithmetic) and the
/// vectorised math functions have it; every lane gets the bits the element's scalar or blocked
/// form gives. How a leaf reads its register is the loop's `register_read`.
namespace detail {
template <class Ev>
constexpr bool register_form_of() {
    if constexpr (requires { Ev::in_registers; })
        return Ev::in_registers;
    else
        return false;
}
} // namespace detail
template <class Ev>
inline constexpr bool in_registers_v = detail::register_form_of<Ev>();

/// How the leaves of a register form read a register (`get_register<Partial, Read>`), one
/// constant per loop so that a loop's loads are one instruction sequence (a branch between
/// two kinds of load let g++ fuse a multiply and an add differently: FMA contraction):
///  - `block`: the block as bind_registers left it, at unit stride (math_in_registers);
///  - `stride2`: every k-th element from `cur`, k = 1 or 2 as the leaf says, through
///    simd_isa::load_every (the plan's stride2_in_registers);
///  - `rows`: a flat plan's row as bind_row left it, a column's one element broadcast to every
///    lane (flat_plan::rows_in_registers); with `run` = q, the row q rows on (a flat
///    reduction's pass of runs bound at its first: reduce_kernel::pairwise_rows_simd).
enum class register_read : std::uint8_t { block, stride2, rows };
namespace detail {
// The element types the register form computes.
template <class T>
inline constexpr bool register_type = std::is_same_v<T, float> || std::is_same_v<T, double>;
// (Unformatted: clang-format 14 reads `v<C> &&` as an rvalue reference type.)
// clang-format off
// Child evaluator `C` of a node computing `T` in registers: it has the register form and
// computes `T` too (no conversion between them).
template <class C, class T>
inline constexpr bool register_child =
    in_registers_v<C> && std::is_same_v<decltype(std::declval<C>().template get<true>(0)), T>;
// An operation `Op` computing `T` over child evaluators `Cs` in registers.
template <class Op, class T, class... Cs>
inline constexpr bool register_operation_node =
    register_type<T> && register_arithmetic<Op> && (register_child<Cs, T> && ...);
// clang-format on
} // namespace detail

/// Reads a tensor or view operand. `bind` points it at the current inner loop's first
/// element; `get<true>` assumes unit stride (the contiguous kernel), `get<false>` does not.
template <class T>
struct leaf_evaluator {
    const T* base;
    index_t stride; // innermost stride
    std::size_t operand;
    const T* cur = nullptr;
    // Broadcast kernel, stride 0: the one element repeated `broadcast_block` times (not a
    // std::vector: vector<bool> has no data()).
    T* splat = nullptr;
    // Tiled kernel, off unit stride: the operand's tile is copied (`stage`) from `source` into
    // `staged`, and `base` points at `staged`, so the contiguous kernel reads row r of the tile
    // at offset r * tile_cols. `outer_stride`: the stride of the level outside the innermost.
    T* staged = nullptr;
    const T* source = nullptr;
    index_t outer_stride = 0;
    // Blocked math in a strided loop, off unit stride: each block's elements are copied
    // (gathered) into this buffer of `broadcast_block`, read at unit stride.
    T* gather = nullptr;
    // Collapsed kernel, a row operand: its row of `period` elements repeated to a block's length
    // (blocks are whole rows, so every block reads the same repetition). A column operand
    // (`outer_stride` not 0: one element per row) fills it for each block: each row's element
    // repeated over the row.
    T* repeat = nullptr;
    index_t period = 0;
#if FUSOR_STRIDE2_IN_REGISTERS
    // The register form in a strided loop (the plan's stride2_in_registers), at stride 2: each
    // register is read from the operand itself (simd_isa::load_every), not the gather buffer.
    bool stride2 = false;
#endif

    FUSOR_INLINE void bind(const index_t* offsets) {
        cur = base + offsets[operand];
    }
    /// Moved on by `delta[operand]` elements from where `bind` put it (the next rows of a
    /// block without reading the offsets again: detail::two_rows_in_registers).
    FUSOR_INLINE void advance(const index_t* delta) {
        cur += delta[operand];
    }
    /// A flat plan's row `r` (flat_evaluator_builder): `outer_stride` is the row's step; a
    /// column (a splat buffer) has one element per row, splatted over the row's `period`.
    /// Inline, unlike the broadcast kernel's splat_fill: a call per column per row of 16 cost
    /// (512, 16) `(x - m) / s` a third of its time (3.1 against 2.1-2.2 us).
    FUSOR_INLINE void bind_row(index_t r) {
        cur = base + r * outer_stride;
        if (splat) {
            const T value = *cur;
            for (index_t i = 0; i < period; ++i)
                splat[i] = value;
            cur = splat;
        }
    }
    /// A flat plan's rows [r, r + count) at once (pairwise_rows over a flat reduction with
    /// columns): row q + r is read `q * period` elements on, so a column's splat buffer holds
    /// each of those rows' elements splatted over its own `period`.
    FUSOR_INLINE void bind_rows(index_t r, index_t count) {
        cur = base + r * outer_stride;
        if (splat) {
            for (index_t q = 0; q < count; ++q) {
                const T value = cur[q * outer_stride];
                for (index_t i = 0; i < period; ++i)
                    splat[q * period + i] = value;
            }
            cur = splat;
        }
    }
    /// A copy for another thread: its own splat and tile buffers from `s` (the copy shared
    /// the original's).
    void own_buffers(scratch& s) {
        if (splat)
            splat = s.make<T>(static_cast<std::size_t>(broadcast_block));
        if (staged) {
            staged = s.make<T>(static_cast<std::size_t>(tile_rows * tile_cols));
            base = staged;
        }
        if (gather)
            gather = s.make<T>(static_cast<std::size_t>(broadcast_block));
        if (repeat)
            repeat = s.make<T>(static_cast<std::size_t>(broadcast_block));
    }
    /// Tiled kernel: copies the tile of `rows` x `cols` elements starting at `offsets` into the
    /// tile buffer, rows `pitch` apart (reading `rows` neighbours per column).
    FUSOR_INLINE void stage(const index_t* offsets, index_t rows, index_t cols, index_t pitch) {
        if (staged)
            stage_tile(staged, source + offsets[operand], rows, cols, outer_stride, stride, pitch);
    }

    /// Broadcast kernel: point at elements [start, start + len) of the inner loop at `offsets`
    /// (unit stride), or at the splat buffer, refilled at the start of each inner loop with as
    /// many copies as its first block is long (no later block of that loop is longer; an inner
    /// loop of 4 elements fills 4, not `broadcast_block`).
    FUSOR_INLINE void bind_block(const index_t* offsets, index_t start, index_t len) {
        if (gather) {
            gather_block(gather, base + offsets[operand] + start * stride, stride, len);
            cur = gather;
        } else if (repeat) {
            if (outer_stride != 0) // a column (`start`: a whole number of rows into the loop)
                repeat_column(repeat,
                              base + offsets[operand] + start / period * outer_stride,
                              outer_stride,
                              period,
                              len);
            else if (start == 0)
                repeat_row(repeat, base + offsets[operand], period, len);
            cur = repeat;
        } else if (!splat) {
            cur = base + offsets[operand] + start;
        } else {
            if (start == 0)
                splat_fill(splat, base[offsets[operand]], len);
            cur = splat;
        }
    }
    template <bool Contiguous>
    FUSOR_INLINE T get(index_t i) const {
        if constexpr (Contiguous)
            return cur[i];
        else
            return cur[i * stride];
    }
#if FUSOR_MATH_IN_REGISTERS
    // The register form (in_registers_v): the block as bind_block leaves it, contiguous at
    // `cur` (the operand at unit stride, or its gather, splat or repeat buffer).
    static constexpr bool in_registers = detail::register_type<T>;
    FUSOR_INLINE void bind_registers(const index_t* offsets, index_t start, index_t len) {
#if FUSOR_STRIDE2_IN_REGISTERS
        if (stride2) {
            cur = base + offsets[operand] + 2 * start;
            return;
        }
#endif
        bind_block(offsets, start, len);
    }
    // `stride2`: each leaf reads every k-th element, k = 1 or 2, through the same instructions
    // (simd_isa::load_every): a branch on k here let g++ fuse a multiply and an add differently
    // from the blocked form (FMA contraction), and so give other bits. `rows`: a column (built
    // at stride 0 by flat_evaluator_builder) broadcasts its row's element.
    template <bool Partial, register_read Read = register_read::block, bool Twins = false>
    FUSOR_INLINE auto get_register(index_t i, index_t n, index_t run = 0) const {
#if FUSOR_STRIDE2_IN_REGISTERS
        if constexpr (Read == register_read::stride2) {
            const index_t k = 1 + index_t{stride2};
            if constexpr (Partial)
                return simd_isa::load_every(cur + k * i, k, n);
            else
                return simd_isa::load_every(cur + k * i, k);
        }
#endif
        if constexpr (Read == register_read::rows)
            if (stride == 0)
                return simd_isa::splat(cur[run * outer_stride]);
        if constexpr (Partial)
            return simd_isa::load_partial(cur + i, n);
        else
            return simd_isa::load(cur + i);
    }
    // Whether `o` reads the same registers as this leaf in every get_register form: the same
    // block, stride (a column's 0) and step.
    FUSOR_INLINE bool reads_as(const leaf_evaluator& o) const {
#if FUSOR_STRIDE2_IN_REGISTERS
        if (stride2 != o.stride2)
            return false;
#endif
        return cur == o.cur && stride == o.stride;
    }
#endif
};

/// A reshape of an expression: either the child read through the reshape's index map (its
/// leaves already carry it) or, when the reshape merges axes, the child's materialised copy.
/// Which one is known only at run time; the branch is loop-invariant.
template <class ChildEvaluator, class T>
struct reshape_evaluator {
    ChildEvaluator child;   // unused (default) when copied
    leaf_evaluator<T> copy; // the materialised copy (a temporary: the evaluation's cache owns it)
    bool copied;

    FUSOR_INLINE void bind(const index_t* offsets) {
        if (copied)
            copy.bind(offsets);
        else
            child.bind(offsets);
    }
    void own_buffers(scratch& s) {
        child.own_buffers(s);
        copy.own_buffers(s);
    }
    FUSOR_INLINE void stage(const index_t* offsets, index_t rows, index_t cols, index_t pitch) {
        if (copied)
            copy.stage(offsets, rows, cols, pitch);
        else
            child.stage(offsets, rows, cols, pitch);
    }

    FUSOR_INLINE void bind_block(const index_t* offsets, index_t start, index_t len) {
        if (copied)
            copy.bind_block(offsets, start, len);
        else
            child.bind_block(offsets, start, len);
    }
    template <bool Contiguous>
    FUSOR_INLINE T get(index_t i) const {
        if (copied)
            return copy.template get<Contiguous>(i);
        return static_cast<T>(child.template get<Contiguous>(i));
    }
};

/// A weak scalar: the same value at every index.
template <class T>
struct scalar_evaluator {
    T value;
    FUSOR_INLINE void bind(const index_t*) {}
    FUSOR_INLINE void advance(const index_t*) {}
    FUSOR_INLINE void bind_row(index_t) {}
    FUSOR_INLINE void bind_rows(index_t, index_t) {}
    void own_buffers(scratch&) {}
    FUSOR_INLINE void stage(const index_t*, index_t, index_t, index_t) {}

    FUSOR_INLINE void bind_block(const index_t*, index_t, index_t) {}
    template <bool Contiguous>
    FUSOR_INLINE T get(index_t) const {
        return value;
    }
#if FUSOR_MATH_IN_REGISTERS
    static constexpr bool in_registers = detail::register_type<T>;
    FUSOR_INLINE void bind_registers(const index_t*, index_t, index_t) {
    }
    template <bool Partial, register_read Read = register_read::block, bool Twins = false>
    FUSOR_INLINE auto get_register(index_t, index_t, index_t = 0) const {
        return simd_isa::splat(value);
    }
#endif
};

namespace detail {
// Two children of one leaf evaluator type, which may read the same operand (`x * x`): the
// register form loads it once when they do (leaf_evaluator::reads_as; registers_run).
template <class... Cs>
inline constexpr bool twin_candidates = false;
template <class T>
inline constexpr bool twin_candidates<leaf_evaluator<T>, leaf_evaluator<T>> =
    detail::register_type<T>;
// Whether evaluator `C` has twin candidates anywhere in it, and whether they all read alike.
template <class C>
constexpr bool holds_twins() {
    if constexpr (requires { C::has_twins; })
        return C::has_twins;
    else
        return false;
}
template <class C>
FUSOR_INLINE bool twins_alike_of(const C& c) {
    if constexpr (holds_twins<C>())
        return c.twins_alike();
    else
        return true;
}
} // namespace detail

/// The children of an element-wise evaluator: one slot each (core/child_slots.hpp).
template <class... Cs>
using evaluator_children = fusor::detail::child_slots<Cs...>;
using fusor::detail::slot_value;

/// `Op` over child evaluators.
template <class Op, class... Cs>
struct elementwise_evaluator {
    evaluator_children<Cs...> children;
    using value_type =
        typename Op::template result<decltype(std::declval<Cs>().template get<true>(0))...>;
    using indices = std::index_sequence_for<Cs...>;

    FUSOR_INLINE void bind(const index_t* offsets) {
        [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
            (slot_value<I>(children).bind(offsets), ...);
        }
        (indices{});
    }
    /// Every child moved on (leaf_evaluator::advance); only for children that have it (a
    /// detail::flat_leaf_count evaluator: leaves, scalars and element-wise nodes).
    FUSOR_INLINE void advance(const index_t* delta) {
        [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
            (slot_value<I>(children).advance(delta), ...);
        }
        (indices{});
    }
    FUSOR_INLINE void bind_row(index_t r) {
        [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
            (slot_value<I>(children).bind_row(r), ...);
        }
        (indices{});
    }
    FUSOR_INLINE void bind_rows(index_t r, index_t count) {
        [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
            (slot_value<I>(children).bind_rows(r, count), ...);
        }
        (indices{});
    }
    void own_buffers(scratch& s) {
        [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
            (slot_value<I>(children).own_buffers(s), ...);
        }
        (indices{});
    }
    FUSOR_INLINE void stage(const index_t* offsets, index_t rows, index_t cols, index_t pitch) {
        [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
            (slot_value<I>(children).stage(offsets, rows, cols, pitch), ...);
        }
        (indices{});
    }

    FUSOR_INLINE void bind_block(const index_t* offsets, index_t start, index_t len) {
        [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
            (slot_value<I>(children).bind_block(offsets, start, len), ...);
        }
        (indices{});
    }
    template <bool Contiguous>
    FUSOR_INLINE value_type get(index_t i) const {
        return [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
            return Op{}(slot_value<I>(children).template get<Contiguous>(i)...);
        }
        (indices{});
    }
#if FUSOR_MATH_IN_REGISTERS
    static constexpr bool in_registers = detail::register_operation_node<Op, value_type, Cs...>;
    FUSOR_INLINE void bind_registers(const index_t* offsets, index_t start, index_t len) {
        [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
            (slot_value<I>(children).bind_registers(offsets, start, len), ...);
        }
        (indices{});
    }
    // `Twins`: the loop runs where twins_alike() holds, so each pair of twin candidates (`x *
    // x`) loads one register (a load port per register is what such a loop is bound by, in
    // cache and out of it). A separate loop, not a branch per register: the branch let g++
    // contract multiplies and adds around it otherwise than in the other loops (FMA), so the
    // last bit differed.
    template <bool Partial, register_read Read = register_read::block, bool Twins = false>
    FUSOR_INLINE auto get_register(index_t i, index_t n, index_t run = 0) const {
        if constexpr (Twins && detail::twin_candidates<Cs...>) {
            const auto l = slot_value<0>(children).template get_register<Partial, Read>(i, n, run);
            return register_operation<Op>::apply(l, l);
        } else {
            return [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
                return register_operation<Op>::apply(
                    slot_value<I>(children).template get_register<Partial, Read, Twins>(
                        i, n, run)...);
            }
            (indices{});
        }
    }
    static constexpr bool has_twins =
        detail::twin_candidates<Cs...> || (detail::holds_twins<Cs>() || ...);
    // Every pair of twin candidates in this subtree reads alike (leaf_evaluator::reads_as).
    FUSOR_INLINE bool twins_alike() const {
        bool alike = true;
        if constexpr (detail::twin_candidates<Cs...>)
            alike = slot_value<0>(children).reads_as(slot_value<1>(children));
        return [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
            return (alike && ... && detail::twins_alike_of(slot_value<I>(children)));
        }
        (indices{});
    }
#endif
};

/// A unary math function with a vectorised form (vector_math.hpp), in the blocked kernels:
/// `bind_block` computes the child over the block into a buffer (one vectorised loop), then
/// the function over the buffer a register at a time; `get<true>` reads the buffer. The
/// strided kernel (`bind`, `get<false>`) calls the scalar function per element.
template <class Op, class C, class T>
struct vector_math_evaluator {
    C child;
    T* buffer; // broadcast_block + vector_padding elements, from the evaluation's scratch

    FUSOR_INLINE void bind(const index_t* offsets) { child.bind(offsets); }
    void own_buffers(scratch& s) {
        child.own_buffers(s);
        if (buffer) // none in registers
            buffer = s.make<T>(static_cast<std::size_t>(broadcast_block + vector_padding));
    }
    // A child that is a tensor of this element type (a leaf, or a temporary read like one)
    // holds the block's elements contiguously at `cur` once bound (at unit stride, or in its
    // gather, splat or repeat buffer): the function reads them there, with no copying pass
    // (W11 `exp(a) * sin(b)`: docs/performance.md). The same elements reach the same vector
    // function either way, so the bits do not change.
    static constexpr bool reads_child_block = std::is_base_of_v<leaf_evaluator<T>, C>;

    FUSOR_INLINE void bind_block(const index_t* offsets, index_t start, index_t len) {
        child.bind_block(offsets, start, len);
        T* const b = buffer;
        if constexpr (reads_child_block) {
            vector_function<Op, T>::apply_from(child.cur, b, len);
        } else {
            // The buffer is this evaluation's own scratch: nothing the child reads.
            FUSOR_IVDEP
            for (index_t i = 0; i < len; ++i)
                b[i] = static_cast<T>(child.template get<true>(i));
            vector_function<Op, T>::apply(b, len);
        }
    }
    /// The block computed straight into `dst` (`len` elements at unit stride, nothing written
    /// past them): when this function is the root of a loop over its own element type, the
    /// destination is the buffer, and the pass copying the buffer out is saved.
    FUSOR_INLINE void block_into(T* dst, const index_t* offsets, index_t start, index_t len) {
        child.bind_block(offsets, start, len);
        if constexpr (reads_child_block) {
            vector_function<Op, T>::apply_from(child.cur, dst, len);
        } else {
            FUSOR_IVDEP
            for (index_t i = 0; i < len; ++i)
                dst[i] = static_cast<T>(child.template get<true>(i));
            vector_function<Op, T>::apply_exact(dst, len);
        }
    }
    template <bool Contiguous>
    FUSOR_INLINE T get(index_t i) const {
        if constexpr (Contiguous)
            return buffer[static_cast<std::size_t>(i)];
        else
            return Op{}(child.template get<false>(i));
    }
#if FUSOR_MATH_IN_REGISTERS
    // The register form: the function on the register its argument computes (no buffer).
    static constexpr bool in_registers = detail::register_child<C, T>;
    FUSOR_INLINE void bind_registers(const index_t* offsets, index_t start, index_t len) {
        child.bind_registers(offsets, start, len);
    }
    // A flat plan's row `r` (exec::execute_flat's rows in registers).
    FUSOR_INLINE void bind_row(index_t r) {
        child.bind_row(r);
    }
    template <bool Partial, register_read Read = register_read::block, bool Twins = false>
    FUSOR_INLINE auto get_register(index_t i, index_t n, index_t run = 0) const {
        return vector_function<Op, T>::compute(
            child.template get_register<Partial, Read, Twins>(i, n, run));
    }
    static constexpr bool has_twins = detail::holds_twins<C>();
    FUSOR_INLINE bool twins_alike() const {
        return detail::twins_alike_of(child);
    }
#endif
};

/// True when a blocked loop writing elements of type `D` can compute each block of evaluator
/// `Ev` a register at a time (the plan's `math_in_registers`): `Ev` has the register form and
/// computes elements of type `D`.
template <class D, class Ev>
inline constexpr bool computes_in_registers = detail::register_child<Ev, D>;

/// True when a blocked loop writing elements of type `D` can let evaluator `Ev` compute each
/// block in the destination (vector_math_evaluator::block_into).
template <class D, class Ev>
inline constexpr bool computes_into_destination = false;
template <class Op, class C, class T>
inline constexpr bool computes_into_destination<T, vector_math_evaluator<Op, C, T>> = true;

/// The right side of an aliased assignment, already computed (`result`: the plan's only
/// boundary, exec::execute_alias_copy), for the copy loop the planner made of it: built, it
/// reads that temporary. A template of the element type only, so the copy loop and its builder
/// are compiled once per pair of element types; a node holding the right side itself (as this
/// one did until 2026-11-29) made the builder compute it, 1.8 KB of code per right-hand side.
template <class T>
struct computed {
    std::shared_ptr<const tensor<T>> result;
    static constexpr node_tag tag = node_tag::materialised;
};

/// The temporaries of one evaluation, by number, so that a boundary the plan marks `reused`
/// reads the result computed for the first one (the planner numbers equal loops alike). Up to
/// four are listed in place: a softmax's two reductions allocate no list (a `std::vector`
/// grown one entry at a time cost two allocations there).
struct temporary_cache {
    boost::container::small_vector<std::pair<int, std::shared_ptr<const void>>, 4> entries;

    std::shared_ptr<const void> find(int temporary) const {
        for (const auto& [n, t] : entries)
            if (n == temporary)
                return t;
        return nullptr;
    }
};

// Computes a reduction node into `t`, a fresh tensor of its shape, with the plan made for it
// (execute.hpp).
template <class R, class C>
void evaluate_reduction(const reduction<R, C>& r,
                        const loop_plan& p,
                        tensor<typename reduction<R, C>::value_type>& t,
                        temporary_cache& cache);

// Computes an element-wise node into `t`, a fresh contiguous tensor of its shape, with its plan
// (execute.hpp).
template <class E>
void evaluate_elementwise(const E& e,
                          const loop_plan& p,
                          tensor<typename E::value_type>& t,
                          temporary_cache& cache);

// boundary_result's part that does not depend on the node: a tensor of `shape`, made in its
// shared owner (computed there: a tensor computed first and moved in moved its shape and
// strides, ~120 instructions a boundary) or, when small, taken from this thread's pool
// (exec/temporary_pool.hpp), and listed in `cache` as temporary number `temporary`.
// A template of the element type only, so its code (the shared owner, the list's growth) is
// compiled once per element type, not once per node type.
template <class T>
std::shared_ptr<tensor<T>>
new_temporary(const shape_t& shape, int temporary, temporary_cache& cache) {
    auto t = pooled_temporary<T>(shape); // a small one from the last evaluation on this thread
    cache.entries.emplace_back(temporary, t);
    return t;
}

/// The temporary of boundary `b`, which computes node `n`: the one an equal boundary computed
/// earlier in this evaluation (`b.reused`), else `n` computed now with the boundary's plan and
/// kept in `cache` for the boundaries after it.
template <class N>
std::shared_ptr<const tensor<typename N::value_type>>
boundary_result(const N& n, const boundary_plan& b, temporary_cache& cache) {
    using T = typename N::value_type;
    if (b.reused)
        return std::static_pointer_cast<const tensor<T>>(cache.find(b.temporary));
    // Listed before it is computed: an evaluation that throws discards the whole cache.
    std::shared_ptr<tensor<T>> t = new_temporary<T>(n.shape(), b.temporary, cache);
    if constexpr (tag_of<N> == node_tag::reduction)
        evaluate_reduction(n, *b.plan, *t, cache);
    else
        evaluate_elementwise(n, *b.plan, *t, cache);
    return t;
}

/// Builds the evaluator of a flat tree's node (planning::flat_tree) for a flat plan's inline
/// loop (flat_plan): every leaf at unit stride from its first element, moving by `cols` per
/// row, or not at all when the plan says it is a row (`still`, by depth-first leaf ordinal).
/// Needs no loop_plan: a flat plan's operands have no offsets. `RegisterMath`: a math function
/// with a vectorised form is a vector_math_evaluator without a block buffer, which only the
/// register form reads (the flat case's math in registers, planning::plan_flat_math); otherwise
/// it is computed an element at a time, as every other node.
template <bool RegisterMath = false>
struct basic_flat_evaluator_builder {
    std::uint64_t still;
    index_t cols;
    int next_leaf = 0;
    scratch* repeats = nullptr; ///< the collapsed kernel's: a block buffer per row or column
    std::uint64_t column = 0;   ///< flat_plan::column: leaves of one element per row
    scratch* splats = nullptr;  ///< a row-long splat buffer for each column leaf
    index_t splat_rows = 1;     ///< rows bound at once (bind_rows); a column's splat holds all
    /// flat_plan::rows_in_registers: a column leaf is read at stride 0, its row's element
    /// broadcast by get_register<..., register_read::rows>, with no splat buffer.
    bool broadcast_columns = false;

    template <class N>
    FUSOR_FORWARD auto build(const N& n) {
        return traverse(n, *this);
    }
    template <class N>
    FUSOR_INLINE auto on_leaf(const N& n) {
        using T = typename N::value_type;
        const int j = next_leaf++;
        const bool row = (still >> j) & 1;
        // Built whole: set field by field and then copied, g++ reloaded it as one 64-byte
        // vector over the narrower stores (a store-forwarding stall: sum(a * b).item() at 4
        // elements 40 -> 58 ns).
        auto e = leaf_evaluator<T>{n.data, 1, 0, n.data, nullptr, nullptr, nullptr, row ? 0 : cols};
        if (repeats && row) {
            e.repeat = repeats->make<T>(static_cast<std::size_t>(collapse_block(cols)));
            e.period = cols;
        }
        if (repeats && ((column >> j) & 1)) { // its element per row, repeated over the row
            e.repeat = repeats->make<T>(static_cast<std::size_t>(collapse_block(cols)));
            e.period = cols;
            e.outer_stride = 1;
        }
        if (splats && ((column >> j) & 1)) {
            e.splat = splats->make<T>(static_cast<std::size_t>(cols * splat_rows));
            e.period = cols;
            e.outer_stride = 1;
        }
        if (broadcast_columns && ((column >> j) & 1)) {
            e.stride = 0;
            e.outer_stride = 1;
        }
        return e;
    }
    template <class N>
    FUSOR_INLINE auto on_scalar(const N& n) {
        return scalar_evaluator<typename N::value_type>{n.value};
    }
    template <class N>
    FUSOR_INLINE auto on_elementwise(const N& n) {
        using Op = typename N::op_type;
        using T = typename N::value_type;
        if constexpr (RegisterMath && vector_function<Op, T>::available) {
            using C = decltype(traverse(child<0>(n), *this));
            return vector_math_evaluator<Op, C, T>{traverse(child<0>(n), *this), nullptr};
        } else {
            // A braced list evaluates left to right: leaves get their ordinals depth-first.
            return [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
                using E = elementwise_evaluator<typename N::op_type,
                                                decltype(traverse(child<I>(n), *this))...>;
                return E{evaluator_children<decltype(traverse(child<I>(n), *this))...>{
                    {traverse(child<I>(n), *this)}...}};
            }
            (std::make_index_sequence<child_count<N>>{});
        }
    }
};
using flat_evaluator_builder = basic_flat_evaluator_builder<false>;

/// Walks node and plan together: operand k of the plan is the k-th leaf met depth-first.
/// `Blocked`: build for the blocked kernels, with a vector_math_evaluator for each unary math
/// function that has a vectorised form.
template <bool Blocked = false>
struct evaluator_builder {
    const loop_plan* plan;
    temporary_cache& cache;
    scratch& buffers;             ///< where splat, tile and vector-math buffers come from
    std::size_t next_operand = 1; // operand 0 is the destination
    std::size_t next_boundary = 0;

    index_t inner_stride(std::size_t k) const {
        return plan->extents.empty() ? 0 : plan->stride(k, plan->extents.size() - 1);
    }

    // A tensor operand's evaluator; under the broadcast kernel a still one gets its splat,
    // under the tiled kernel one off unit stride its tile buffer, in a strided loop's blocks
    // a still one its splat and one off unit stride its gather buffer. Inline: as a call per
    // leaf, returning a dozen words by value, it cost a softmax over (8, 16) 234 instructions
    // per evaluation (of 10,547).
    template <class E>
    FUSOR_INLINE E with_splat(E e) const {
        using T = std::remove_pointer_t<decltype(e.splat)>;
        // Rows a register at a time (loop_plan::rows_in_registers) broadcast a still operand's
        // element into a register: no splat buffer.
        if (plan->kernel == inner_kernel::broadcast && e.stride == 0 && !plan->rows_in_registers)
            e.splat = buffers.make<T>(static_cast<std::size_t>(broadcast_block));
        if (plan->kernel == inner_kernel::collapsed) {
            // Still operands splatted; row operands (0 one level out) and column operands (0 in
            // the row, moving one level out) repeated to the block.
            const std::size_t L = plan->extents.size();
            const index_t outer = plan->operands[e.operand].strides[L - 2];
            if (e.stride == 0 && outer == 0) {
                e.splat = buffers.make<T>(static_cast<std::size_t>(broadcast_block));
            } else if (e.stride == 0 || outer == 0) {
                e.repeat = buffers.make<T>(static_cast<std::size_t>(broadcast_block));
                e.period = plan->extents[L - 1];
                e.outer_stride = e.stride == 0 ? outer : 0;
            }
        }
        if constexpr (Blocked) {
            // A strided loop's blocks (math through SLEEF): still operands splatted, the rest
            // off unit stride gathered.
            if (plan->kernel == inner_kernel::strided && e.stride == 0)
                e.splat = buffers.make<T>(static_cast<std::size_t>(broadcast_block));
            else if (plan->kernel == inner_kernel::strided && e.stride != 1)
                e.gather = buffers.make<T>(static_cast<std::size_t>(broadcast_block));
#if FUSOR_STRIDE2_IN_REGISTERS
            // (The buffer stays: the blocked form, which the evaluator also compiles, reads it.)
            e.stride2 = e.gather && plan->stride2_in_registers;
#endif
        }
        if (plan->kernel == inner_kernel::tiled && e.stride != 1) {
            e.staged = buffers.make<T>(static_cast<std::size_t>(tile_rows * tile_cols));
            e.source = e.base;
            e.base = e.staged;
            e.outer_stride = plan->operands[e.operand].strides[plan->extents.size() - 2];
        }
        return e;
    }

    // The next boundary of the plan: `n` computed into its temporary (or the temporary of an
    // equal boundary computed earlier in this evaluation), read as the next operand.
    template <class N>
    auto temporary_for(const N& n) {
        return read_temporary(boundary_result(n, plan->boundaries[next_boundary], cache));
    }

    // The next boundary's temporary `t`, computed already, read as the next operand: a leaf's
    // evaluator over it. It owns nothing: `cache` lists every boundary's temporary for the whole
    // evaluation (new_temporary), and a `computed` node's result is its node's. So a temporary
    // reads as a tensor does, and an evaluator over temporaries is trivially copyable: the
    // register form's loop takes it by value (registers_call), and the planner treats a
    // hoisted child as a leaf of the register form (planning::register_form).
    template <class T>
    auto read_temporary(const std::shared_ptr<const tensor<T>>& t) {
        const std::size_t k = next_operand++;
        ++next_boundary;
        const T* base = t->data() + plan->operands[k].offset;
        return with_splat(leaf_evaluator<T>{base, inner_stride(k), k});
    }

    template <class N>
    FUSOR_FORWARD auto build(const N& n) {
        return traverse(n, *this);
    }
    template <class N>
    auto on_leaf(const N& n) {
        const std::size_t k = next_operand++;
        using T = typename N::value_type;
        return with_splat(leaf_evaluator<T>{n.data + plan->offset(k), inner_stride(k), k});
    }
    template <class N>
    auto on_scalar(const N& n) {
        ++next_operand;
        return scalar_evaluator<typename N::value_type>{n.value};
    }
    template <class T>
    auto on_materialised(const computed<T>& n) {
        return read_temporary(n.result);
    }
    template <class N>
    auto on_reshaped(const N& n) {
        using T = typename N::value_type;
        using child_evaluator = decltype(build(n.child));
        if (n.split) // the reshape is already in the leaves' strides
            return reshape_evaluator<child_evaluator, T>{build(n.child), {}, false};
        return reshape_evaluator<child_evaluator, T>{
            child_evaluator{}, temporary_for(n.child), true};
    }
    template <class N>
    auto on_remap(const N& n) {
        return build(n.child); // the view is already in the leaves' strides
    }
    template <class N>
    auto on_reduction(const N& n) {
        return temporary_for(n);
    }
    // A child of an element-wise node: its evaluator, or, when the planner hoisted it
    // (plan/hoisting.hpp: the same type-level decision), the temporary it was computed into.
    template <class N, class C>
    auto build_child(const C& c) {
        if constexpr (planning::hoisted<N, C>)
            return temporary_for(c);
        else
            return build(c);
    }
    template <class N>
    auto on_elementwise(const N& n) {
        // A braced list evaluates left to right, so children claim operands in plan order
        // (hana::transform would leave the order to the compiler).
        using Op = typename N::op_type;
        using T = typename N::value_type;
        if constexpr (Blocked && vector_function<Op, T>::available) {
            using child_evaluator = decltype(this->template build_child<N>(child<0>(n)));
            // In registers (loop_plan::math_in_registers) the function reads its argument's
            // register, never a block buffer: none made.
            return vector_math_evaluator<Op, child_evaluator, T>{
                this->template build_child<N>(child<0>(n)),
                plan->math_in_registers
                    ? nullptr
                    : buffers.make<T>(static_cast<std::size_t>(broadcast_block + vector_padding))};
        } else {
            return [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
                using E =
                    elementwise_evaluator<Op,
                                          decltype(this->template build_child<N>(child<I>(n)))...>;
                return E{
                    evaluator_children<decltype(this->template build_child<N>(child<I>(n)))...>{
                        {this->template build_child<N>(child<I>(n))}...}};
            }
            (std::make_index_sequence<child_count<N>>{});
        }
    }
};

} // namespace fusor::exec
