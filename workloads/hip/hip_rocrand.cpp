// SPDX-License-Identifier: MIT
// Debian's rocRAND, whose generators are precompiled AMDGPU code objects inside librocrand, on the
// simulated agent: the Philox4x32-10 generator's 32-bit output is compared word for word with a host
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC'11: ten rounds,
// multipliers 0xD2511F53 / 0xCD9E8D57, key increments 0x9E3779B9 / 0xBB67AE85; rocRAND's generator emits
// counter 0, 1, 2, ... under key = seed), and its uniform floats with rocRAND's mapping
// (rocrand_uniform.h: 2^-32 + v * 2^-32). Prints PASS when every value matches.
#include "hip_check.h"

#include <rocrand/rocrand.h>

#include <array>
#include <cmath>
#include <vector>

namespace {

constexpr const char* kProgram = "hip_rocrand";

#define CHECK(call) rs_hip::check(kProgram, (call), #call)

void check_rocrand(rocrand_status status, const char* call) {
    if (status != ROCRAND_STATUS_SUCCESS) {
        rs_hip::fail(kProgram, "%s returned rocrand status %d", call, static_cast<int>(status));
    }
}
#define CHECK_RAND(call) check_rocrand((call), #call)

/// One Philox4x32-10 block: four 32-bit words of counter `counter` under the 64-bit key `key`.
std::array<uint32_t, 4> philox(uint64_t counter, uint64_t key) {
    std::array<uint32_t, 4> c = {static_cast<uint32_t>(counter), static_cast<uint32_t>(counter >> 32), 0, 0};
    uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
    for (int round = 0; round < 10; ++round) {
        const uint64_t p0 = static_cast<uint64_t>(0xD2511F53u) * c[0];
        const uint64_t p1 = static_cast<uint64_t>(0xCD9E8D57u) * c[2];
        c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k0, static_cast<uint32_t>(p1),
             static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k1, static_cast<uint32_t>(p0)};
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    return c;
}

} // namespace

int main() {
    const size_t n = 1 << 16;
    const uint64_t seed = 1234;
    unsigned int* words = nullptr;
    float* floats = nullptr;
    CHECK(hipMalloc(&words, n * sizeof(unsigned int)));
    CHECK(hipMalloc(&floats, n * sizeof(float)));
    rocrand_generator generator = nullptr;
    CHECK_RAND(rocrand_create_generator(&generator, ROCRAND_RNG_PSEUDO_PHILOX4_32_10));
    CHECK_RAND(rocrand_set_seed(generator, seed));
    CHECK_RAND(rocrand_generate(generator, words, n));
    std::vector<unsigned int> device(n);
    CHECK(hipMemcpy(device.data(), words, n * sizeof(unsigned int), hipMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i) {
        const uint32_t expected = philox(i / 4, seed)[i % 4];
        if (device[i] != expected) {
            rs_hip::fail(kProgram, "word %zu is 0x%08x, Philox4x32-10 gives 0x%08x", i, device[i], expected);
        }
    }
    // A fresh generator with the same seed: the same stream, as floats.
    CHECK_RAND(rocrand_destroy_generator(generator));
    CHECK_RAND(rocrand_create_generator(&generator, ROCRAND_RNG_PSEUDO_PHILOX4_32_10));
    CHECK_RAND(rocrand_set_seed(generator, seed));
    CHECK_RAND(rocrand_generate_uniform(generator, floats, n));
    std::vector<float> uniform(n);
    CHECK(hipMemcpy(uniform.data(), floats, n * sizeof(float), hipMemcpyDeviceToHost));
    const float step = 2.3283064e-10f;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t v = philox(i / 4, seed)[i % 4];
        const float fused = std::fma(static_cast<float>(v), step, step);
        const float separate = step + static_cast<float>(v) * step;
        if (uniform[i] != fused && uniform[i] != separate) {
            rs_hip::fail(kProgram, "uniform %zu is %.9g, expected %.9g", i, uniform[i], fused);
        }
    }
    CHECK_RAND(rocrand_destroy_generator(generator));
    CHECK(hipFree(words));
    CHECK(hipFree(floats));
    std::printf("hip_rocrand: %zu Philox4x32-10 words and uniform floats match the host\n", n);
    std::printf("PASS\n");
    return 0;
}
