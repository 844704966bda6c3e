// The scratch pool (exec/scratch.hpp): a scratch object looks the thread's pool up at its
// first make, gives back what it took when destroyed, and scratch objects that live in stack
// order share the pool as a stack.
#include <cstdint>

#include <doctest/doctest.h>

#include <fusor/exec/scratch.hpp>

using fusor::exec::scratch;
using fusor::exec::scratch_alignment;
using fusor::exec::detail::thread_scratch_pool;

TEST_CASE("a scratch that makes nothing never touches the pool") {
    auto& pool = thread_scratch_pool();
    const std::size_t used = pool.used, blocks = pool.blocks.size();
    { scratch s; }
    CHECK(pool.used == used);
    CHECK(pool.blocks.size() == blocks);
}

TEST_CASE("a scratch gives back everything it took") {
    auto& pool = thread_scratch_pool();
    const std::size_t used = pool.used;
    {
        scratch s;
        float* a = s.make<float>(16);
        double* b = s.make<double>(100);
        CHECK(pool.used == used + 2);
        CHECK(static_cast<void*>(a) != static_cast<void*>(b));
        CHECK(reinterpret_cast<std::uintptr_t>(a) % scratch_alignment == 0);
        CHECK(reinterpret_cast<std::uintptr_t>(b) % scratch_alignment == 0);
    }
    CHECK(pool.used == used);
}

TEST_CASE("nested scratches share the pool in stack order, whenever each first makes") {
    auto& pool = thread_scratch_pool();
    const std::size_t used = pool.used;
    scratch outer; // makes nothing until the inner one is gone
    float* first_inner = nullptr;
    {
        scratch inner;
        first_inner = inner.make<float>(64);
        first_inner[0] = 1.0f;
        CHECK(pool.used == used + 1);
    }
    CHECK(pool.used == used);
    // The outer scratch's first make takes the block the inner one gave back.
    float* o = outer.make<float>(64);
    CHECK(o == first_inner);
    o[0] = 2.0f;
    {
        scratch inner;
        float* i = inner.make<float>(64);
        CHECK(i != o); // the outer buffer is still taken
        i[0] = 3.0f;
        CHECK(pool.used == used + 2);
    }
    CHECK(pool.used == used + 1);
    CHECK(o[0] == 2.0f); // nothing wrote over the outer buffer
}
