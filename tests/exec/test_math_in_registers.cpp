// The register form of a loop's math (plan: math_in_registers; exec/execute.hpp:
// registers_block): every element it computes has the bits the blocked form gives, for every
// layout the blocked kernel takes (flat, row and column broadcast, a scalar, a strided or
// transposed operand), block tails and partial registers included; explain names it and it
// is what runs; the planner leaves it out where it cannot apply.
//
// The register form needs masked loads (AVX or AVX-512), so this file is built for AVX2 with
// FMA (tests/CMakeLists.txt) and test_math_in_registers_avx512.cpp, the same tests, for
// AVX-512. Each skips on a processor without its instructions, and reports the skip.
// clang-format off: the trace hooks must be defined before fusor is included
#include "../explain/trace.hpp"
// clang-format on
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"
#include "support.hpp"
#include <malloc.h>   // malloc_usable_size: a heap buffer's slack
#include <sys/mman.h> // mmap, mprotect: an operand that the next page, unmapped, follows
#include <unistd.h>   // sysconf

#ifndef FUSOR_TEST_AVX512
#define FUSOR_TEST_AVX512 0
#endif

namespace {

// Whether this processor runs the instructions this file was built for.
bool processor_has_target() {
    __builtin_cpu_init();
    if (FUSOR_TEST_AVX512)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
const bool skip_here = !FUSOR_MATH_IN_REGISTERS || !processor_has_target();

template <class T>
fusor::tensor<T> values(fusor::index_t n, double scale, double shift) {
    fusor::tensor<T> t = fusor::zeros<T>({n});
    for (fusor::index_t i = 0; i < n; ++i)
        t.data()[i] = static_cast<T>(scale * static_cast<double>((i * 37) % 101) / 101.0 + shift);
    return t;
}

template <class T>
bool same_bits(const fusor::tensor<T>& a, const fusor::tensor<T>& b) {
    return a.shape() == b.shape()
           && std::memcmp(a.data(), b.data(), sizeof(T) * static_cast<std::size_t>(a.size())) == 0;
}

// Evaluates `assign` (which writes `out`) with the register forms allowed and then not: the
// results must be equal bit for bit; with them allowed, the kernel that ran must be the one
// explain's JSON names, and `expect` ("registers" or "blocked"; for a sum "pairwise_simd" or
// "pairwise"); without them, `plain` ("blocked", or "pairwise" for a sum).
template <class T, class Assign, class Explain>
void check_forms(fusor::tensor<T>& out,
                 Assign assign,
                 Explain explain,
                 const std::string& expect,
                 const std::string& plain = "blocked") {
    fusor::planning::math_in_registers_enabled = true;
    const auto doc = nlohmann::json::parse(explain().json());
    trace::clear();
    assign();
    CHECK(trace::kernels == trace::kernels_from_json(doc));
    CHECK(trace::kernels.back() == expect);
    const fusor::tensor<T> registers = out;
    fusor::planning::math_in_registers_enabled = false;
    trace::clear();
    assign();
    fusor::planning::math_in_registers_enabled = true;
    CHECK(trace::kernels.back() == plain);
    CHECK(same_bits(registers, out));
}

// The kernel of a loop whose operands off unit stride are all at stride 2, and of such a loop
// over an expression that multiplies and adds (planning::contractible: on an FMA target, which
// both builds of this file are, it keeps the gather buffer).
// Under planning::stride2_register_min_elements results, the buffer either way.
std::string stride2_kernel(fusor::index_t elements, bool contractible = false) {
    return FUSOR_STRIDE2_IN_REGISTERS && !(contractible && FUSOR_FMA_TARGET)
                   && elements >= fusor::planning::stride2_register_min_elements
               ? "registers_stride2"
               : "registers";
}

template <class T>
void check_layouts(fusor::index_t n) {
    using namespace fusor;
    CAPTURE(n);
    const tensor<T> a = values<T>(n, 6.0, -3.0), b = values<T>(n, 2.0, 0.5);
    tensor<T> out;
    const std::string want = "registers";
#if FUSOR_VECTOR_MATH
    // W11's expression: two functions and a product, flat.
    check_forms(
        out, [&] { out = exp(a) * sin(b); }, [&] { return explain(exp(a) * sin(b)); }, want);
    // Arithmetic under and over the functions, with weak scalars.
    check_forms(
        out,
        [&] { out = -exp(a - T(2.5)) / (log(b * b + T(1)) + T(0.25)); },
        [&] { return explain(-exp(a - T(2.5)) / (log(b * b + T(1)) + T(0.25))); },
        want);
    // A function at the root (the blocked form computes it in the destination).
    check_forms(
        out, [&] { out = tanh(a); }, [&] { return explain(tanh(a)); }, want);
#endif
    // The square root needs no SLEEF (W25).
    check_forms(
        out,
        [&] { out = sqrt(a * a + b * b); },
        [&] { return explain(sqrt(a * a + b * b)); },
        want);
    check_forms(
        out,
        [&] { out = sqrt(square(a) + square(b)); },
        [&] { return explain(sqrt(square(a) + square(b))); },
        want);
    // Two views of one tensor a step apart beside a view read twice: the pair that differs
    // must keep its two loads (twins_alike is false for the whole expression).
    if (n < 3) // a loop of one runs the scalar functions
        return;
    const auto head = view(a, slice(none, -1)), tail = view(a, slice(1, none));
    tensor<T> shorter;
    check_forms(
        shorter,
        [&] { shorter = sqrt(head * tail + head * head); },
        [&] { return explain(sqrt(head * tail + head * head)); },
        want);
}

template <class T>
void check_broadcasts(fusor::index_t rows, fusor::index_t cols) {
    using namespace fusor;
    CAPTURE(rows);
    CAPTURE(cols);
    const tensor<T> m = reshape(values<T>(rows * cols, 4.0, -1.0), {rows, cols});
    const tensor<T> row = values<T>(cols, 1.0, 0.25);
    const tensor<T> col = reshape(values<T>(rows, 3.0, 0.5), {rows, 1});
    const tensor<T> cell = reshape(values<T>(1, 1.0, 0.75), {1, 1});
    tensor<T> out;
    // A row (repeated or moving with the block), a column (splatted), a single element.
    check_forms(
        out,
        [&] { out = sqrt(m * m + row); },
        [&] { return explain(sqrt(m * m + row)); },
        "registers");
    check_forms(
        out,
        [&] { out = sqrt(m * m + col) * cell; },
        [&] { return explain(sqrt(m * m + col) * cell); },
        "registers");
    // A transposed operand (the strided kernel, gathered per block) and a stepped one.
    const tensor<T> mt = reshape(values<T>(rows * cols, 2.0, 0.0), {cols, rows});
    check_forms(
        out,
        [&] { out = sqrt(m * m + transpose(mt)); },
        [&] { return explain(sqrt(m * m + transpose(mt))); },
        "registers");
    // Every second element: read a register at a time where the target has the permutes.
    const tensor<T> wide = reshape(values<T>(rows * cols * 2, 2.0, 0.0), {rows, 2 * cols});
    check_forms(
        out,
        [&] { out = sqrt(view(wide, all, slice(none, none, 2)) + m * m); },
        [&] { return explain(sqrt(view(wide, all, slice(none, none, 2)) + m * m)); },
        stride2_kernel(rows * cols, true));
    check_forms(
        out,
        [&] { out = sqrt(view(wide, all, slice(none, none, 2))) * m - row; },
        [&] { return explain(sqrt(view(wide, all, slice(none, none, 2))) * m - row); },
        stride2_kernel(rows * cols, true));
    check_forms(
        out,
        [&] { out = sqrt(view(wide, all, slice(none, none, 2))) * m / col; },
        [&] { return explain(sqrt(view(wide, all, slice(none, none, 2))) * m / col); },
        stride2_kernel(rows * cols));
}

} // namespace

TEST_CASE("the register form gives the blocked form's bits, flat, at every tail length"
          * doctest::skip(skip_here)) {
    // From 2 elements: a loop of one runs the scalar functions (the strided kernel).
    for (const fusor::index_t n : {2, 3, 7, 8, 9, 15, 16, 17, 31, 100, 1023, 1024, 1025, 2500}) {
        check_layouts<float>(n);
        check_layouts<double>(n);
    }
}

namespace {
// `assign` (which writes `out`, already of the result's shape) run as the flat case's inline
// loop (planning::plan_flat_math) and through the expanded plan (flat plans off: the general
// walk's plan, its driver and its buffers): both compute the math in registers, trace the
// kernel explain names, and give the same bits. (bench_small's allocation column shows that
// the inline loop allocates nothing; here the trace hooks allocate.)
template <class T, class Assign, class Explain>
void check_inline(fusor::tensor<T>& out, Assign assign, Explain explain) {
    const auto doc = nlohmann::json::parse(explain().json());
    trace::clear();
    assign();
    CHECK(trace::kernels == trace::kernels_from_json(doc));
    CHECK(trace::kernels.back() == "registers");
    REQUIRE(trace::seen.size() == 1); // one inner loop of every element
    CHECK(trace::seen[0].n == out.size());
    const fusor::tensor<T> inline_result = out;
    fusor::planning::flat_plans_enabled = false;
    trace::clear();
    assign();
    fusor::planning::flat_plans_enabled = true;
    CHECK(trace::kernels.back() == "registers");
    CHECK(same_bits(inline_result, out));
}

template <class T>
void check_flat_inline(fusor::index_t n) {
    using namespace fusor;
    CAPTURE(n);
    const tensor<T> a = values<T>(n, 6.0, -3.0), b = values<T>(n, 2.0, 0.5);
    tensor<T> out(shape_t{n});
    static_assert(planning::flat_math_register_form<decltype(sqrt(a * a + b * b))>);
#if FUSOR_VECTOR_MATH
    check_inline(
        out, [&] { out = exp(a) * sin(b); }, [&] { return explain(out, exp(a) * sin(b)); });
    check_inline(
        out,
        [&] { out = -exp(a - T(2.5)) / (log(b * b + T(1)) + T(0.25)); },
        [&] { return explain(out, -exp(a - T(2.5)) / (log(b * b + T(1)) + T(0.25))); });
    check_inline(
        out, [&] { out = tanh(a); }, [&] { return explain(out, tanh(a)); });
    check_inline(
        out,
        [&] { out = T(1) / (T(1) + exp(-a)); },
        [&] { return explain(out, T(1) / (T(1) + exp(-a))); });
#endif
    // Multiplying and adding (g++ may contract them into a fused multiply-add: the inline loop
    // and the expanded plan's run one copy of the loop, exec::registers_call).
    check_inline(
        out, [&] { out = sqrt(a * a + b * b); }, [&] { return explain(out, sqrt(a * a + b * b)); });
    check_inline(
        out,
        [&] { out = sqrt(square(a) + square(b)); },
        [&] { return explain(out, sqrt(square(a) + square(b))); });
    check_inline(
        out, [&] { out = sqrt(b) * a; }, [&] { return explain(out, sqrt(b) * a); });
    // Views of one tensor a step apart (the twins test must see that they differ), and one
    // read twice.
    const auto head = view(b, slice(none, -1)), tail = view(b, slice(1, none));
    tensor<T> shorter(shape_t{n - 1});
    check_inline(
        shorter,
        [&] { shorter = sqrt(head * tail + head * head); },
        [&] { return explain(shorter, sqrt(head * tail + head * head)); });
}
} // namespace

TEST_CASE("the flat case's math runs inline in registers with the expanded plan's bits"
          * doctest::skip(skip_here)) {
    using namespace fusor;
    for (const index_t n : {3, 7, 8, 9, 15, 16, 17, 31, 100, 1023, 1024, 1025, 2500, 65535}) {
        check_flat_inline<float>(n);
        check_flat_inline<double>(n);
    }
}

namespace {
// The row-broadcast case with math functions (planning::rows_math_register_form): `assign`
// writes `out` of (rows, cols); inline a register per row when `inline_rows` (one inner loop
// per row traced, the kernel explain names), with the bits of the expanded plan either way.
template <class T, class Assign, class Explain>
void check_rows_inline(fusor::tensor<T>& out, bool inline_rows, Assign assign, Explain explain) {
    const auto shown = explain();
    const auto doc = nlohmann::json::parse(shown.json());
    const bool says_rows = shown.text().find("each row a register at a time") != std::string::npos;
    trace::clear();
    assign();
    CHECK(trace::kernels == trace::kernels_from_json(doc));
    const fusor::index_t rows = out.shape()[0], cols = out.shape()[1];
    if (inline_rows) {
        CHECK(says_rows);
        CHECK(trace::kernels.back() == "registers");
        REQUIRE(trace::seen.size() == static_cast<std::size_t>(rows)); // a loop per row
        for (const auto& loop : trace::seen)
            CHECK(loop.n == cols);
    } else {
        CHECK_FALSE(says_rows);
    }
    const fusor::tensor<T> inline_result = out;
    fusor::planning::flat_plans_enabled = false;
    assign();
    fusor::planning::flat_plans_enabled = true;
    CHECK(same_bits(inline_result, out));
}

template <class T>
void check_math_rows(fusor::index_t rows, fusor::index_t cols) {
    using namespace fusor;
    CAPTURE(rows);
    CAPTURE(cols);
    const tensor<T> x = reshape(values<T>(rows * cols, 6.0, -3.0), {rows, cols});
    const tensor<T> m = reshape(values<T>(rows, 2.0, -1.0), {rows, 1});
    const tensor<T> s = reshape(values<T>(rows, 1.0, 0.5), {rows, 1});
    const tensor<T> row = values<T>(cols, 1.5, 0.25);
    tensor<T> out(shape_t{rows, cols});
    const bool fills = planning::math_rows_fill_registers(cols, static_cast<index_t>(sizeof(T)));
    static_assert(planning::rows_math_register_form<decltype(sqrt(x - m + T(4)) / s)>);
    static_assert(!planning::rows_math_register_form<decltype(sqrt(x * m + row))>);
    // Inline where the rows fill half a register and the loop per row cannot contract.
    auto inline_for = [fills](const auto& e) {
        return fills && planning::rows_math_register_form<std::decay_t<decltype(e)>>;
    };
    check_rows_inline(
        out,
        inline_for(sqrt(x - m + T(4)) / s),
        [&] { out = sqrt(x - m + T(4)) / s; },
        [&] { return explain(out, sqrt(x - m + T(4)) / s); });
    // Multiplying and adding: the expanded plan (the compiler may contract them otherwise in
    // a loop per row).
    check_rows_inline(
        out,
        false,
        [&] { out = sqrt(x * m + row + T(8)); },
        [&] { return explain(out, sqrt(x * m + row + T(8))); });
#if FUSOR_VECTOR_MATH
    check_rows_inline(
        out, fills, [&] { out = exp(x - m); }, [&] { return explain(out, exp(x - m)); });
    check_rows_inline(
        out, fills, [&] { out = exp(x - m) / s; }, [&] { return explain(out, exp(x - m) / s); });
    check_rows_inline(
        out, fills, [&] { out = tanh(x * row); }, [&] { return explain(out, tanh(x * row)); });
    check_rows_inline(
        out,
        inline_for(log(s / (x - m + T(5))) - sin(row)),
        [&] { out = log(s / (x - m + T(5))) - sin(row); },
        [&] { return explain(out, log(s / (x - m + T(5))) - sin(row)); });
#endif
}
} // namespace

TEST_CASE("the row-broadcast case's math runs inline a register per row with the expanded plan's "
          "bits"
          * doctest::skip(skip_here)) {
    for (const fusor::index_t rows : {2, 3, 8, 33})
        for (const fusor::index_t cols : {2, 3, 4, 5, 8, 9, 16, 17, 31, 100, 1024}) {
            check_math_rows<float>(rows, cols);
            check_math_rows<double>(rows, cols);
        }
}

namespace {
// A loop nest's rows a register at a time (loop_plan::rows_in_registers, chosen by
// planning::choose_math_in_registers): a loop with its math in registers, reading an operand
// still in the row (here reduction results, temporaries of shape (rows, 1)), whose rows are two
// registers long or more, runs row by row with the still operand's element broadcast into a
// register. `assign` writes `out`: explain says so when `by_rows`, and not otherwise; every
// inner loop that ran is one explain printed; the bits are the blocked form's. A softmax over
// enough rows runs by row blocks instead (plan/row_blocks.hpp: the loop storing exp(x - m) runs
// row by row, the loop that divides calls no function): then the kernels are not compared.
template <class T, class Assign, class Explain>
void check_nest_rows(fusor::tensor<T>& out, bool by_rows, Assign assign, Explain explain) {
    const auto shown = explain();
    const auto doc = nlohmann::json::parse(shown.json());
    const bool says_rows = explain_text::one_line(shown.text())
                               .find("broadcast into a register per row; rows one at a time")
                           != std::string::npos;
    const bool row_blocks = doc.contains("row_blocks");
    CHECK(says_rows == by_rows); // by row blocks: the loop storing exp(x - m)
    const auto expected = trace::loops_from_json(doc);
    trace::clear();
    assign();
    REQUIRE(trace::seen.size() == expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        CAPTURE(k);
        CHECK(trace::seen[k].loop == expected[k].loop);
        CHECK(trace::seen[k].n == expected[k].n);
        CHECK(trace::seen[k].offsets == expected[k].offsets);
    }
    if (!row_blocks) {
        check_forms(out, assign, explain, "registers");
        return;
    }
    const fusor::tensor<T> registers = out;
    fusor::planning::math_in_registers_enabled = false;
    assign();
    fusor::planning::math_in_registers_enabled = true;
    CHECK(same_bits(registers, out));
}

template <class T>
void check_nest_math_rows(fusor::index_t rows, fusor::index_t cols) {
    using namespace fusor;
    CAPTURE(rows);
    CAPTURE(cols);
    const tensor<T> x = reshape(values<T>(rows * cols, 6.0, -3.0), {rows, cols});
    const tensor<T> y = reshape(values<T>(rows * cols, 2.0, 0.5), {rows, cols}); // positive
    const tensor<T> s = reshape(values<T>(rows, 1.0, 0.5), {rows, 1});
    tensor<T> out(shape_t{rows, cols});
    const bool by_rows = planning::nest_rows_fill_registers(cols, static_cast<index_t>(sizeof(T)));
    // A row softmax: its last loop reads the maximum and the sum, each a column.
    check_nest_rows(
        out,
        by_rows,
        [&] {
            out = exp(x - max(x, 1, keepdims)) / sum(exp(x - max(x, 1, keepdims)), 1, keepdims);
        },
        [&] {
            return explain(
                out, exp(x - max(x, 1, keepdims)) / sum(exp(x - max(x, 1, keepdims)), 1, keepdims));
        });
    // A temporary and a tensor column side by side.
    check_nest_rows(
        out,
        by_rows,
        [&] { out = exp(x - max(x, 1, keepdims)) / s; },
        [&] { return explain(out, exp(x - max(x, 1, keepdims)) / s); });
    check_nest_rows(
        out,
        by_rows,
        [&] { out = sqrt(y / sum(y, 1, keepdims)); },
        [&] { return explain(out, sqrt(y / sum(y, 1, keepdims))); });
    // Multiplying and adding: the blocks (a loop per row might contract them otherwise).
    check_nest_rows(
        out,
        false,
        [&] { out = exp(x * max(x, 1, keepdims) + x); },
        [&] { return explain(out, exp(x * max(x, 1, keepdims) + x)); });
    // A reduction whose loop reads a temporary it computes (a logsumexp's row sum): its
    // kernel is traced after the maximum's loop, as explain lists them.
    {
        tensor<T> sums(shape_t{rows, 1});
        const auto doc = nlohmann::json::parse(
            explain(sums, sum(exp(x - max(x, 1, keepdims)), 1, keepdims)).json());
        trace::clear();
        sums = sum(exp(x - max(x, 1, keepdims)), 1, keepdims);
        CHECK(trace::kernels == trace::kernels_from_json(doc));
    }
    // One level: a 0-d temporary still in the one row.
    const tensor<T> v = values<T>(cols, 6.0, -3.0);
    tensor<T> out1(shape_t{cols});
    check_nest_rows(
        out1,
        by_rows,
        [&] { out1 = exp(v - max(v)); },
        [&] { return explain(out1, exp(v - max(v))); });
}
} // namespace

TEST_CASE("a loop nest's rows with math run a register per row, a still operand broadcast, with "
          "the blocked form's bits"
          * doctest::skip(skip_here || !FUSOR_VECTOR_MATH)) {
    for (const fusor::index_t rows : {1, 2, 3, 8, 33})
        for (const fusor::index_t cols : {4, 8, 15, 16, 17, 31, 32, 33, 64, 100, 1024}) {
            check_nest_math_rows<float>(rows, cols);
            check_nest_math_rows<double>(rows, cols);
        }
}

TEST_CASE("the register form gives the blocked form's bits over broadcast and strided operands"
          * doctest::skip(skip_here)) {
    for (const auto& [r, c] : std::vector<std::pair<fusor::index_t, fusor::index_t>>{
             {1, 5}, {3, 7}, {4, 16}, {9, 33}, {5, 300}, {40, 1030}}) {
        check_broadcasts<float>(r, c);
        check_broadcasts<double>(r, c);
    }
}

// Every second element of a 1-D tensor of 2n - 1 elements, so that the operand's last element
// is the tensor's last: the register reading it must read nothing past it (masked loads).
template <class T>
void check_stride2(fusor::index_t n) {
    using namespace fusor;
    CAPTURE(n);
    const tensor<T> base = values<T>(2 * n - 1, 6.0, -3.0), b = values<T>(n, 2.0, 0.5);
    const auto a = view(base, slice(none, none, 2));
    tensor<T> out = zeros<T>({n});
#if FUSOR_VECTOR_MATH
    check_forms(
        out,
        [&] { out = exp(a) * sin(b); },
        [&] { return explain(exp(a) * sin(b)); },
        stride2_kernel(n));
    check_forms(
        out, [&] { out = tanh(a); }, [&] { return explain(tanh(a)); }, stride2_kernel(n));
#endif
    check_forms(
        out,
        [&] { out = sqrt(a * a + b * a); },
        [&] { return explain(sqrt(a * a + b * a)); },
        stride2_kernel(n, true));
    check_forms(
        out,
        [&] { out = -sqrt(a - b) / (a * b); },
        [&] { return explain(-sqrt(a - b) / (a * b)); },
        stride2_kernel(n, true));
    check_forms(
        out,
        [&] { out = sqrt(a) / (b - a) + T(2); },
        [&] { return explain(sqrt(a) / (b - a) + T(2)); },
        stride2_kernel(n));
    check_forms(
        out,
        [&] { out = sqrt(square(a)); },
        [&] { return explain(sqrt(square(a))); },
        stride2_kernel(n));
}

TEST_CASE("operands at stride 2 read a register at a time give the blocked form's bits"
          * doctest::skip(skip_here)) {
    // Tails of every length in both register widths, blocks of 1024 (the register form runs
    // the blocked kernel's blocks) crossed, and loops on both sides of the size rule.
    const fusor::index_t least = fusor::planning::stride2_register_min_elements;
    for (const fusor::index_t n : {fusor::index_t{2},
                                   fusor::index_t{9},
                                   fusor::index_t{2049},
                                   least - 1,
                                   least,
                                   least + 1,
                                   least + 3,
                                   least + 7,
                                   least + 8,
                                   least + 9,
                                   least + 15,
                                   least + 17,
                                   least + 1023,
                                   least + 1025}) {
        check_stride2<float>(n);
        check_stride2<double>(n);
    }
}

// `rows` rows of `2 * cols - 1` elements whose last is the last of a page that the next,
// unmapped, page follows; every second element of each row: a load one element past the
// operand's last faults. The loop reads every row's last register through masked loads
// (registers_loop: the whole-register form reads one element further).
template <class T>
void check_stride2_at_page_end(fusor::index_t rows, fusor::index_t cols) {
    using namespace fusor;
    CAPTURE(rows);
    CAPTURE(cols);
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const index_t elements = rows * (2 * cols - 1);
    const std::size_t bytes = static_cast<std::size_t>(elements) * sizeof(T);
    const std::size_t mapped = (bytes + page - 1) / page * page + page;
    void* memory =
        mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(memory != MAP_FAILED);
    char* guard = static_cast<char*>(memory) + (mapped - page);
    REQUIRE(mprotect(guard, page, PROT_NONE) == 0);
    T* first = reinterpret_cast<T*>(guard) - elements;
    for (index_t i = 0; i < elements; ++i)
        first[i] = static_cast<T>(static_cast<double>((i * 37) % 101) / 16.0);
    const auto base = rows == 1 ? adapt(first, {2 * cols - 1}) : adapt(first, {rows, 2 * cols - 1});
    const auto a =
        rows == 1 ? view(base, slice(none, none, 2)) : view(base, all, slice(none, none, 2));
    tensor<T> want = zeros<T>(a.shape());
    for (index_t r = 0; r < rows; ++r)
        for (index_t c = 0; c < cols; ++c)
            want.data()[r * cols + c] = std::sqrt(first[r * (2 * cols - 1) + 2 * c]);
    tensor<T> out = zeros<T>(a.shape());
    trace::clear();
    out = sqrt(a); // a correctly rounded operation: the scalar loop's bits
    CHECK(trace::kernels.back() == stride2_kernel(rows * cols));
    CHECK(same_bits(out, want));
    trace::clear();
    out = sqrt(a) + a; // two reads of the operand per register
    CHECK(trace::kernels.back() == stride2_kernel(rows * cols));
    for (index_t i = 0; i < out.size(); ++i)
        want.data()[i] += first[(i / cols) * (2 * cols - 1) + 2 * (i % cols)];
    CHECK(same_bits(out, want));
    munmap(memory, mapped);
}

TEST_CASE("a register of operands at stride 2 reads nothing past the operand's last element"
          * doctest::skip(skip_here)) {
    const fusor::index_t least = fusor::planning::stride2_register_min_elements;
    // Rows that end with a whole register (of 16 floats, 8 doubles) and with a partial one, one
    // row or several, blocks of 1024 crossed.
    for (const fusor::index_t cols : {least, least + 16, least + 8, least + 1024, least + 5}) {
        check_stride2_at_page_end<float>(1, cols);
        check_stride2_at_page_end<double>(1, cols);
    }
    check_stride2_at_page_end<float>(16, 1024);
    check_stride2_at_page_end<double>(8, 2048 + 24);
}

TEST_CASE("operands off unit stride other than 2 keep the gather buffer"
          * doctest::skip(skip_here)) {
    using namespace fusor;
    const index_t n = planning::stride2_register_min_elements;
    const tensor<float> base = values<float>(3 * n, 4.0, 0.0);
    const auto every2 = view(base, slice(none, 2 * n, 2)),
               every3 = view(base, slice(none, none, 3));
    const auto reversed2 = view(base, slice(2 * n - 1, none, -2));
    tensor<float> out = zeros<float>({n});
    // A stride of 3 beside a stride of 2; a stride of -2.
    check_forms(
        out,
        [&] { out = sqrt(every2 + every3); },
        [&] { return explain(sqrt(every2 + every3)); },
        "registers");
    check_forms(
        out, [&] { out = sqrt(reversed2); }, [&] { return explain(sqrt(reversed2)); }, "registers");
    // Stride 2 and the contiguous operands beside it.
    check_forms(
        out,
        [&] { out = sqrt(every2 * view(base, slice(none, n))); },
        [&] { return explain(sqrt(every2 * view(base, slice(none, n)))); },
        stride2_kernel(n));
    // The planner's rule for contraction: a product and a sum anywhere in the expression.
    CHECK(!planning::contractible<decltype(sqrt(every2 * every2))>);
    CHECK(!planning::contractible<decltype(sqrt(every2 + every2))>);
    CHECK(
        planning::contractible<decltype(sqrt(every2) * every2 - every2)> == bool(FUSOR_FMA_TARGET));
    CHECK(planning::contractible<decltype(square(every2) + 1.0f)> == bool(FUSOR_FMA_TARGET));
    if (FUSOR_STRIDE2_IN_REGISTERS) {
        const std::string text = explain_text::one_line(explain(sqrt(every2)).text());
        CHECK(text.find("every second element read by two loads and a permute")
              != std::string::npos);
    }
}

TEST_CASE("the planner keeps the blocked form where registers cannot apply"
          * doctest::skip(skip_here)) {
    using namespace fusor;
    const tensor<float> a = values<float>(300, 4.0, 0.0);
    // A destination off unit stride.
    tensor<float> wide = zeros<float>({600});
    auto every_second = view(wide, slice(none, none, 2));
    check_forms(
        wide,
        [&] { every_second = sqrt(a * a + 1.0f); },
        [&] { return explain(every_second, sqrt(a * a + 1.0f)); },
        "blocked");
    // A destination of another element type.
    tensor<double> wider = zeros<double>({300});
    trace::clear();
    wider = sqrt(a * a + 1.0f);
    CHECK(trace::kernels == std::vector<std::string>{"blocked"});
    // An operation without a register form (maximum) over the function.
    tensor<float> out;
    check_forms(
        out,
        [&] { out = maximum(sqrt(a), 1.0f); },
        [&] { return explain(maximum(sqrt(a), 1.0f)); },
        "blocked");
    // Another element type below the function (int32 -> float64 inside sqrt).
    const tensor<std::int32_t> i = zeros<std::int32_t>({300}) + 7;
    tensor<double> out64;
    check_forms(
        out64, [&] { out64 = sqrt(i); }, [&] { return explain(sqrt(i)); }, "blocked");
}

namespace {
// Flat rows (planning::is_flat_rows_case), computed a register at a time
// (flat_plan::rows_in_registers) and by the plain loop: the same bits, and each runs where
// explain says. With a column, every row length (also rows short enough to collapse) but
// those too long for a column's splat (more than broadcast_block: the general walk's broadcast
// kernel); with rows only, rows that do not collapse and that the compiler's loop would end one
// element at a time (not a whole number of half registers). Where the tensors end does not
// matter (no plan depends on it: the buffers have slack, core/tail_slack.hpp).
template <class T>
void check_rows(fusor::index_t rows, fusor::index_t cols) {
    using namespace fusor;
    CAPTURE(rows);
    CAPTURE(cols);
    const tensor<T> x = reshape(values<T>(rows * cols, 4.0, -1.0), {rows, cols});
    const tensor<T> row = values<T>(cols, 1.0, 0.25), scale = values<T>(cols, 2.0, 1.0);
    const tensor<T> m = reshape(values<T>(rows, 3.0, 0.5), {rows, 1});
    const tensor<T> s = reshape(values<T>(rows, 1.0, 2.0), {rows, 1});
    tensor<T> out = zeros<T>({rows, cols});
    const bool collapsed = collapses(rows, cols, index_t{sizeof(T)});
    const index_t half_register = compiled_simd_target().bytes / 2 / index_t{sizeof(T)};
    const std::string plain = collapsed ? "collapsed" : "broadcast";
    const std::string columns = cols > broadcast_block ? "broadcast" : "row_registers";
    check_forms(
        out, [&] { out = (x - m) / s; }, [&] { return explain(out, (x - m) / s); }, columns, plain);
    // In place: the destination is also the dense operand (each register read, then stored).
    tensor<T> y = zeros<T>({rows, cols});
    check_forms(
        y,
        [&] {
            std::copy(x.data(), x.data() + x.size(), y.data());
            y = (y - m) / s;
        },
        [&] { return explain(y, (y - m) / s); },
        columns,
        plain);
    check_forms(
        out,
        [&] { out = -(x - m) / s + T(2); },
        [&] { return explain(out, -(x - m) / s + T(2)); },
        columns,
        plain);
    check_forms(
        out,
        [&] { out = (x + row) / m - s; },
        [&] { return explain(out, (x + row) / m - s); },
        columns,
        plain);
    const std::string plain_rows = collapsed ? "collapsed" : "contiguous";
    check_forms(
        out,
        [&] { out = (x - row) / scale; },
        [&] { return explain(out, (x - row) / scale); },
        !collapsed && cols % half_register != 0 ? "row_registers" : plain_rows,
        plain_rows);
    // A product and a sum (planning::contractible, on the FMA targets this file is built for)
    // and a destination of the other element type keep the plain loop.
    // (Rows too long for flat rows' splat: the general walk holds the one column in a register.)
    const std::string held = cols > broadcast_block ? "held" : plain;
    check_forms(
        out, [&] { out = x * m + row; }, [&] { return explain(out, x * m + row); }, held, held);
    using other = std::conditional_t<std::is_same_v<T, float>, double, float>;
    tensor<other> converted = zeros<other>({rows, cols});
    trace::clear();
    converted = (x - m) / s;
    REQUIRE(trace::kernels.size() == 1);
    // Whether rows of 17 to 48 elements collapse depends on the destination's bytes per row.
    CHECK(trace::kernels[0]
          == (collapses(rows, cols, index_t{sizeof(other)}) ? "collapsed" : "broadcast"));
}
} // namespace

TEST_CASE("flat rows computed a register at a time give the plain loop's bits"
          * doctest::skip(skip_here)) {
    for (const fusor::index_t rows : {2, 3, 8, 40})
        for (const fusor::index_t cols :
             {2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 1024, 1025}) {
            check_rows<float>(rows, cols);
            check_rows<double>(rows, cols);
        }
}

TEST_CASE("buffers fusor allocates end with zeroed slack for the masked last register") {
    using namespace fusor;
    // A masked register from a buffer's last element reaches at most 64 bytes past it; those
    // bytes belong to the buffer and were written when it was made, so their page is present
    // (a masked access reaching a page that is not is a fault-suppression assist).
    constexpr std::size_t slack = detail::tail_slack_bytes;
    CHECK(slack >= static_cast<std::size_t>(compiled_simd_target().bytes));
    const auto zeroed = [](const void* end) {
        const auto* p = static_cast<const unsigned char*>(end);
        return std::all_of(p, p + slack, [](unsigned char c) { return c == 0; });
    };
    // A tensor's heap elements (past the inline capacity), of several element types and sizes.
    for (const index_t n : {9, 17, 100, 1023, 4096, 100001}) {
        CAPTURE(n);
        {
            // Its slack dirtied, then freed: the next buffer of this size is likely the same.
            tensor<float> used(shape_t{n});
            std::fill(used.data(), used.data() + n + index_t{slack / sizeof(float)}, 1.0f);
        }
        const tensor<float> f = ones<float>({n});
        CHECK(malloc_usable_size(const_cast<float*>(f.data())) >= n * sizeof(float) + slack);
        CHECK(zeroed(f.data() + n));
        const tensor<double> d(shape_t{n});
        CHECK(malloc_usable_size(const_cast<double*>(d.data())) >= n * sizeof(double) + slack);
        CHECK(zeroed(d.data() + n));
        const tensor<bool> b = zeros<bool>({n, 8}); // past bool's 32 inline elements
        CHECK(zeroed(b.data() + 8 * n));
        // An evaluation's fresh result and a reshape into a new buffer alike.
        const tensor<float> e = eval(f * 2.0f);
        CHECK(zeroed(e.data() + n));
    }
    // Inline elements (a 0-d result, a short vector) are followed by the tensor's own members.
    const tensor<float> small = ones<float>({3});
    const auto* first = reinterpret_cast<const char*>(small.data());
    const auto* object = reinterpret_cast<const char*>(&small);
    CHECK(first >= object);
    CHECK(first + 8 * sizeof(float) + slack <= object + sizeof(small));
    // Scratch buffers (splats, gathers, vector-math blocks), zeroed again at every make.
    {
        exec::scratch s;
        float* a = s.make<float>(10);
        std::fill(a, a + 10 + slack / sizeof(float), 1.0f);
    }
    {
        exec::scratch s;
        float* a = s.make<float>(10); // the same block again
        CHECK(zeroed(a + 10));
        double* b = s.make<double>(1000);
        CHECK(zeroed(b + 1000));
    }
}

TEST_CASE("flat rows ending at a page end run in registers and give the same bits"
          * doctest::skip(skip_here)) {
    using namespace fusor;
    // Views into page-aligned memory, ending at a page end or a register before it: the plan is
    // the same either way (where a buffer ends is not a planning input).
    alignas(4096) static float pages[3 * 1024];
    for (index_t i = 0; i < 3 * 1024; ++i)
        pages[i] = static_cast<float>(i % 97) * 0.25f;
    const tensor<float> m = reshape(values<float>(3, 3.0, 0.5), {3, 1});
    const index_t lanes = compiled_simd_target().bytes / 4;
    for (const index_t x_gap : {index_t{0}, lanes}) {
        for (const index_t out_gap : {index_t{0}, lanes}) {
            CAPTURE(x_gap);
            CAPTURE(out_gap);
            const auto x = adapt(pages + 1024 - 24 - x_gap, shape_t{3, 8});
            float* out_at = out_gap == 0 ? pages + 2048 - 24 : pages + 2048 + 512;
            auto out = adapt(out_at, shape_t{3, 8});
            const auto doc = nlohmann::json::parse(explain(out, (x - m) / 2.0f).json());
            trace::clear();
            out = (x - m) / 2.0f;
            CHECK(trace::kernels == trace::kernels_from_json(doc));
            CHECK(trace::kernels.back() == std::string("row_registers"));
            const tensor<float> result = eval(out);
            planning::math_in_registers_enabled = false;
            const tensor<float> plain = eval((x - m) / 2.0f);
            planning::math_in_registers_enabled = true;
            CHECK(same_bits(result, plain));
        }
    }
}

TEST_CASE("explain says when flat rows run in registers" * doctest::skip(skip_here)) {
    using namespace fusor;
    const tensor<float> x = reshape(values<float>(8 * 16, 4.0, 0.0), {8, 16});
    const tensor<float> m = reshape(values<float>(8, 1.0, 0.0), {8, 1});
    const tensor<float> s = reshape(values<float>(8, 1.0, 2.0), {8, 1});
    tensor<float> out = zeros<float>({8, 16});
    const auto e = explain(out, (x - m) / s);
    const std::string text = explain_text::one_line(e.text());
    CHECK(text.find("kernel:  broadcast (stride 0: t1, t2, broadcast into a register per row; "
                    "flat rows and columns)")
          != std::string::npos);
    CHECK(text.find("(each row a register at a time, the tail by a masked store)")
          != std::string::npos);
    CHECK(e.json().find("\"runs\":\"row_registers\"") != std::string::npos);
    // The plan an evaluation runs holds the decision: observed, it is the plan explain printed.
    {
        const exec_test::observing watch;
        out = (x - m) / s;
    }
    const auto& ran = exec_test::ran;
    REQUIRE(ran.size() == 1);
    CHECK(ran[0].rows_in_registers);
    CHECK(ran[0] == make_plan((x - m) / s, detail::layout_of(out.view())));
    planning::math_in_registers_enabled = false;
    const std::string plain = explain_text::one_line(explain(out, (x - m) / s).text());
    planning::math_in_registers_enabled = true;
    CHECK(plain.find("splatted per row") != std::string::npos);
    CHECK(plain.find("register at a time") == std::string::npos);
}

TEST_CASE("explain says when the math runs in registers" * doctest::skip(skip_here)) {
    using namespace fusor;
    const tensor<double> a = values<double>(64, 4.0, 0.0);
    const std::string text = explain_text::one_line(explain(sqrt(a * a + 1.0)).text());
    CHECK(text.find("; in registers with their arguments") != std::string::npos);
    planning::math_in_registers_enabled = false;
    const std::string blocked = explain_text::one_line(explain(sqrt(a * a + 1.0)).text());
    planning::math_in_registers_enabled = true;
    CHECK(blocked.find("in registers") == std::string::npos);
}

// ---- float32 sums: the terms a 512-bit register at a time (reduce_kernel::pairwise_simd) ----
// The lanes are the plain pairwise loop's, so the sums must have its bits: checked against the
// same evaluation with the register forms turned off, for every path that reaches the kernel
// (the flat reduction, the general plan's contiguous runs) and lengths around each lane count
// and block (8 and 32 lanes, runs of 512, blocks of 4,096, halves of longer runs).
namespace {
const bool skip_sums = !FUSOR_SUM_IN_REGISTERS || !processor_has_target();

// The kernel of `runs` runs of `length` terms with the register forms off: the plain pairwise
// loop, several runs of 8 to 255 terms at a time (reduce_kernel::pairwise_rows); from 256 terms
// the float lanes, with the register forms or without (reduce_kernel::float_lanes).
std::string plain_sum_kernel(fusor::index_t runs, fusor::index_t length) {
    if (length >= fusor::sum_float_lane_min_run)
        return "float_lanes";
    return runs >= 2 && length >= fusor::pairwise_rows_min_run
                   && length <= fusor::pairwise_rows_max_run
               ? "pairwise_rows"
               : "pairwise";
}

// The sum's two forms: check_forms, the plain pairwise loop the other form (`plain`: its
// kernel, plain_sum_kernel).
template <class Assign, class Explain>
void check_sum_forms(fusor::tensor<float>& out,
                     Assign assign,
                     Explain explain,
                     const std::string& expect,
                     const std::string& plain) {
    check_forms(out, assign, explain, expect, plain);
}

void check_sums(fusor::index_t rows, fusor::index_t n) {
    using namespace fusor;
    CAPTURE(rows);
    CAPTURE(n);
    const tensor<float> a = reshape(values<float>(rows * n, 6.0, -3.0), {rows, n});
    const tensor<float> b = reshape(values<float>(rows * n, 2.0, 0.5), {rows, n});
    // The planner's rule (planning::sum_in_registers_pays): runs of 32 or more, and a lone run
    // only from 512 (32 lanes); but pairwise_rows_per_pass runs or more that pairwise_rows
    // takes stay with it (planning::rows_at_once_before_registers).
    // Runs that pairwise_rows takes compute their terms in registers (pairwise_rows_simd).
    const auto kernel = [](index_t runs, index_t length) {
        const std::string plain = plain_sum_kernel(runs, length);
        if (plain == "float_lanes")
            return plain;
        const bool rows_first =
            plain == "pairwise_rows" && planning::rows_at_once_before_registers(length, runs);
        return planning::sum_in_registers_pays(length, runs) && !rows_first
                   ? std::string("pairwise_simd")
               : plain == "pairwise_rows" ? std::string("pairwise_rows_simd")
                                          : plain;
    };
    CHECK(planning::rows_at_once_before_registers(511, fusor::pairwise_rows_per_pass));
    CHECK(!planning::rows_at_once_before_registers(512, fusor::pairwise_rows_per_pass));
    CHECK(!planning::rows_at_once_before_registers(511, fusor::pairwise_rows_per_pass - 1));
    CHECK(planning::sum_in_registers_pays(32, 2));
    CHECK(!planning::sum_in_registers_pays(31, 2));
    CHECK(!planning::sum_in_registers_pays(511, 1));
    CHECK(planning::sum_in_registers_pays(512, 1));
    const std::string want = kernel(rows, n), plain = plain_sum_kernel(rows, n);
    // An expression that multiplies and adds a product (planning::multiply_add_shaped) keeps
    // pairwise_rows' plain loop: see `c - a * 1.37f` below.
    const std::string fused = want == "pairwise_rows_simd" ? plain : want;
    tensor<float> out;
    // The flat reduction: every row a run.
    check_sum_forms(
        out, [&] { out = sum(a, 1); }, [&] { return explain(sum(a, 1)); }, want, plain);
    check_sum_forms(
        out, [&] { out = sum(a * b, 1); }, [&] { return explain(sum(a * b, 1)); }, want, plain);
    // One operand read twice: its register loaded once (twins_alike), the same bits.
    check_sum_forms(
        out, [&] { out = sum(a * a, 1); }, [&] { return explain(sum(a * a, 1)); }, want, plain);
    check_sum_forms(
        out,
        [&] { out = mean(-a / b - 2.0f * b, 1); },
        [&] { return explain(mean(-a / b - 2.0f * b, 1)); },
        fused,
        plain);
    // A column (one element per run) in the flat reduction: splatted per run by the plain
    // loop, broadcast into a register by pairwise_rows_simd and, from sum_float_lane_min_run
    // terms, float_lanes_simd; over broadcast_block terms, the general plan's blocks (the
    // plain loop either way).
    const tensor<float> m = reshape(values<float>(rows, 1.5, -0.75), {rows, 1});
    const bool columns_rows = rows >= 2 && n >= pairwise_rows_min_run
                              && n <= std::min(pairwise_rows_max_run, broadcast_block)
                              && n < sum_float_lane_min_run;
    const bool columns_float_lanes =
        rows >= 2 && n >= sum_float_lane_min_run && n <= broadcast_block;
    const std::string columns_plain = n >= sum_float_lane_min_run ? "float_lanes"
                                      : columns_rows              ? "pairwise_rows"
                                                                  : "pairwise";
    const std::string columns_want = columns_rows          ? "pairwise_rows_simd"
                                     : columns_float_lanes ? "float_lanes_simd"
                                                           : columns_plain;
    check_sum_forms(
        out,
        [&] { out = sum((a - m) * (a - m), 1); },
        [&] { return explain(sum((a - m) * (a - m), 1)); },
        columns_want,
        columns_plain);
    check_sum_forms(
        out,
        [&] { out = mean(m / b - a, 1); },
        [&] { return explain(mean(m / b - a, 1)); },
        columns_want,
        columns_plain);
    // `c - a * 1.37f` with c the product rounded: a loop that fuses the multiply and the
    // subtraction (FMA) sums the products' rounding errors, one that does not sums zeros, so the
    // two forms must fuse alike. g++ fused it in the plain loop and not in pairwise_rows_simd's:
    // such an expression keeps pairwise_rows (planning::rows_terms_in_registers).
    const tensor<float> c = a * 1.37f;
    check_sum_forms(
        out,
        [&] { out = sum(c - a * 1.37f, 1); },
        [&] { return explain(sum(c - a * 1.37f, 1)); },
        fused,
        plain);
    check_sum_forms(
        out,
        [&] { out = sum(c - a * m, 1); },
        [&] { return explain(sum(c - a * m, 1)); },
        columns_plain,
        columns_plain);
    // Every element one run (the flat case's 0-d result).
    const std::string whole = kernel(1, rows * n);
    check_sum_forms(
        out,
        [&] { out = sum(a * b); },
        [&] { return explain(sum(a * b)); },
        whole,
        plain_sum_kernel(1, rows * n));
    // The general plan: rows of n - 1 of the n elements, contiguous but not flat.
    if (n > 1) {
        const auto part = view(a, all, slice(0, n - 1));
        const std::string cut = kernel(rows, n - 1);
        check_sum_forms(
            out,
            [&] { out = sum(part, 1); },
            [&] { return explain(sum(part, 1)); },
            cut,
            plain_sum_kernel(rows, n - 1));
        // A view read twice: alike, loaded once.
        check_sum_forms(
            out,
            [&] { out = sum(part * part, 1); },
            [&] { return explain(sum(part * part, 1)); },
            cut,
            plain_sum_kernel(rows, n - 1));
    }
}
} // namespace

TEST_CASE("a float32 sum's terms convert a register at a time, with the plain loop's bits"
          * doctest::skip(skip_sums)) {
    for (const fusor::index_t n : {8,   16,  31,  32,  33,  47,   48,   63,   64,   65,    100,
                                   255, 256, 511, 512, 513, 1000, 4095, 4096, 4097, 10000, 70001})
        for (const fusor::index_t rows : {1, 3, 9}) // 9: pairwise_rows from 8 runs (AVX-512)
            check_sums(rows, n);
    for (const fusor::index_t rows : {2, 8, 16, 17}) // whole passes, and runs left over
        for (const fusor::index_t n : {8, 9, 15, 16, 17, 24, 100, 256, 257})
            check_sums(rows, n);
}

TEST_CASE("a flat reduction's float lanes broadcast its column into a register, as explain says"
          * doctest::skip(skip_sums)) {
    using namespace fusor;
    // S7's step: a row's squared deviations summed, m a column (docs/performance.md).
    const tensor<float> x = reshape(values<float>(64 * 256, 6.0, -3.0), {64, 256});
    const tensor<float> m = reshape(values<float>(64, 1.5, -0.75), {64, 1});
    const std::string text = explain_text::one_line(explain(sum((x - m) * (x - m), 1)).text());
    CHECK(text.find("kernel:  broadcast (stride 0: t1, t1', broadcast into a register per run; "
                    "flat runs and columns)")
          != std::string::npos);
    CHECK(text.find("vectors: 32 float32 lanes of up to 16 terms, then 32 float64 lanes "
                    "(AVX-512, 16 terms per load)")
          != std::string::npos);
    // With the register forms off, the column is splatted per run: the same bits.
    planning::math_in_registers_enabled = false;
    const std::string plain = explain_text::one_line(explain(sum((x - m) * (x - m), 1)).text());
    planning::math_in_registers_enabled = true;
    CHECK(plain.find("splatted per run; flat runs and columns") != std::string::npos);
    CHECK(plain.find("then 32 float64 lanes (AVX-512, 64-byte registers)") != std::string::npos);
}

TEST_CASE("a sum keeps the plain pairwise loop where its terms cannot convert in registers"
          * doctest::skip(skip_sums)) {
    using namespace fusor;
    // Four runs of 250 (a float32 run of 256 or more takes the float lanes either way).
    const tensor<float> a = reshape(values<float>(1000, 4.0, 0.0), {4, 250});
    const tensor<double> d = reshape(values<double>(1000, 4.0, 0.0), {4, 250});
    const tensor<std::int32_t> i = zeros<std::int32_t>({4, 250}) + 7;
    const auto runs = [](const explanation& e) {
        return nlohmann::json::parse(e.json())["loops"].back()["runs"].get<std::string>();
    };
    CHECK(runs(explain(sum(a, 1))) == "pairwise_simd");
    CHECK(runs(explain(sum(d, 1))) == "compensated");    // float64: compensated lanes
    CHECK(runs(explain(mean(i, 1))) == "pairwise_rows"); // int32 terms
    CHECK(runs(explain(norm(a, 1))) == "pairwise");      // a term that is not the element
    CHECK(runs(explain(sum(maximum(a, 1.0f), 1))) == "pairwise_rows"); // no register form
    CHECK(runs(explain(sum(view(a, all, slice(none, none, 2)), 1))) == "pairwise"); // strided
    CHECK(runs(explain(sum(reshape(a, {1000})))) == "float_lanes");
}

TEST_CASE("explain says when a sum's terms convert in registers" * doctest::skip(skip_sums)) {
    using namespace fusor;
    const tensor<float> a = reshape(values<float>(1000, 4.0, 0.0), {4, 250});
    const std::string text = explain_text::one_line(explain(sum(a * a, 1)).text());
    CHECK(text.find("16 float32 terms converted per load") != std::string::npos);
    planning::math_in_registers_enabled = false;
    const std::string plain = explain_text::one_line(explain(sum(a * a, 1)).text());
    planning::math_in_registers_enabled = true;
    CHECK(plain.find("converted per load") == std::string::npos);
}

namespace {
// A float32 sum over runs of a math function's values (planning::math_sum_in_registers): runs of
// one register or more take each run a register at a time, the function with its
// argument (explain: pairwise_simd, "in registers with their arguments"); the kernels traced
// are explain's, in order; the bits are the blocked form's (the collapsed or broadcast kernel,
// the function over each block's buffer).
template <class Assign, class Explain>
void check_math_sum(bool in_registers, Assign assign, Explain explain) {
    const auto shown = explain();
    const nlohmann::json doc = nlohmann::json::parse(shown.json());
    const bool says =
        doc["loops"].back()["runs"].get<std::string>() == "pairwise_simd"
        && explain_text::one_line(shown.text()).find("in registers with their arguments")
               != std::string::npos;
    CHECK(says == in_registers);
    trace::clear();
    const fusor::tensor<float> registers = assign();
    CHECK(trace::kernels == trace::kernels_from_json(doc));
    fusor::planning::math_in_registers_enabled = false;
    const fusor::tensor<float> blocked = assign();
    fusor::planning::math_in_registers_enabled = true;
    CHECK(same_bits(registers, blocked));
}
} // namespace

TEST_CASE("a float32 sum of a math function's values runs each run in registers, with the "
          "blocked form's bits"
          * doctest::skip(skip_sums || !FUSOR_VECTOR_MATH)) {
    using namespace fusor;
    for (const index_t rows : {1, 3, 8, 9, 17})
        for (const index_t cols :
             {7, 8, 15, 16, 17, 31, 33, 100, 511, 512, 600, 4096, 4097, 10001}) {
            CAPTURE(rows);
            CAPTURE(cols);
            const tensor<float> x = reshape(values<float>(rows * cols, 6.0, -3.0), {rows, cols});
            const tensor<float> y = reshape(values<float>(rows * cols, 2.0, 0.5), {rows, cols});
            const tensor<float> m = reshape(values<float>(rows, 1.0, 0.5), {rows, 1});
            // From 256 terms the float lanes, the functions over blocks
            // (reduce_kernel::float_lanes).
            const bool fits =
                planning::math_runs_fill_registers(cols, 4) && cols < sum_float_lane_min_run;
            CHECK(planning::math_runs_fill_registers(cols, 4) == (cols >= 16));
            check_math_sum(
                fits,
                [&] { return tensor<float>(sum(exp(x - m), 1)); },
                [&] { return explain(sum(exp(x - m), 1)); });
            check_math_sum( // a logsumexp's row sum: the maximum a temporary still in the run
                fits,
                [&] { return tensor<float>(sum(exp(x - max(x, 1, keepdims)), 1, keepdims)); },
                [&] { return explain(sum(exp(x - max(x, 1, keepdims)), 1, keepdims)); });
            check_math_sum(
                fits,
                [&] { return tensor<float>(mean(sin(x) / y, 1)); },
                [&] { return explain(mean(sin(x) / y, 1)); });
            // Multiplying and adding (contractible): the blocked form.
            check_math_sum(
                false,
                [&] { return tensor<float>(sum(exp(x * y + m), 1)); },
                [&] { return explain(sum(exp(x * y + m), 1)); });
        }
}

namespace {
// One column's TwoSum, a row at a time (reducers::detail::two_sum_into on scalars).
struct column_two_sum {
    double sum = 0.0, correction = 0.0;
    void add(double x) {
        const double t = sum + x;
        const double z = t - sum;
        correction += (sum - (t - z)) + (x - z);
        sum = t;
    }
    double total() const { return sum + correction; }
};
} // namespace

TEST_CASE("column sums over short rows keep their lanes in registers of this target's width"
          * doctest::skip(!processor_has_target())) {
    // Sums and means along axis 0 with at most 8 columns (exec/execute.hpp, jammed_rows_block)
    // hold the eight lanes as vectors of the register width: one on AVX-512, two on AVX2; up to
    // four registers' worth of columns (32 on AVX-512, 16 on AVX2) take four registers or two,
    // the last overlapping the one before (wide_rows_in_registers); wider rows stay in memory.
    // Each lane must still take its column's rows in order, the bits of a row at a time. (Sums
    // and differences only: a product could be contracted into an FMA in one form and not the
    // other.)
    using namespace fusor;
    CHECK(exec::detail::two_rows_lane_vectors::width == (FUSOR_TEST_AVX512 ? 8 : 4));
    CHECK(two_rows_register_columns == (FUSOR_TEST_AVX512 ? 32 : 16));
    for (const index_t cols : {1, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 23, 24, 31, 32, 33}) {
        for (const index_t rows : {2, 5, 4096, 4097}) {
            CAPTURE(cols);
            CAPTURE(rows);
            const tensor<double> d =
                reshape(values<double>(rows * cols, 1000.0, -400.0), {rows, cols});
            const tensor<double> m = values<double>(cols, 50.0, 3.0);
            std::vector<column_two_sum> s(static_cast<std::size_t>(cols)), dev(s.size());
            for (index_t r = 0; r < rows; ++r)
                for (index_t c = 0; c < cols; ++c) {
                    const double x = d.data()[r * cols + c];
                    s[static_cast<std::size_t>(c)].add(x);
                    dev[static_cast<std::size_t>(c)].add(x - m.data()[c]);
                }
            const tensor<double> sums = sum(d, 0);
            const tensor<double> means = mean(d, 0);
            const tensor<double> deviations = sum(d - m, 0);
            for (index_t c = 0; c < cols; ++c) {
                const auto k = static_cast<std::size_t>(c);
                REQUIRE(sums.data()[c] == s[k].total());
                REQUIRE(means.data()[c] == s[k].total() / static_cast<double>(rows));
                REQUIRE(deviations.data()[c] == dev[k].total());
            }
        }
    }
}
