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
/// that reads it: a reduction inside a larger expression, element-wise work over reduction
/// results only (hoisted), a reshape that merges axes of an expression, or the whole right
/// side when it overlaps the destination (aliasing copy).
struct boundary_plan {
    enum class reason : std::uint8_t {
        reduction,       ///< a reduction's result, read by the loop around it
        reshape_copy,    ///< a reshape that merges axes of an expression: copied in the old shape
        alias_copy,      ///< the right side overlaps the destination (NumPy's overlap rule)
        hoisted,         ///< element-wise work over reductions and scalars only, computed once per
                         ///< result element instead of once per element of the loop reading it
                         ///< (plan/hoisting.hpp)
        product_factor,  ///< an element-wise factor of a matrix product, computed first so that
                         ///< the BLAS runs the product (planning::factor_gemm_candidate)
        broadcast_result ///< the root's result that broadcasts into a larger destination (a
                         ///< view: `view(w, all) = sum(a)`; an element-wise root with far fewer
                         ///< elements, planning::broadcast_root_pays), copied by the loop after it
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
                ///< kernel runs over blocks of `broadcast_block` elements; also a reduction's
                ///< register run or row of accumulators read that way (kernel_choice.hpp)
    tiled,      ///< element-wise, the destination at unit stride and some operand moving far
                ///< in the innermost loop but by 1 one level out (a transposed operand): the
                ///< two inner levels run in `tile_rows` x `tile_cols` tiles, each operand off
                ///< unit stride copied (staged) into a tile buffer row by row, then the
                ///< contiguous kernel over each row of the tile (`tile_packed`: over each
                ///< tile at once, its rows staged one after another)
    collapsed,  ///< element-wise over short rows (`collapses`: the z-score's
                ///< `(x - m) / s` over (100000, 8)): the two inner levels run as one loop
                ///< (OpenMP's `collapse(2)`) in blocks of whole rows. The destination and the
                ///< moving operands continue from row to row (stride 1, one level out the row
                ///< length); a row operand (stride 1, 0 one level out: a statistic or a bias
                ///< per column) is repeated in a block buffer, a column operand (stride 0, not
                ///< 0 one level out: a statistic per row) has each element repeated over its
                ///< row in one, refilled per block, and a still one is splatted. A sum's
                ///< register accumulation over short runs read in blocks takes its runs the
                ///< same way (planning::collapsible_runs), each run summed from its block
    strided     ///< anything else: `out[i*so] = f(a[i*sa], b[i*sb])`
};

/// Elements per block of the broadcast kernel (and per stride-0 operand's splat buffer): small
/// enough that the buffers stay in L1, large enough that refilling them is noise.
inline constexpr index_t broadcast_block = 1024;

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

/// The collapsed kernel (`inner_kernel::collapsed`) takes rows of at most `collapse_max_cols`
/// elements, at least `collapse_min_elements` in the two inner levels: longer rows amortise a
/// loop per row, and below a few hundred elements filling the buffer costs more than the loops
/// it saves (measured: docs/performance.md). Rows of at most `collapse_short_cols` elements,
/// and loops that call a vectorised math function (`vector_math`: one call per row computes a
/// register of lanes for 4 to 16 elements), collapse from `collapse_min_elements_short` on (a
/// row softmax over (8, 16) float32: 1,130 -> 1,060 ns; over (16, 4) 2,010 -> 1,000;
/// `(x - m) / s` over (16, 4) 140 -> 112). Its blocks are `collapse_block(cols)` elements,
/// whole rows.
///
/// Rows of `collapse_long_cols` + 1 to `collapse_max_cols` elements collapse from
/// `collapse_wide_min_elements` on (the loop per row ran at 0.50-0.79 of the hand loop over
/// 262K float32 in rows of 24-48, collapsed 0.98-1.09; a row's variance sum 0.46-0.83 against
/// 0.74-1.16). Under it a row of `itemsize` bytes each collapses only when it is at most
/// `collapse_long_max_bytes` long and either is no whole number of registers (the loop per row
/// ends in a partial one) or the loop has `collapse_long_min_elements`: over 1.5K elements, rows
/// of 20-24 float32 or 20 float64 0.74-0.96 -> 1.12-1.71 of the hand loop, 32 float32 the same
/// (0.82) and 48 float32 or 24-48 float64 worse (0.56-0.79 against 0.74-1.30); over 16K
/// elements rows of 32-40 float32 1.05 -> 1.21-1.41 (docs/performance.md, the fifty-second
/// session).
inline constexpr index_t collapse_max_cols = 48;
inline constexpr index_t collapse_min_elements = 256;
inline constexpr index_t collapse_short_cols = 4;
inline constexpr index_t collapse_min_elements_short = 32;
inline constexpr index_t collapse_long_cols = 16;
inline constexpr index_t collapse_long_max_bytes = 160;
inline constexpr index_t collapse_long_min_elements = 4096;
inline constexpr index_t collapse_wide_min_elements = index_t{1} << 16;
constexpr bool collapses(index_t rows, index_t cols, index_t itemsize, bool vector_math = false) {
    const index_t elements = rows * cols;
    if (rows < 2 || cols > collapse_max_cols)
        return false;
    if (cols > collapse_long_cols) {
        const index_t bytes = cols * itemsize, reg = compiled_simd_target().bytes;
        const bool partial_register = reg == 0 || bytes % reg != 0;
        return elements >= collapse_wide_min_elements
               || (bytes <= collapse_long_max_bytes && elements >= collapse_min_elements
                   && (partial_register || elements >= collapse_long_min_elements));
    }
    const index_t least = vector_math || cols <= collapse_short_cols ? collapse_min_elements_short
                                                                     : collapse_min_elements;
    return elements >= least;
}
constexpr index_t collapse_block(index_t cols) {
    return broadcast_block / cols * cols;
}

/// Expressions with up to this many tensor operands may hold one of them in a register
/// (`loop_plan::held_operand`): each candidate operand is one more instantiation of the
/// contiguous loop, so the count bounds what it adds to compile time.
inline constexpr int single_element_max_leaves = 3;

/// Shortest row the SIMD max/min kernel takes (shorter rows run the 8-lane loop).
inline constexpr index_t minmax_min_row = 64;

/// Shortest run logsumexp takes in blocks (reduce_kernel::rescaled_blocks); shorter runs take
/// one step per element, in index order.
inline constexpr index_t rescaled_min_row = 16;

/// Elements per block of the rescaled_blocks kernel: 2 KiB of doubles, in L1 for the block's
/// passes (its maximum, exp, sum); the rescaled_rows kernel's strips of columns are as wide.
inline constexpr index_t rescaled_block = 256;

/// Rows per block of the rescaled_rows kernel: a block of `rescaled_block_rows` rows of a strip
/// (64 KiB of float32) is read twice, the second time from the cache.
inline constexpr index_t rescaled_block_rows = 64;

/// How a reduction's loop accumulates: the planner's choice (plan/kernel_choice.hpp), which the
/// evaluator runs and explain names.
enum class reduce_kernel : std::uint8_t {
    none,               ///< not a reduction
    pairwise,           ///< register accumulator: NumPy's pairwise blocks in double (float sums)
    pairwise_simd,      ///< the same lanes and bits, float32 terms converted a 512-bit register at
                        ///< a time (AVX-512: exec/register_sums.hpp)
    pairwise_rows,      ///< pairwise's lanes, tree and bits over `pairwise_rows_per_pass` runs
                        ///< (rows) at a time, their chains of adds interleaved (unroll-and-jam)
    pairwise_rows_simd, ///< the same runs, lanes and bits, each run's float32 terms computed and
                        ///< converted a 512-bit register at a time, a column's element broadcast
                        ///< (AVX-512: exec/register_sums.hpp)
    float_lanes,        ///< a float32 sum's, mean's or contraction's long runs (from
                        ///< `sum_float_lane_min_run`, `float_lane_min_run`): 32 float lanes of
                        ///< up to 16 terms each, then 32 float64 lanes
    float_lanes_simd,   ///< the same lanes and bits over a flat reduction's runs with columns,
                        ///< each run's float32 terms computed a 512-bit register at a time, a
                        ///< column's element broadcast (AVX-512: exec/execute.hpp)
    compensated,        ///< register accumulator: eight compensated lanes (float64 sums)
    lanes,              ///< register accumulator: eight interleaved accumulators
    sequential,         ///< register accumulator: one, in index order (arg-reductions, rows < 16)
    minmax_simd,        ///< register accumulator: max, min, their arg and nan forms in SIMD lanes
    rescaled_blocks,    ///< register accumulator: logsumexp by blocks, each block's maximum then
                        ///< its sum of exp(x - maximum), merged with rescaling (rows >= 16)
    row,                ///< a row of accumulators, one per result element, updated element-wise
    two_rows,       ///< the same, two rows per pass (unroll-and-jam: [reduced, kept] unit stride)
    four_rows,      ///< the same, four rows per pass (two tensor operands: eight row streams)
    eight_rows,     ///< the same, eight rows per pass (one tensor operand)
    arg_rows,       ///< argmax/argmin over [reduced, kept] at unit stride: a row of best values
                    ///< and a row of their indices, each input row compared lane by lane
                    ///< (a row per pass)
    arg_eight_rows, ///< the same over a tensor's rows, eight per pass, in registers of values
                    ///< beside their row numbers (values of four or eight bytes)
    rescaled_rows,  ///< the same for logsumexp, rows in blocks: each column's block maximum, then
                    ///< exp(x - maximum) a row at a time ([reduced, kept] unit stride)
    gemm,           ///< a contraction of GEMM layout: the BLAS's matrix product (`loop_plan::gemm`)
    small_gemm,     ///< a float product too small for the BLAS whose loop would keep a row of
                    ///< accumulators: fusor's i-k-j loop over `loop_plan::gemm`'s matrices
                    ///< (exec/small_gemm.hpp), each accumulator taking its terms in the row
                    ///< kernel's order (the same bits), without the loop nest's driver
    single_term     ///< nothing summed (a contraction over no axis): the plan is the element-wise
                    ///< loop of its terms into the destination (`reducer` empty)
};

/// The name of an element-wise kernel, as explain's JSON `runs` gives it and the evaluator's
/// trace reports it (a broadcast loop with a held operand runs `held`: explain/explain.hpp's
/// runs_of).
constexpr const char* inner_kernel_name(inner_kernel k) {
    switch (k) {
    case inner_kernel::contiguous:
        return "contiguous";
    case inner_kernel::broadcast:
        return "broadcast";
    case inner_kernel::tiled:
        return "tiled";
    case inner_kernel::collapsed:
        return "collapsed";
    case inner_kernel::strided:
        return "strided";
    }
    return "?";
}

/// The name of a reduction kernel, as explain prints it and the evaluator's trace reports it.
constexpr const char* reduce_kernel_name(reduce_kernel k) {
    switch (k) {
    case reduce_kernel::none:
        return "none";
    case reduce_kernel::pairwise:
        return "pairwise";
    case reduce_kernel::pairwise_simd:
        return "pairwise_simd";
    case reduce_kernel::pairwise_rows:
        return "pairwise_rows";
    case reduce_kernel::pairwise_rows_simd:
        return "pairwise_rows_simd";
    case reduce_kernel::float_lanes:
        return "float_lanes";
    case reduce_kernel::float_lanes_simd:
        return "float_lanes_simd";
    case reduce_kernel::compensated:
        return "compensated";
    case reduce_kernel::lanes:
        return "lanes";
    case reduce_kernel::sequential:
        return "sequential";
    case reduce_kernel::minmax_simd:
        return "minmax_simd";
    case reduce_kernel::rescaled_blocks:
        return "rescaled_blocks";
    case reduce_kernel::row:
        return "row";
    case reduce_kernel::two_rows:
        return "two_rows";
    case reduce_kernel::four_rows:
        return "four_rows";
    case reduce_kernel::eight_rows:
        return "eight_rows";
    case reduce_kernel::arg_rows:
        return "arg_rows";
    case reduce_kernel::arg_eight_rows:
        return "arg_eight_rows";
    case reduce_kernel::rescaled_rows:
        return "rescaled_rows";
    case reduce_kernel::gemm:
        return "gemm";
    case reduce_kernel::small_gemm:
        return "small_gemm";
    case reduce_kernel::single_term:
        return "single_term";
    }
    return "?";
}

/// Rows per pass of an arg-rows kernel: 1 for arg_rows, 8 for arg_eight_rows; 0 for any other.
constexpr index_t arg_rows_per_pass(reduce_kernel k) {
    return k == reduce_kernel::arg_rows ? 1 : k == reduce_kernel::arg_eight_rows ? 8 : 0;
}

/// True when reduction kernel `k` keeps a row of accumulators (one per result element) rather
/// than one accumulator in registers per run.
constexpr bool row_of_accumulators(reduce_kernel k) {
    return k == reduce_kernel::row || k == reduce_kernel::two_rows || k == reduce_kernel::four_rows
           || k == reduce_kernel::eight_rows || arg_rows_per_pass(k) != 0
           || k == reduce_kernel::rescaled_rows || k == reduce_kernel::small_gemm;
}

/// Rows per pass of a jammed-rows kernel (two_rows, four_rows, eight_rows); 0 for any other.
constexpr index_t jammed_rows(reduce_kernel k) {
    return k == reduce_kernel::two_rows     ? 2
           : k == reduce_kernel::four_rows  ? 4
           : k == reduce_kernel::eight_rows ? 8
                                            : 0;
}

/// Rows and columns of a tile of the tiled kernel: a staged operand's reads are `tile_rows`
/// consecutive elements (a 64-byte cache line of float32) per column; the tile buffer
/// (`tile_rows * tile_cols` elements, 4 KiB of float32) stays in L1.
inline constexpr index_t tile_rows = 16;
inline constexpr index_t tile_cols = 64;
/// The fewest columns (innermost iterations) the tiled kernel takes, in half tiles: at (32, 32)
/// float32 `transpose(a) + b` ran in 494-531 ns tiled against 730-950 strided.
inline constexpr index_t tile_min_cols = 32;

/// Bytes of a block of a loop with streaming stores (loop_plan::stream_block) that reads two
/// operands or more: each block of a row is computed into a buffer of this size (on the stack,
/// 64-byte aligned, in the first-level cache beside the operands' lines), then stored past the
/// caches (exec/stream_stores.hpp). The planner streams only rows of at least one block. Small
/// blocks keep the loads and the streaming stores interleaved: `c = a * b + d` over 2^24
/// float32 on an AMD EPYC (Zen 4) took 0.86-0.91 of the ordinary stores' time in blocks of 1 KiB
/// and 1.31-1.35 in blocks of 4 KiB (docs/performance.md, "Streaming stores in 1 KiB blocks").
inline constexpr index_t stream_block_bytes = 1024;

/// Bytes of a streamed block of a loop of two operands, the destination and one more (a copy):
/// on the same host a copy took 0.62-0.63 of the ordinary stores' time in blocks of 4 KiB and
/// 1.04-1.06 in blocks of 1 KiB.
inline constexpr index_t stream_block_bytes_one_operand = 4096;

/// Bytes of one register of the GCC/Clang vector types (`vector_size`) that hold the lanes of
/// the max/min/argmax/argmin kernel: the target's register, at least 16 bytes. A vector wider
/// than the target's registers is not split into registers by g++ 12 when it takes a select
/// (`c ? v : w`): it went through the stack lane by lane (AVX2: max along rows of float32 at
/// 0.2 of the hand loop with 64-byte vectors; docs/performance.md).
inline constexpr index_t lane_vector_bytes =
    compiled_simd_target().bytes < 16 ? 16 : compiled_simd_target().bytes;

/// The jammed-rows reduction kernels (`reduce_kernel::two_rows`, `four_rows`, `eight_rows`) of a
/// sum, mean or norm whose kept row has at most this many columns hold their accumulators in
/// vector registers across all the rows of a block (exec/execute.hpp, jammed_rows_block): four
/// registers of float64 lanes (and four of TwoSum corrections), 8 columns on SSE2, 16 on AVX, 32
/// on AVX-512. Wider rows keep them in memory, a pass of rows at a time.
inline constexpr index_t two_rows_register_columns = 4 * (lane_vector_bytes / 8);

/// Runs (rows) the pairwise_rows kernel sums per pass: one row's 8 float64 lanes are 8 /
/// (lane_vector_bytes / 8) vectors, each a chain of adds waiting on its previous add (3-4
/// cycles); this many rows keep 8 vectors in flight: 2 on SSE2, 4 on AVX, 8 on AVX-512.
inline constexpr index_t pairwise_rows_per_pass =
    lane_vector_bytes / 8 < 8 ? lane_vector_bytes / 8 : 8;

/// The shortest and longest runs the pairwise_rows kernel takes: NumPy's 8 lanes and tree
/// (pairwise sums of runs from 8 to 511 terms; longer ones have 32 lanes, four chains already).
/// The pairwise sum of one run (exec/execute.hpp's pairwise_terms) keeps 8 lanes up to the
/// same pairwise_rows_max_run, so the two agree on where NumPy's 8-lane tree ends.
inline constexpr index_t pairwise_rows_min_run = 8;
inline constexpr index_t pairwise_rows_max_run = 511;

/// The shortest run of a float32 contraction (einsum, matmul, dot ... outside the BLAS) that
/// reduce_kernel::float_lanes takes: 32 float lanes, each adding up to 16 products in float
/// before joining its float64 lane (exec/execute.hpp, float_lane_sum). Shorter runs take the
/// pairwise loop's 8 float64 lanes.
inline constexpr index_t float_lane_min_run = 64;

/// The shortest run of a float32 `sum` or `mean` that reduce_kernel::float_lanes takes: each term
/// added in float with at most 15 others (NumPy's pairwise sum adds 16 in each of its 8 partial
/// sums, then those partial sums in float32 too), the partial sums in float64. Shorter runs keep
/// the 8 float64 lanes and NumPy's tree, whose kernels (pairwise_rows, pairwise_simd) are the
/// faster there. Measured on AVX-512, `sum(a * b)` against Eigen: at 64 terms the float lanes
/// took 1.2-1.3x the float64 lanes' time, equal at 128, 0.9x at 256, 0.6-0.7x from 1,024
/// (docs/performance.md).
inline constexpr index_t sum_float_lane_min_run = 256;

/// Independent sets of SIMD lanes the max/min/argmax/argmin kernel keeps: one compare-and-blend
/// per register chains each step on the previous one (about 4 cycles here), which held argmax to
/// half of NumPy's speed; four sets, each taking every fourth register, keep the loads streaming.
/// Each set is one register of `lane_vector_bytes` for the values (and one for the indices).
inline constexpr int minmax_lane_sets = 4;

/// A contraction run as a matrix product: `C[i, j] = sum_k A[i, k] * B[k, j]` once per element
/// of the batch loops (an odometer over `batch`, each operand advancing by its `batch_*`
/// stride). Strides and offsets are in elements; offsets come from the loop's operands (A is
/// operand 1 and B operand 2, or the reverse when `swapped`; C has the accumulator layout of
/// operand 0). The BLAS's product (reduce_kernel::gemm, plan/gemm.hpp) reads row-major C, A
/// row-major (`lda` elements between rows) or transposed (`trans_a`: column-major, `lda`
/// between columns), B likewise; fusor's small product (reduce_kernel::small_gemm) reads each
/// matrix at its two strides (`a_m`, `a_k`, ...).
struct gemm_plan {
    index_t m = 0, n = 0, k = 0;
    bool trans_a = false, trans_b = false;
    index_t lda = 0, ldb = 0, ldc = 0;
    index_t a_m = 0, a_k = 0; ///< A's strides along its rows and along the summed axis
    index_t b_k = 0, b_n = 0; ///< B's strides along the summed axis and along its columns
    index_t c_m = 0, c_n = 0; ///< C's strides along its rows and columns
    shape_t batch;            ///< extents of the batch loops, outermost first
    strides_t batch_a, batch_b, batch_c; ///< per batch loop
    /// The product is written straight into the destination (row-major, of the product's
    /// type, sharing no byte with A or B); otherwise into a buffer that the finalize loop
    /// converts into the destination.
    bool direct = false;
    /// A is operand 2 and B operand 1 (the product read the other way round: C = Bᵀ Aᵀ).
    bool swapped = false;
    /// n == 1 (B a vector, `einsum("ijk,ik->ij")`): `y = A x` as the BLAS's gemv, x read at
    /// stride `ldb`, y written at stride `ldc`.
    bool gemv = false;

    /// Calls `f(oa, ob, oc)` once per element of the batch loops (row-major order), with each
    /// operand's offset from its first element: the odometer both product kernels run.
    template <class F>
    void for_each_batch(F&& f) const {
        if (batch.empty()) { // one product (the usual case): no odometer to set up
            f(index_t{0}, index_t{0}, index_t{0});
            return;
        }
        index_t total = 1;
        for (const index_t e : batch)
            total *= e;
        shape_t idx(batch.size(), 0);
        index_t oa = 0, ob = 0, oc = 0;
        for (index_t t = 0; t < total; ++t) {
            f(oa, ob, oc);
            for (std::size_t L = batch.size(); L-- > 0;) {
                oa += batch_a[L];
                ob += batch_b[L];
                oc += batch_c[L];
                if (++idx[L] < batch[L])
                    break;
                oa -= batch_a[L] * batch[L];
                ob -= batch_b[L] * batch[L];
                oc -= batch_c[L] * batch[L];
                idx[L] = 0;
            }
        }
    }

    friend bool operator==(const gemm_plan&, const gemm_plan&) = default;
};

/// The flat case as the planner first decides it (planning::plan_flat): a compact value, so
/// that an element-wise assignment over small same-shape tensors plans in a few instructions.
/// `inline_loop`: the whole evaluation is the contiguous kernel over `size` elements on the
/// calling thread (under `parallel_threshold` elements, and either no math function with a
/// vectorised form, or math computed a register at a time: planning::plan_flat_math), which the
/// evaluator runs as one loop with every offset 0 (exec::execute_flat). Otherwise the flat case
/// needs the thread split or the blocked vector-math kernel, and the planner expands it into
/// its `loop_plan` (planning::fill_flat_plan), which holds those decisions. Either way
/// `explain` prints the expanded `loop_plan`: the same loop, kernel and split.
///
/// The row-broadcast case (planning::is_flat_rows_case) is the same loop run `rows` times: every
/// tensor either has the destination's shape and layout, or is one row-major row of its last
/// axes, read again for every row (`a * row + 1`, a bias or a scale per column), or a column
/// of one element per row of at most `broadcast_block` (`(x - m) / s` with m and s of shape
/// (rows, 1): a row's statistics), splatted into a buffer at the start of each row, as the
/// broadcast kernel does. With math functions (`exp(x - m)`) it runs inline only a register
/// per row (`rows_in_registers`, planning::rows_math_register_form).
///
/// The flat reduction (planning::is_flat_reduction) reduces a flat operand (every tensor of its
/// shape, row-major) over every axis into one element (`sum(a * b)`, `max(x)`): one run of
/// `cols` elements into a register accumulator, accumulated as `reduction` says.
struct flat_plan {
    index_t rows = 1;         ///< the outer level: 1 in the flat case
    index_t cols = 0;         ///< the contiguous level: every operand at unit stride
    std::uint64_t still = 0;  ///< bit j: the j-th tensor leaf (depth-first) is a row, read again
                              ///< for every row (stride 0 over the rows)
    bool inline_loop = false; ///< the contiguous kernel on the calling thread, nothing else
    reduce_kernel reduction = reduce_kernel::none; ///< the flat reduction's accumulation
    /// bit j: the j-th tensor leaf is a column, one element per row (stride 0 along the row),
    /// splatted per row (last, so that the positional initialisations above keep their order)
    std::uint64_t column = 0;
    /// Each row is computed a register at a time, its tail through a masked load and store,
    /// and a column's element is broadcast into a register instead of splatted into a buffer
    /// (is_flat_rows_case: planning::rows_register_form and choose_rows_in_registers; with
    /// math functions, planning::rows_math_register_form, and then also `inline_loop`).
    bool rows_in_registers = false;
    /// The rows run as one loop in blocks of whole rows (the collapsed kernel: collapses() of
    /// the rows, their length and the destination's itemsize).
    bool collapsed = false;

    index_t size() const { return rows * cols; }
    friend bool operator==(const flat_plan&, const flat_plan&) = default;
};

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
    boost::container::small_vector<shape_t, 6> loop_axes;     ///< iteration axes per loop level
    boost::container::small_vector<operand_plan, 6> operands; ///< [0] is the destination
    /// The loop's operands, destination included: `operands.size()`, except in a flat plan
    /// built for the evaluator, which lists none (see `flat`).
    std::size_t operand_count = 0;
    std::vector<boundary_plan> boundaries; ///< computed first, in this order
    /// Reductions: the loop that finalizes the accumulators (operand 1, contiguous over the
    /// result) into the destination (operand 0), `out = finalize(acc)`, element by element.
    std::shared_ptr<const loop_plan> finalize;
    inner_kernel kernel = inner_kernel::strided;
    /// Tiled kernel: the rows of the two inner levels fit in a tile's columns, and the
    /// destination and every operand not staged run on from one row to the next (their outer
    /// stride is the row's length, their inner stride 1). Each tile is then whole rows, staged
    /// one row after another, and computed as one contiguous loop (exec::detail::tile_block):
    /// a (8, 8) `transpose(a) + b` is one loop of 64 elements, not 8 of 8.
    bool tile_packed = false;
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
    /// Why the loop runs on the calling thread (`threads == 1`), for explain.
    enum class serial_reason : std::uint8_t {
        none,         ///< it is split (threads > 1)
        small,        ///< fewer than `parallel_threshold` elements
        no_openmp,    ///< compiled without OpenMP
        one_thread,   ///< `set_num_threads(1)`, `OMP_NUM_THREADS=1` or one core
        one_chunk,    ///< too few elements in the splittable loop for two chunks
        reduce_order, ///< a reduction whose every splittable loop reduces (the order would change)
        blas_product, ///< it reads a BLAS product or computes a factor of one
                      ///< (planning::reads_blas_product, keep_beside_blas), whose own threads
                      ///< the split's OpenMP workers would take cores from
    };
    serial_reason serial = serial_reason::small;
    /// The loop calls math functions (exp, log, ...) one element at a time that a build with
    /// SLEEF runs vectorised; explain says how to turn SLEEF on.
    bool scalar_math = false;
    bool empty = false;      ///< some extent is 0: the loop body never runs
    bool alias_copy = false; ///< the right side is the last boundary (a temporary) and this
                             ///< loop copies it into the destination: the destination overlaps
                             ///< an operand (NumPy's overlap rule), or the right side is a
                             ///< reduction whose result broadcasts into it (its boundary's
                             ///< reason says which)
    /// Flat: every tensor operand has the destination's shape and row-major layout, so the loop
    /// is one contiguous level of `extents[0]` elements with every operand at unit stride from
    /// offset 0 (MNN BinaryOp's same-shape case). The planner decides it from the expression
    /// before any walk. The plan it builds for the evaluator holds only what that loop needs
    /// (`operands` stays empty: `operand_count` says how many there are, `stride()` is 1); the
    /// one it builds for explain also lists the operands, as the general walk would.
    bool flat = false;
    /// Flat rows: the row-broadcast case (flat_plan), which the evaluator runs without the
    /// driver and without the plan cache; the plan is the general walk's, for explain, with
    /// no held operand (the loop splats its columns per row: choose_elementwise_kernel).
    bool flat_rows = false;
    /// Flat reduction: a reduction of a flat operand over its last axes, a run per result
    /// element (flat_plan; a sum's columns splatted per run), which the evaluator runs without
    /// the driver: at the root without the plan cache (the plan is the general walk's, for
    /// explain), as a boundary from this plan's `flat_runs` (exec::evaluate_reduction).
    bool flat_reduction = false;
    /// With `flat_reduction`: its runs and accumulation (planning::is_flat_reduction's
    /// flat_plan), which exec::execute_flat_reduction runs for a boundary (the root's check runs
    /// before any plan is looked up).
    flat_plan flat_runs;
    /// Flat product: a matrix product small enough for reduce_kernel::small_gemm, of two tensors
    /// or views into a row-major destination of the result's shape apart from both
    /// (planning::is_flat_product), which the evaluator runs straight into the destination,
    /// without the plan cache, the evaluator's set-up or the finalize loop; the plan is the
    /// general walk's (its kernel is small_gemm), for explain.
    bool flat_product = false;
    /// Element-wise, broadcast kernel: this operand (a tensor standing still in the inner loop,
    /// the only one, or the temporary of a copy loop: planning::choose_copy_kernel) is held in a
    /// register and the rest run the plain contiguous loop (MNN's single-element operand); -1
    /// when none is.
    int held_operand = -1;
    /// Element-wise, contiguous or broadcast kernel: the math functions this loop runs through
    /// SLEEF over blocks of `broadcast_block` elements (numpy names); empty when none does.
    boost::container::small_vector<std::string_view, 4> vector_functions;
    /// Element-wise, with vector functions: each block is computed a register at a time, the
    /// functions with their arguments (loads, `+ - * /`, the function, one store per register),
    /// instead of a buffer per function filled in passes (planning::choose_math_in_registers).
    bool math_in_registers = false;
    /// With math_in_registers, strided kernel: the operands off unit stride, all at stride 2,
    /// are read a register at a time from two registers of their elements (a permute) instead
    /// of being copied into a buffer per block first (planning::choose_math_in_registers).
    bool stride2_in_registers = false;
    /// Element-wise, contiguous kernel: bytes of each block of a row the destination is
    /// written in with non-temporal (streaming) stores, the block computed into a small buffer
    /// that stays in the first-level cache and then stored past the caches, so no line of the
    /// destination is read before it is written (planning::choose_stream_stores: 16 MiB or
    /// more into a destination that existed before the evaluation; stream_block_bytes, or
    /// stream_block_bytes_one_operand for a loop of two operands;
    /// exec::detail::streamed_inner_loop). 0: ordinary stores.
    index_t stream_block = 0;
    /// Flat rows (`flat_rows`): flat_plan::rows_in_registers, the decision the evaluator's
    /// flat plan holds, copied for explain (`"runs": "row_registers"`, or `"registers"` with
    /// math functions; `vectors:` says "each row a register at a time") before the walk, so
    /// that its rows do not collapse (collapsible_rows). Any other plan with math_in_registers:
    /// its rows run one at a time, each a register at a time, an operand still in the row
    /// broadcast into a register (exec::run_blocked; planning::choose_math_in_registers, which
    /// then makes the kernel broadcast, or contiguous where no operand stands still).
    bool rows_in_registers = false;
    /// Reductions: how the loop accumulates.
    reduce_kernel reduction = reduce_kernel::none;
    /// reduce_kernel::gemm: the matrix product the BLAS runs.
    gemm_plan gemm;

    // Declared here, defaulted in loop_plan.ipp: with a dozen containers among its members, a
    // loop_plan's copy, move and destructor are 6 KB of code, compiled once under
    // FUSOR_SEPARATE_COMPILATION instead of in every translation unit.
    loop_plan();
    loop_plan(const loop_plan&);
    loop_plan(loop_plan&&);
    loop_plan& operator=(const loop_plan&);
    loop_plan& operator=(loop_plan&&);
    ~loop_plan();

    index_t levels() const { return extents.rank(); }
    /// Stride of operand `k` at loop level `level` (1 in a flat plan).
    index_t stride(std::size_t k, std::size_t level) const {
        return flat ? 1 : operands[k].strides[level];
    }
    /// Elements from operand `k`'s data pointer to its first element (0 in a flat plan).
    index_t offset(std::size_t k) const { return flat ? 0 : operands[k].offset; }
    /// Operand `k`'s strides over the iteration space (a flat plan's are row-major).
    strides_t iter_strides_of(std::size_t k) const {
        return flat ? row_major_strides(iter_shape) : operands[k].iter_strides;
    }

    /// Equal plans make every decision alike, boundaries included (compared by value): tests
    /// use it to prove that the plan explain printed is the plan that ran.
    friend bool operator==(const loop_plan& a, const loop_plan& b);
};

inline bool operator==(const boundary_plan& a, const boundary_plan& b) {
    return a.why == b.why && a.temporary == b.temporary && a.dtype == b.dtype && a.shape == b.shape
           && a.read_shape == b.read_shape && a.bytes == b.bytes && a.reused == b.reused
           && a.overlapping == b.overlapping
           && (a.plan == b.plan || (a.plan && b.plan && *a.plan == *b.plan));
}

inline bool operator==(const loop_plan& a, const loop_plan& b) {
    return a.reducer == b.reducer && a.expression == b.expression && a.iter_shape == b.iter_shape
           && a.reduced_axes == b.reduced_axes && a.reduce_count == b.reduce_count
           && a.extents == b.extents && a.loop_axes == b.loop_axes && a.operands == b.operands
           && a.operand_count == b.operand_count && a.boundaries == b.boundaries
           && (a.finalize == b.finalize || (a.finalize && b.finalize && *a.finalize == *b.finalize))
           && a.kernel == b.kernel && a.tile_packed == b.tile_packed
           && a.vector_bytes == b.vector_bytes && a.threads == b.threads && a.chunk == b.chunk
           && a.split_inner == b.split_inner && a.serial == b.serial
           && a.scalar_math == b.scalar_math && a.empty == b.empty && a.alias_copy == b.alias_copy
           && a.flat == b.flat && a.flat_rows == b.flat_rows && a.flat_reduction == b.flat_reduction
           && a.flat_runs == b.flat_runs && a.flat_product == b.flat_product
           && a.held_operand == b.held_operand && a.vector_functions == b.vector_functions
           && a.math_in_registers == b.math_in_registers
           && a.stride2_in_registers == b.stride2_in_registers && a.stream_block == b.stream_block
           && a.rows_in_registers == b.rows_in_registers && a.reduction == b.reduction
           && a.gemm == b.gemm;
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
    std::vector<tree_line> tree;        ///< the expression, as explain prints it
    std::vector<std::string> names;     ///< per operand of the plan
    std::vector<plan_notes> boundaries; ///< per boundary of the plan, in its order
};

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/plan/loop_plan.ipp>
#endif
