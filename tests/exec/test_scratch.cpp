// The scratch pool (exec/scratch.hpp): a scratch object looks the thread's pool up at its
// first make, gives back what it took when destroyed, and scratch objects that live in stack
// order share the pool as a stack. And the temporary pool (exec/temporary_pool.hpp).
#include <cstdint>
#include <memory>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/exec/scratch.hpp>
#include <fusor/exec/temporary_pool.hpp>

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

// The temporary pool (exec/temporary_pool.hpp): a small temporary nothing else holds any more
// is handed out again, reshaped; one still held, or a large one, never is.
TEST_CASE("a small temporary released is handed out again, with the new shape") {
    using fusor::shape_t;
    using fusor::exec::pooled_temporary;
    std::shared_ptr<fusor::tensor<float>> a = pooled_temporary<float>(shape_t{6, 1});
    const float* storage = a->data();
    const fusor::tensor<float>* object = a.get();
    std::shared_ptr<fusor::tensor<float>> held = pooled_temporary<float>(shape_t{6, 1});
    CHECK(held.get() != object); // `a` is still held
    a.reset();
    const auto b = pooled_temporary<float>(shape_t{2, 3}); // as many elements
    CHECK(b.get() == object);
    CHECK(b->data() == storage);
    CHECK(b->shape() == shape_t{2, 3});
    CHECK(b->strides() == fusor::strides_t{3, 1});
    const auto c = pooled_temporary<float>(shape_t{7}); // another count: another tensor
    CHECK(c.get() != object);
    CHECK(c->shape() == shape_t{7});
}

TEST_CASE("a temporary over the pool's bound is never kept") {
    using fusor::exec::pooled_temporary;
    const fusor::index_t n = fusor::exec::pooled_temporary_bytes / 8 + 1; // doubles
    const auto big = pooled_temporary<double>(fusor::shape_t{n});
    CHECK(big.use_count() == 1); // the pool holds no reference
    const auto small = pooled_temporary<double>(fusor::shape_t{n - 1});
    CHECK(small.use_count() == 2); // the pool's and this one
}

TEST_CASE("more temporaries held at once than the pool keeps are all distinct") {
    using fusor::exec::pooled_temporary;
    std::vector<std::shared_ptr<fusor::tensor<std::int32_t>>> held;
    for (std::size_t k = 0; k < 2 * fusor::exec::pooled_temporaries; ++k) {
        held.push_back(pooled_temporary<std::int32_t>(fusor::shape_t{5}));
        held.back()->data()[0] = static_cast<std::int32_t>(k);
    }
    for (std::size_t k = 0; k < held.size(); ++k) {
        CHECK(held[k]->data()[0] == static_cast<std::int32_t>(k));
        for (std::size_t j = 0; j < k; ++j)
            CHECK(held[j].get() != held[k].get());
    }
}
