// fusor/plan/loop_plan.hpp: the plan, a plain value. make_plan builds it, exec/ runs it and
// explain/ prints it: the loops `explain` shows are the loops that run.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fusor/core/shape.hpp> // also boost::container::small_vector, its warnings silenced

namespace fusor {

/// One operand of a fused loop: the destination (always operand 0), a tensor or view read by
/// a leaf, a scalar, a materialised temporary, or the index counter of an arg-reduction.
/// Plain data: no names (explain derives `out`, `t0`, `tmp0` from the expression and the plan,
/// see plan_notes), so building a plan over rank <= 6 operands allocates nothing.
struct operand_plan {
    enum class role : std::uint8_t { destination, tensor, view, scalar, temporary, index };
    role kind = role::tensor;
    std::string_view dtype;  ///< NumPy name of its element type (static storage)
    index_t itemsize = 0;    ///< bytes per element (0 for scalars and the index)
    shape_t shape;           ///< the operand's own shape
    strides_t iter_strides;  ///< stride per axis of the iteration space (0 = broadcast)
    strides_t strides;       ///< stride per loop level, after reordering and coalescing
    index_t offset = 0;      ///< elements from the operand's data pointer to its first element
    index_t base_offset = 0; ///< the same from the start of the tensor a view was made from
    const void* address = nullptr; ///< its data (identifies the same tensor read twice)
    const void* base = nullptr;    ///< the tensor a view was made from (null: `address`)
    int temporary = -1;            ///< a temporary's number in this evaluation (`tmp<N>`)
    std::uint64_t scalar_bits = 0; ///< a scalar's value, bit for bit (tells equal loops apart)

    friend bool operator==(const operand_plan&, const operand_plan&) = default;
};

/// What a line of the expression tree is.
enum class node_kind {
    operation, ///< an element-wise operation (`add`, `exp`, `where` ...)
    reduction, ///< the reduction at the root of a reduction loop
    view,      ///< a view of an expression (an index remap: no loop, no copy)
    tensor,    ///< a leaf: a tensor or a view of one
    scalar,    ///< a weak scalar
    temporary  ///< a materialised sub-expression, read like a tensor
};

struct loop_plan;

/// A materialisation boundary: a sub-expression computed into a temporary before the loop
/// that reads it: a reduction inside a larger expression, a reshape that merges axes of an
/// expression, or the whole right side when it overlaps the destination (aliasing copy).
struct boundary_plan {
    enum class reason : std::uint8_t {
        reduction,    ///< a reduction's result, read by the loop around it
        reshape_copy, ///< a reshape that merges axes of an expression: copied in the old shape
        alias_copy    ///< the right side overlaps the destination (NumPy's overlap rule)
    };
    reason why = reason::reduction;
    int temporary = 0; ///< the temporary's number in this evaluation (explain: `tmp<N>`)
    std::string_view dtype;
    shape_t shape;      ///< the temporary's shape (contiguous, row-major)
    shape_t read_shape; ///< the shape the loop reading it sees (a reshape copy's new shape)
    index_t bytes = 0;
    std::shared_ptr<const loop_plan> plan; ///< the loop that computes it
    /// The same sub-expression was already materialised as this temporary earlier in the same
    /// evaluation (e.g. softmax's `max(x, 1)` under both the numerator and the sum): its result
    /// is read again, not recomputed. `plan` is kept for explain.
    bool reused = false;
    /// Alias copies: the operands of `plan` (indices) whose memory overlaps the destination.
    boost::container::small_vector<int, 4> overlapping;
};

/// How the innermost loop reads its operands.
enum class inner_kernel {
    contiguous, ///< every operand at unit stride (or a scalar): `out[i] = f(a[i], b[i])`
    broadcast,  ///< element-wise, every operand at unit stride or stride 0: the stride-0 ones
                ///< are splatted into a block buffer once per inner loop, and the contiguous
                ///< kernel runs over blocks of `broadcast_block` elements
    tiled,      ///< element-wise, the destination at unit stride and some operand moving far
                ///< in the innermost loop but by 1 one level out (a transposed operand): the
                ///< two inner levels run in `tile_rows` x `tile_cols` tiles, each operand off
                ///< unit stride copied (staged) into a tile buffer row by row, then the
                ///< contiguous kernel over each row of the tile
    strided     ///< anything else: `out[i*so] = f(a[i*sa], b[i*sb])`
};

/// Elements per block of the broadcast kernel (and per stride-0 operand's splat buffer): small
/// enough that the buffers stay in L1, large enough that refilling them is noise.
inline constexpr index_t broadcast_block = 1024;

/// Rows and columns of a tile of the tiled kernel: a staged operand's reads are `tile_rows`
/// consecutive elements (a 64-byte cache line of float32) per column; the tile buffer
/// (`tile_rows * tile_cols` elements, 4 KiB of float32) stays in L1.
inline constexpr index_t tile_rows = 16;
inline constexpr index_t tile_cols = 64;

/// The SIMD instruction set this translation unit is compiled for, as the predefined macros
/// report it (`-march=native` on an AVX2 machine: 32 bytes, "AVX"); what explain quotes as the
/// contiguous kernel's vector width.
struct simd_target {
    index_t bytes;    ///< register width in bytes, 0 when unknown
    const char* name; ///< `SSE2`, `AVX`, `AVX-512`, `NEON`, or `none`
};

constexpr simd_target compiled_simd_target() {
#if defined(__AVX512F__)
    return {64, "AVX-512"};
#elif defined(__AVX__)
    return {32, "AVX"};
#elif defined(__SSE2__) || defined(_M_X64)
    return {16, "SSE2"};
#elif defined(__ARM_NEON) || defined(__aarch64__)
    return {16, "NEON"};
#else
    return {0, "none"};
#endif
}

/// A fused loop nest over an iteration space: a plain value holding every decision the
/// evaluator follows and explain prints. Inline storage for rank <= 6 and up to 6 operands.
struct loop_plan {
    std::string_view reducer; ///< empty for element-wise loops, else `sum`, `argmax`, ...
    /// Identifies the node type this loop computes (with the operands, it tells whether two
    /// loops of one evaluation compute the same thing: then the second reads the first's
    /// result).
    const void* expression = nullptr;
    shape_t iter_shape;       ///< the logical iteration space (the result's shape, or for a
                              ///< reduction, its operand's shape)
    shape_t reduced_axes;     ///< axes of iter_shape that a reduction collapses
    index_t reduce_count = 1; ///< elements reduced into each result element
    shape_t extents;          ///< loop extents after reordering and coalescing, outermost first
    boost::container::small_vector<shape_t, 6> loop_axes; ///< iteration axes per loop level
    boost::container::small_vector<operand_plan, 6> operands; ///< [0] is the destination
    std::vector<boundary_plan> boundaries; ///< computed first, in this order
    inner_kernel kernel = inner_kernel::strided;
    /// Bytes per SIMD register of the target the contiguous kernel is compiled for (16 for
    /// SSE2 or NEON, 32 for AVX, 64 for AVX-512; 0 when unknown): the compiler's vectoriser
    /// packs vector_bytes / itemsize elements per instruction.
    index_t vector_bytes = 0;
    int threads = 1;   ///< threads the loop is split across (1: the calling thread)
    index_t chunk = 0; ///< iterations of the split loop per chunk (0: no split)
    /// The split cuts the innermost loop instead of the outermost: a reduction whose outermost
    /// loop reduces and whose innermost loop is kept (`sum(a, 0)`), so each chunk owns a run
    /// of accumulators and sees all of their terms, in order.
    bool split_inner = false;
    bool empty = false;      ///< some extent is 0: the loop body never runs
    bool alias_copy = false; ///< the destination overlaps an operand: the right side is the
                             ///< last boundary (a temporary) and this loop copies it into the
                             ///< destination (NumPy's overlap rule)
    /// The same-shape fast path (exec/fast_path.hpp): one contiguous loop over tensors of the
    /// destination's shape and layout, which runs without building this plan at all.
    bool fast_path = false;

    index_t levels() const { return extents.rank(); }
    /// Stride of operand `k` at loop level `level`.
    index_t stride(std::size_t k, std::size_t level) const { return operands[k].strides[level]; }

    /// Equal plans make every decision alike, boundaries included (compared by value): tests
    /// use it to prove that the plan explain printed is the plan that ran.
    friend bool operator==(const loop_plan& a, const loop_plan& b);
};

inline bool operator==(const boundary_plan& a, const boundary_plan& b) {
    return a.why == b.why && a.temporary == b.temporary && a.dtype == b.dtype
           && a.shape == b.shape && a.read_shape == b.read_shape && a.bytes == b.bytes
           && a.reused == b.reused && a.overlapping == b.overlapping
           && (a.plan == b.plan || (a.plan && b.plan && *a.plan == *b.plan));
}

inline bool operator==(const loop_plan& a, const loop_plan& b) {
    return a.reducer == b.reducer && a.expression == b.expression && a.iter_shape == b.iter_shape
           && a.reduced_axes == b.reduced_axes && a.reduce_count == b.reduce_count
           && a.extents == b.extents && a.loop_axes == b.loop_axes && a.operands == b.operands
           && a.boundaries == b.boundaries && a.kernel == b.kernel
           && a.vector_bytes == b.vector_bytes && a.threads == b.threads && a.chunk == b.chunk
           && a.split_inner == b.split_inner && a.empty == b.empty
           && a.alias_copy == b.alias_copy && a.fast_path == b.fast_path;
}

/// One line of the expression tree as explain prints it.
struct tree_line {
    node_kind kind = node_kind::operation;
    int depth = 0;
    index_t itemsize = 0; ///< bytes per element of this node's value type
    std::string what;     ///< `add`, `sum(axes=(1,))`, `t0 = tensor`, ...
    std::string dtype;
    shape_t shape;
    int operand = -1;   ///< index into operands for leaves
    int boundary = -1;  ///< index into boundaries for materialised sub-expressions
    std::string symbol; ///< infix symbol of binary operators (`+`), for the loop body
};

/// What explain shows beside a plan and the plan does not need to run: the expression tree as
/// lines of text and every operand's display name (`out`, `t0`, `t0'`, `tmp0`, a scalar's
/// value). The planner fills it in the same walk that builds the plan, only when asked
/// (`make_plan(e, d, &notes)`), so evaluation never builds a string.
struct plan_notes {
    std::vector<tree_line> tree;             ///< the expression, as explain prints it
    std::vector<std::string> names;          ///< per operand of the plan
    std::vector<plan_notes> boundaries;      ///< per boundary of the plan, in its order
};

} // namespace fusor
