// NumPy's ziggurat samplers, bit for bit (fusor/random/ziggurat.hpp). tests/random/
// ziggurat_reference.py (a ctest fixture) records what numpy.random.Generator(PCG64(seed))
// returns from standard_normal, standard_exponential (float64 and float32), normal and
// exponential, with PCG64's raw 64-bit stream; here a replay bit generator feeds that stream to
// fusor's samplers, which must return the same bit patterns, consume the same number of draws
// and leave the same buffered 32-bit half. Long runs (10^6 samples per method) step a PCG64 of
// this file's own from NumPy's recorded state and compare a digest and the final state. Each
// run counts how often the slow paths (wedge, tail, rejection) were taken and requires enough.
// The data file: $FUSOR_ZIGGURAT_DATA, else FUSOR_BINARY_DIR/tests/random/ziggurat.bin.
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/random/ziggurat.hpp>

namespace {

namespace zd = fusor::random::detail;
namespace zt = fusor::random::detail::ziggurat;

__extension__ typedef unsigned __int128 uint128; // g++/clang++ extension, PCG64's state

enum method : int {
    standard_normal = 0,
    standard_normal_float = 1,
    standard_exponential = 2,
    standard_exponential_float = 3,
    normal = 4,
    exponential = 5,
};
constexpr int method_count = 6;
const std::string method_names[method_count] = {"standard_normal",
                                                "standard_normal(dtype=float32)",
                                                "standard_exponential",
                                                "standard_exponential(dtype=float32)",
                                                "normal",
                                                "exponential"};

std::string hex(std::uint64_t v) {
    std::string s;
    do {
        s.insert(s.begin(), "0123456789abcdef"[v & 15]);
        v >>= 4;
    } while (v != 0);
    return "0x" + s;
}

bool is_float32(int m) {
    return m == standard_normal_float || m == standard_exponential_float;
}

// ---- the data file ---------------------------------------------------------------------------
struct sample_case {
    int method = 0;
    std::uint64_t n = 0;
    double loc = 0, scale = 1;
    std::vector<std::uint64_t> bits; // a float32 sample's 32 bits, zero-extended
    std::uint64_t consumed = 0, has_uint32 = 0, uinteger = 0;
};

struct seed_record {
    std::uint64_t seed = 0;
    uint128 state = 0, inc = 0;
    std::vector<std::uint64_t> raw;
    std::vector<sample_case> cases;
};

struct long_run {
    int method = 0;
    std::uint64_t seed = 0, n = 0;
    double loc = 0, scale = 1;
    uint128 state = 0, inc = 0, end_state = 0;
    std::uint64_t digest = 0, has_uint32 = 0, uinteger = 0;
};

struct reference {
    std::vector<seed_record> seeds;
    std::vector<long_run> long_runs;
};

class reader {
public:
    explicit reader(const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        if (!in)
            throw std::runtime_error("cannot open " + path
                                     + " (run tests/random/ziggurat_reference.py, or ctest's "
                                       "random.ziggurat_reference fixture, first)");
        bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::uint64_t u64() { return take(8); }
    std::uint32_t u32() { return static_cast<std::uint32_t>(take(4)); }
    double f64() { return std::bit_cast<double>(u64()); }
    uint128 u128() {
        const uint128 hi = u64();
        return (hi << 64) | u64();
    }
    bool done() const { return pos_ == bytes_.size(); }

private:
    std::uint64_t take(std::size_t n) {
        if (pos_ + n > bytes_.size())
            throw std::runtime_error("ziggurat reference file is truncated");
        std::uint64_t v = 0;
        for (std::size_t k = 0; k < n; ++k)
            v |= std::uint64_t(static_cast<unsigned char>(bytes_[pos_ + k])) << (8 * k);
        pos_ += n;
        return v;
    }
    std::vector<char> bytes_;
    std::size_t pos_ = 0;
};

std::string data_path() {
    if (const char* p = std::getenv("FUSOR_ZIGGURAT_DATA"))
        return p;
    return std::string(FUSOR_BINARY_DIR) + "/tests/random/ziggurat.bin";
}

const reference& data() {
    static const reference ref = [] {
        reference r;
        reader in(data_path());
        if (in.u64() != 0x3152554747495A46u) // "FZIGGUR1"
            throw std::runtime_error("not a ziggurat reference file");
        r.seeds.resize(in.u64());
        for (auto& s : r.seeds) {
            s.seed = in.u64();
            s.state = in.u128();
            s.inc = in.u128();
            s.raw.resize(in.u64());
            for (auto& v : s.raw)
                v = in.u64();
            s.cases.resize(in.u64());
            for (auto& c : s.cases) {
                c.method = static_cast<int>(in.u64());
                c.n = in.u64();
                c.loc = in.f64();
                c.scale = in.f64();
                c.bits.resize(c.n);
                for (auto& b : c.bits)
                    b = is_float32(c.method) ? in.u32() : in.u64();
                c.consumed = in.u64();
                c.has_uint32 = in.u64();
                c.uinteger = in.u64();
            }
        }
        r.long_runs.resize(in.u64());
        for (auto& l : r.long_runs) {
            l.method = static_cast<int>(in.u64());
            l.seed = in.u64();
            l.n = in.u64();
            l.loc = in.f64();
            l.scale = in.f64();
            l.state = in.u128();
            l.inc = in.u128();
            l.digest = in.u64();
            l.end_state = in.u128();
            l.has_uint32 = in.u64();
            l.uinteger = in.u64();
        }
        if (!in.done())
            throw std::runtime_error("ziggurat reference file: trailing bytes");
        return r;
    }();
    return ref;
}

// ---- bit generators --------------------------------------------------------------------------
// NumPy's recorded raw stream, read in order; reading past its end is an error (fusor drew more
// than NumPy did).
struct replay_source {
    const std::vector<std::uint64_t>* raw;
    std::size_t pos = 0;
    std::uint64_t operator()() {
        if (pos >= raw->size())
            throw std::out_of_range("the sampler drew past the end of NumPy's recorded stream");
        return (*raw)[pos++];
    }
};

// PCG64 (PCG XSL RR 128/64, NumPy's default bit generator): step the 128-bit LCG, then output
// rotr(hi ^ lo, hi >> 58). Seeded here with NumPy's recorded state, so no SeedSequence is needed.
struct pcg64_source {
    uint128 state, inc;
    std::uint64_t operator()() {
        constexpr uint128 multiplier =
            (uint128(2549297995355413924u) << 64) | uint128(4865540595714422341u);
        state = state * multiplier + inc;
        const auto hi = static_cast<std::uint64_t>(state >> 64);
        const auto lo = static_cast<std::uint64_t>(state);
        return std::rotr(hi ^ lo, static_cast<int>(hi >> 58));
    }
};

// How often each path was taken: tries (one per first draw of a try), slow (the magnitude was
// not below k[i]: tail or wedge), tail (slow in box 0). Rejections are tries - samples.
struct path_counts {
    std::uint64_t tries = 0, slow = 0, tail = 0, samples = 0;
    path_counts& operator+=(const path_counts& o) {
        tries += o.tries;
        slow += o.slow;
        tail += o.tail;
        samples += o.samples;
        return *this;
    }
};

// The interface the samplers need, with NumPy PCG64's semantics (next_uint32 buffers the high
// half of a 64-bit draw). next_uint64/next_uint32 are only called at the start of a try, so
// they also classify the try by the same bits the sampler reads.
template <class Source>
class bit_generator {
public:
    bit_generator(Source source, int m, path_counts& counts)
        : source_(source), method_(m), counts_(&counts) {}

    std::uint64_t next_uint64() {
        const std::uint64_t r = source_();
        classify(r);
        return r;
    }
    std::uint32_t next_uint32() {
        const std::uint32_t r = half();
        classify(r);
        return r;
    }
    double next_double() { return static_cast<double>(source_() >> 11) * 0x1p-53; }
    float next_float() { return static_cast<float>(half() >> 8) * 0x1p-24f; }

    const Source& source() const { return source_; }
    bool has_uint32() const { return has_uint32_; }
    std::uint32_t uinteger() const { return uinteger_; }

private:
    std::uint32_t half() {
        if (has_uint32_) {
            has_uint32_ = false;
            return uinteger_;
        }
        const std::uint64_t r = source_();
        has_uint32_ = true;
        uinteger_ = static_cast<std::uint32_t>(r >> 32);
        return static_cast<std::uint32_t>(r);
    }
    void classify(std::uint64_t r) {
        unsigned i = 0;
        bool slow = false;
        switch (method_) {
        case standard_normal:
        case normal:
            i = r & 0xff;
            slow = ((r >> 9) & 0x000fffffffffffffu) >= zt::normal_k[i];
            break;
        case standard_normal_float:
            i = r & 0xff;
            slow = ((r >> 9) & 0x7fffffu) >= zt::normal_k_float[i];
            break;
        case standard_exponential:
        case exponential:
            i = (r >> 3) & 0xff;
            slow = (r >> 11) >= zt::exponential_k[i];
            break;
        default:
            i = (r >> 1) & 0xff;
            slow = ((r & 0xffffffffu) >> 9) >= zt::exponential_k_float[i];
        }
        ++counts_->tries;
        counts_->slow += slow;
        counts_->tail += slow && i == 0;
    }

    Source source_;
    int method_;
    path_counts* counts_;
    bool has_uint32_ = false;
    std::uint32_t uinteger_ = 0;
};

// One sample of `m`, as its bit pattern (a float32's zero-extended).
template <class G>
std::uint64_t draw(G& g, int m, double loc, double scale) {
    switch (m) {
    case standard_normal:
        return std::bit_cast<std::uint64_t>(zd::standard_normal(g));
    case standard_normal_float:
        return std::bit_cast<std::uint32_t>(zd::standard_normal_float(g));
    case standard_exponential:
        return std::bit_cast<std::uint64_t>(zd::standard_exponential(g));
    case standard_exponential_float:
        return std::bit_cast<std::uint32_t>(zd::standard_exponential_float(g));
    case normal:
        return std::bit_cast<std::uint64_t>(zd::normal(g, loc, scale));
    default:
        return std::bit_cast<std::uint64_t>(zd::exponential(g, scale));
    }
}

constexpr std::uint64_t digest_multiplier = 0x9E3779B97F4A7C15u; // as ziggurat_reference.py

// Every slow path must have been exercised: per method, at least this many tail tries, wedge
// tries and rejected tries (expected counts are several times larger; see the checks' output).
void check_coverage(const path_counts& c,
                    std::uint64_t min_tail,
                    std::uint64_t min_wedge,
                    std::uint64_t min_rejected) {
    CHECK(c.tail >= min_tail);
    CHECK(c.slow - c.tail >= min_wedge);
    CHECK(c.tries - c.samples >= min_rejected);
}

} // namespace

TEST_CASE("random.ziggurat: this file's PCG64 gives NumPy's raw streams") {
    const auto& ref = data();
    REQUIRE(ref.seeds.size() >= 20);
    for (const auto& s : ref.seeds) {
        INFO("seed " << s.seed);
        pcg64_source pcg{s.state, s.inc};
        std::size_t bad = 0;
        for (const std::uint64_t v : s.raw)
            bad += pcg() != v;
        CHECK(bad == 0);
    }
}

TEST_CASE("random.ziggurat: replayed NumPy streams give NumPy's samples, draws and buffer") {
    const auto& ref = data();
    path_counts per_method[method_count];
    std::uint64_t checked = 0;
    for (const auto& s : ref.seeds) {
        for (const auto& c : s.cases) {
            INFO("seed " << s.seed << ", " << method_names[c.method] << ", n = " << c.n);
            path_counts counts;
            bit_generator g(replay_source{&s.raw}, c.method, counts);
            std::uint64_t bad = 0, first_bad = 0, got_first = 0;
            for (std::uint64_t k = 0; k < c.n; ++k) {
                const std::uint64_t got = draw(g, c.method, c.loc, c.scale);
                if (got != c.bits[k] && bad++ == 0) {
                    first_bad = k;
                    got_first = got;
                }
            }
            INFO("first difference at sample " << first_bad << ": fusor bits " << hex(got_first)
                                               << ", NumPy's " << hex(c.bits[first_bad]));
            CHECK(bad == 0);
            CHECK(g.source().pos == c.consumed); // as many 64-bit draws as NumPy
            CHECK(g.has_uint32() == (c.has_uint32 != 0));
            CHECK(g.uinteger() == c.uinteger);
            counts.samples = c.n;
            per_method[c.method] += counts;
            checked += c.n;
        }
    }
    MESSAGE("samples compared bit for bit: " << checked);
    for (int m = 0; m < method_count; ++m) {
        const path_counts& c = per_method[m];
        INFO(method_names[m] << ": " << c.samples << " samples, " << c.tries << " tries, "
                             << c.slow - c.tail << " wedge tries, " << c.tail << " tail tries, "
                             << c.tries - c.samples << " rejected");
        MESSAGE(method_names[m] << ": " << c.samples << " samples, " << c.slow - c.tail
                                << " wedge tries, " << c.tail << " tail tries, "
                                << c.tries - c.samples << " rejected");
        if (m <= standard_exponential_float) {
            CHECK(c.samples >= 100000);
            // Normal: ~0.7 % of tries go to a wedge, ~0.026 % to the tail; exponential ~1.1 %
            // and ~0.05 %; about half the wedge tries are rejected.
            check_coverage(c, 10, 300, 100);
        }
    }
}

TEST_CASE("random.ziggurat: long runs from NumPy's PCG64 state end where NumPy's do") {
    const auto& ref = data();
    REQUIRE(!ref.long_runs.empty());
    for (const auto& l : ref.long_runs) {
        INFO(method_names[l.method] << ", seed " << l.seed << ", n = " << l.n);
        path_counts counts;
        bit_generator g(pcg64_source{l.state, l.inc}, l.method, counts);
        std::uint64_t h = 0;
        for (std::uint64_t k = 0; k < l.n; ++k)
            h = h * digest_multiplier + draw(g, l.method, l.loc, l.scale);
        counts.samples = l.n;
        CHECK(h == l.digest);
        CHECK(g.source().state == l.end_state); // the same number of 64-bit draws
        CHECK(g.has_uint32() == (l.has_uint32 != 0));
        CHECK(g.uinteger() == l.uinteger);
        MESSAGE(method_names[l.method] << " x " << l.n << ": " << counts.slow - counts.tail
                                       << " wedge tries, " << counts.tail << " tail tries, "
                                       << counts.tries - counts.samples << " rejected");
        check_coverage(counts, 100, 3000, 1000);
    }
}
