// SPDX-License-Identifier: MIT
// The interpreter's decoder (sim/isa/decoder.h) against its oracle, Debian's llvm-objdump-19: every
// instruction of real code objects (hipcc's demo and rocPRIM program, the engine's chunk-hash kernel,
// ROCclr's blit program) starts at the address objdump gives it and reads as objdump prints it; and every
// one of them is an instruction the interpreter implements, with operands it can read, so none of these
// programs can fail on an unimplemented instruction.
#include "assembly_reader.h"
#include "decoder.h"
#include "mapped_code_object.h"
#include "op_table.h"

#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>

namespace {

/// objdump's instructions: address -> text (white space collapsed).
QMap<quint64, QString> objdump_instructions(const QString& path) {
    QProcess p;
    p.start(RS_LLVM_OBJDUMP, {"-d", "--mcpu=gfx90a", path});
    p.waitForFinished(60000);
    QMap<quint64, QString> out;
    // "\ts_load_dword s0, s[4:5], 0x10    // 000000001600: C0020002 00000010"
    const QRegularExpression line(R"(^\t(\S.*?)\s*// ([0-9A-Fa-f]+):)");
    for (const QString& l : QString::fromLocal8Bit(p.readAllStandardOutput()).split('\n')) {
        const auto m = line.match(l);
        if (m.hasMatch()) {
            out.insert(m.captured(2).toULongLong(nullptr, 16), m.captured(1).simplified());
        }
    }
    return out;
}

} // namespace

class TestIsaDecoder : public QObject {
    Q_OBJECT
  private Q_SLOTS:
    /// The code objects the build makes for this suite are there (the others are optional).
    void demoCodeObjectBuilt() { QVERIFY(QFileInfo::exists(QString(RS_DEMO_CODE_OBJECT))); }

    void matchesObjdumpAndIsImplemented_data() {
        QTest::addColumn<QString>("path");
        for (const char* path : {RS_DECODER_CODE_OBJECTS}) {
            if (QFileInfo::exists(path)) {
                QTest::newRow(qPrintable(QFileInfo(path).fileName())) << QString(path);
            }
        }
    }

    void matchesObjdumpAndIsImplemented() {
        QFETCH(QString, path);
        const QMap<quint64, QString> expected = objdump_instructions(path);
        QVERIFY2(expected.size() > 10, qPrintable(path));
        sim::isa::MappedCodeObject co(path.toStdString());
        const auto program = sim::isa::decode_program(co.code_begin(), co.code_end());
        int compared = 0;
        // Every instruction objdump shows (it elides the zero padding between functions, which decodes
        // as v_cndmask_b32 and never runs) starts an instruction of the program and reads the same.
        for (auto it = expected.begin(); it != expected.end(); ++it) {
            const int32_t index = program->index_at(it.key() - co.code_vaddr());
            if (index < 0) {
                QFAIL(qPrintable(QStringLiteral("0x%1 (%2): no decoded instruction starts there")
                                     .arg(it.key(), 0, 16)
                                     .arg(it.value())));
            }
            const std::string& text = program->text[static_cast<size_t>(index)];
            QCOMPARE(QString::fromStdString(text).simplified(), it.value());
            ++compared;
            // Implemented, with operands and modifiers the reader understands.
            sim::isa::Instruction in;
            const std::string why = sim::isa::read_assembly(text, in);
            QVERIFY2(why.empty(), qPrintable(it.value() + ": " + QString::fromStdString(why)));
            QVERIFY2(sim::isa::OpTable::instance().find(sim::isa::base_mnemonic(text)) != nullptr,
                     qPrintable(it.value() + ": not implemented"));
        }
        QCOMPARE(compared, expected.size());
    }

    /// The reader's fields for printed forms whose every part matters.
    void readsOperandsAndModifiers() {
        sim::isa::Instruction in;
        QCOMPARE(sim::isa::read_assembly("v_add_f32_e64 v1, -v2, |s3| clamp mul:2", in), std::string());
        QCOMPARE(in.encoding, sim::isa::Encoding::e64);
        QCOMPARE(in.dst_count, uint8_t(1));
        QCOMPARE(in.src_count, uint8_t(2));
        QCOMPARE(in.dst[0].kind, sim::isa::OperandKind::vgpr);
        QCOMPARE(in.dst[0].index, uint16_t(1));
        QVERIFY(in.src[0].neg && !in.src[0].abs);
        QCOMPARE(in.src[1].kind, sim::isa::OperandKind::sgpr);
        QVERIFY(in.src[1].abs && !in.src[1].neg);
        QVERIFY(in.clamp);
        QCOMPARE(in.omod, uint8_t(1));

        in = {};
        QCOMPARE(sim::isa::read_assembly(
                     "v_mov_b32_dpp v0, v1 row_shr:3 row_mask:0xa bank_mask:0x5 bound_ctrl:1", in),
                 std::string());
        QCOMPARE(in.encoding, sim::isa::Encoding::dpp);
        QCOMPARE(in.dpp_ctrl, uint16_t(0x113));
        QCOMPARE(in.row_mask, uint8_t(0xa));
        QCOMPARE(in.bank_mask, uint8_t(0x5));
        QVERIFY(in.bound_ctrl);

        in = {};
        QCOMPARE(sim::isa::read_assembly("global_atomic_add v0, v[2:3], v4, s[6:7] offset:-16 glc", in),
                 std::string());
        QCOMPARE(in.dst_count, uint8_t(1)); // glc: the prior value comes back
        QCOMPARE(in.src[0].width, uint8_t(2));
        QCOMPARE(in.src[2].kind, sim::isa::OperandKind::sgpr);
        QCOMPARE(in.offset, -16);

        in = {};
        QCOMPARE(sim::isa::read_assembly("v_add_f64 v[0:1], 1.0, v[2:3]", in), std::string());
        QCOMPARE(in.src[0].value, uint64_t(0x3ff0000000000000)); // an inline constant typed as f64
        in = {};
        QCOMPARE(sim::isa::read_assembly("v_add_f16_e32 v0, 0.5, v1", in), std::string());
        QCOMPARE(in.src[0].value, uint64_t(0x3800));
        in = {};
        QCOMPARE(sim::isa::read_assembly("s_mov_b32 s0, src_shared_base", in), std::string());
        QCOMPARE(in.src[0].value, uint64_t(0x10000)); // the aperture's high dword

        in = {};
        QCOMPARE(sim::isa::read_assembly("ds_swizzle_b32 v0, v1 offset:swizzle(QUAD_PERM,3,2,1,0)", in),
                 std::string());
        QCOMPARE(in.offset, 0x8000 | 3 | 2 << 2 | 1 << 4 | 0 << 6);

        in = {};
        QVERIFY(!sim::isa::read_assembly("v_add_f32_e32 v0, bogus_register, v1", in).empty());
    }
};

QTEST_GUILESS_MAIN(TestIsaDecoder)
#include "tst_isa_decoder.moc"
