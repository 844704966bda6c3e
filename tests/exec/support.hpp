// Helpers the exec tests share: deterministic small-integer tensors and one line of explain's
// text.
#pragma once

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"

namespace exec_test {

/// Shape `s` filled with ((i * 7 + salt) % modulus) - modulus / 2: small integers, exact in
/// every dtype, so results compare exactly.
template <class T>
fusor::tensor<T> counting(const fusor::shape_t& s, int salt, int modulus = 23) {
    fusor::tensor<T> t(s, fusor::uninitialized);
    for (fusor::index_t i = 0; i < t.size(); ++i)
        t.data()[i] = static_cast<T>((i * 7 + salt) % modulus) - T(modulus / 2);
    return t;
}

/// The plans the evaluator ran while an `observing` lives (the plan_observer test hook), in order.
inline std::vector<fusor::loop_plan> ran;
inline void record(const fusor::loop_plan& p) {
    ran.push_back(p);
}
struct observing {
    observing() {
        ran.clear();
        fusor::detail::plan_observer = &record;
    }
    ~observing() { fusor::detail::plan_observer = nullptr; }
};

/// The line of explain(e)'s text that starts with `label` ("kernel:", "threads:"), up to its
/// end (a wrapped line joined back); the label must be there.
template <class E>
std::string explain_line(const E& e, const std::string& label) {
    const std::string text = explain_text::one_line(fusor::explain(e).text());
    const auto at = text.find(label);
    REQUIRE(at != std::string::npos);
    return text.substr(at, text.find('\n', at) - at);
}

} // namespace exec_test
