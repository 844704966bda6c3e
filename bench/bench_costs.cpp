// bench_costs: the per-element cost of each operation, which explain's cost model reads
// (plan/compute_costs.hpp, plan/cost.hpp). Each operation runs as fusor runs it (SLEEF for the
// math functions where built with it) over a 16,384-element operand that stays in L1/L2:
//   unary      out = f(a)          a in [0.5, 1.5) (inside every function's domain)
//   binary     out = a op b        b in [0.5, 1.5)
//   reduction  s = r(a)            into one element
// The cost of an element-wise operation is its time per element minus that of the copy
// `out = a` (what every loop pays to read and write), never below 0; a reduction's is its whole
// time per element. `stream` is the bytes per ns of `out = a` over 2^24 float32 (64 MiB each
// way): the rate the model charges for every byte a loop moves.
//
// Not in the default build (bench/CMakeLists.txt): cmake --build --preset release --target
// bench_costs, then
//   build/release/bench/bench_costs                  prints the table (Google Benchmark)
//   build/release/bench/bench_costs --write FILE     also writes FILE, the generated header
//       (include/fusor/plan/compute_costs.hpp; one thread, median of 5 repetitions)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <fusor/fusor.hpp>

namespace {

using fusor::index_t;
constexpr index_t in_cache = 16384;
constexpr index_t streaming = index_t{1} << 24;

template <class T>
fusor::tensor<T> operand(index_t n, unsigned salt) {
    fusor::tensor<T> t(fusor::shape_t{n}, fusor::uninitialized);
    for (index_t i = 0; i < n; ++i)
        t.data()[i] = static_cast<T>(0.5 + ((i * 7919 + salt * 104729) % 10007) / 10007.0);
    return t;
}

enum class kind { unary, binary, reduction };
struct measured {
    std::string name;
    kind k;
};
std::vector<measured> order; // the operations, in registration order

template <class T>
const char* dtype() {
    return sizeof(T) == 8 ? "float64" : "float32";
}

// Registers `cost/<name>/<dtype>`: `run(a, b, out)` evaluates once over `in_cache` elements.
template <class T, class Run>
void add(const std::string& name, kind k, Run run) {
    if (std::is_same_v<T, float>)
        order.push_back({name, k});
    benchmark::RegisterBenchmark(("cost/" + name + "/" + dtype<T>()).c_str(),
                                 [run](benchmark::State& state) {
                                     const auto a = operand<T>(in_cache, 1);
                                     const auto b = operand<T>(in_cache, 2);
                                     fusor::tensor<T> out(fusor::shape_t{in_cache});
                                     for (auto _ : state) {
                                         run(a, b, out);
                                         benchmark::DoNotOptimize(out.data());
                                         benchmark::ClobberMemory();
                                     }
                                     state.SetItemsProcessed(state.iterations() * in_cache);
                                 })
        ->Repetitions(5)
        ->ReportAggregatesOnly(true);
}

template <class T>
void add_all() {
    using A = const fusor::tensor<T>&;
    using O = fusor::tensor<T>&;
    add<T>("copy", kind::unary, [](A a, A, O o) { o = a; });
#define FUSOR_COST_UNARY(NAME, EXPR) add<T>(NAME, kind::unary, [](A a, A, O o) { o = EXPR; })
    FUSOR_COST_UNARY("negative", -a);
    FUSOR_COST_UNARY("absolute", fusor::abs(a));
    FUSOR_COST_UNARY("square", fusor::square(a));
    FUSOR_COST_UNARY("sqrt", fusor::sqrt(a));
    FUSOR_COST_UNARY("cbrt", fusor::cbrt(a));
    FUSOR_COST_UNARY("exp", fusor::exp(a));
    FUSOR_COST_UNARY("exp2", fusor::exp2(a));
    FUSOR_COST_UNARY("expm1", fusor::expm1(a));
    FUSOR_COST_UNARY("log", fusor::log(a));
    FUSOR_COST_UNARY("log2", fusor::log2(a));
    FUSOR_COST_UNARY("log10", fusor::log10(a));
    FUSOR_COST_UNARY("log1p", fusor::log1p(a));
    FUSOR_COST_UNARY("sin", fusor::sin(a));
    FUSOR_COST_UNARY("cos", fusor::cos(a));
    FUSOR_COST_UNARY("tan", fusor::tan(a));
    FUSOR_COST_UNARY("arcsin", fusor::arcsin(a - T(1)));
    FUSOR_COST_UNARY("arccos", fusor::arccos(a - T(1)));
    FUSOR_COST_UNARY("arctan", fusor::arctan(a));
    FUSOR_COST_UNARY("sinh", fusor::sinh(a));
    FUSOR_COST_UNARY("cosh", fusor::cosh(a));
    FUSOR_COST_UNARY("tanh", fusor::tanh(a));
    FUSOR_COST_UNARY("arcsinh", fusor::arcsinh(a));
    FUSOR_COST_UNARY("arccosh", fusor::arccosh(a + T(1)));
    FUSOR_COST_UNARY("arctanh", fusor::arctanh(a - T(1)));
    FUSOR_COST_UNARY("floor", fusor::floor(a));
    FUSOR_COST_UNARY("ceil", fusor::ceil(a));
#undef FUSOR_COST_UNARY
#define FUSOR_COST_BINARY(NAME, EXPR) add<T>(NAME, kind::binary, [](A a, A b, O o) { o = EXPR; })
    FUSOR_COST_BINARY("add", a + b);
    FUSOR_COST_BINARY("subtract", a - b);
    FUSOR_COST_BINARY("multiply", a * b);
    FUSOR_COST_BINARY("divide", a / b);
    FUSOR_COST_BINARY("power", fusor::power(a, b));
    FUSOR_COST_BINARY("maximum", fusor::maximum(a, b));
    FUSOR_COST_BINARY("minimum", fusor::minimum(a, b));
    FUSOR_COST_BINARY("hypot", fusor::hypot(a, b));
    FUSOR_COST_BINARY("arctan2", fusor::arctan2(a, b));
    FUSOR_COST_BINARY("logaddexp", fusor::logaddexp(a, b));
    FUSOR_COST_BINARY("fmod", fusor::fmod(a, b));
#undef FUSOR_COST_BINARY
    // Into a 0-d tensor: the reduction is all the work.
#define FUSOR_COST_REDUCTION(NAME, EXPR)                                                           \
    add<T>(NAME, kind::reduction, [](A a, A, O) {                                                  \
        auto s = fusor::eval(EXPR);                                                                \
        benchmark::DoNotOptimize(s.data());                                                        \
    })
    FUSOR_COST_REDUCTION("sum", fusor::sum(a));
    FUSOR_COST_REDUCTION("mean", fusor::mean(a));
    FUSOR_COST_REDUCTION("prod", fusor::prod(a));
    FUSOR_COST_REDUCTION("max", fusor::max(a));
    FUSOR_COST_REDUCTION("min", fusor::min(a));
    FUSOR_COST_REDUCTION("argmax", fusor::argmax(a));
    FUSOR_COST_REDUCTION("argmin", fusor::argmin(a));
#undef FUSOR_COST_REDUCTION
}

void add_stream() {
    benchmark::RegisterBenchmark("stream/copy/float32",
                                 [](benchmark::State& state) {
                                     const auto a = operand<float>(streaming, 3);
                                     fusor::tensor<float> out(fusor::shape_t{streaming});
                                     for (auto _ : state) {
                                         out = a;
                                         benchmark::DoNotOptimize(out.data());
                                         benchmark::ClobberMemory();
                                     }
                                     state.SetBytesProcessed(state.iterations() * streaming * 8);
                                 })
        ->Repetitions(5)
        ->ReportAggregatesOnly(true)
        ->Unit(benchmark::kMillisecond);
}

// Collects each benchmark's median: ns per element (cost/...) or per run (stream/...).
class collector : public benchmark::ConsoleReporter {
public:
    std::map<std::string, double> median_ns_per_item;

    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& r : runs)
            if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median") {
                const std::string name = r.run_name.function_name;
                const double ns =
                    r.GetAdjustedRealTime() * (r.time_unit == benchmark::kMillisecond ? 1e6 : 1.0);
                median_ns_per_item[name] = name.starts_with("stream/") ? ns : ns / in_cache;
            }
        ConsoleReporter::ReportRuns(runs);
    }
};

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

void write_header(const std::string& path, const collector& c) {
    auto median = [&](const std::string& key) {
        const auto it = c.median_ns_per_item.find(key);
        if (it == c.median_ns_per_item.end()) {
            std::fprintf(stderr,
                         "bench_costs --write: %s did not run (no filter with --write)\n",
                         key.c_str());
            std::exit(1);
        }
        return it->second;
    };
    auto ns = [&](const std::string& name, const char* t) {
        return median("cost/" + name + "/" + t);
    };
    const double stream_bytes_per_ns =
        static_cast<double>(streaming) * 8 / median("stream/copy/float32");
    std::ofstream out(path);
    out << "// fusor/plan/compute_costs.hpp: GENERATED by bench/bench_costs --write (do not edit "
           "by\n"
           "// hand): what each operation costs per element on the machine that ran it, for "
           "explain's cost\n"
           "// model (plan/cost.hpp). Element-wise operations: their time per element minus the "
           "copy\n"
           "// `out = a`'s, over 16,384 elements in cache, one thread, median of 5 (SLEEF where "
           "fusor\n"
           "// has it); reductions: their whole time per element. Regenerate on the machine "
           "whose\n"
           "// estimates you want (explain's goldens quote them):\n"
           "//   build/release/bench/bench_costs --write include/fusor/plan/compute_costs.hpp\n"
           "#pragma once\n\n#include <string_view>\n\nnamespace fusor {\n\n"
           "/// One operation's measured cost in nanoseconds per element computed, for float32 "
           "and float64\n"
           "/// operands (numpy's name, as explain's tree prints it).\n"
           "struct op_cost {\n    std::string_view name;\n    double ns_float32;\n"
           "    double ns_float64;\n};\n\n"
           "/// The measured operations, in bench_costs' order.\n"
           "// clang-format off\n"
           "inline constexpr op_cost measured_op_costs[] = {\n";
    for (const measured& m : order) {
        if (m.name == "copy")
            continue;
        const bool elementwise = m.k != kind::reduction;
        const double f =
            std::max(0.0, ns(m.name, "float32") - (elementwise ? ns("copy", "float32") : 0.0));
        const double d =
            std::max(0.0, ns(m.name, "float64") - (elementwise ? ns("copy", "float64") : 0.0));
        out << "    {\"" << m.name << "\", " << number(f) << ", " << number(d) << "},\n";
    }
    out << "};\n// clang-format on\n\n/// Bytes per nanosecond of a streaming copy (`out = a`, 64 "
           "MiB each way, "
           "float32): "
           "the rate\n/// the model charges for memory traffic.\n"
           "inline constexpr double measured_stream_bytes_per_ns = "
        << number(stream_bytes_per_ns) << ";\n\n} // namespace fusor\n";
}

} // namespace

int main(int argc, char** argv) {
    std::string write_to;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--write") == 0 && i + 1 < argc)
            write_to = argv[++i];
        else
            args.push_back(argv[i]);
    }
    int n = static_cast<int>(args.size());
    benchmark::Initialize(&n, args.data());
    fusor::set_num_threads(1);
    add_all<float>();
    add_all<double>();
    add_stream();
    collector c;
    benchmark::RunSpecifiedBenchmarks(&c);
    benchmark::Shutdown();
    if (!write_to.empty()) {
        write_header(write_to, c);
        std::printf("wrote %s\n", write_to.c_str());
    }
    return 0;
}
