// SPDX-License-Identifier: MIT
// Chunk planning of a dirty restore (engine/src/chunk_plan.h): chunk boundaries are multiples of the
// chunk size in the device address space, clipped to the region; adjacent dirty chunks coalesce into
// one run; the chunk size option accepts powers of two in [4 KiB, 1 GiB] only.
#include "chunk_plan.h"

#include <QTest>

#include <cstdint>
#include <vector>

using namespace rs::engine;

namespace {
struct Span {
    uint64_t address;
    uint64_t bytes;
};
constexpr uint64_t C = 65536;
} // namespace

class TstChunkPlan : public QObject {
    Q_OBJECT

  private slots:
    void validChunkSizes() {
        QVERIFY(valid_chunk_size(4096));
        QVERIFY(valid_chunk_size(65536));
        QVERIFY(valid_chunk_size(1ull << 30));
        QVERIFY(!valid_chunk_size(2048));         // below 4 KiB
        QVERIFY(!valid_chunk_size(2ull << 30));   // above 1 GiB
        QVERIFY(!valid_chunk_size(65536 + 4096)); // not a power of two
        QVERIFY(!valid_chunk_size(0));
    }

    void alignedRegionSplitsIntoWholeChunks() {
        std::vector<Span> chunks;
        split_into_chunks(4 * C, 3 * C, C, chunks);
        QCOMPARE(chunks.size(), size_t(3));
        QCOMPARE(chunk_count(4 * C, 3 * C, C), uint64_t(3));
        for (size_t i = 0; i < chunks.size(); ++i) {
            QCOMPARE(chunks[i].address, 4 * C + i * C);
            QCOMPARE(chunks[i].bytes, C);
        }
    }

    void unalignedRegionHasShortFirstAndLastChunk() {
        // [C + 100, 3C + 7): chunk 1 from C+100, chunk 2 whole, chunk 3 up to 3C+7.
        const uint64_t a = C + 100, n = 2 * C - 93;
        std::vector<Span> chunks;
        split_into_chunks(a, n, C, chunks);
        QCOMPARE(chunks.size(), size_t(3));
        QCOMPARE(chunk_count(a, n, C), uint64_t(3));
        QCOMPARE(chunks[0].address, a);
        QCOMPARE(chunks[0].bytes, C - 100);
        QCOMPARE(chunks[1].address, 2 * C);
        QCOMPARE(chunks[1].bytes, C);
        QCOMPARE(chunks[2].address, 3 * C);
        QCOMPARE(chunks[2].bytes, uint64_t(7));
        uint64_t total = 0;
        for (const Span& s : chunks) {
            total += s.bytes;
        }
        QCOMPARE(total, n);
    }

    void smallRegionInsideOneChunk() {
        std::vector<Span> chunks;
        split_into_chunks(C + 8, 4, C, chunks); // a 4-byte module variable
        QCOMPARE(chunks.size(), size_t(1));
        QCOMPARE(chunks[0].address, C + 8);
        QCOMPARE(chunks[0].bytes, uint64_t(4));
        // Straddling one boundary: two chunks.
        chunks.clear();
        split_into_chunks(C - 2, 4, C, chunks);
        QCOMPARE(chunks.size(), size_t(2));
        QCOMPARE(chunks[0].bytes, uint64_t(2));
        QCOMPARE(chunks[1].address, C);
        QCOMPARE(chunk_count(C - 2, 4, C), uint64_t(2));
    }

    void emptyRegionHasNoChunk() {
        std::vector<Span> chunks;
        split_into_chunks(C, 0, C, chunks);
        QVERIFY(chunks.empty());
        QCOMPARE(chunk_count(C, 0, C), uint64_t(0));
    }

    void adjacentDirtyChunksCoalesce() {
        std::vector<Span> chunks;
        split_into_chunks(0, 8 * C, C, chunks);
        const std::vector<uint64_t> snap{1, 2, 3, 4, 5, 6, 7, 8};
        //                                 =  x  x  =  x  =  =  x
        const std::vector<uint64_t> now{1, 9, 9, 4, 9, 6, 7, 9};
        std::vector<DirtyRun> runs;
        dirty_runs(chunks.data(), snap.data(), now.data(), chunks.size(), runs);
        QCOMPARE(runs.size(), size_t(3));
        QCOMPARE(runs[0].first, 1u);
        QCOMPARE(runs[0].count, 2u);
        QCOMPARE(runs[0].address, C);
        QCOMPARE(runs[0].bytes, 2 * C);
        QCOMPARE(runs[1].first, 4u);
        QCOMPARE(runs[1].count, 1u);
        QCOMPARE(runs[1].address, 4 * C);
        QCOMPARE(runs[2].first, 7u);
        QCOMPARE(runs[2].address, 7 * C);
        QCOMPARE(runs[2].bytes, C);
    }

    void nothingDirtyNoRun() {
        std::vector<Span> chunks;
        split_into_chunks(0, 4 * C, C, chunks);
        const std::vector<uint64_t> h{5, 6, 7, 8};
        std::vector<DirtyRun> runs;
        dirty_runs(chunks.data(), h.data(), h.data(), chunks.size(), runs);
        QVERIFY(runs.empty());
    }

    void everythingDirtyOneRunOfShortChunks() {
        std::vector<Span> chunks;
        split_into_chunks(100, 3 * C, C, chunks); // 4 chunks, short first and last
        QCOMPARE(chunks.size(), size_t(4));
        const std::vector<uint64_t> snap{1, 2, 3, 4};
        const std::vector<uint64_t> now{5, 6, 7, 8};
        std::vector<DirtyRun> runs;
        dirty_runs(chunks.data(), snap.data(), now.data(), chunks.size(), runs);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].address, uint64_t(100));
        QCOMPARE(runs[0].bytes, 3 * C);
        QCOMPARE(runs[0].count, 4u);
    }

    void unhashedChunkCountsAsDirty() {
        std::vector<Span> chunks;
        split_into_chunks(0, 3 * C, C, chunks);
        const std::vector<uint64_t> snap{1, 0, 3}; // chunk 1 never hashed at snapshot time
        const std::vector<uint64_t> now{1, 2, 0};  // chunk 2 could not be hashed now
        std::vector<DirtyRun> runs;
        dirty_runs(chunks.data(), snap.data(), now.data(), chunks.size(), runs);
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].first, 1u);
        QCOMPARE(runs[0].count, 2u);
    }
};

QTEST_APPLESS_MAIN(TstChunkPlan)
#include "tst_chunk_plan.moc"
