// tests/toolbox/lazy_consumers.hpp: a lazy roll, pad, concatenate or stack (a segmented node)
// read by larger expressions. The caller has already compared the evaluated result with NumPy's;
// here each consumer of the lazy node must give, bit for bit, what the same consumer gives on
// that evaluated tensor. The consumers reach every way exec/segmented_eval.hpp runs: by cells
// (element-wise trees, two segmented operands in one tree, broadcast operands, a reduction whose
// axis no segment cuts), filled whole (a reduction along a cut axis, a transpose of the node),
// filled directly, and a destination view the result is broadcast into.
#pragma once

#include <cstring>
#include <string>
#include <type_traits>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

namespace lazy_consumers {

inline int checked = 0;

// Same shape and the same bytes (NaN and -0.0 included). The doctest context and message are
// here, once per element type, not in `same`'s template per pair of expressions.
template <class T>
void same_stored(const fusor::tensor<T>& g, const fusor::tensor<T>& w, const char* what) {
    INFO(what);
    REQUIRE(g.shape() == w.shape());
    bool equal = true;
    for (fusor::index_t i = 0; i < g.size() && equal; ++i)
        equal = std::memcmp(g.data() + i, w.data() + i, sizeof(T)) == 0;
    CHECK_MESSAGE(equal, "got ", g, " want ", w);
    ++checked;
}

template <class A, class B>
void same(const A& got, const B& want, const char* what) {
    using T = fusor::value_type_t<A>;
    static_assert(std::is_same_v<T, fusor::value_type_t<B>>);
    const fusor::tensor<T> g = got;
    const fusor::tensor<T> w = want;
    same_stored(g, w, what);
}

template <class L>
void check(const L& lazy) {
    using namespace fusor;
    using T = value_type_t<L>;
    const tensor<T> got = lazy;
    const shape_t& s = got.shape();
    same(maximum(lazy, lazy), got, "maximum(r, r): two segmented operands in one tree");
    same(maximum(lazy, got), got, "maximum(r, t): a tensor operand beside it");
    if (s.rank() >= 1 && s[0] > 0) {
        const tensor<T> first = view(got, slice(0, 1));
        same(maximum(lazy, first), maximum(got, first), "maximum(r, t[:1]): broadcast along 0");
        same(max(lazy, 0), max(got, 0), "max(r, 0)");
    }
    if (s.rank() >= 1 && s[s.size() - 1] > 0) {
        same(max(lazy, -1), max(got, -1), "max(r, -1)");
        same(max(lazy, -1, keepdims), max(got, -1, keepdims), "max(r, -1, keepdims)");
        if constexpr (std::is_integral_v<T>)
            same(sum(lazy, -1), sum(got, -1), "sum(r, -1)");
    }
    if (s.rank() >= 2)
        same(transpose(lazy), transpose(got), "transpose(r): a view of the node");
    if (s.rank() >= 1) {
        shape_t twice = s;
        twice.insert(twice.begin(), 2);
        tensor<T> big(twice);
        big.view() = lazy; // broadcast into a larger destination
        same(view(big, 0), got, "big[0] after big = r");
        same(view(big, 1), got, "big[1] after big = r");
    }
    same(eval_eager(maximum(lazy, got)), got, "eval_eager(maximum(r, t))");
}

} // namespace lazy_consumers
