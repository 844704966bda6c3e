// fusor/plan/loop_plan.hpp: the plan, a plain value. make_plan builds it, exec/ runs it and
// explain/ prints it: the loops `explain` shows are the loops that run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <fusor/core/shape.hpp>

namespace fusor {

/// One operand of a fused loop: the destination (always operand 0), a tensor or view read by
/// a leaf, a scalar, a materialised temporary, or the index counter of an arg-reduction.
struct operand_plan {
    enum class role { destination, tensor, view, scalar, temporary, index };
    role kind = role::tensor;
    std::string name;        ///< `out`, `t0`, `tmp0`, `idx`, or a scalar's value
    std::string dtype;       ///< NumPy name of its element type
    shape_t shape;           ///< the operand's own shape
    strides_t iter_strides;  ///< stride per axis of the iteration space (0 = broadcast)
    strides_t strides;       ///< stride per loop level, after reordering and coalescing
    index_t offset = 0;      ///< elements from the operand's data pointer to its first element
    index_t base_offset = 0; ///< the same from the start of the tensor a view was made from
    const void* address = nullptr; ///< its data (identifies the same tensor read twice)
    index_t itemsize = 0;          ///< bytes per element (0 for scalars and the index)
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

struct loop_plan;

/// A materialisation boundary: a sub-expression computed into a temporary before the loop
/// that reads it: a reduction inside a larger expression, a reshape that merges axes of an
/// expression, or the whole right side when it overlaps the destination (aliasing copy).
struct boundary_plan {
    std::string name; ///< `tmp0`, ...
    std::string why;  ///< `reduction result`, `reshape copy of ...`, `aliasing copy: ...`
    std::string dtype;
    shape_t shape;
    index_t bytes = 0;
    std::shared_ptr<const loop_plan> plan; ///< the loop that computes it
    /// The same sub-expression was already materialised under this name earlier in the same
    /// evaluation (e.g. softmax's `max(x, 1)` under both the numerator and the sum): its result
    /// is read again, not recomputed. `plan` is kept for explain.
    bool reused = false;
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

/// A fused loop nest over an iteration space.
struct loop_plan {
    std::string reducer;      ///< empty for element-wise loops, else `sum`, `argmax`, ...
    shape_t iter_shape;       ///< the logical iteration space (the result's shape, or for a
                              ///< reduction, its operand's shape)
    shape_t reduced_axes;     ///< axes of iter_shape that a reduction collapses
    index_t reduce_count = 1; ///< elements reduced into each result element
    shape_t extents;          ///< loop extents after reordering and coalescing, outermost first
    std::vector<shape_t> loop_axes;        ///< the iteration axes each loop level covers
    std::vector<operand_plan> operands;    ///< [0] is the destination (or accumulator)
    std::vector<tree_line> tree;           ///< the expression, as explain prints it
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
};

} // namespace fusor
