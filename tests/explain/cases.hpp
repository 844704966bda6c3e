// The representative expressions of the explain tests: each golden file is the explain output
// of one of them, and test_executed runs each with the inner-loop trace on.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <fusor/fusor.hpp>

namespace explain_cases {

/// One case: its name (the golden file's stem), its explanation, and `run`, which evaluates the
/// same assignment the explanation describes.
struct explain_case {
    std::string name;
    std::function<fusor::explanation()> explain;
    std::function<void()> run;
};

template <class T>
fusor::tensor<T> shaped(fusor::tensor<T> t, const fusor::shape_t& shape) {
    t.reshape(shape);
    return t;
}

// Operands live as long as the test binary: the plans hold their addresses.
struct operands {
    fusor::tensor<float> a348 = shaped(fusor::arange<float>(96), {3, 4, 8});
    fusor::tensor<float> b348 = fusor::full<float>({3, 4, 8}, 2.0f);
    fusor::tensor<float> c111 = fusor::full<float>({1, 1, 1}, 0.5f);
    fusor::tensor<float> c148 = shaped(fusor::arange<float>(32), {1, 4, 8});
    fusor::tensor<float> c311 = shaped(fusor::arange<float>(3), {3, 1, 1});
    fusor::tensor<float> x48 = shaped(fusor::arange<float>(32), {4, 8});
    fusor::tensor<float> y48 = fusor::full<float>({4, 8}, 3.0f);
    fusor::tensor<float> row8 = fusor::arange<float>(8);
    fusor::tensor<float> col41 = shaped(fusor::arange<float>(4), {4, 1});
    fusor::tensor<float> row18 = shaped(fusor::arange<float>(8), {1, 8});
    fusor::tensor<double> sq46 = shaped(fusor::arange<double>(24), {4, 6});
    fusor::tensor<double> sq64 = shaped(fusor::arange<double>(24), {6, 4});
    fusor::tensor<double> batch = shaped(fusor::arange<double>(27), {3, 3, 3});
    fusor::tensor<int32_t> votes = fusor::zeros<int32_t>({2, 3, 4});
    fusor::tensor<double> square = shaped(fusor::arange<double>(9), {3, 3});
    fusor::tensor<double> empty = fusor::zeros<double>({2, 0});
    fusor::tensor<double> zx = shaped(fusor::arange<double>(24), {6, 4});
    fusor::tensor<double> d46 = fusor::zeros<double>({4, 6});
    fusor::tensor<float> x40k = shaped(fusor::linspace<float>(-3.0, 5.0, 40000), {40, 1000});
    fusor::tensor<float> d40k = fusor::zeros<float>({40, 1000});
    fusor::tensor<float> col40 = shaped(fusor::arange<float>(40), {40, 1});
    fusor::tensor<float> out348, out48, out4, out44, outd, out8, out40k;
    fusor::tensor<int64_t> outi;
    fusor::tensor<double> outsq;

    operands() {
        for (int i = 0; i < 24; ++i)
            votes.data()[i] = (i * 7) % 5;
    }
};

inline operands& ops() {
    static operands o;
    return o;
}

inline std::vector<explain_case> all_cases() {
    using namespace fusor;
    operands& o = ops();
    std::vector<explain_case> v;
    auto add = [&](std::string name, auto make, auto run) {
        v.push_back({std::move(name), make, run});
    };
    add(
        "seed_same_shape",
        [&] { return explain(o.a348 * o.b348 + 1.0f); },
        [&] { o.out348 = o.a348 * o.b348 + 1.0f; });
    add(
        "seed_plus_1x1x1",
        [&] { return explain(o.a348 + o.c111); },
        [&] { o.out348 = o.a348 + o.c111; });
    add(
        "seed_plus_1x4x8",
        [&] { return explain(o.a348 + o.c148); },
        [&] { o.out348 = o.a348 + o.c148; });
    add(
        "seed_plus_3x1x1",
        [&] { return explain(o.a348 + o.c311); },
        [&] { o.out348 = o.a348 + o.c311; });
    add(
        "row_broadcast",
        [&] { return explain(o.x48 + o.row8); },
        [&] { o.out48 = o.x48 + o.row8; });
    add(
        "column_broadcast",
        [&] { return explain(o.x48 + o.col41); },
        [&] { o.out48 = o.x48 + o.col41; });
    add(
        "outer", [&] { return explain(o.col41 * o.row18); }, [&] { o.out48 = o.col41 * o.row18; });
    add(
        "transposed_operand",
        [&] { return explain(o.sq46 + transpose(o.sq64)); },
        [&] { o.outsq = o.sq46 + transpose(o.sq64); });
    add(
        "diagonal_batch",
        [&] { return explain(diagonal(o.batch, 1, 1, 2) * 2.0); },
        [&] { o.outsq = diagonal(o.batch, 1, 1, 2) * 2.0; });
    add(
        "fused_reduction",
        [&] { return explain(sum(o.x48 * o.y48, 1)); },
        [&] { o.out4 = sum(o.x48 * o.y48, 1); });
    add(
        "argmax_axis1",
        [&] { return explain(argmax(o.votes, 1)); },
        [&] { o.outi = argmax(o.votes, 1); });
    add(
        "softmax",
        [&] {
            return explain(exp(o.x48 - max(o.x48, 1, keepdims))
                           / sum(exp(o.x48 - max(o.x48, 1, keepdims)), 1, keepdims));
        },
        [&] {
            o.out48 = exp(o.x48 - max(o.x48, 1, keepdims))
                      / sum(exp(o.x48 - max(o.x48, 1, keepdims)), 1, keepdims);
        });
    add(
        "aliasing",
        [&] { return explain(o.square, transpose(o.square) + o.square); },
        [&] { o.square = transpose(o.square) + o.square; });
    add(
        "reshape_copy",
        [&] { return explain(reshape(transpose(o.sq46) + 1.0, {-1})); },
        [&] { o.outsq = reshape(transpose(o.sq46) + 1.0, {-1}); });
    add(
        "empty_axis", [&] { return explain(o.empty + 1.0); }, [&] { o.outsq = o.empty + 1.0; });
    // std's sqrt(var / n) reads only a reduction: hoisted into a loop over (4,) of its own.
    add(
        "zscore",
        [&] { return explain((o.zx - mean(o.zx, 0)) / fusor::std(o.zx, 0)); },
        [&] { o.outsq = (o.zx - mean(o.zx, 0)) / fusor::std(o.zx, 0); });
    // log(sum(...)) is hoisted; its loop calls log through the vector-math kernel.
    add(
        "log_softmax",
        [&] { return explain(o.x48 - log(sum(exp(o.x48), 1, keepdims))); },
        [&] { o.out48 = o.x48 - log(sum(exp(o.x48), 1, keepdims)); });
    // A lazy roll: the output cut into two cells (row 0 reads x's last row), no temporary.
    add(
        "roll_minus",
        [&] { return explain(roll(o.x48, 1, 0) - o.x48); },
        [&] { o.out48 = roll(o.x48, 1, 0) - o.x48; });
    // A lazy concatenate under a reduction along the axis it does not cut: one cell per part.
    add(
        "concatenate_sum",
        [&] {
            return explain(sum(concatenate({o.x48, o.y48}, 0), 1));
        },
        [&] {
            o.out8 = sum(concatenate({o.x48, o.y48}, 0), 1);
        });
    // Softmax over (40, 1000): exp stored once per block of 32 rows (the last of 8), read by
    // the row sum and the division (plan/row_blocks.hpp).
    add(
        "softmax_row_blocks",
        [&] {
            return explain(exp(o.x40k - max(o.x40k, 1, keepdims))
                           / sum(exp(o.x40k - max(o.x40k, 1, keepdims)), 1, keepdims));
        },
        [&] {
            o.out40k = exp(o.x40k - max(o.x40k, 1, keepdims))
                       / sum(exp(o.x40k - max(o.x40k, 1, keepdims)), 1, keepdims);
        });
    // A reduction whose result broadcasts into a view of another shape: computed into a
    // temporary, then copied (its loops write exactly its own shape).
    add(
        "reduction_into_view",
        [&] { return explain(view(o.d46, all), sum(o.sq64, 1)); },
        [&] { view(o.d46, all) = sum(o.sq64, 1); });
    // Work over a reduction only, broadcast into a larger destination: the root computed once
    // per element of its own shape (40, 1), then copied.
    add(
        "hoisted_into_view",
        [&] { return explain(view(o.d40k, all), exp(max(o.x40k, 1, keepdims) - 1.0f)); },
        [&] { view(o.d40k, all) = exp(max(o.x40k, 1, keepdims) - 1.0f); });
    // The same of a (40, 1) tensor: exp over 40 elements, then the copy (its temporary held).
    add(
        "column_root_into_view",
        [&] { return explain(view(o.d40k, all), exp(o.col40 * 0.1f)); },
        [&] { view(o.d40k, all) = exp(o.col40 * 0.1f); });
    return v;
}

} // namespace explain_cases
