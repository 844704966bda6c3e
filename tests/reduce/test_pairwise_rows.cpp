// The pairwise_rows kernel (exec/execute.hpp, pairwise_rows_sums): float32 sums and means of
// several contiguous runs of 8 to 255 terms (other element types: to 511; float32 runs from 256
// take the float lanes, reduce_kernel::float_lanes) take pairwise_rows_per_pass runs at a time,
// each run's 8 lanes and tree as one run at a time (NumPy's pairwise blocks). The planner chooses
// it where it says (and nowhere else); the sums have the bits of one run at a time (the test hook
// planning::pairwise_rows_enabled off) in the flat reduction, in the general walk, with runs
// left over, with several runs feeding one accumulator and on threads; explain prints it and
// the evaluator runs it. Built for the default target (SSE2 on x86-64: 2 runs per pass) and
// again for AVX2 (test_pairwise_rows_avx2.cpp: 4 runs per pass), which skips on a processor
// without AVX2 and reports the skip.
// clang-format off: the trace hooks must be defined before fusor is included
#include "../explain/trace.hpp"
// clang-format on
#include <cmath>
#include <cstring>
#include <string>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"

using fusor::index_t;
using fusor::reduce_kernel;
using fusor::shape_t;

#ifndef FUSOR_TEST_TARGET
#define FUSOR_TEST_TARGET 0 // 0: the default target; 2: AVX2
#endif

namespace {

// Whether this processor runs the instructions this file was built for.
bool processor_has_target() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return FUSOR_TEST_TARGET != 2 || __builtin_cpu_supports("avx2");
#else
    return FUSOR_TEST_TARGET == 0; // the AVX2 build is x86's
#endif
}
const bool skip_here = !processor_has_target();

template <class T>
fusor::tensor<T> wavy(shape_t shape, double phase = 0.0) {
    fusor::tensor<T> x(shape);
    for (index_t i = 0; i < x.size(); ++i)
        x.data()[i] = static_cast<T>(std::sin(0.37 * static_cast<double>(i) + phase) * 3.0 + 0.25);
    return x;
}

template <class T>
bool same_bits(const fusor::tensor<T>& a, const fusor::tensor<T>& b) {
    return a.shape() == b.shape()
           && std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(T)) == 0;
}

// One run at a time while alive.
struct one_run_at_a_time {
    one_run_at_a_time() { fusor::planning::pairwise_rows_enabled = false; }
    ~one_run_at_a_time() { fusor::planning::pairwise_rows_enabled = true; }
};

// The general walk only (no flat plans) while alive.
struct general_walk_only {
    general_walk_only() { fusor::planning::flat_plans_enabled = false; }
    ~general_walk_only() { fusor::planning::flat_plans_enabled = true; }
};

template <class E>
reduce_kernel kernel_of(const E& e) {
    using D = fusor::value_type_t<E>;
    fusor::tensor<D> out(e.shape(), fusor::uninitialized);
    return fusor::make_plan(e, fusor::detail::layout_of(out.view())).reduction;
}

// e evaluated with pairwise_rows (which the plan must choose: `expected`) and one run at a time:
// the same bits.
template <class E>
void check_bits(const E& e, reduce_kernel expected = reduce_kernel::pairwise_rows) {
    using D = fusor::value_type_t<E>;
    CHECK(kernel_of(e) == expected);
    const fusor::tensor<D> rows = fusor::eval(e);
    fusor::tensor<D> one;
    {
        one_run_at_a_time off;
        CHECK(kernel_of(e) == reduce_kernel::pairwise);
        one = fusor::eval(e);
    }
    CHECK(same_bits(rows, one));
}

} // namespace

TEST_CASE("the planner takes pairwise_rows for several contiguous float runs of 8 to 255"
          * doctest::skip(skip_here)) {
    CHECK(fusor::pairwise_rows_per_pass == std::min<index_t>(8, fusor::lane_vector_bytes / 8));
    CHECK(fusor::sum_float_lane_min_run == 256);
    const auto a = wavy<float>({6, 200});
    const bool simd =
        kernel_of(fusor::sum(wavy<float>({6, 64}), 1)) == reduce_kernel::pairwise_simd;
    if (simd) { // AVX-512: float32 sums of runs of 32 or more convert a register at a time,
                // unless there are pairwise_rows_per_pass runs or more
        CHECK(kernel_of(fusor::sum(a, 1)) == reduce_kernel::pairwise_simd);
        CHECK(kernel_of(fusor::sum(wavy<float>({8, 200}), 1)) == reduce_kernel::pairwise_rows);
        CHECK(kernel_of(fusor::mean(wavy<float>({64, 255}), 1)) == reduce_kernel::pairwise_rows);
    } else {
        CHECK(kernel_of(fusor::sum(a, 1)) == reduce_kernel::pairwise_rows);
        CHECK(kernel_of(fusor::mean(a, 1)) == reduce_kernel::pairwise_rows);
        CHECK(kernel_of(fusor::sum(wavy<float>({2, 255}), 1)) == reduce_kernel::pairwise_rows);
    }
    CHECK(kernel_of(fusor::sum(wavy<float>({2, 8}), 1)) == reduce_kernel::pairwise_rows);
    CHECK(kernel_of(fusor::mean(wavy<std::int32_t>({5, 20}), 1)) == reduce_kernel::pairwise_rows);
    CHECK(kernel_of(fusor::mean(wavy<std::int32_t>({5, 511}), 1)) == reduce_kernel::pairwise_rows);
    // float32 runs of 256 or more take the float lanes, one run or several, on every target.
    for (const shape_t& s :
         {shape_t{6, 256}, shape_t{64, 511}, shape_t{2, 512}, shape_t{300}, shape_t{1, 300}}) {
        CAPTURE(s.size());
        CHECK(kernel_of(fusor::sum(wavy<float>(s), -1)) == reduce_kernel::float_lanes);
        CHECK(kernel_of(fusor::mean(wavy<float>(s), -1)) == reduce_kernel::float_lanes);
    }
    // Not: one run, runs under 8 or over 511 terms (32 lanes, four chains), float64
    // (compensated lanes), a term that is not the element (norm squares it), an argmax.
    CHECK(kernel_of(fusor::sum(wavy<float>({200}))) == reduce_kernel::pairwise);
    CHECK(kernel_of(fusor::sum(wavy<float>({1, 200}), 1)) == reduce_kernel::pairwise);
    CHECK(kernel_of(fusor::sum(wavy<float>({9, 7}), 1)) == reduce_kernel::pairwise);
    CHECK(kernel_of(fusor::mean(wavy<std::int32_t>({2, 512}), 1)) != reduce_kernel::pairwise_rows);
    CHECK(kernel_of(fusor::sum(wavy<double>({6, 256}), 1)) == reduce_kernel::compensated);
    CHECK(kernel_of(fusor::norm(a, 1)) != reduce_kernel::pairwise_rows);
    CHECK(kernel_of(fusor::argmax(a, 1)) != reduce_kernel::pairwise_rows);
    // A strided run (a column) is not contiguous.
    CHECK(kernel_of(fusor::sum(fusor::transpose(a), 1)) != reduce_kernel::pairwise_rows);
}

TEST_CASE("pairwise_rows sums have the bits of one run at a time" * doctest::skip(skip_here)) {
    if (kernel_of(fusor::sum(wavy<float>({6, 64}), 1)) == reduce_kernel::pairwise_simd) {
        // Runs of 8 to 31 still take pairwise_rows there, and so do pairwise_rows_per_pass
        // runs or more of up to 255.
        for (const index_t rows : {2, 3, 8, 9, 17})
            for (const index_t cols : {8, 9, 15, 16, 31, 32, 100, 200, 255}) {
                if (cols >= 32 && rows < fusor::pairwise_rows_per_pass)
                    continue;
                CAPTURE(rows);
                CAPTURE(cols);
                check_bits(fusor::sum(wavy<float>({rows, cols}), 1));
            }
        return;
    }
    // Every count of runs left over, every tail length, both ends of the range.
    for (const index_t rows : {2, 3, 4, 5, 7, 8, 9, 17})
        for (const index_t cols : {8, 9, 15, 16, 31, 100, 200, 254, 255}) {
            CAPTURE(rows);
            CAPTURE(cols);
            const auto a = wavy<float>({rows, cols});
            check_bits(fusor::sum(a, 1)); // the flat reduction
            {
                general_walk_only walk;
                check_bits(fusor::sum(a, 1)); // the general walk's blocks of runs
            }
        }
    const auto b = wavy<float>({4, 6, 40}, 1.0), c = wavy<float>({4, 6, 40}, 2.0);
    check_bits(fusor::sum(b * c - 1.0f, 2));                       // an expression, a 3-d operand
    check_bits(fusor::mean(b, -1, fusor::keepdims));               // into (4, 6, 1)
    check_bits(fusor::sum(fusor::view(b, fusor::slice(1, 3)), 2)); // a view with an offset
    // Runs whose outer axes are summed too: consecutive runs feed one accumulator, in order.
    check_bits(fusor::sum(b, {0, 2}));
    // Every second row: the runs are contiguous, the rows 80 elements apart (the general walk).
    check_bits(fusor::sum(fusor::view(wavy<float>({12, 40}), fusor::slice(0, 12, 2)), 1));
    check_bits(fusor::mean(wavy<std::int32_t>({7, 33}), 1));
    check_bits(fusor::mean(wavy<std::int32_t>({3, 511}), 1)); // to 511 for other types
    // Large enough to split across threads (when built with OpenMP): the same bits.
    check_bits(fusor::sum(wavy<float>({1024, 200}), 1));
}

TEST_CASE("explain prints pairwise_rows and the evaluator runs it" * doctest::skip(skip_here)) {
    const auto a = wavy<float>({6, 20}); // under 32 terms: not pairwise_simd on AVX-512
    const std::string per = std::to_string(fusor::pairwise_rows_per_pass);
    for (const bool flat : {true, false}) {
        CAPTURE(flat);
        fusor::planning::flat_plans_enabled = flat;
        const auto e = fusor::explain(fusor::sum(a, 1));
        fusor::planning::flat_plans_enabled = true;
        CHECK(explain_text::one_line(e.text()).find("vectors: 8 float64 lanes per run, " + per
                                                    + " runs per pass (")
              != std::string::npos);
        CHECK(e.json().find("\"runs\":\"pairwise_rows\"") != std::string::npos);
        fusor::tensor<float> out(shape_t{6});
        trace::clear();
        fusor::planning::flat_plans_enabled = flat;
        out = fusor::sum(a, 1);
        fusor::planning::flat_plans_enabled = true;
        CHECK(trace::kernels == std::vector<std::string>{"pairwise_rows"});
        CHECK(trace::seen.size() == 6); // one inner loop per run
    }
}
