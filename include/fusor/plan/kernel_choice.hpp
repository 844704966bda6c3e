// fusor/plan/kernel_choice.hpp: the strategy switch. After loop order and coalescing
// (coalesce.hpp) have classified the innermost loop's layout (contiguous, broadcast, tiled,
// strided), these functions make the remaining kernel decisions, each with its reason, and
// store them in the plan: exec/ runs exactly what they say and explain/ prints it. Nothing else
// in fusor decides a kernel.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/traverse.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/expr/reshaped.hpp>
#include <fusor/ops/vector_forms.hpp>
#include <fusor/plan/coalesce.hpp>
#include <fusor/plan/hoisting.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/reduce/reducers.hpp>
#include <fusor/reduce/reduction.hpp>

namespace fusor {
/// True when node `N` calls, outside any reduction or materialised boundary (a hoisted child
/// is one: plan/hoisting.hpp), a math function with a vectorised form: only then is a blocked
/// evaluator worth instantiating.
template <class N>
inline constexpr bool has_vector_math = false;
template <class Op, class... Cs>
inline constexpr bool has_vector_math<elementwise<Op, Cs...>> =
    has_vector_form<
        Op,
        typename elementwise<Op, Cs...>::
            value_type> || ((has_vector_math<Cs> && !planning::hoisted<elementwise<Op, Cs...>, Cs>) || ...);
template <class C>
inline constexpr bool has_vector_math<remap<C>> = has_vector_math<C>;
template <class C>
inline constexpr bool has_vector_math<reshaped<C>> = has_vector_math<C>;

/// True when node `N` calls, outside any reduction or hoisted child, a float math function of
/// the SLEEF list, whether or not this build has SLEEF (explain says what a build without it
/// misses).
template <class N>
inline constexpr bool has_listed_math = false;
template <class Op, class... Cs>
inline constexpr bool has_listed_math<elementwise<Op, Cs...>> =
    (detail::listed_vector_function<Op>::value
     && std::is_floating_point_v<typename elementwise<Op, Cs...>::value_type>)
    || ((has_listed_math<Cs> && !planning::hoisted<elementwise<Op, Cs...>, Cs>) || ...);
template <class C>
inline constexpr bool has_listed_math<remap<C>> = has_listed_math<C>;
template <class C>
inline constexpr bool has_listed_math<reshaped<C>> = has_listed_math<C>;

/// The names of the functions with a vectorised form that the loop computing `n` calls itself
/// (not those inside a reduction, or inside a reshape that is copied first: other loops run
/// them), depth-first, each once.
namespace detail {
// The walk of vector_functions_of.
struct vector_function_finder {
    boost::container::small_vector<std::string_view, 4>& out;
    template <class N>
    void on_elementwise(const N& n) {
        using Op = typename N::op_type;
        if constexpr (has_vector_form<Op, typename N::value_type>) {
            bool seen = false;
            for (std::string_view f : out)
                seen = seen || f == Op::name;
            if (!seen)
                out.push_back(Op::name);
        }
        for_each_child(n, [this](const auto& c) FUSOR_FORWARD_LAMBDA {
            if constexpr (!planning::hoisted<N, std::remove_cvref_t<decltype(c)>>)
                traverse(c, *this);
        });
    }
    template <class N>
    void on_remap(const N& n) {
        traverse(n.child, *this);
    }
    template <class N>
    void on_reshaped(const N& n) {
        if (n.split)
            traverse(n.child, *this);
    }
    template <class N>
    void on_leaf(const N&) {}
    template <class N>
    void on_scalar(const N&) {}
    template <class N>
    void on_reduction(const N&) {}
};
} // namespace detail

/// The names of the functions with a vectorised form that the loop computing `n` calls itself
/// (not those inside a reduction, a hoisted child, or a reshape that is copied first: other
/// loops run them), depth-first, each once.
template <class N>
void vector_functions_of(const N& n, boost::container::small_vector<std::string_view, 4>& out) {
    traverse(n, detail::vector_function_finder{out});
}

namespace planning {

/// Node types made of element-wise operations over leaves and scalars only (no view of an
/// expression, reshape or reduction): what the flat plan and the held operand take.
template <class N>
inline constexpr bool flat_tree = tag_of<N> == node_tag::leaf || tag_of<N> == node_tag::scalar;
template <class Op, class... Cs>
inline constexpr bool flat_tree<elementwise<Op, Cs...>> = (flat_tree<Cs> && ...);

/// Tensor leaves of a `flat_tree` node type, depth-first: the held operand's candidates.
template <class N>
inline constexpr int tensor_leaves = tag_of<N> == node_tag::leaf ? 1 : 0;
template <class Op, class... Cs>
inline constexpr int tensor_leaves<elementwise<Op, Cs...>> = (0 + ... + tensor_leaves<Cs>);

/// Rows per pass of the jammed-rows kernel over a child of node type `N` (`sum(x, 0)`'s
/// [reduced, kept] nest): as many as keep the loop's row streams near eight, the tensor leaves
/// times the rows, which the hardware prefetchers follow. Eight rows of one operand read the row
/// of accumulators a quarter as often as two (sum(a, 0) over (4096, 4096) float32: 3.3 -> 2.2
/// ms, the accumulators' 32 KiB of doubles no longer fit beside the rows in L1); four rows of
/// two (4.9 -> 4.5 ms); three operands or more take two (eight rows of three: 6.6 -> 7.9 ms),
/// as does any child that is not a flat tree. A property of the type, so the executor compiles
/// the kernel for this one count.
template <class N>
constexpr index_t count_jammed_rows() {
    if constexpr (flat_tree<N>) {
        constexpr int n = tensor_leaves<N>;
        return n == 1 ? 8 : n == 2 ? 4 : 2;
    } else {
        return 2;
    }
}
template <class N>
inline constexpr index_t jammed_rows_for = count_jammed_rows<N>();

/// The jammed-rows kernel of `rows` rows per pass (2, 4 or 8).
constexpr reduce_kernel jammed_rows_kernel(index_t rows) {
    return rows == 8   ? reduce_kernel::eight_rows
           : rows == 4 ? reduce_kernel::four_rows
                       : reduce_kernel::two_rows;
}

/// How many tensor leaves the held operand may be chosen from in a loop over node type `N`:
/// its tensor leaves when `N` is a flat tree of 1 to single_element_max_leaves of them, else 0
/// (no held operand). The one statement of that condition: the planner decides by it and the
/// executor compiles one held kernel per candidate by it.
template <class N>
constexpr int count_held_candidates() {
    if constexpr (flat_tree<N>) {
        constexpr int n = tensor_leaves<N>;
        return n >= 1 && n <= single_element_max_leaves ? n : 0;
    } else {
        return 0;
    }
}
template <class N>
inline constexpr int held_candidates = count_held_candidates<N>();

/// Reducers that keep the greater or the lesser element: max, min, argmax, argmin (`order`),
/// nanmax and nanmin (`nan_ignoring_order`).
// (Unformatted: clang-format 14 splits a concept's requires-expressions across lines.)
// clang-format off
template <class Impl>
concept extreme_reducer = requires { Impl::order; } || requires { Impl::nan_ignoring_order; };
// clang-format on

/// For an extreme_reducer: true when it keeps the greater element (max, argmax, nanmax), false
/// for the lesser (min, argmin, nanmin).
template <extreme_reducer Impl>
inline constexpr bool keeps_greater = [] {
    if constexpr (requires { Impl::nan_ignoring_order; })
        return Impl::nan_ignoring_order > 0;
    else
        return Impl::order > 0;
}();

// clang-format off

/// True when `Impl` is an extreme_reducer over a 4- or 8-byte arithmetic element type: the types
/// the SIMD max/min kernel (exec/minmax_kernel.hpp) takes.
template <class Impl, class T>
concept vector_minmax = extreme_reducer<Impl> && std::is_arithmetic_v<T>
                        && !std::is_same_v<T, bool> && (sizeof(T) == 4 || sizeof(T) == 8);
// clang-format on

/// Reducers whose reduction of one term is that term in the result type
/// (`R::one_term_is_result`: reducers::contract): over no axis they run
/// `reduce_kernel::single_term`: the element-wise loop of their terms.
template <class R>
concept one_term_reducer = requires {
    requires R::one_term_is_result;
};

/// Additive reducers accumulate their register path pairwise (or compensated, for float64).
template <class Impl>
concept pairwise_reducer = requires {
    requires Impl::pairwise;
};

/// Arg-reductions whose kept value and index can live in two rows (reduce_kernel::arg_rows):
/// argmax and argmin, whose candidate replaces the kept pair by `Impl::wins`.
template <class Impl>
concept arg_rows_reducer = requires {
    requires Impl::needs_index;
    Impl::wins(Impl::identity().best, Impl::identity().best);
};

/// Rows per pass of the arg-rows kernel of an arg_rows_reducer `Impl` over a child of node type
/// `N`: eight rows of a tensor or view (a leaf) whose values have four or eight bytes, read in
/// registers where they are, beside row numbers of their width (arg_eight_rows); otherwise a
/// row per pass (arg_rows): row numbers of one or two bytes would not fit lanes of their width,
/// and an expression's rows, evaluated into buffers first, ran slower than a row at a time on
/// one thread (argmax(a - b, 0) over (4096, 4096) float32: 7.2 against 6.0 ms). A property of
/// the types: the executor compiles the one count.
template <class Impl, class N>
constexpr index_t count_arg_rows() {
    constexpr std::size_t bytes = sizeof(Impl::identity().best);
    return (bytes == 4 || bytes == 8) && tag_of<N> == node_tag::leaf ? 8 : 1;
}
template <class Impl, class N>
inline constexpr index_t arg_rows_for = count_arg_rows<Impl, N>();

/// The arg-rows kernel of `rows` rows per pass (1 or 8).
constexpr reduce_kernel arg_rows_kernel(index_t rows) {
    return rows == 8 ? reduce_kernel::arg_eight_rows : reduce_kernel::arg_rows;
}

/// Whether the jammed-rows loop `p` ([reduced, kept], two levels) of reducer `Impl` over a
/// child of type `C` keeps its accumulators in registers, two rows per pass: a sum, mean or
/// norm (pairwise_reducer) whose kept rows have at most 8 columns, or at most
/// two_rows_register_columns (16 on AVX, 32 on AVX-512) when the child is element-wise over
/// tensors and scalars without vectorised math (its evaluators are bound once and moved on a
/// pass at a time). Exec: jammed_rows_block.
template <class Impl, class C>
bool jammed_rows_in_registers(const loop_plan& p) {
    if constexpr (pairwise_reducer<Impl>) {
        constexpr index_t most =
            flat_tree<C> && !has_vector_math<C> ? two_rows_register_columns : 8;
        return p.extents.size() == 2 && p.extents[1] <= most;
    } else {
        return false;
    }
}

/// Whether a flat reduction (planning::is_flat_reduction) of `Impl` over a child of type `C`
/// may read columns (leaves of one element per run, splatted per run, as the general walk's
/// blocked sums splat them): an additive reducer (its runs summed alone, in the order the
/// blocked sums take) over at least two tensors (a column needs a tensor of the operand's shape
/// beside it).
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class Impl, class C>
inline constexpr bool flat_columns_reducer = pairwise_reducer<Impl> && tensor_leaves<C> >= 2;

/// A sum whose terms call a vectorised math function (exp, log ... through SLEEF): its register
/// accumulators run in blocked_reduction whenever there is a run to sum, so neither the flat
/// reduction nor the scalar-math loops of several runs per pass or runs by blocks are compiled
/// for it (plan/make_plan.hpp's flat_reduction_candidate, exec/execute.hpp's execute_reduction).
template <class Impl, class C>
inline constexpr bool vector_math_sum = pairwise_reducer<Impl> && has_vector_math<C>;
// clang-format on

/// The reduction node types a flat reduction (planning::is_flat_reduction) can take: over a
/// flat tree, and for sums one that calls no math function with a vectorised form (the general
/// plan computes exp, log ... through SLEEF). Callers test it with `if constexpr`, so no other
/// type compiles the flat reduction's check or its loop (plan/make_plan.hpp, exec/execute.hpp).
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class N>
inline constexpr bool flat_reduction_candidate = false;
template <class R, class C>
inline constexpr bool flat_reduction_candidate<reduction<R, C>> =
    flat_tree<C> && !vector_math_sum<typename reduction<R, C>::impl, C>;
// clang-format on

/// Reducers whose accumulator is a (maximum, sum of exp(x - maximum)) pair (logsumexp): a run
/// of `rescaled_min_row` elements or more takes its register path in blocks
/// (reduce_kernel::rescaled_blocks, exec/rescaled_blocks.hpp).
template <class Impl>
concept rescaled_reducer = requires {
    requires Impl::rescaled_blocks;
};

/// True when node `N` computes elements of type `T` in the register form of a blocked loop
/// (exec/evaluator.hpp, in_registers_v): a tensor or scalar of type `T`, or an element-wise
/// node of type `T` over such nodes that is `+ - * /`, unary `-` (register_arithmetic) or a
/// function with a vectorised form. A node the loop reads as a temporary counts as a tensor:
/// a reduction inside the expression (softmax's `max(x, 1, keepdims)`), a hoisted child
/// (plan/hoisting.hpp) and an aliased assignment's copy (`materialised`) are read through a
/// leaf's evaluator over the temporary they were computed into (exec/evaluator.hpp,
/// evaluator_builder::read_temporary).
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class N, class T>
inline constexpr bool register_form =
    (tag_of<N> == node_tag::leaf || tag_of<N> == node_tag::scalar
     || tag_of<N> == node_tag::reduction || tag_of<N> == node_tag::materialised)
    && std::is_same_v<typename N::value_type, T>;
template <class T, class Op, class... Cs>
inline constexpr bool register_form<elementwise<Op, Cs...>, T> =
    std::is_same_v<typename elementwise<Op, Cs...>::value_type, T>
    && (register_arithmetic<Op> || (has_vector_form<Op, T> && sizeof...(Cs) == 1))
    && ((planning::hoisted<elementwise<Op, Cs...>, Cs> ? std::is_same_v<typename Cs::value_type, T>
                                                       : register_form<Cs, T>) && ...);
// clang-format on

/// True when node `N` multiplies (`*`, `square`) somewhere and adds or subtracts somewhere: on an
/// FMA target the compiler may fuse the two (FUSOR_FMA_TARGET), and how it fuses them depends on
/// the loop around them, so two loops may round such an expression differently. (Conservative:
/// the product need not feed the sum.)
template <class N>
inline constexpr bool multiplies = false;
template <class Op, class... Cs>
inline constexpr bool multiplies<elementwise<Op, Cs...>> =
    std::is_same_v<Op, ops::multiply> || std::is_same_v<Op, ops::square> || (multiplies<Cs> || ...);
template <class N>
inline constexpr bool adds = false;
template <class Op, class... Cs>
inline constexpr bool adds<elementwise<Op, Cs...>> =
    std::is_same_v<Op, ops::add> || std::is_same_v<Op, ops::subtract> || (adds<Cs> || ...);
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class N>
inline constexpr bool contractible = FUSOR_FMA_TARGET && multiplies<N> && adds<N>;
// clang-format on

/// True when node `N` has the shape of a fused multiply-add somewhere: an add or subtract with
/// a product (`*`, `square`, either negated) as an operand (`c - a * b`, `-(a * b) + c`). The
/// precise form of `contractible`, for the one loop that needs it: `(x - m) * (x - m)`
/// multiplies and subtracts, but no product feeds a sum, so no compiler can fuse one.
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class N>
inline constexpr bool product_node = false;
template <class Op, class... Cs>
inline constexpr bool product_node<elementwise<Op, Cs...>> =
    std::is_same_v<Op, ops::multiply> || std::is_same_v<Op, ops::square>
    || (std::is_same_v<Op, ops::negate> && (product_node<Cs> || ...));
template <class N>
inline constexpr bool multiply_add_shaped = false;
template <class Op, class... Cs>
inline constexpr bool multiply_add_shaped<elementwise<Op, Cs...>> =
    ((std::is_same_v<Op, ops::add> || std::is_same_v<Op, ops::subtract>)
     && (product_node<Cs> || ...))
    || (multiply_add_shaped<Cs> || ...);
// clang-format on

/// What the element-wise decisions need to know of an expression's type, as data: one constant
/// per node type (elementwise_facts_of), so that choose_elementwise_kernel and
/// choose_math_in_registers are compiled once, not once per expression type
/// (docs/performance.md, "The element-wise planner's decisions compiled once").
struct elementwise_facts {
    using function_names = boost::container::small_vector<std::string_view, 4>;
    std::string_view dtype; ///< the node's element type (NumPy name)
    index_t itemsize = 0;
    bool vector_math = false;        ///< has_vector_math
    bool scalar_math = false;        ///< a listed float function, in a build without SLEEF
    bool held_candidates = false;    ///< 0 < held_candidates: a flat tree of few enough leaves
    bool register_candidate = false; ///< vector math, every node in the register form
    bool contractible = false;       ///< planning::contractible
    /// vector_functions_of the expression (`e` points at it), when `vector_math`.
    void (*vector_functions)(const void* e, function_names& out) = nullptr;
};

// elementwise_facts::vector_functions for node type `E`.
template <class E>
void vector_functions_erased(const void* e, elementwise_facts::function_names& out) {
    vector_functions_of(*static_cast<const E*>(e), out);
}
// Instantiated only for the node types that call vector functions.
template <class E>
constexpr auto vector_functions_pointer() {
    using pointer = decltype(elementwise_facts::vector_functions);
    if constexpr (has_vector_math<E>)
        return pointer{&vector_functions_erased<E>};
    else
        return pointer{nullptr};
}

/// The elementwise_facts of node type `E`.
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class E>
inline constexpr elementwise_facts elementwise_facts_of = {
    dtype_name<typename E::value_type>(),
    static_cast<index_t>(sizeof(typename E::value_type)),
    has_vector_math<E>,
    FUSOR_VECTOR_MATH == 0 && has_listed_math<E>,
    0 < held_candidates<E>,
    has_vector_math<E> && register_form<E, typename E::value_type>,
    contractible<E>,
    vector_functions_pointer<E>()};
// clang-format on

/// The element-wise decisions for a loop computing `e` (`p.kernel` already classified; `facts`:
/// elementwise_facts_of `e`'s type):
///  - vector math: a contiguous or broadcast loop that calls functions with a vectorised form
///    runs them through SLEEF over blocks (a strided or tiled loop calls the C library per
///    element; an aliasing copy computes nothing);
///  - held operand: a broadcast loop over a flat tree with at most `single_element_max_leaves`
///    tensors, exactly one of them standing still in the inner loop, and no vector math keeps
///    that one in a register and runs the plain contiguous loop (measured on W5: the splat
///    buffer's extra load stream cost 10-30 % of a store-bound loop), unless the plan is the
///    flat-rows case's (`p.flat_rows`, set before the walk), whose loop splats its columns.
FUSOR_DECL void
choose_elementwise_kernel(loop_plan& p, const elementwise_facts& facts, const void* e);

/// The kernel of a copy loop (`p.alias_copy`: an aliasing copy, or a root computed over its own
/// shape and broadcast into a larger destination, planning::plan_alias_copy), which reads one
/// temporary: held in a register when it stands still in the inner loop under the broadcast
/// kernel, as the held operand of choose_elementwise_kernel. The broadcast kernel splatted it into
/// a buffer per row and then copied the buffer: `view(out, all) = sum(x * x, 1, keepdims)`, x and
/// out (4096, 1024) float32, one thread, took 1.07-1.65 ms so and 0.78-0.80 held (the same in two
/// statements, the sums into a tensor and then the copy: 0.78).
FUSOR_DECL void choose_copy_kernel(loop_plan& p);

/// Test hook: when false, the planner never chooses math_in_registers, rows_in_registers nor
/// reduce_kernel::pairwise_simd nor pairwise_rows_simd, so tests can compare the register forms'
/// results with the blocked form's and the plain loops', bit for bit. Not for production use.
inline thread_local bool math_in_registers_enabled = true;

/// True when a flat-rows loop over node `E` can compute its rows a register at a time
/// (flat_plan::rows_in_registers): a target with masked loads and stores
/// (FUSOR_MATH_IN_REGISTERS) and every node of `E` in the register form of its element type
/// (float32 or float64), none a math function (those make the loop the blocked kernel's),
/// not both multiplying and adding where the compiler may fuse the two (`contractible`: g++
/// fused `a * m + row * s - 0.5f` one way in the register loop, another in the plain one).
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class E, class T = typename E::value_type>
inline constexpr bool rows_register_form =
    FUSOR_MATH_IN_REGISTERS && (std::is_same_v<T, float> || std::is_same_v<T, double>)
    && register_form<E, T> && !has_vector_math<E> && !contractible<E>;
// clang-format on

/// Whether flat-rows plan `f` (planning::is_flat_rows_case, filled), over an expression with
/// rows_register_form, of elements of `itemsize` bytes, into a destination of that element
/// type (`same_dtype`), computes each row a register at a time: an inline loop that either
/// reads a column (then each row's splat fill is saved: `(x - m) / s` over (8, 16) float32 on
/// AVX-512, 79 -> 58 ns; (64, 512) 6.1 -> 3.5 us; also over rows short enough to collapse,
/// whose block buffer it saves: (64, 16) 251 -> 149 ns) or has rows that do not collapse (the
/// collapsed kernel's blocks were 2-5x faster: (128, 4) 162 against 453 ns) and that the
/// compiler's vectorised loop, a register, then half of one, then an element at a time, ends
/// with single elements (`(a - row) / s` over (8, 31): 146 -> 68 ns; rows of whole half
/// registers measured even, or 8 % slower at (8, 8)): docs/performance.md. Reads `f.collapsed`
/// (whether rows without a column collapse). Not a template.
FUSOR_DECL bool choose_rows_in_registers(const flat_plan& f, index_t itemsize, bool same_dtype);

/// Test hook: when false, the planner never chooses reduce_kernel::small_gemm (plan/gemm.hpp):
/// such products keep the row kernel, so tests can compare the two bit for bit. Not for
/// production use.
inline thread_local bool small_gemm_enabled = true;

/// The fewest bytes of destination from which an element-wise loop's stores stream past the
/// caches (loop_plan::stream_block). A destination this large does not stay in the caches for
/// whatever reads it next, so an ordinary store's read of each line before it is written (the
/// read for ownership) is traffic for nothing: `c = a * b + d` over 2^22 float32 into an
/// existing `c` took 3.0 ms with ordinary stores and 2.4 with streaming ones, 2^23 10.0 and
/// 5.9 (hand loops, this project's Sapphire Rapids host, docs/performance.md).
inline constexpr index_t stream_stores_min_bytes = index_t{16} << 20;

/// Test hook: when false, the planner never chooses streaming stores (loop_plan::stream_block),
/// so tests can compare streaming stores' results with ordinary stores'. Not for production
/// use.
inline thread_local bool stream_stores_enabled = true;

/// The bytes of each block element-wise loop `p` (planned: kernel, vector functions and
/// aliasing decided), writing `elements` of `itemsize` bytes in all, stores with non-temporal
/// (streaming) stores, or 0 for ordinary stores (loop_plan::stream_block). Streamed: on x86-64,
/// the contiguous kernel without vector math functions (their loops are bound by the
/// arithmetic, not the stores), not an aliasing copy, from stream_stores_min_bytes on, into a
/// destination that existed before the evaluation (`fresh_destination` false), with rows
/// (innermost loops) of at least one block: stream_block_bytes_one_operand (4 KiB) for a loop of
/// two operands (a copy), stream_block_bytes (1 KiB) for more. A fresh result's pages are first
/// touched by the loop itself: the kernel zeroes each page as the loop first writes it, and
/// streaming stores to those just-zeroed lines were slower than ordinary ones (a fresh 64 MiB
/// result: 17-22 ms ordinary, 22-26 ms streaming). Not a template.
FUSOR_DECL index_t choose_stream_stores(const loop_plan& p,
                                        index_t elements,
                                        index_t itemsize,
                                        bool fresh_destination);

/// The fewest elements a loop computes for its stride-2 operands to be read in registers
/// (loop_plan::stride2_in_registers): below, the source fits the first-level cache and the
/// buffer the block is copied into is the faster way (`exp(a[::2])`, one thread, medians of 3:
/// 4,096 results 1.7 us with the buffer and 1.8-1.9 in registers; 8,192 and 16,384 equal;
/// 65,536 27.4-28.1 against 25.8-26.1 us; 2^22 2.5-3.6 ms against 1.90-1.96).
inline constexpr index_t stride2_register_min_elements = 16384;

/// Whether a loop computing an expression with vector functions (choose_elementwise_kernel,
/// already run; `facts`: elementwise_facts_of its type) computes each block a register at a
/// time (`p.math_in_registers`): on a target with masked loads (FUSOR_MATH_IN_REGISTERS), when
/// every node of the expression has the register form, the destination's element type is the
/// expression's and its inner loop is at unit stride. W11 `exp(a) * sin(b)` then makes one pass
/// per register where the blocked form made five per block (docs/performance.md).
///
/// In the strided kernel (some operand off unit stride), when every operand off unit stride is
/// at stride 2, those are read a register at a time from two registers of their elements
/// (`p.stride2_in_registers`, on a target with the permutes: FUSOR_STRIDE2_IN_REGISTERS), so
/// the loads overlap the math instead of a copying pass per block (W19 `exp(a[::2])`). The same
/// elements reach the same operations, so the same bits, unless the compiler may fuse a
/// multiply and an add (`facts.contractible`): g++ fused `a * a + b * a` one way in that loop
/// and the other way in the blocked form's, so such expressions keep the gather buffer, as do
/// loops under stride2_register_min_elements.
FUSOR_DECL void choose_math_in_registers(loop_plan& p,
                                         const elementwise_facts& facts,
                                         std::string_view destination_dtype,
                                         index_t destination_inner_stride);

/// Whether a loop of an expression with `facts` computes its math functions a register at a
/// time, given that it calls some (the condition choose_math_in_registers applies): a target
/// with masked loads (FUSOR_MATH_IN_REGISTERS), every node in the register form, a destination
/// of the expression's element type at unit stride in the inner loop. Not a template.
FUSOR_DECL bool math_registers_allowed(const elementwise_facts& facts,
                                       std::string_view destination_dtype,
                                       index_t destination_inner_stride);

/// True when the flat case over node `E` (planning::is_flat_case) calls math functions and can
/// compute them a register at a time (elementwise_facts::register_candidate, on a target with
/// masked loads): then plan_flat_math may run it inline (flat_plan::inline_loop), as the flat
/// case without math functions runs, instead of expanding it into a loop_plan for the driver.
/// Both run one function for the loop (exec::registers_call), so both give the same bits.
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class E>
inline constexpr bool flat_math_register_form =
    FUSOR_MATH_IN_REGISTERS && flat_tree<E> && elementwise_facts_of<E>.register_candidate;

/// True when the row-broadcast case over node `E` (planning::is_flat_rows_case) calls math
/// functions and can compute each row a register at a time, a column's element broadcast into a
/// register per row: flat_math_register_form, and not multiplying and adding where the compiler
/// may fuse the two (`contractible`). That loop (exec::execute_flat, register_read::rows) is
/// another function than the expanded plan's (its blocks or collapsed rows, register_read::block),
/// and only lane-wise operations the compiler cannot contract are sure to give the same bits in
/// both.
template <class E>
inline constexpr bool rows_math_register_form =
    flat_math_register_form<E> && !contractible<E>;
// clang-format on

/// Whether the row-broadcast case's rows of `cols` elements of `itemsize` bytes, over an
/// expression with rows_math_register_form, run inline a register per row (with
/// is_flat_rows_case's other conditions): at least half a register each. Shorter rows would fill a
/// fraction of each register's lanes, and every lane calls the function: the expanded plan
/// collapses them into blocks of whole registers (collapses, `vector_math`). Not a template.
constexpr bool math_rows_fill_registers(index_t cols, index_t itemsize) {
    return 2 * cols * itemsize >= compiled_simd_target().bytes;
}

/// Whether a loop nest's rows of `cols` elements of `itemsize` bytes, with math functions in
/// registers and an operand still in the row or rows short enough to collapse, run a register
/// at a time row by row (loop_plan::rows_in_registers, choose_math_in_registers): at least two
/// registers each. Shorter rows pay more for binding every operand per row than the collapsed
/// kernel's repeat buffers cost (softmax's last loop, -march=haswell, instructions per
/// evaluation: (64, 8) float32 27,644 collapsed against 28,514 row by row, (64, 12) 37,599
/// against 38,787, (64, 16) 38,941 against 38,768; (64, 256) 200,448 against 177,659).
/// Not a template.
constexpr bool nest_rows_fill_registers(index_t cols, index_t itemsize) {
    return cols * itemsize >= 2 * compiled_simd_target().bytes;
}

/// True when reducer `Impl`'s register accumulator over a contiguous run of node `C` can take
/// its terms a 512-bit register at a time (reduce_kernel::pairwise_simd): a float32 `sum` or
/// `mean` (each term is the element in double) of float32 tensors and scalars under `+ - * /`
/// and unary `-` (their register form), on AVX-512 (FUSOR_SUM_IN_REGISTERS). The lanes, the
/// order and so the bits are the plain pairwise loop's.
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class Impl, class C>
inline constexpr bool sum_terms_in_registers =
    FUSOR_SUM_IN_REGISTERS && requires { requires Impl::term_is_element; }
    && std::is_same_v<typename C::value_type, float> && !has_vector_math<C>
    && register_form<C, float>;
// clang-format on

/// True when reducer `Impl`'s register accumulator over runs of node `C` can compute a math
/// function's values a register at a time with their arguments, each run alone (the plan's
/// rows_in_registers on a reduction: exec::detail::register_runs): a float32 `sum` or `mean`
/// (each term the element in double) of a tree with a vectorised function (softmax's
/// `sum(exp(x - m), 1)`) in the register form, on AVX-512 (FUSOR_SUM_IN_REGISTERS), not
/// multiplying and adding where the compiler may fuse the two (`contractible`: the blocked
/// form computes the function's argument in another loop). The same function on the same
/// arguments, the plain loop's lanes and order: the same bits.
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class Impl, class C>
inline constexpr bool math_sum_in_registers =
    FUSOR_SUM_IN_REGISTERS && requires { requires Impl::term_is_element; }
    && std::is_same_v<typename C::value_type, float> && has_vector_math<C>
    && register_form<C, float> && !contractible<C>;
// clang-format on

/// The runs math_sum_in_registers takes a register at a time: one register long or more (a
/// shorter run would fill a fraction of each register's lanes, and every lane calls the
/// function: the collapsed kernel computes the function over blocks of whole runs). Not a
/// template.
constexpr bool math_runs_fill_registers(index_t n, index_t itemsize) {
    return n * itemsize >= compiled_simd_target().bytes;
}

/// Whether pairwise_rows' runs of a float32 sum over node `C` can compute their terms in
/// registers (reduce_kernel::pairwise_rows_simd): sum_terms_in_registers, and on an FMA target
/// not multiply_add_shaped. Whether g++ fuses `c - a * b` into one instruction depends on the
/// loop around it (its tuning for the processor defers some fusions), and the rows kernel fused
/// it where the plain loop did not (`sum(c - a * 1.37f, 1)` over (3, 8): other bits).
template <class Impl, class C>
inline constexpr bool rows_terms_in_registers =
    sum_terms_in_registers<Impl, C> && !(FUSOR_FMA_TARGET && multiply_add_shaped<C>);

/// The shortest run that pairwise_simd takes: below it the lanes see one or two registers, and
/// the setup and the tree are most of the work (sum(a, 1) on (8, 32): 62.5 ns plain, 61 in
/// registers).
inline constexpr index_t sum_register_min_run = 32;

/// Whether pairwise_simd pays for `runs` runs of `n` elements (the plan's pairwise lanes: 8
/// below 512 elements, 32 from 512). One chain of 512-bit adds (8 lanes) has a longer latency
/// than the plain loop's two 256-bit chains (a lone run of 256 products: 48 against 36 ns), so
/// a lone run under 512 stays plain; a few runs overlap and convert at twice the rate
/// (sum(a, 1) on (64, 256): 1,780 -> 1,400 ns), and 32 lanes are four chains either way. From
/// pairwise_rows_per_pass runs of 8 lanes on, pairwise_rows keeps that many chains in flight
/// where pairwise_simd keeps one per run, and is the faster (rows_at_once_before_registers;
/// AVX-512, one thread, medians of 3, ns, sum(a, 1): (8, 256) 235 against 198; (64, 256)
/// 1,702 against 1,349; (1024, 32) 5,192 against 4,683; with 4 runs it is the slower, 131
/// against 143); the two have the same bits.
constexpr bool sum_in_registers_pays(index_t n, index_t runs) {
    return n >= sum_register_min_run && (n >= 512 || runs >= 2);
}

/// Whether pairwise_rows, when it can take `runs` runs of `n` elements, is preferred to
/// pairwise_simd (above): from pairwise_rows_per_pass runs on.
constexpr bool rows_at_once_before_registers(index_t n, index_t runs) {
    return runs >= pairwise_rows_per_pass && n <= pairwise_rows_max_run;
}

/// Whether reducer `Impl` sums its long float32 runs (float_lane_min_run_for, below) in float
/// lanes: a float32 sum, mean or contraction (reduce_kernel::float_lanes; exec/execute.hpp's
/// pairwise_terms runs them so under the same test, so every kernel and layout has its bits).
template <class Impl>
inline constexpr bool float_lane_reducer = requires {
    requires Impl::float_lanes;
};

/// The shortest run reducer `Impl` (a float_lane_reducer) sums in float lanes: a contraction's
/// (`wide_lanes`) from float_lane_min_run, a sum's or mean's from sum_float_lane_min_run.
template <class Impl>
inline constexpr index_t float_lane_min_run_for = requires {
    requires Impl::wide_lanes;
}
? float_lane_min_run : sum_float_lane_min_run;

/// Test hook: when false, the planner never chooses reduce_kernel::pairwise_rows, so tests can
/// compare its sums with one row at a time bit for bit. Not for production use.
inline thread_local bool pairwise_rows_enabled = true;

/// Whether reducer `Impl` can sum runs `pairwise_rows_per_pass` at a time
/// (reduce_kernel::pairwise_rows): an additive reducer in plain double lanes whose term is the
/// element (sum, mean: a conversion, nothing a compiler could fuse into an FMA one way and not
/// the other), not float64's compensated lanes, not a contraction's wider lanes (runs of 64 or
/// more have four chains already).
template <class Impl>
inline constexpr bool rows_at_once_reducer = requires {
    requires Impl::pairwise;
    requires Impl::term_is_element;
    requires !std::is_same_v<typename Impl::acc_type, reducers::detail::compensated_sum>;
    requires !requires {
        requires Impl::wide_lanes;
    };
};

/// How a register accumulator takes `runs` runs of `n` elements of type `T` (`contiguous`: at
/// unit stride) for the reducer `Impl` (choose_reduction_kernel, below, and the flat
/// reduction); `terms_in_registers`: sum_terms_in_registers of the reduction's child
/// (pairwise_simd), `rows_in_registers` its rows_terms_in_registers (pairwise_rows_simd);
/// `plain_runs`: the runs are read as they are (no vectorised math function computed over
/// blocks first); `splatted_rows`: the runs are a flat reduction's with columns, read at unit
/// stride once each run's column elements are splatted (exec: bind_rows). Pairwise sums of
/// several such or contiguous runs of 8 to 511 terms take them pairwise_rows_per_pass at a
/// time: one run's 8 lanes are one or two chains of adds on AVX (sum(a, 1) on (64, 256) float32
/// at 0.38 of Eigen's speed one row at a time); with terms in registers (pairwise_rows_simd),
/// each run's terms are computed a register at a time and a column's element is broadcast
/// instead of splatted (sum((x - m) * (x - m), 1), m a column, over (8, 16): the splats and
/// the terms computed one at a time were 1,300 of its 2,340 instructions). A float32 sum's runs
/// from float_lane_min_run_for take the float lanes, and a flat reduction's with columns their
/// register form where pairwise_rows_simd's would apply (float_lanes_simd: the same sum over
/// (64, 256) in 0.6-0.7 of the splatting loop's time).
template <class Impl, class T>
FUSOR_INLINE reduce_kernel register_reduce_kernel(index_t n,
                                                  bool contiguous,
                                                  bool terms_in_registers,
                                                  index_t runs,
                                                  bool plain_runs,
                                                  bool splatted_rows = false,
                                                  bool rows_in_registers = false) {
    if constexpr (pairwise_reducer<Impl>) {
        if (std::is_same_v<typename Impl::acc_type, reducers::detail::compensated_sum>)
            return reduce_kernel::compensated;
        if constexpr (float_lane_reducer<Impl>)
            if (n >= float_lane_min_run_for<Impl>) // a flat reduction's columns: broadcast
                return splatted_rows && rows_in_registers && math_in_registers_enabled
                           ? reduce_kernel::float_lanes_simd
                           : reduce_kernel::float_lanes;
        bool rows_at_once = false;
        if constexpr (rows_at_once_reducer<Impl>)
            rows_at_once = (contiguous || splatted_rows) && plain_runs && runs >= 2
                           && n >= pairwise_rows_min_run && n <= pairwise_rows_max_run
                           && pairwise_rows_enabled;
        if (terms_in_registers && contiguous && sum_in_registers_pays(n, runs)
            && math_in_registers_enabled
            && !(rows_at_once && rows_at_once_before_registers(n, runs)))
            return reduce_kernel::pairwise_simd;
        if (rows_at_once && rows_in_registers && math_in_registers_enabled)
            return reduce_kernel::pairwise_rows_simd;
        return rows_at_once ? reduce_kernel::pairwise_rows : reduce_kernel::pairwise;
    } else {
        (void)terms_in_registers, (void)runs, (void)plain_runs, (void)splatted_rows,
            (void)rows_in_registers;
        if constexpr (vector_minmax<Impl, T>)
            if (contiguous && n >= minmax_min_row)
                return reduce_kernel::minmax_simd;
        if constexpr (rescaled_reducer<Impl>)
            if (n >= rescaled_min_row)
                return reduce_kernel::rescaled_blocks;
        return Impl::needs_index || n < 16 ? reduce_kernel::sequential : reduce_kernel::lanes;
    }
}

/// True when a pairwise sum's register accumulation reading its runs in blocks (kernel
/// broadcast, or vectorised math functions) takes its runs as one loop, in blocks of whole runs
/// (the collapsed kernel, as collapsible_rows for element-wise loops): runs short enough
/// (`collapses`: at most 16 terms, at least 256 in the two inner levels; 17 to 48 terms by their
/// bytes and count), every operand either
/// continuing from run to run (stride 1, the run's length one level out), a row read again for
/// every run (1, then 0), a column of one element per run or still (0 in the run), or a scalar.
/// Each block's terms are computed at once (a softmax's `exp(x - m)` over 256 runs of 4: one
/// vectorised call where a call per run had computed 4 of its 16 lanes), then each run summed
/// from them, its terms in the same order as alone: the same bits. Not the flat reduction's
/// plan (`p.flat_reduction`, set before the walk), whose loop takes its runs one at a time.
FUSOR_DECL bool collapsible_runs(const loop_plan& p);

/// How the reduction `R` over a child of type `C` accumulates in loop `p`:
///  - [reduced, kept] at unit stride, argmax or argmin (`argmax(a, 0)`): a row of best values
///    and a row of their indices, each input row compared lane by lane, a tensor's rows
///    eight per pass (arg_rows_for);
///  - [reduced, kept] at unit stride (`sum(a, 0)`), not an arg-reduction: two, four or eight
///    rows per pass (jammed_rows_for), ((acc + x_r) + x_{r+1}) + ..., the order of one row at a
///    time with a half to an eighth of the accumulator traffic (g++ -O3 unrolls and jams the
///    hand-written loop the same way, two rows at a time); logsumexp there takes its
///    rows in blocks instead (each column's block maximum, then exp a row at a time);
///  - the innermost loop reduces (a register accumulator): additive reducers pairwise in double
///    (compensated lanes for float64 sums: within ~2 eps whatever n); max/min/argmax/argmin
///    over a contiguous row of `minmax_min_row` or more in SIMD lanes; logsumexp over a run of
///    `rescaled_min_row` or more by blocks (each block's maximum, then its sum of exp); arg-
///    reductions and rows under 16 one accumulator in index order; otherwise eight interleaved
///    accumulators (eight independent chains run at the speed of the loads);
///  - otherwise a row of accumulators, one per result element (its still operands splatted,
///    kernel broadcast, when every operand moves by 1 or stands still in the row).
/// A register accumulator of an additive reducer whose run reads every operand at unit stride
/// or standing still (softmax's `sum(exp(x - m), 1)`: `m` stands still) reads it in blocks
/// (`p.kernel` broadcast: the still operands splatted, as the element-wise broadcast kernel),
/// and, in a contiguous or broadcast run, math functions with a vectorised form run over each
/// block through SLEEF (`p.vector_functions`), as they do in element-wise loops: the same
/// function gives the same bits in both; a float32 sum's runs of 16 to 255 instead compute
/// the function a register at a time with its argument (math_sum_in_registers: pairwise_simd,
/// rows_in_registers and math_in_registers, no block buffers); from sum_float_lane_min_run the
/// float lanes read the blocks. Max/min and arg-reductions keep their kernels.
template <class R, class C>
void choose_reduction_kernel(loop_plan& p, const C& child) {
    using impl = typename reduction<R, C>::impl;
    using T = typename C::value_type;
    const std::size_t levels = p.extents.size();
    const bool contiguous = p.kernel == inner_kernel::contiguous;
    const bool reduced_kept = contiguous && !p.empty && levels == 2 && p.extents[0] >= 2
                              && p.operands[0].strides[0] == 0 && p.operands[0].strides[1] != 0;
    if constexpr (arg_rows_reducer<impl>) {
        if (reduced_kept) {
            p.reduction = arg_rows_kernel(arg_rows_for<impl, C>);
            return;
        }
    }
    if (!impl::needs_index && reduced_kept) {
        p.reduction = rescaled_reducer<impl> ? reduce_kernel::rescaled_rows
                      : jammed_rows_in_registers<impl, C>(p)
                          ? reduce_kernel::two_rows
                          : jammed_rows_kernel(jammed_rows_for<C>);
        return;
    }
    const bool register_accumulator = levels == 0 || p.operands[0].strides[levels - 1] == 0;
    if (!register_accumulator) {
        p.reduction = reduce_kernel::row;
        // A row whose operands each move by 1 or stand still (a contraction's i-k-j loop: one
        // factor held for the row, the other streamed): the still ones splatted, as in the
        // element-wise broadcast kernel, make the row loop contiguous (each accumulator takes
        // the same terms in the same order: the same bits).
        bool still_or_unit = !impl::needs_index && p.kernel == inner_kernel::strided && !p.empty
                             && p.operands[0].strides[levels - 1] == 1;
        for (std::size_t k = 1; still_or_unit && k < p.operands.size(); ++k) {
            const operand_plan& o = p.operands[k];
            const index_t s = o.strides[levels - 1];
            still_or_unit = o.kind == operand_plan::role::scalar || s == 0 || s == 1;
        }
        if (still_or_unit)
            p.kernel = inner_kernel::broadcast;
        return;
    }
    index_t runs = 1;
    for (std::size_t l = 0; l + 1 < levels; ++l)
        runs *= p.extents[l];
    // Every operand moving by 1 or standing still in the run: the broadcast kernel (below). The
    // flat reduction's such runs (columns) go pairwise_rows_per_pass at a time, as
    // is_flat_reduction plans them.
    bool still_or_unit = !p.empty && levels > 0 && p.kernel == inner_kernel::strided;
    for (std::size_t k = 1; still_or_unit && k < p.operands.size(); ++k) {
        const operand_plan& o = p.operands[k];
        const index_t s = o.strides[levels - 1];
        still_or_unit = o.kind == operand_plan::role::scalar || s == 0 || s == 1;
    }
    p.reduction = register_reduce_kernel<impl, T>(levels == 0 ? 1 : p.extents[levels - 1],
                                                  contiguous,
                                                  sum_terms_in_registers<impl, C>,
                                                  runs,
                                                  !has_vector_math<C>,
                                                  p.flat_reduction && still_or_unit,
                                                  rows_terms_in_registers<impl, C>);
    if constexpr (pairwise_reducer<impl>) {
        if (p.empty || levels == 0)
            return;
        if (still_or_unit)
            p.kernel = inner_kernel::broadcast;
        // In every layout (a strided run gathers its blocks): the same bits as element-wise.
        if constexpr (has_vector_math<C>)
            vector_functions_of(child, p.vector_functions);
        if constexpr (math_sum_in_registers<impl, C>) {
            // Each run a register at a time, the function with its argument, a still operand's
            // element broadcast into a register: no splat, repeat or function buffer.
            if ((still_or_unit || contiguous) && p.reduction == reduce_kernel::pairwise
                && math_runs_fill_registers(p.extents[levels - 1], index_t{sizeof(float)})
                && math_in_registers_enabled) {
                p.reduction = reduce_kernel::pairwise_simd;
                p.rows_in_registers = true;
                p.math_in_registers = true;
                return;
            }
        }
        if (collapsible_runs(p))
            p.kernel = inner_kernel::collapsed;
    } else {
        (void)child;
    }
}

} // namespace planning
} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/plan/kernel_choice.ipp>
#endif
