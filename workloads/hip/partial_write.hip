// SPDX-License-Identifier: MIT
// partial_write: one large hipMalloc buffer of which each kernel launch writes a given fraction, the case
// dirty-chunk restore is for (docs/performance.md, "Restore: bytes moved"). For every fraction F of
// --fractions it launches `write_part` once; the launch updates in place (data[i] = data[i] * 2654435761 +
// salt) exactly the words the pattern selects and nothing else:
//   - slice:   one contiguous range of F x the buffer, starting a third of the way in (not chunk-aligned);
//   - scatter: blocks of --block bytes spaced evenly over the whole buffer (period --block / F);
//   - same:    every word written back with the value it already holds (nothing changes).
// Before the launch it prints what the launch will write, so a replaying tool's session can be compared
// with it:
//   write K fraction F bytes W runs R chunk_runs N chunk_bytes D
// W: bytes the kernel writes; R: contiguous written ranges; D: bytes of the --chunk-size chunks (default
// 65536, boundaries at multiples of the chunk size in the device address space, clipped to the buffer)
// that those ranges touch, which is what a dirty-chunk restore must copy back (0 for `same`); N: runs of
// adjacent touched chunks (the copies such a restore makes).
// After the last launch the whole buffer is read back and compared with a host reference of one
// execution per launch; any mismatch ends the program with status 1. Arguments:
//   --mib N (default 256) --fractions F[,F...] (default 1,0.1,0.01,0.001) --pattern slice|scatter|same
//   --block BYTES (default 4096, a multiple of 4) --chunk-size BYTES (default 65536)
#include "hip_check.h"

#include <cstring>
#include <string>
#include <vector>

namespace {
constexpr const char* kProgram = "partial_write";

/// The words one launch writes: `blocks` blocks of `block_words` words, block b starting at word
/// `first + b * period_words`.
struct Pattern {
    uint64_t first = 0, block_words = 0, period_words = 0, blocks = 0;
    bool same = false;
    uint64_t words() const { return blocks * block_words; }
};

uint64_t parse_u64(const char* text, const char* what) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(text, &end, 10);
    if (!end || *end != '\0' || end == text) {
        rs_hip::fail(kProgram, "%s: not a number: %s", what, text);
    }
    return v;
}
} // namespace

/// Word `k` of the pattern (0 <= k < blocks * block_words) updated in place; grid-stride loop.
__global__ void write_part(unsigned int* data, unsigned long long first, unsigned long long block_words,
                           unsigned long long period_words, unsigned long long count, unsigned int salt,
                           int same) {
    const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
    for (unsigned long long k = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < count; k += stride) {
        const unsigned long long i = first + (k / block_words) * period_words + k % block_words;
        const unsigned int old = data[i];
        data[i] = same ? old : old * 2654435761u + salt;
    }
}

int main(int argc, char** argv) {
    uint64_t mib = 256, block = 4096, chunk = 65536;
    std::vector<double> fractions{1.0, 0.1, 0.01, 0.001};
    std::string pattern = "slice";
    for (int a = 1; a + 1 < argc; a += 2) {
        const std::string flag = argv[a];
        if (flag == "--mib") {
            mib = parse_u64(argv[a + 1], "--mib");
        } else if (flag == "--block") {
            block = parse_u64(argv[a + 1], "--block");
        } else if (flag == "--chunk-size") {
            chunk = parse_u64(argv[a + 1], "--chunk-size");
        } else if (flag == "--pattern") {
            pattern = argv[a + 1];
        } else if (flag == "--fractions") {
            fractions.clear();
            std::string list = argv[a + 1];
            for (size_t pos = 0; pos <= list.size();) {
                const size_t comma = std::min(list.find(',', pos), list.size());
                fractions.push_back(std::atof(list.substr(pos, comma - pos).c_str()));
                pos = comma + 1;
            }
        } else {
            rs_hip::fail(kProgram, "unknown argument %s", flag.c_str());
        }
    }
    if (argc % 2 == 0) {
        rs_hip::fail(kProgram, "every argument takes a value");
    }
    if (mib == 0 || block == 0 || block % 4 != 0 || chunk == 0 ||
        (pattern != "slice" && pattern != "scatter" && pattern != "same")) {
        rs_hip::fail(kProgram, "bad arguments (--mib %llu --block %llu --chunk-size %llu --pattern %s)",
                     static_cast<unsigned long long>(mib), static_cast<unsigned long long>(block),
                     static_cast<unsigned long long>(chunk), pattern.c_str());
    }
    const uint64_t bytes = mib << 20, words = bytes / 4;

    unsigned int* data = nullptr;
    HIP_CHECK(hipMalloc(&data, bytes));
    std::printf("alloc data %lld %llu\n", rs_hip::address_of(data), static_cast<unsigned long long>(bytes));
    std::vector<unsigned int> expected(words), actual(words);
    for (uint64_t i = 0; i < words; ++i) {
        expected[i] = static_cast<unsigned int>(i * 0x9E3779B1ull + 12345u);
    }
    HIP_CHECK(hipMemcpy(data, expected.data(), bytes, hipMemcpyHostToDevice));
    HIP_CHECK(hipDeviceSynchronize());

    const uint64_t base = static_cast<uint64_t>(rs_hip::address_of(data));
    for (size_t launch = 0; launch < fractions.size(); ++launch) {
        const double f = fractions[launch];
        if (!(f > 0 && f <= 1)) {
            rs_hip::fail(kProgram, "fraction %g is not in (0, 1]", f);
        }
        Pattern p;
        if (pattern == "slice") {
            p.block_words = std::max<uint64_t>(1, static_cast<uint64_t>(f * static_cast<double>(words)));
            p.first = std::min(words / 3, words - p.block_words);
            p.period_words = p.block_words;
            p.blocks = 1;
        } else if (pattern == "scatter") {
            p.block_words = std::min(words, block / 4);
            p.period_words =
                std::max(p.block_words, static_cast<uint64_t>(static_cast<double>(p.block_words) / f));
            p.blocks = words / p.period_words;
            p.first = 0;
        } else {
            p.block_words = p.period_words = words;
            p.blocks = 1;
            p.same = true;
        }
        // Contiguous written ranges and the chunks they touch (a block ending where the next begins
        // makes one range).
        uint64_t runs = 0, chunk_runs = 0, chunk_bytes = 0, last_chunk_end = 0;
        for (uint64_t b = 0; b < p.blocks && !p.same; ++b) {
            const uint64_t start = base + (p.first + b * p.period_words) * 4;
            const uint64_t end = start + p.block_words * 4;
            if (b == 0 || p.period_words != p.block_words) {
                ++runs;
            }
            const uint64_t c0 = std::max(start / chunk * chunk, base);
            const uint64_t c1 = std::min((end + chunk - 1) / chunk * chunk, base + bytes);
            if (b == 0 || c0 > last_chunk_end) {
                ++chunk_runs; // not adjacent to the chunks of the previous block
            }
            const uint64_t from = b == 0 ? c0 : std::max(c0, last_chunk_end);
            if (c1 > from) {
                chunk_bytes += c1 - from;
            }
            last_chunk_end = std::max(last_chunk_end, c1);
        }
        const unsigned int salt = 0x1000u + static_cast<unsigned int>(launch);
        std::printf("write %zu fraction %g bytes %llu runs %llu chunk_runs %llu chunk_bytes %llu\n", launch,
                    f, static_cast<unsigned long long>(p.words() * 4), static_cast<unsigned long long>(runs),
                    static_cast<unsigned long long>(chunk_runs),
                    static_cast<unsigned long long>(chunk_bytes));
        std::fflush(stdout);
        for (uint64_t b = 0; b < p.blocks && !p.same; ++b) {
            for (uint64_t w = 0; w < p.block_words; ++w) {
                unsigned int& e = expected[p.first + b * p.period_words + w];
                e = e * 2654435761u + salt;
            }
        }
        const uint64_t count = p.words();
        const unsigned int grid = static_cast<unsigned int>(std::min<uint64_t>(4096, (count + 255) / 256));
        hipLaunchKernelGGL(
            write_part, dim3(grid), dim3(256), 0, 0, data, static_cast<unsigned long long>(p.first),
            static_cast<unsigned long long>(p.block_words), static_cast<unsigned long long>(p.period_words),
            static_cast<unsigned long long>(count), salt, p.same ? 1 : 0);
        HIP_CHECK(hipGetLastError());
        HIP_CHECK(hipDeviceSynchronize());
    }

    HIP_CHECK(hipMemcpy(actual.data(), data, bytes, hipMemcpyDeviceToHost));
    for (uint64_t i = 0; i < words; ++i) {
        if (actual[i] != expected[i]) {
            rs_hip::fail(kProgram, "word %llu is %u, expected %u (one execution of every launch)",
                         static_cast<unsigned long long>(i), actual[i], expected[i]);
        }
    }
    HIP_CHECK(hipFree(data));
    std::printf("partial_write: %zu launches over %llu MiB, every word right\nPASS\n", fractions.size(),
                static_cast<unsigned long long>(mib));
    return 0;
}
