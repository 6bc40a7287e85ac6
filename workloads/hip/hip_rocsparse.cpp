// SPDX-License-Identifier: MIT
// Debian's rocSPARSE, whose kernels are precompiled AMDGPU code objects inside librocsparse, on the
// simulated agent: y = alpha * A * x + beta * y with rocsparse_dcsrmv, once without analysis (the
// vector kernel) and once after rocsparse_dcsrmv_analysis (the adaptive kernel, which splits long rows
// across work-groups), on a CSR matrix with rows of 1 to 3,000 entries. Every value is a small integer,
// so every sum is exact in any order and y is compared with the host's product value for value.
// Prints PASS when every element matches.
#include "hip_check.h"

#include <rocsparse/rocsparse.h>

#include <vector>

namespace {

constexpr const char* kProgram = "hip_rocsparse";

#define CHECK(call) rs_hip::check(kProgram, (call), #call)

void check_sparse(rocsparse_status status, const char* call) {
    if (status != rocsparse_status_success) {
        rs_hip::fail(kProgram, "%s returned rocsparse status %d", call, static_cast<int>(status));
    }
}
#define CHECK_SPARSE(call) check_sparse((call), #call)

/// A CSR matrix on the host: `rows` x `cols`, zero-based indices.
struct CsrMatrix {
    rocsparse_int rows = 0;
    rocsparse_int cols = 0;
    std::vector<rocsparse_int> row_ptr;
    std::vector<rocsparse_int> col_ind;
    std::vector<double> val;
};

/// Row r holds a tridiagonal band plus, every 97th row, a dense run of 3,000 entries (long rows the
/// adaptive kernel gives to several work-groups); values are small integers from the position.
CsrMatrix make_matrix(rocsparse_int n) {
    CsrMatrix m;
    m.rows = m.cols = n;
    m.row_ptr.push_back(0);
    for (rocsparse_int r = 0; r < n; ++r) {
        if (r % 97 == 5) {
            for (rocsparse_int c = 0; c < 3000 && c < n; ++c) {
                m.col_ind.push_back(c);
                m.val.push_back(static_cast<double>((r + c) % 7) - 3.0);
            }
        } else {
            for (rocsparse_int c = r - 1; c <= r + 1; ++c) {
                if (c >= 0 && c < n) {
                    m.col_ind.push_back(c);
                    m.val.push_back(c == r ? 4.0 : -1.0);
                }
            }
        }
        m.row_ptr.push_back(static_cast<rocsparse_int>(m.col_ind.size()));
    }
    return m;
}

} // namespace

int main() {
    const rocsparse_int n = 20000;
    const CsrMatrix a = make_matrix(n);
    const auto nnz = static_cast<rocsparse_int>(a.val.size());
    std::vector<double> x(static_cast<size_t>(n));
    std::vector<double> y0(static_cast<size_t>(n));
    for (rocsparse_int i = 0; i < n; ++i) {
        x[static_cast<size_t>(i)] = static_cast<double>(i % 11) - 5.0;
        y0[static_cast<size_t>(i)] = static_cast<double>(i % 5);
    }
    const double alpha = 2.0;
    const double beta = -1.0;
    std::vector<double> expected(static_cast<size_t>(n));
    for (rocsparse_int r = 0; r < n; ++r) {
        double sum = 0;
        for (rocsparse_int k = a.row_ptr[static_cast<size_t>(r)]; k < a.row_ptr[static_cast<size_t>(r) + 1];
             ++k) {
            sum += a.val[static_cast<size_t>(k)] * x[static_cast<size_t>(a.col_ind[static_cast<size_t>(k)])];
        }
        expected[static_cast<size_t>(r)] = alpha * sum + beta * y0[static_cast<size_t>(r)];
    }

    rocsparse_int* row_ptr = nullptr;
    rocsparse_int* col_ind = nullptr;
    double* val = nullptr;
    double* dx = nullptr;
    double* dy = nullptr;
    CHECK(hipMalloc(&row_ptr, a.row_ptr.size() * sizeof(rocsparse_int)));
    CHECK(hipMalloc(&col_ind, a.col_ind.size() * sizeof(rocsparse_int)));
    CHECK(hipMalloc(&val, a.val.size() * sizeof(double)));
    CHECK(hipMalloc(&dx, x.size() * sizeof(double)));
    CHECK(hipMalloc(&dy, y0.size() * sizeof(double)));
    CHECK(hipMemcpy(row_ptr, a.row_ptr.data(), a.row_ptr.size() * sizeof(rocsparse_int),
                    hipMemcpyHostToDevice));
    CHECK(hipMemcpy(col_ind, a.col_ind.data(), a.col_ind.size() * sizeof(rocsparse_int),
                    hipMemcpyHostToDevice));
    CHECK(hipMemcpy(val, a.val.data(), a.val.size() * sizeof(double), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dx, x.data(), x.size() * sizeof(double), hipMemcpyHostToDevice));

    rocsparse_handle handle = nullptr;
    rocsparse_mat_descr descr = nullptr;
    rocsparse_mat_info info = nullptr;
    CHECK_SPARSE(rocsparse_create_handle(&handle));
    CHECK_SPARSE(rocsparse_create_mat_descr(&descr));
    CHECK_SPARSE(rocsparse_create_mat_info(&info));

    std::vector<double> y(static_cast<size_t>(n));
    for (const bool adaptive : {false, true}) {
        CHECK(hipMemcpy(dy, y0.data(), y0.size() * sizeof(double), hipMemcpyHostToDevice));
        if (adaptive) {
            CHECK_SPARSE(rocsparse_dcsrmv_analysis(handle, rocsparse_operation_none, n, n, nnz, descr, val,
                                                   row_ptr, col_ind, info));
        }
        CHECK_SPARSE(rocsparse_dcsrmv(handle, rocsparse_operation_none, n, n, nnz, &alpha, descr, val,
                                      row_ptr, col_ind, adaptive ? info : nullptr, dx, &beta, dy));
        CHECK(hipMemcpy(y.data(), dy, y.size() * sizeof(double), hipMemcpyDeviceToHost));
        for (size_t i = 0; i < y.size(); ++i) {
            if (y[i] != expected[i]) {
                rs_hip::fail(kProgram, "%s csrmv: y[%zu] is %.17g, expected %.17g",
                             adaptive ? "adaptive" : "vector", i, y[i], expected[i]);
            }
        }
        std::printf("%s: %s csrmv of %d rows, %d entries: every element right\n", kProgram,
                    adaptive ? "adaptive" : "vector", n, nnz);
    }
    CHECK_SPARSE(rocsparse_destroy_mat_info(info));
    CHECK_SPARSE(rocsparse_destroy_mat_descr(descr));
    CHECK_SPARSE(rocsparse_destroy_handle(handle));
    CHECK(hipFree(row_ptr));
    CHECK(hipFree(col_ind));
    CHECK(hipFree(val));
    CHECK(hipFree(dx));
    CHECK(hipFree(dy));
    std::printf("PASS\n");
    return 0;
}
