// Shared by the tests that prove explain prints what runs (test_executed, tests/laws): the
// evaluator's trace hooks, recorded here, and the inner loops and kernels explain's JSON
// describes, generated independently of exec/. Include before <fusor/fusor.hpp>.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include <fusor/plan/loop_plan.hpp>

#include <nlohmann/json.hpp>

namespace trace {
struct inner_loop {
    int loop;                          // which loop ran: 0, 1, ... in running order (non-empty)
    std::vector<std::int64_t> offsets; // every operand's element offset, in operand order
    std::int64_t n;
};
inline std::vector<inner_loop> seen;
inline std::vector<std::string> kernels; // the kernel each loop ran, in running order
inline const fusor::loop_plan* last_plan = nullptr;
inline int loops_run = 0;
inline void clear() {
    seen.clear();
    kernels.clear();
    last_plan = nullptr;
    loops_run = 0;
}
// A loop's inner loops run together: a new plan is the next loop (temporaries are computed
// before the loop that reads them starts).
inline std::mutex mutex; // split loops record from several threads
inline void record(const fusor::loop_plan& p, const fusor::index_t* offsets, fusor::index_t n) {
    const std::lock_guard<std::mutex> lock(mutex);
    if (&p != last_plan) {
        last_plan = &p;
        ++loops_run;
    }
    seen.push_back({loops_run - 1,
                    std::vector<std::int64_t>(offsets, offsets + p.operand_count),
                    static_cast<std::int64_t>(n)});
}
} // namespace trace
#define FUSOR_TRACE_INNER_LOOP(plan, offsets, n) ::trace::record(plan, offsets, n)
#define FUSOR_TRACE_KERNEL(plan, name) ::trace::kernels.push_back(name)

namespace trace {
// The inner loops explain's JSON describes, generated independently of exec/.
inline std::vector<inner_loop> loops_from_json(const nlohmann::json& doc) {
    std::vector<inner_loop> out;
    // Several plans run one after the other (cells, row blocks): each plan's loops, numbered on.
    int base = 0;
    auto append = [&](const nlohmann::json& plan) {
        int most = -1;
        for (inner_loop l : loops_from_json(plan)) {
            most = std::max(most, l.loop);
            l.loop += base;
            out.push_back(std::move(l));
        }
        base += most + 1;
    };
    if (doc.contains("segments")) {
        // Lazy roll, pad, concatenate ...: each cell's plan in running order, or the plan over
        // the filled operands.
        for (const auto& cell : doc.at("segments").at("cells"))
            append(cell.at("plan"));
        if (doc.contains("plan"))
            append(doc.at("plan"));
        return out;
    }
    if (doc.contains("row_blocks")) {
        // By row blocks: each full block runs its store loops then its expression loops, the
        // shorter last block its own two plans.
        const auto& rb = doc.at("row_blocks");
        const std::int64_t full =
            rb.at("rows").get<std::int64_t>() / rb.at("block_rows").get<std::int64_t>();
        for (std::int64_t k = 0; k < full; ++k) {
            append(rb.at("store"));
            append(rb.at("block"));
        }
        if (rb.contains("store_tail")) {
            append(rb.at("store_tail"));
            append(rb.at("block_tail"));
        }
        return out;
    }
    int number = -1;
    for (const auto& loop : doc.at("loops")) {
        if (loop.at("empty").get<bool>())
            continue;
        ++number;
        const auto& operands = loop.at("operands");
        const auto& levels = loop.at("levels");
        const std::size_t L = levels.size();
        auto offsets_at = [&](const std::vector<std::int64_t>& index) {
            std::vector<std::int64_t> off;
            for (const auto& o : operands) {
                std::int64_t v = 0;
                for (std::size_t l = 0; l < index.size(); ++l) {
                    const auto& st = levels[l].at("strides");
                    const std::string name = o.at("name");
                    if (st.contains(name))
                        v += index[l] * st.at(name).get<std::int64_t>();
                }
                off.push_back(v);
            }
            return off;
        };
        if (L == 0) {
            out.push_back({number, offsets_at({}), 1});
            continue;
        }
        const std::int64_t n = levels[L - 1].at("extent");
        std::vector<std::int64_t> index(L - 1, 0);
        for (;;) {
            out.push_back({number, offsets_at(index), n});
            std::size_t d = L - 1;
            while (d > 0 && ++index[d - 1] == levels[d - 1].at("extent").get<std::int64_t>())
                index[--d] = 0;
            if (d == 0)
                break;
        }
    }
    return out;
}

// The kernels explain's JSON says each loop runs (`runs`), in running order.
inline std::vector<std::string> kernels_from_json(const nlohmann::json& doc) {
    std::vector<std::string> out;
    for (const auto& loop : doc.at("loops"))
        out.push_back(loop.at("runs").get<std::string>());
    return out;
}

} // namespace trace
