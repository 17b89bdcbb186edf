// TP_HD marks arithmetic written once for host C++ and CUDA device code alike.
#pragma once

#if defined(__CUDACC__)
#define TP_HD __host__ __device__ __forceinline__
#else
#define TP_HD inline
#endif
