// fusor/random/seed_sequence.hpp: NumPy's SeedSequence, the hash that turns a user's seed (and
// a spawn key) into the words that seed a bit generator. Same words as numpy.random.SeedSequence
// for the same entropy, so the same seed gives NumPy's stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/core/error.hpp>

namespace fusor::random {

/// NumPy's `SeedSequence` (numpy.random.SeedSequence, after O'Neill's seed_seq alternative):
/// mixes the entropy (one or more non-negative integers, each split into 32-bit words, lowest
/// first, as NumPy's `_coerce_to_uint32_array`) and the spawn key into a pool of `pool_size`
/// 32-bit words, from which `generate_state` derives any number of seeding words. Equal
/// arguments give the words NumPy gives.
class seed_sequence {
public:
    /// Fresh entropy: 128 bits from /dev/urandom (as `SeedSequence()` reads the OS). Throws
    /// `io_error` when it cannot be read.
    seed_sequence() : seed_sequence(fresh_entropy()) {}

    /// `SeedSequence(entropy)`, `SeedSequence(entropy, spawn_key=..., pool_size=...)`.
    /// Throws `value_error` for a pool smaller than 4 words.
    explicit seed_sequence(std::uint64_t entropy,
                           std::vector<std::uint64_t> spawn_key = {},
                           std::size_t pool_size = 4)
        : seed_sequence(std::vector<std::uint64_t>{entropy}, std::move(spawn_key), pool_size) {}

    /// Entropy given as a sequence of integers (`SeedSequence([a, b, ...])`): each is split into
    /// 32-bit words and the words are concatenated.
    explicit seed_sequence(std::vector<std::uint64_t> entropy,
                           std::vector<std::uint64_t> spawn_key = {},
                           std::size_t pool_size = 4,
                           std::size_t n_children_spawned = 0)
        : entropy_(std::move(entropy)), spawn_key_(std::move(spawn_key)), pool_(pool_size),
          n_children_spawned_(n_children_spawned) {
        if (pool_size < 4)
            throw value_error("seed_sequence: the size of the entropy pool should be at least 4, "
                              "got "
                              + std::to_string(pool_size));
        mix_entropy(assembled_entropy());
    }

    /// `generate_state(n_words, dtype)`: `n_words` words of type `Word` (`std::uint32_t` or
    /// `std::uint64_t`; a 64-bit word is two 32-bit words, the first in the low half, as NumPy).
    template <class Word = std::uint32_t>
    std::vector<Word> generate_state(std::size_t n_words) const {
        static_assert(std::is_same_v<Word, std::uint32_t> || std::is_same_v<Word, std::uint64_t>,
                      "fusor: generate_state makes std::uint32_t or std::uint64_t words");
        constexpr std::size_t per_word = sizeof(Word) / sizeof(std::uint32_t);
        std::vector<std::uint32_t> words(n_words * per_word);
        std::uint32_t hash_const = init_b;
        for (std::size_t i = 0; i < words.size(); ++i) {
            std::uint32_t value = pool_[i % pool_.size()];
            value ^= hash_const;
            hash_const *= mult_b;
            value *= hash_const;
            value ^= value >> xshift;
            words[i] = value;
        }
        if constexpr (per_word == 1) {
            return words;
        } else {
            std::vector<std::uint64_t> out(n_words);
            for (std::size_t i = 0; i < n_words; ++i)
                out[i] = words[2 * i] | (std::uint64_t{words[2 * i + 1]} << 32);
            return out;
        }
    }

    /// `spawn(n)`: `n` children whose spawn keys extend this one's with 0, 1, ... (continuing
    /// after the children spawned before), for independent streams.
    std::vector<seed_sequence> spawn(std::size_t n_children) {
        std::vector<seed_sequence> children;
        children.reserve(n_children);
        for (std::size_t i = n_children_spawned_; i < n_children_spawned_ + n_children; ++i) {
            std::vector<std::uint64_t> key = spawn_key_;
            key.push_back(i);
            children.emplace_back(entropy_, std::move(key), pool_.size());
        }
        n_children_spawned_ += n_children;
        return children;
    }

    const std::vector<std::uint64_t>& entropy() const { return entropy_; }
    const std::vector<std::uint64_t>& spawn_key() const { return spawn_key_; }
    std::size_t pool_size() const { return pool_.size(); }
    std::size_t n_children_spawned() const { return n_children_spawned_; }
    /// The mixed pool (NumPy's `SeedSequence.pool`).
    const std::vector<std::uint32_t>& pool() const { return pool_; }

private:
    static constexpr std::uint32_t init_a = 0x43b0d7e5;
    static constexpr std::uint32_t mult_a = 0x931e8875;
    static constexpr std::uint32_t init_b = 0x8b51f9dd;
    static constexpr std::uint32_t mult_b = 0x58f38ded;
    static constexpr std::uint32_t mix_mult_l = 0xca01f9dd;
    static constexpr std::uint32_t mix_mult_r = 0x4973f715;
    static constexpr unsigned xshift = 16;

    // 128 bits from the OS, as NumPy's `secrets.randbits(128)` (os.urandom). /dev/urandom
    // rather than std::random_device: <random> would cost every user of fusor.hpp compile time.
    static std::vector<std::uint64_t> fresh_entropy() {
        std::uint64_t words[2] = {0, 0};
        std::FILE* f = std::fopen("/dev/urandom", "rb");
        const bool ok = f != nullptr && std::fread(words, sizeof words, 1, f) == 1;
        if (f != nullptr)
            std::fclose(f);
        if (!ok)
            throw io_error("seed_sequence: cannot read fresh entropy from /dev/urandom");
        return {words[0], words[1]};
    }

    // NumPy's `_coerce_to_uint32_array` for each integer: 0 is one word, others lowest first.
    static void append_words(std::vector<std::uint32_t>& out, std::uint64_t v) {
        if (v == 0)
            out.push_back(0);
        for (; v > 0; v >>= 32)
            out.push_back(static_cast<std::uint32_t>(v & 0xFFFFFFFFu));
    }

    std::vector<std::uint32_t> assembled_entropy() const {
        std::vector<std::uint32_t> run, spawn;
        for (std::uint64_t v : entropy_)
            append_words(run, v);
        for (std::uint64_t v : spawn_key_)
            append_words(spawn, v);
        // NumPy pads short entropy to the pool size only when there is a spawn key (gh-16539).
        if (!spawn.empty() && run.size() < pool_.size())
            run.resize(pool_.size(), 0);
        run.insert(run.end(), spawn.begin(), spawn.end());
        return run;
    }

    static std::uint32_t hashmix(std::uint32_t value, std::uint32_t& hash_const) {
        value ^= hash_const;
        hash_const *= mult_a;
        value *= hash_const;
        value ^= value >> xshift;
        return value;
    }

    static std::uint32_t mix(std::uint32_t x, std::uint32_t y) {
        std::uint32_t result = mix_mult_l * x - mix_mult_r * y;
        result ^= result >> xshift;
        return result;
    }

    void mix_entropy(const std::vector<std::uint32_t>& entropy) {
        std::uint32_t hash_const = init_a;
        const std::size_t n = pool_.size();
        for (std::size_t i = 0; i < n; ++i)
            pool_[i] = hashmix(i < entropy.size() ? entropy[i] : 0u, hash_const);
        for (std::size_t src = 0; src < n; ++src)
            for (std::size_t dst = 0; dst < n; ++dst)
                if (src != dst)
                    pool_[dst] = mix(pool_[dst], hashmix(pool_[src], hash_const));
        for (std::size_t src = n; src < entropy.size(); ++src)
            for (std::size_t dst = 0; dst < n; ++dst)
                pool_[dst] = mix(pool_[dst], hashmix(entropy[src], hash_const));
    }

    std::vector<std::uint64_t> entropy_;
    std::vector<std::uint64_t> spawn_key_;
    std::vector<std::uint32_t> pool_;
    std::size_t n_children_spawned_ = 0;
};

} // namespace fusor::random
