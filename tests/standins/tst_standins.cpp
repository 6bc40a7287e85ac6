// SPDX-License-Identifier: MIT
// Stand-in libraries made by replayscope-standins (sim/standins): a library built from kernels.hip is
// loaded with dlopen and each kernel run through its entry with a hand-filled launch description and a
// kernarg segment laid out as hipcc lays it out; results are checked against host references. The
// library's symbols and the kernarg offsets are cross-checked with the code object hipcc makes from the
// same file (when hipcc and llvm-readelf are installed).
#include "kernel_params.h"

#include <hsa_sim/standin.h>

#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_vector_types.h> // float4, as kernels.hip sees it
static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4 as on the GPU");

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

/** A kernarg segment: explicit arguments at their natural alignment, then zeroed hidden arguments. */
class kernarg {
  public:
    template <class T>
    kernarg& add(const T& value) {
        offset_ = (offset_ + alignof(T) - 1) / alignof(T) * alignof(T);
        if (bytes_.size() < offset_ + sizeof(T)) {
            bytes_.resize(offset_ + sizeof(T));
        }
        std::memcpy(bytes_.data() + offset_, &value, sizeof(T));
        offsets_.push_back(offset_);
        offset_ += sizeof(T);
        return *this;
    }
    /** The segment as the runtime passes it: explicit arguments plus 56 bytes of hidden ones. */
    const void* data() {
        segment_.assign(bytes_.begin(), bytes_.end());
        segment_.resize((bytes_.size() + 7) / 8 * 8 + 56, 0);
        return segment_.data();
    }
    uint32_t size() const { return static_cast<uint32_t>((bytes_.size() + 7) / 8 * 8 + 56); }
    const std::vector<std::size_t>& offsets() const { return offsets_; }

  private:
    std::vector<unsigned char> bytes_;
    std::vector<unsigned char> segment_;
    std::vector<std::size_t> offsets_;
    std::size_t offset_ = 0;
};

struct dispatch {
    uint32_t dimensions = 1;
    uint32_t grid[3] = {1, 1, 1};
    uint32_t workgroup[3] = {1, 1, 1};
    uint32_t dynamic_lds = 0;
};

/** Kernel symbols and the arguments the suite passes them (types as kernels.hip declares them). */
std::map<std::string, kernarg> argument_layouts() {
    std::map<std::string, kernarg> m;
    float* f = nullptr;
    double* d = nullptr;
    int* i = nullptr;
    unsigned* u = nullptr;
    unsigned long long* ull = nullptr;
    m["_Z4vaddPfPKfS1_i"].add(f).add(static_cast<const float*>(f)).add(static_cast<const float*>(f)).add(0);
    m["_Z6fill2dPiii"].add(i).add(0).add(0);
    m["_Z7index3dPjjj"].add(u).add(0u).add(0u);
    m["_Z9block_sumPKfPf"].add(static_cast<const float*>(f)).add(f);
    m["_Z9transposePfPKfii"].add(f).add(static_cast<const float*>(f)).add(0).add(0);
    m["_Z7atomicsPiPjPyPfPd"].add(i).add(u).add(ull).add(f).add(d);
    m["_Z5scaleIdEvPT_S0_i"].add(d).add(0.0).add(0);
    m["_Z5scaleIfEvPT_S0_i"].add(f).add(0.0f).add(0);
    m["_Z14count_and_polyPfPKfi"].add(f).add(static_cast<const float*>(f)).add(0);
    m["_Z12bump_counterv"];
    m["_Z13barrier_votesPi"].add(i);
    m["_Z15reverse_dynamicPi"].add(i);
    m["_Z13shift_dynamicPfi"].add(f).add(0);
    m["_Z8by_value12KernelParamscPd"].add(KernelParams{}).add('\0').add(d);
    m["_Z10early_exitPii"].add(i).add(0);
    m["_Z11shuffle_sumPf"].add(f);
    m["_Z14amdgcn_builtinPj"].add(u);
    m["_Z11builtin_idsPj"].add(u);
    m["_Z22fails_between_barriersPi"].add(i);
    m["_ZN7physics5axpy4EP15HIP_vector_typeIfLj4EEfS1_"]
        .add(static_cast<float4*>(nullptr))
        .add(0.0f)
        .add(float4{});
    return m;
}

QString run_tool(const QString& program, const QStringList& args, int* exit_code, QString* output) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(120000)) {
        return "timed out";
    }
    *exit_code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    *output = QString::fromLocal8Bit(p.readAll());
    return {};
}

} // namespace

class tst_standins : public QObject {
    Q_OBJECT

  private:
    void* handle_ = nullptr;
    const hsa_sim_standin_library_t* library_ = nullptr;

    hsa_sim_standin_kernel_fn_t entry(const char* symbol) {
        for (uint32_t k = 0; k < library_->kernel_count; ++k) {
            if (std::strcmp(library_->kernels[k].symbol, symbol) == 0) {
                return library_->kernels[k].entry;
            }
        }
        return nullptr;
    }
    void* variable(const char* symbol, uint64_t* size = nullptr) {
        for (uint32_t v = 0; v < library_->variable_count; ++v) {
            if (std::strcmp(library_->variables[v].symbol, symbol) == 0) {
                if (size) {
                    *size = library_->variables[v].size;
                }
                return library_->variables[v].address;
            }
        }
        return nullptr;
    }
    /** Runs `symbol`; returns the entry's result, the error text in `error`. */
    int run(const char* symbol, const dispatch& d, kernarg& args, std::string* error = nullptr,
            const void* kernarg_override = nullptr, uint32_t size_override = 0) {
        const auto fn = entry(symbol);
        if (!fn) {
            return -1;
        }
        hsa_sim_standin_launch_t l{};
        l.dimensions = d.dimensions;
        for (int i = 0; i < 3; ++i) {
            l.grid_size[i] = d.grid[i];
            l.workgroup_size[i] = d.workgroup[i];
        }
        l.kernarg = kernarg_override ? kernarg_override : args.data();
        l.kernarg_segment_size = size_override ? size_override : args.size();
        l.dynamic_group_segment_size = d.dynamic_lds;
        l.kernel_name = symbol;
        char buf[512] = "untouched";
        const int rc = fn(&l, buf, sizeof buf);
        if (error) {
            *error = buf;
        }
        return rc;
    }

  private Q_SLOTS:
    void initTestCase() {
        handle_ = dlopen(RS_STANDINS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        QVERIFY2(handle_, dlerror());
        auto fn = reinterpret_cast<hsa_sim_standin_library_fn_t>(dlsym(handle_, HSA_SIM_STANDIN_ENTRY));
        QVERIFY(fn);
        library_ = fn();
        QVERIFY(library_);
    }
    void cleanupTestCase() {
        if (handle_) {
            dlclose(handle_);
        }
    }

    void describes_every_kernel_and_variable() {
        QCOMPARE(library_->abi_version, HSA_SIM_STANDIN_ABI_VERSION);
        std::set<std::string> kernels;
        for (uint32_t k = 0; k < library_->kernel_count; ++k) {
            QVERIFY(library_->kernels[k].entry != nullptr);
            kernels.insert(library_->kernels[k].symbol);
        }
        std::set<std::string> expected;
        for (const auto& [symbol, args] : argument_layouts()) {
            expected.insert(symbol);
        }
        QCOMPARE(kernels, expected);
        QCOMPARE(library_->variable_count, 2u);
        uint64_t size = 0;
        QVERIFY(variable("launch_counter", &size));
        QCOMPARE(size, uint64_t{4});
        QVERIFY(variable("poly_coeffs", &size));
        QCOMPARE(size, uint64_t{16});
    }

    void exports_only_its_entry() {
        int rc = 0;
        QString out;
        QCOMPARE(run_tool("nm", {"-D", RS_STANDINS_LIBRARY}, &rc, &out), QString());
        QCOMPARE(rc, 0);
        QStringList defined;
        for (const QString& line : out.split('\n', Qt::SkipEmptyParts)) {
            const QStringList f = line.split(' ', Qt::SkipEmptyParts);
            QVERIFY2(!f.last().startsWith("hip"), qPrintable("needs the HIP runtime: " + line));
            if (f.size() == 3 && f[1] != "U" && f[1] != "w" && f[1] != "v") {
                defined << f[2];
            }
        }
        QCOMPARE(defined, QStringList{"hsa_sim_standin_library"});
    }

    void symbols_match_hipcc_code_object() {
        if (QString(RS_STANDINS_CODE_OBJECT).isEmpty()) {
            QSKIP("hipcc not installed: no code object to compare with");
        }
        int rc = 0;
        QString out;
        QCOMPARE(run_tool(RS_READELF, {"-sW", RS_STANDINS_CODE_OBJECT}, &rc, &out), QString());
        QCOMPARE(rc, 0);
        std::set<std::string> co_kernels;
        std::set<std::string> co_variables;
        for (const QString& line : out.split('\n', Qt::SkipEmptyParts)) {
            const QStringList f = line.split(' ', Qt::SkipEmptyParts);
            if (f.size() < 8 || f[4] != "GLOBAL") {
                continue;
            }
            if (f[3] == "FUNC") {
                co_kernels.insert(f[7].toStdString());
            } else if (f[3] == "OBJECT" && !f[7].endsWith(".kd")) {
                co_variables.insert(f[7].toStdString());
            }
        }
        std::set<std::string> kernels;
        for (uint32_t k = 0; k < library_->kernel_count; ++k) {
            kernels.insert(library_->kernels[k].symbol);
        }
        std::set<std::string> variables;
        for (uint32_t v = 0; v < library_->variable_count; ++v) {
            variables.insert(library_->variables[v].symbol);
        }
        QCOMPARE(kernels, co_kernels);
        QCOMPARE(variables, co_variables);
    }

    void kernarg_offsets_match_hipcc_metadata() {
        if (QString(RS_STANDINS_CODE_OBJECT).isEmpty() || QString(RS_LLVM_READELF).isEmpty()) {
            QSKIP("hipcc or llvm-readelf not installed: no metadata to compare with");
        }
        int rc = 0;
        QString out;
        QCOMPARE(run_tool(RS_LLVM_READELF, {"--notes", RS_STANDINS_CODE_OBJECT}, &rc, &out), QString());
        QCOMPARE(rc, 0);
        // Each kernel's map lists .args (offset, then value kind, per argument) before its .name.
        std::map<std::string, std::vector<std::size_t>> metadata;
        std::vector<std::size_t> args;
        long pending_offset = -1;
        const QRegularExpression offset_re("^\\s*(- )?\\.offset:\\s+(\\d+)");
        const QRegularExpression kind_re("^\\s*(- )?\\.value_kind:\\s+(\\S+)");
        const QRegularExpression name_re("^\\s*\\.name:\\s+(\\S+)");
        for (const QString& line : out.split('\n')) {
            if (auto m = offset_re.match(line); m.hasMatch()) {
                pending_offset = m.captured(2).toLong();
            } else if (auto k = kind_re.match(line); k.hasMatch()) {
                if (!k.captured(2).startsWith("hidden_") && pending_offset >= 0) {
                    args.push_back(static_cast<std::size_t>(pending_offset));
                }
                pending_offset = -1;
            } else if (auto n = name_re.match(line); n.hasMatch()) {
                metadata[n.captured(1).toStdString()] = args;
                args.clear();
            }
        }
        const auto layouts = argument_layouts();
        QCOMPARE(metadata.size(), layouts.size());
        for (const auto& [symbol, layout] : layouts) {
            QVERIFY2(metadata.count(symbol), symbol.c_str());
            QCOMPARE(layout.offsets(), metadata[symbol]);
        }
        // The interesting case: a 24-byte struct, a char, then a pointer at 32.
        QCOMPARE(metadata["_Z8by_value12KernelParamscPd"], (std::vector<std::size_t>{0, 24, 32}));
    }

    void vadd_1d() {
        const int n = 1000;
        std::vector<float> a(1024), b(1024), out(1024, -1.0f);
        for (int i = 0; i < 1024; ++i) {
            a[i] = static_cast<float>(i);
            b[i] = static_cast<float>(2 * i + 1);
        }
        kernarg k;
        k.add(out.data())
            .add(static_cast<const float*>(a.data()))
            .add(static_cast<const float*>(b.data()))
            .add(n);
        dispatch d;
        d.grid[0] = 1024;
        d.workgroup[0] = 256;
        QCOMPARE(run("_Z4vaddPfPKfS1_i", d, k), 0);
        for (int i = 0; i < 1024; ++i) {
            QCOMPARE(out[i], i < n ? static_cast<float>(3 * i + 1) : -1.0f);
        }
    }

    void fill_2d() {
        const int width = 37, height = 23;
        std::vector<int> out(width * height, -1);
        kernarg k;
        k.add(out.data()).add(width).add(height);
        dispatch d;
        d.dimensions = 2;
        d.grid[0] = 40;
        d.grid[1] = 24;
        d.workgroup[0] = 8;
        d.workgroup[1] = 8;
        QCOMPARE(run("_Z6fill2dPiii", d, k), 0);
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x) {
                QCOMPARE(out[y * width + x], x * 1000 + y);
            }
        }
    }

    void index_3d() {
        const unsigned nx = 8, ny = 6, nz = 4;
        std::vector<unsigned> out(nx * ny * nz, 0xdeadbeef);
        kernarg k;
        k.add(out.data()).add(nx).add(ny);
        dispatch d;
        d.dimensions = 3;
        d.grid[0] = nx;
        d.grid[1] = ny;
        d.grid[2] = nz;
        d.workgroup[0] = 4;
        d.workgroup[1] = 3;
        d.workgroup[2] = 2;
        QCOMPARE(run("_Z7index3dPjjj", d, k), 0);
        for (unsigned z = 0; z < nz; ++z) {
            for (unsigned y = 0; y < ny; ++y) {
                for (unsigned x = 0; x < nx; ++x) {
                    const unsigned expected = (x % 4) | ((y % 3) << 4) | ((z % 2) << 8) | ((x / 4) << 12) |
                                              ((y / 3) << 16) | ((z / 2) << 20) | (2u << 24) | (2u << 28);
                    QCOMPARE(out[(z * ny + y) * nx + x], expected);
                }
            }
        }
    }

    void block_reduction_with_barriers() {
        const int groups = 8;
        std::vector<float> in(groups * 256), out(groups, -1.0f);
        std::vector<float> expected(groups, 0.0f);
        for (int i = 0; i < groups * 256; ++i) {
            in[i] = static_cast<float>(i % 17);
            expected[i / 256] += in[i];
        }
        kernarg k;
        k.add(static_cast<const float*>(in.data())).add(out.data());
        dispatch d;
        d.grid[0] = groups * 256;
        d.workgroup[0] = 256;
        QCOMPARE(run("_Z9block_sumPKfPf", d, k), 0);
        for (int g = 0; g < groups; ++g) {
            QCOMPARE(out[g], expected[g]);
        }
    }

    void concurrent_dispatches() {
        // Two runtime threads dispatching at once (two queues): each has its own fibers and shared memory.
        std::vector<float> in(4 * 256), out1(4), out2(4);
        for (int i = 0; i < 4 * 256; ++i) {
            in[i] = static_cast<float>(i % 5);
        }
        int rc1 = -1, rc2 = -1;
        auto work = [&](std::vector<float>* out, int* rc) {
            for (int rep = 0;
                 rep < 20 && (*rc =
                                  [&] {
                                      kernarg k;
                                      k.add(static_cast<const float*>(in.data())).add(out->data());
                                      dispatch d;
                                      d.grid[0] = 4 * 256;
                                      d.workgroup[0] = 256;
                                      return run("_Z9block_sumPKfPf", d, k);
                                  }()) == 0;
                 ++rep) {
            }
        };
        std::thread t1(work, &out1, &rc1);
        std::thread t2(work, &out2, &rc2);
        t1.join();
        t2.join();
        QCOMPARE(rc1, 0);
        QCOMPARE(rc2, 0);
        for (int g = 0; g < 4; ++g) {
            float s = 0;
            for (int i = 0; i < 256; ++i) {
                s += in[g * 256 + i];
            }
            QCOMPARE(out1[g], s);
            QCOMPARE(out2[g], s);
        }
    }

    void tiled_transpose() {
        const int width = 45, height = 33;
        std::vector<float> in(width * height), out(width * height, -1.0f);
        for (int i = 0; i < width * height; ++i) {
            in[i] = static_cast<float>(i);
        }
        kernarg k;
        k.add(out.data()).add(static_cast<const float*>(in.data())).add(width).add(height);
        dispatch d;
        d.dimensions = 2;
        d.grid[0] = 48;
        d.grid[1] = 48;
        d.workgroup[0] = 16;
        d.workgroup[1] = 16;
        QCOMPARE(run("_Z9transposePfPKfii", d, k), 0);
        for (int y = 0; y < height; ++y) {
            for (int x = 0; x < width; ++x) {
                QCOMPARE(out[x * height + y], in[y * width + x]);
            }
        }
    }

    void atomics() {
        int i[4] = {0, 1000, 100, -100};
        unsigned u[6] = {0, 0xffffffffu, 5, 0, 0, 0};
        unsigned long long ull[3] = {0, 0, 0};
        float f[3] = {0.0f, -1.0f, 0.0f};
        double dd[2] = {0.0, 0.0};
        kernarg k;
        k.add(&i[0]).add(&u[0]).add(&ull[0]).add(&f[0]).add(&dd[0]);
        dispatch d;
        d.grid[0] = 256;
        d.workgroup[0] = 64;
        QCOMPARE(run("_Z7atomicsPiPjPyPfPd", d, k), 0);
        QCOMPARE(i[0], 256);
        QCOMPARE(i[1], 1000 - 512);
        QCOMPARE(i[2], 255);
        QCOMPARE(i[3], -255);
        QCOMPARE(u[0], 0xffffffffu);
        QCOMPARE(u[1], 0u);
        QCOMPARE(u[2], 5u);         // 256 xors with 1
        QCOMPARE(u[3], 256u % 10u); // atomicInc wraps to 0 after 9
        QCOMPARE(u[4], 4u);         // atomicDec from 0 wraps to 9: 0,9,8,...
        QCOMPARE(u[5], 7u);
        QCOMPARE(ull[0], 256ull << 33);
        QCOMPARE(ull[1], 255ull);
        QCOMPARE(ull[2], 256ull); // work-items run in order of their flat id, one work-group after another
        QCOMPARE(f[0], 128.0f);
        QCOMPARE(f[1], 255.0f);
        QCOMPARE(f[2], 3.0f);
        QCOMPARE(dd[0], 64.0);
        QCOMPARE(dd[1], -255.0);
    }

    void template_kernels() {
        std::vector<float> xf(300);
        std::vector<double> xd(300);
        for (int i = 0; i < 300; ++i) {
            xf[i] = static_cast<float>(i);
            xd[i] = i + 0.5;
        }
        dispatch d;
        d.grid[0] = 320;
        d.workgroup[0] = 64;
        kernarg kf;
        kf.add(xf.data()).add(1.5f).add(300);
        QCOMPARE(run("_Z5scaleIfEvPT_S0_i", d, kf), 0);
        kernarg kd;
        kd.add(xd.data()).add(-2.0).add(300);
        QCOMPARE(run("_Z5scaleIdEvPT_S0_i", d, kd), 0);
        for (int i = 0; i < 300; ++i) {
            QCOMPARE(xf[i], 1.5f * static_cast<float>(i));
            QCOMPARE(xd[i], -2.0 * (i + 0.5));
        }
    }

    void device_counter_and_constant_table() {
        auto* counter = static_cast<unsigned*>(variable("launch_counter"));
        auto* coeffs = static_cast<float*>(variable("poly_coeffs"));
        QVERIFY(counter && coeffs);
        *counter = 0; // what the runtime does: the code object's initial bytes, then hipMemcpyToSymbol
        const float c[4] = {1.0f, 2.0f, 0.5f, -0.25f};
        std::memcpy(coeffs, c, sizeof c);
        const int n = 500;
        std::vector<float> x(n), out(n);
        for (int i = 0; i < n; ++i) {
            x[i] = static_cast<float>(i % 7) - 3.0f;
        }
        kernarg k;
        k.add(out.data()).add(static_cast<const float*>(x.data())).add(n);
        dispatch d;
        d.grid[0] = 512;
        d.workgroup[0] = 128;
        QCOMPARE(run("_Z14count_and_polyPfPKfi", d, k), 0);
        QCOMPARE(*counter, 512u);
        for (int i = 0; i < n; ++i) {
            QCOMPARE(out[i], c[0] + c[1] * x[i] + c[2] * (x[i] * x[i]) + c[3] * x[i] * (x[i] * x[i]));
        }
        QCOMPARE(run("_Z14count_and_polyPfPKfi", d, k), 0);
        QCOMPARE(*counter, 1024u);
        kernarg none;
        QCOMPARE(run("_Z12bump_counterv", d, none), 0); // no explicit arguments
        QCOMPARE(*counter, 1536u);
    }

    void dynamic_shared_memory() {
        std::vector<int> data(3 * 256);
        for (int i = 0; i < 3 * 256; ++i) {
            data[i] = i;
        }
        kernarg k;
        k.add(data.data());
        dispatch d;
        d.grid[0] = 3 * 256;
        d.workgroup[0] = 256;
        d.dynamic_lds = 256 * sizeof(int);
        QCOMPARE(run("_Z15reverse_dynamicPi", d, k), 0);
        for (int g = 0; g < 3; ++g) {
            for (int t = 0; t < 256; ++t) {
                QCOMPARE(data[g * 256 + t], g * 256 + 255 - t);
            }
        }

        std::vector<float> v(64);
        for (int i = 0; i < 64; ++i) {
            v[i] = static_cast<float>(i);
        }
        kernarg ks;
        ks.add(v.data()).add(5);
        dispatch ds;
        ds.grid[0] = 64;
        ds.workgroup[0] = 64;
        ds.dynamic_lds = 64 * sizeof(float);
        QCOMPARE(run("_Z13shift_dynamicPfi", ds, ks), 0);
        for (int i = 0; i < 64; ++i) {
            QCOMPARE(v[i], static_cast<float>((i + 5) % 64));
        }

        std::string error;
        d.dynamic_lds = 65537;
        QCOMPARE(run("_Z15reverse_dynamicPi", d, k, &error), 1);
        QVERIFY2(error.find("dynamic group segment of 65537 bytes") != std::string::npos, error.c_str());
    }

    void by_value_struct() {
        double out[2] = {0, 0};
        kernarg k;
        k.add(KernelParams{2.0f, 3.5, 7, 42}).add(static_cast<char>(1)).add(&out[0]);
        QCOMPARE(k.offsets(), (std::vector<std::size_t>{0, 24, 32}));
        dispatch d;
        QCOMPARE(run("_Z8by_value12KernelParamscPd", d, k), 0);
        QCOMPARE(out[0], 2.0 * 3.5 + 7 + 1);
        QCOMPARE(out[1], 42.0);
    }

    void exited_work_items_count_as_arrived() {
        int out[2] = {-1, -1};
        kernarg k;
        k.add(&out[0]).add(10);
        dispatch d;
        d.grid[0] = 128;
        d.workgroup[0] = 64;
        QCOMPARE(run("_Z10early_exitPii", d, k), 0);
        QCOMPARE(out[0], 10);
        QCOMPARE(out[1], 10);
    }

    void warp_shuffle_fails_clearly() {
        std::vector<float> x(64, 1.0f);
        kernarg k;
        k.add(x.data());
        dispatch d;
        d.grid[0] = 64;
        d.workgroup[0] = 64;
        std::string error;
        QCOMPARE(run("_Z11shuffle_sumPf", d, k, &error), 1);
        QVERIFY2(error.find("__shfl_down") != std::string::npos, error.c_str());
        QVERIFY2(error.find("work-item (0,0,0) of work-group (0,0,0)") != std::string::npos, error.c_str());
        QCOMPARE(x[0], 1.0f); // nothing was written
    }

    void counting_barriers() {
        int out[8];
        std::fill(std::begin(out), std::end(out), -1);
        kernarg k;
        k.add(&out[0]);
        dispatch d;
        d.grid[0] = 128;
        d.workgroup[0] = 64;
        QCOMPARE(run("_Z13barrier_votesPi", d, k), 0);
        for (int g = 0; g < 2; ++g) {
            QCOMPARE(out[4 * g + 0], 22); // t % 3 == 0 for t in 0..63
            QCOMPARE(out[4 * g + 1], 1);
            QCOMPARE(out[4 * g + 2], 1);
            QCOMPARE(out[4 * g + 3], 0);
        }
    }

    void failure_unwinds_waiting_work_items() {
        int destroyed = 0;
        kernarg k;
        k.add(&destroyed);
        dispatch d;
        d.grid[0] = 128;
        d.workgroup[0] = 64;
        std::string error;
        QCOMPARE(run("_Z22fails_between_barriersPi", d, k, &error), 1);
        QVERIFY2(error.find("work-item (3,0,0) of work-group (0,0,0): the kernel uses __ballot") !=
                     std::string::npos,
                 error.c_str());
        QCOMPARE(destroyed, 64); // 3 waiting at the second barrier, 60 at the first, the failing one
        // The next dispatch starts clean.
        QCOMPARE(run("_Z10early_exitPii", d, k), 0);
    }

    void namespaced_kernel_with_vector_types() {
        std::vector<float4> y(32);
        for (int i = 0; i < 32; ++i) {
            y[i] = make_float4(static_cast<float>(i), 1.0f, 2.0f, 3.0f);
        }
        kernarg k;
        k.add(y.data()).add(2.0f).add(make_float4(1.0f, 10.0f, 100.0f, 1000.0f));
        QCOMPARE(k.offsets(), (std::vector<std::size_t>{0, 8, 16})); // float4: 16-byte aligned
        dispatch d;
        d.grid[0] = 32;
        d.workgroup[0] = 32;
        QCOMPARE(run("_ZN7physics5axpy4EP15HIP_vector_typeIfLj4EEfS1_", d, k), 0);
        for (int i = 0; i < 32; ++i) {
            QCOMPARE(y[i].x, 2.0f + static_cast<float>(i));
            QCOMPARE(y[i].y, 21.0f);
            QCOMPARE(y[i].z, 202.0f);
            QCOMPARE(y[i].w, 2003.0f);
        }
    }

    void amdgcn_ids_and_barrier_builtins() {
        std::vector<unsigned> out(2 * 64, 0xffffffffu);
        kernarg k;
        k.add(out.data());
        dispatch d;
        d.grid[0] = 128;
        d.workgroup[0] = 64;
        QCOMPARE(run("_Z11builtin_idsPj", d, k), 0);
        for (unsigned g = 0; g < 2; ++g) {
            for (unsigned t = 0; t < 64; ++t) {
                QCOMPARE(out[g * 64 + (t + 1) % 64], t + 1000u * g);
            }
        }
    }

    void amdgcn_builtin_fails_clearly() {
        unsigned out = 0;
        kernarg k;
        k.add(&out);
        dispatch d;
        std::string error;
        QCOMPARE(run("_Z14amdgcn_builtinPj", d, k, &error), 1);
        QVERIFY2(error.find("__builtin_amdgcn_readfirstlane") != std::string::npos, error.c_str());
    }

    void malformed_launches_fail() {
        std::vector<float> v(256);
        kernarg k;
        k.add(v.data())
            .add(static_cast<const float*>(v.data()))
            .add(static_cast<const float*>(v.data()))
            .add(256);
        dispatch d;
        d.grid[0] = 256;
        d.workgroup[0] = 256;
        std::string error;
        static const unsigned char none[1] = {0};
        QCOMPARE(run("_Z4vaddPfPKfS1_i", d, k, &error, none, 8), 1);
        QVERIFY2(error.find("smaller than the kernel's explicit arguments") != std::string::npos,
                 error.c_str());
        d.workgroup[0] = 2048;
        d.grid[0] = 2048;
        QCOMPARE(run("_Z4vaddPfPKfS1_i", d, k, &error), 1);
        QVERIFY2(error.find("at most 1024") != std::string::npos, error.c_str());
        d.dimensions = 4;
        QCOMPARE(run("_Z4vaddPfPKfS1_i", d, k, &error), 1);
        QVERIFY2(error.find("dimensions") != std::string::npos, error.c_str());
    }

    void builtin_names_free_for_host_code() {
        // names.hip's host code uses gridDim/blockDim/threadIdx/warpSize as members, locals and
        // parameters; its kernel mixes the coordinates with integers, templates, std::max and dim3.
        void* h = dlopen(RS_STANDINS_NAMES_LIBRARY, RTLD_NOW | RTLD_LOCAL);
        QVERIFY2(h, dlerror());
        auto fn = reinterpret_cast<hsa_sim_standin_library_fn_t>(dlsym(h, HSA_SIM_STANDIN_ENTRY));
        QVERIFY(fn);
        const hsa_sim_standin_library_t* lib = fn();
        QCOMPARE(lib->kernel_count, 1u);
        QCOMPARE(std::string(lib->kernels[0].symbol), std::string("_Z15coordinates_mixPjji"));
        // 2D grid 12 x 4 in work-groups of 4 x 2 (whole work-groups, as a HIP launch makes them).
        const unsigned width = 12, height = 4, wx = 4, wy = 2, n = 2;
        const int m = 1;
        std::vector<unsigned> out(8 * width * height, 0xdeadbeefu);
        kernarg k;
        k.add(out.data()).add(n).add(m);
        hsa_sim_standin_launch_t l{};
        l.dimensions = 2;
        l.grid_size[0] = width;
        l.grid_size[1] = height;
        l.grid_size[2] = 1;
        l.workgroup_size[0] = wx;
        l.workgroup_size[1] = wy;
        l.workgroup_size[2] = 1;
        l.kernarg = k.data();
        l.kernarg_segment_size = k.size();
        l.kernel_name = lib->kernels[0].symbol;
        char error[512] = "";
        QCOMPARE(lib->kernels[0].entry(&l, error, sizeof error), 0);
        const unsigned groups_x = width / wx, groups_y = height / wy;
        for (unsigned gy = 0; gy < height; ++gy) {
            for (unsigned gx = 0; gx < width; ++gx) {
                const unsigned tx = gx % wx, ty = gy % wy, by = gy / wy;
                const unsigned* o = out.data() + 8 * (gy * width + gx);
                const std::vector<unsigned> got(o, o + 8);
                const std::vector<unsigned> expected = {gx,
                                                        std::min(tx, n),
                                                        static_cast<unsigned>(std::min<int>(tx, m) + 100),
                                                        2 * ty,
                                                        std::max(tx, n),
                                                        wx * 1000 + wy,
                                                        tx + groups_x * 100 + groups_y * 10000,
                                                        ty + wx * by + 3 * 64};
                QCOMPARE(got, expected);
            }
        }
        dlclose(h);
    }

    void tool_warnings_only_when_asked() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile src(dir.filePath("warn.hip"));
        QVERIFY(src.open(QIODevice::WriteOnly));
        src.write("#include <hip/hip_runtime.h>\n"
                  "__global__ void k(int* p) { p[threadIdx.x] = 1; }\n"
                  "int main() {\n"
                  "    int* p = nullptr;\n"
                  "    k<<<1, 64>>>(p); hipMalloc(&p, 4);\n"
                  "    return 0;\n"
                  "}\n");
        src.close();
        const QString lib = dir.filePath("libwarn-standins.so");
        int rc = 0;
        QString out;
        QCOMPARE(run_tool(RS_STANDINS_TOOL, {"-o", lib, src.fileName()}, &rc, &out), QString());
        QCOMPARE(rc, 0);
        QVERIFY2(!out.contains("warning"), qPrintable(out));
        QCOMPARE(out.trimmed(), "replayscope-standins: wrote " + lib + " (1 kernels, 0 variables)");
        // Asked for: shown at the user's line, with the user's own text of the launch line.
        QCOMPARE(run_tool(RS_STANDINS_TOOL, {"--warnings", "-o", lib, src.fileName()}, &rc, &out), QString());
        QCOMPARE(rc, 0);
        QVERIFY2(out.contains("warn.hip:5: warning:") && out.contains("nodiscard"), qPrintable(out));
        QVERIFY2(out.contains("\n    k<<<1, 64>>>(p); hipMalloc(&p, 4);\n"), qPrintable(out));
        QVERIFY2(!out.contains("launch_sink"), qPrintable(out));
    }

    void tool_errors_show_the_users_line() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile src(dir.filePath("err.hip"));
        QVERIFY(src.open(QIODevice::WriteOnly));
        src.write("#include <hip/hip_runtime.h>\n"
                  "__global__ void k(int* p) { p[threadIdx.x] = 1; }\n"
                  "int main() {\n"
                  "    int* p = nullptr; hipMalloc(&p, 4);\n"
                  "    k<<<1, 64>>>(p, nobody_declared_this);\n"
                  "    int wrong = \"text\";\n"
                  "    return 0;\n"
                  "}\n");
        src.close();
        int rc = 0;
        QString out;
        QCOMPARE(run_tool(RS_STANDINS_TOOL, {"-o", dir.filePath("lib.so"), src.fileName()}, &rc, &out),
                 QString());
        QCOMPARE(rc, 1);
        QVERIFY2(out.contains("err.hip:5: error: use of undeclared identifier 'nobody_declared_this'"),
                 qPrintable(out));
        QVERIFY2(out.contains("\n    k<<<1, 64>>>(p, nobody_declared_this);\n"), qPrintable(out));
        QVERIFY2(out.contains("err.hip:6:9: error:"), qPrintable(out)); // an untouched line keeps its column
        QVERIFY2(!out.contains("launch_sink") && !out.contains("warning"), qPrintable(out));
        QVERIFY2(out.contains("err.hip does not compile as host C++"), qPrintable(out));
    }

    void tool_shows_compiler_errors() {
        int rc = 0;
        QString out;
        const QString lib = QDir::temp().filePath("rs-standins-broken.so");
        QCOMPARE(run_tool(RS_STANDINS_TOOL, {"-o", lib, RS_STANDINS_BROKEN_SOURCE}, &rc, &out), QString());
        QCOMPARE(rc, 1);
        QVERIFY2(out.contains("broken.hip:10:"), qPrintable(out));
        QVERIFY2(out.contains("broken.hip does not compile as host C++"), qPrintable(out));
        QVERIFY(!QFile::exists(lib));
        QCOMPARE(run_tool(RS_STANDINS_TOOL, {"-o", lib}, &rc, &out), QString());
        QCOMPARE(rc, 2);

        // A kernel reaching a function no file defines: the link fails, nothing is left behind.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile src(dir.filePath("undefined.hip"));
        QVERIFY(src.open(QIODevice::WriteOnly));
        src.write("#include <hip/hip_runtime.h>\n__device__ float helper_nobody_defines(float);\n"
                  "__global__ void k(float* x) { x[0] = helper_nobody_defines(x[0]); }\n");
        src.close();
        const QString out_lib = dir.filePath("libundefined-standins.so");
        QCOMPARE(run_tool(RS_STANDINS_TOOL, {"-o", out_lib, src.fileName()}, &rc, &out), QString());
        QCOMPARE(rc, 1);
        QVERIFY2(out.contains("helper_nobody_defines"), qPrintable(out));
        QVERIFY2(out.contains("linking " + out_lib + " failed"), qPrintable(out));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"undefined.hip"});
    }
};

QTEST_GUILESS_MAIN(tst_standins)
#include "tst_standins.moc"
