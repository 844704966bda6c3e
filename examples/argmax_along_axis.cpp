// MNN's ArgMax on an (N, H, W) tensor along axis 1: for every (n, w), the h of the largest
// value, the first one on ties (as numpy.argmax). fusor plans it as a reduction loop whose
// accumulator (value and index) has stride 0 along the reduced axis; because axis 1 is not the
// innermost, the inner loop runs along w with a row of W accumulators, reading memory
// contiguously (explain shows the "row of accumulators" kernel).
//
// Usage: argmax_along_axis     (exit 1 if the result differs from the hand-written loop)
#include <cstdint>
#include <cstdio>
#include <iostream>

#include <fusor/fusor.hpp>

int main() {
    using fusor::index_t;
    const index_t N = 4, H = 64, W = 256;
    fusor::tensor<float> x(fusor::shape_t{N, H, W});
    for (index_t n = 0; n < N; ++n)
        for (index_t h = 0; h < H; ++h)
            for (index_t w = 0; w < W; ++w)
                x(n, h, w) = static_cast<float>((n * 7 + h * 13 + w * 29) % 61);
    // Ties: column w = 0 of batch 0 holds its maximum twice; the first (h = 3) must win.
    x(0, 3, 0) = 100.0f;
    x(0, 40, 0) = 100.0f;

    const auto e = fusor::argmax(x, 1);
    std::cout << "== explain(argmax(x, 1)) for x of shape " << x.shape() << '\n'
              << fusor::explain(e) << '\n';
    const fusor::tensor<std::int64_t> idx = e;

    // The hand-written reference: a running maximum per (n, w), strict > keeps the first.
    index_t wrong = 0;
    for (index_t n = 0; n < N; ++n)
        for (index_t w = 0; w < W; ++w) {
            index_t best = 0;
            for (index_t h = 1; h < H; ++h)
                if (x(n, h, w) > x(n, best, w))
                    best = h;
            wrong += idx(n, w) != best;
        }
    std::printf("argmax over axis 1: result shape (%td, %td), dtype int64\n",
                idx.shape()[0],
                idx.shape()[1]);
    std::printf("tie in column (0, 0) resolved to h = %td (first occurrence)\n",
                static_cast<index_t>(idx(0, 0)));
    std::printf("%s\n", wrong == 0 ? "matches the hand-written loop: ok" : "MISMATCH");
    return wrong == 0 ? 0 : 1;
}
