// A HIP source with a syntax error: replayscope-standins must fail and show the compiler's message.
#include <hip/hip_runtime.h>
__global__ void broken(float* x) { x[0] = 1.0f }
