// Golden explain output: for every representative expression of cases.hpp, the whole text
// (tree, plan, cost) equals tests/explain/golden/<name>.txt, and for two of them the JSON equals
// golden/<name>.json. After an intended change to explain, rewrite the files with
//     FUSOR_UPDATE_GOLDEN=1 build/asan/tests/test_explain_golden
// and review the diff. The texts are for the SSE2 target tests compile for (no -march).
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "cases.hpp"

namespace {
std::string golden_path(const std::string& file) {
    return std::string(FUSOR_SOURCE_DIR) + "/tests/explain/golden/" + file;
}

void check_golden(const std::string& file, const std::string& actual) {
    const std::string path = golden_path(file);
    if (std::getenv("FUSOR_UPDATE_GOLDEN")) {
        std::ofstream(path, std::ios::binary) << actual;
        MESSAGE("rewrote " << path);
        return;
    }
    std::ifstream in(path, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "missing golden file " << path);
    std::stringstream expected;
    expected << in.rdbuf();
    CHECK_MESSAGE(actual == expected.str(), file << " differs; actual output:\n" << actual);
}

std::size_t widest_line(const std::string& text) {
    std::size_t widest = 0, start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        widest = std::max(widest, end - start);
        start = end + 1;
    }
    return widest;
}
} // namespace

TEST_CASE("explain text equals the golden file, within 100 columns") {
    // The vector lines quote the compile target; the files hold SSE2's (x86-64's baseline).
    if (std::string(fusor::compiled_simd_target().name) != "SSE2") {
        MESSAGE("golden texts are for the SSE2 target; this build targets "
                << fusor::compiled_simd_target().name << ": skipped");
        return;
    }
    for (const auto& c : explain_cases::all_cases()) {
        CAPTURE(c.name);
        const std::string text = c.explain().text();
        check_golden(c.name + ".txt", text);
        CHECK(widest_line(text) <= 100);
    }
}

TEST_CASE("explain JSON equals the golden file") {
    for (const auto& c : explain_cases::all_cases())
        if (c.name == "row_broadcast" || c.name == "softmax" || c.name == "roll_minus"
            || c.name == "softmax_row_blocks") {
            CAPTURE(c.name);
            const fusor::explanation e = c.explain();
            check_golden(c.name + ".json", e.json());
            std::ostringstream os;
            fusor::explanation as_json = e;
            as_json.format = fusor::explain_format::json;
            os << as_json;
            CHECK(os.str() == e.json());
        }
}
