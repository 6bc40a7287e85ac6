// SPDX-License-Identifier: MIT
// The by-value kernel argument of kernels.hip, shared with the test that fills its kernarg segment.
#ifndef RS_TEST_KERNEL_PARAMS_H
#define RS_TEST_KERNEL_PARAMS_H

struct KernelParams {
    float scale;  // offset 0
    double value; // offset 8
    char tag;     // offset 16
    int count;    // offset 20; sizeof 24, alignof 8
};

#endif
