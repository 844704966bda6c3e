// What fusion buys, measured: one expression evaluated fused (one loop, no temporaries) and
// eagerly (NumPy-style, a temporary per operation), with the time of each and the bytes each
// moves according to explain's cost model.
//
//   r = (a * b + c * d - e) * 0.5f      five float32 inputs of 2^22 elements (16 MiB each)
//
// Eager evaluation writes four (2^22,) temporaries and reads them back; fused evaluation
// reads each input once and writes r once. Times are medians of 7 runs on this machine (a
// shared, noisy one: compare the ratio, not the milliseconds); bench/ measures it properly.
//
// Usage: fusion_vs_eager [log2 of the element count, 10 to 26; default 22]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <vector>

#include <fusor/fusor.hpp>

namespace {
template <class F>
double median_ms(F&& run) {
    std::vector<double> ms;
    for (int rep = 0; rep < 7; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        run();
        const auto t1 = std::chrono::steady_clock::now();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}
} // namespace

int main(int argc, char** argv) {
    const int log2n = argc > 1 ? std::atoi(argv[1]) : 22;
    if (log2n < 10 || log2n > 26) {
        std::cerr << "fusion_vs_eager: the element count is 2^N with N in [10, 26]\n";
        return 2;
    }
    const fusor::index_t n = fusor::index_t{1} << log2n;
    auto input = [n](float scale) {
        fusor::tensor<float> t(fusor::shape_t{n}, fusor::uninitialized);
        for (fusor::index_t i = 0; i < n; ++i)
            t(i) = scale * static_cast<float>(i % 1000) / 1000.0f;
        return t;
    };
    const auto a = input(1.0f), b = input(2.0f), c = input(3.0f), d = input(0.5f), e = input(4.0f);
    auto expr = (a * b + c * d - e) * 0.5f;

    const fusor::explanation plan = fusor::explain(expr);
    std::cout << plan << '\n';

    fusor::tensor<float> fused, eager;
    const double fused_ms = median_ms([&] { fused = expr; });
    const double eager_ms = median_ms([&] { eager = fusor::eval_eager(expr); });

    const fusor::cost_estimate cost = plan.cost();
    const double mib = 1024.0 * 1024.0;
    std::printf("r = (a * b + c * d - e) * 0.5f over 2^%d float32 elements\n", log2n);
    std::printf(
        "%-6s %9s %12s %12s %14s\n", "", "median ms", "MiB moved", "temporaries", "GiB/s (model)");
    auto row = [&](const char* name, double ms, const fusor::traffic& t) {
        std::printf("%-6s %9.2f %12.1f %12td %14.2f\n",
                    name,
                    ms,
                    static_cast<double>(t.bytes_moved()) / mib,
                    t.temporaries,
                    static_cast<double>(t.bytes_moved()) / (1024.0 * mib) / (ms / 1000.0));
    };
    row("fused", fused_ms, cost.fused);
    row("eager", eager_ms, cost.eager);
    std::printf("eager moves %.2fx the bytes and takes %.2fx the time of fused\n",
                static_cast<double>(cost.eager.bytes_moved())
                    / static_cast<double>(cost.fused.bytes_moved()),
                eager_ms / fused_ms);

    // Both ways run the same float32 operations in the same order, so the results agree to
    // the last bit unless the compiler contracts a * b + c into an FMA in one of them (one
    // rounding fewer): allow 2 ulp of the largest magnitude.
    const double diff = fusor::eval(fusor::max(fusor::abs(fused - eager))).item();
    const double bound = 2 * 1.19e-7 * fusor::eval(fusor::max(fusor::abs(fused))).item();
    const bool ok = diff <= bound;
    std::printf("fused and eager agree: %s (max |difference| %.3g)\n", ok ? "ok" : "FAILED", diff);
    return ok ? 0 : 1;
}
