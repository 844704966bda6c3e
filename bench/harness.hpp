// bench/harness.hpp: what every benchmark family shares. A workload is one computation run
// several ways (fusor fused, fusor eager, the hand-written loop, xtensor, Eigen's Tensor
// module); `submit()` runs each way once, checks its output against the hand-written loop's,
// and registers it with Google Benchmark as `<workload>/<way>` with the bytes the workload must
// move (each input read once, the output written once) so GB/s shows. bench/report turns the
// JSON of a run into docs/performance.md.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include <fusor/fusor.hpp>

namespace bench {

using fusor::index_t;

/// The threads fusor may use on this machine (OpenMP's default), read before `run_main` caps
/// fusor at one thread: every way but `fused_threads` runs single-threaded, as the hand loop
/// and the peers do.
inline int machine_threads = 1;

/// A tensor of `shape` with values uniform in [-1, 1) (reproducible by `seed`).
template <class T>
fusor::tensor<T> random_tensor(const fusor::shape_t& shape, unsigned seed) {
    fusor::tensor<T> t(shape, fusor::uninitialized);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<T> d(T(-1), T(1));
    for (auto& v : t)
        v = d(rng);
    return t;
}

/// One workload, its ways and the check that they agree. `T` is the output's element type.
template <class T>
class workload {
public:
    /// `name` is `W<k>_<what>`; `bytes` per run; `count` output elements; `rtol` the tolerance
    /// against the hand-written loop, relative to max(1, |expected|) (float sums in another
    /// order differ in the last bits; element-wise results agree exactly).
    workload(std::string name, std::int64_t bytes, index_t count, double rtol)
        : name_(std::move(name)), bytes_(bytes), count_(count), rtol_(rtol) {}

    /// A way to run it: `run()` computes into storage that `result()` then points at.
    workload& add(std::string way, std::function<void()> run, std::function<const T*()> result) {
        ways_.push_back({std::move(way), std::move(run), std::move(result)});
        return *this;
    }

    /// Checks every way against the one named "hand" (exit 1 on a mismatch) and registers all.
    /// With fusor's threads built in, "fused" gets a twin, "fused_threads", that runs with
    /// `machine_threads` threads.
    void submit() {
        if (fusor::threads_enabled && machine_threads > 1)
            for (const way& w : std::vector<way>(ways_))
                if (w.name == "fused")
                    add(
                        "fused_threads",
                        [run = w.run] {
                            fusor::set_num_threads(machine_threads);
                            run();
                            fusor::set_num_threads(1);
                        },
                        w.result);
        const way* hand = nullptr;
        for (const way& w : ways_)
            if (w.name == "hand")
                hand = &w;
        if (!hand) {
            std::fprintf(stderr, "%s: no hand-written reference\n", name_.c_str());
            std::exit(1);
        }
        hand->run();
        const T* want_ptr = hand->result();
        const std::vector<T> want(want_ptr, want_ptr + count_);
        for (const way& w : ways_) {
            w.run();
            const T* got = w.result();
            for (index_t i = 0; i < count_; ++i) {
                const double g = static_cast<double>(got[i]), e = static_cast<double>(want[i]);
                if (!(std::fabs(g - e) <= rtol_ * std::fmax(1.0, std::fabs(e)))) {
                    std::fprintf(stderr,
                                 "%s/%s: element %td is %.9g, the hand-written loop says %.9g\n",
                                 name_.c_str(),
                                 w.name.c_str(),
                                 i,
                                 g,
                                 e);
                    std::exit(1);
                }
            }
        }
        for (const way& w : ways_) {
            auto run = w.run;
            const std::int64_t bytes = bytes_;
            benchmark::RegisterBenchmark((name_ + "/" + w.name).c_str(),
                                         [run, bytes](benchmark::State& st) {
                                             for (auto _ : st) {
                                                 run();
                                                 benchmark::ClobberMemory();
                                             }
                                             st.SetBytesProcessed(st.iterations() * bytes);
                                         })
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
        }
    }

private:
    struct way {
        std::string name;
        std::function<void()> run;
        std::function<const T*()> result;
    };
    std::string name_;
    std::int64_t bytes_;
    index_t count_;
    double rtol_;
    std::vector<way> ways_;
};

/// The usual main: workloads register themselves in `setup`, then Google Benchmark runs.
inline int run_main(int argc, char** argv, const std::function<void()>& setup) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    machine_threads = fusor::num_threads();
    fusor::set_num_threads(1);
    setup();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

} // namespace bench
