// CuPy's complex kernels on the host: each complex ufunc's operation as CuPy 14.2 writes it
// (cupy/_math/*.py, cupy/_core/_routines_math.pyx), over CuPy's own complex headers (thrust's,
// cupy/_core/include/cupy/complex*, read from the checkout check.py is given). check.py
// compiles it with g++ -ffp-contract=off: no a * b + c fused, as with --fmad=false (whether
// NVRTC's default fusing changes a result is a question for a GPU run).
#include <math.h>  // (libstdc++'s: float overloads of ::exp and the rest, as CUDA has)
#include <string.h>
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#define __host__
#define __device__
#define __forceinline__ inline
#include <cupy/complex.cuh>

template <typename T>
struct Kernels {
  typedef complex<T> in0_type;
  typedef complex<T> in1_type;

  // out0 = <operation>(in0), CuPy's operation for 'F->F' and 'D->D'; absolute ('F->f') leaves
  // its real result in the real part
  static bool unary(const char *name, const in0_type *in, in0_type *out, long n) {
#define OP(NAME, BODY) \
  if (!strcmp(name, NAME)) { \
    for (long i = 0; i < n; i++) { in0_type in0 = in[i], out0; BODY; out[i] = out0; } \
    return true; \
  }
    OP("exp", out0 = exp(in0)) OP("expm1", out0 = expm1(in0))
    OP("log", out0 = log(in0)) OP("log1p", out0 = log1p(in0))
    OP("log2", out0 = log2(in0)) OP("log10", out0 = log10(in0))
    OP("sqrt", out0 = sqrt(in0)) OP("square", out0 = in0 * in0)
    OP("sin", out0 = sin(in0)) OP("cos", out0 = cos(in0)) OP("tan", out0 = tan(in0))
    OP("arcsin", out0 = asin(in0)) OP("arccos", out0 = acos(in0))
    OP("arctan", out0 = atan(in0))
    OP("sinh", out0 = sinh(in0)) OP("cosh", out0 = cosh(in0)) OP("tanh", out0 = tanh(in0))
    OP("arcsinh", out0 = asinh(in0)) OP("arccosh", out0 = acosh(in0))
    OP("arctanh", out0 = atanh(in0))
    OP("reciprocal", out0 = in0_type(1) / in0)
    OP("absolute", out0 = in0_type(abs(in0)))
    OP("conjugate", out0 = conj(in0)) OP("negative", out0 = -in0)
    OP("positive", out0 = +in0)
    OP("sign", {  // (misc.py's _complex_sign: in0 / abs_val divides by a real)
      using real_t = typename in0_type::value_type;
      real_t abs_val = abs(in0);
      if (abs_val == 0) {
        out0 = static_cast<in0_type>(0);
      } else {
        out0 = in0 / abs_val;
      }
    })
#undef OP
    return false;
  }

  // out0 = in0 <op> in1, both operands cast to the result's complex type first, as CuPy does
  static bool binary(const char *name, const in0_type *a, const in1_type *b, in0_type *out,
                     long n) {
#define OP(NAME, BODY) \
  if (!strcmp(name, NAME)) { \
    for (long i = 0; i < n; i++) { in0_type in0 = a[i], in1 = b[i], out0; BODY; out[i] = out0; } \
    return true; \
  }
    OP("add", out0 = in0 + in1) OP("subtract", out0 = in0 - in1)
    OP("multiply", out0 = in0 * in1) OP("divide", out0 = in0 / in1)
    OP("power", out0 = in1 == in0_type(0) ? in0_type(1) : pow(in0, in1))  // complex_power
#undef OP
    return false;
  }
};

// CuPy compiles with -ftz=true: float's subnormal operands and results are zeros. Set on the
// host (flush to zero, denormals are zero) around complex64's kernels only: on a GPU it is
// float's alone.
struct Flush {
#if defined(__SSE2__)
  unsigned saved;
  explicit Flush(bool on) : saved(_mm_getcsr()) { if (on) _mm_setcsr(saved | 0x8040); }
  ~Flush() { _mm_setcsr(saved); }
#else
  explicit Flush(bool) {}  // (elsewhere check.py's tolerance for flushed parts stands in)
#endif
};

extern "C" {
// 0 when done, -1 for a name with no kernel here; is_double: complex128, else complex64
int cupy_unary(const char *name, int is_double, const void *in, void *out, long n) {
  Flush flush(!is_double);
  bool done = is_double
      ? Kernels<double>::unary(name, (const complex<double> *)in, (complex<double> *)out, n)
      : Kernels<float>::unary(name, (const complex<float> *)in, (complex<float> *)out, n);
  return done ? 0 : -1;
}

int cupy_binary(const char *name, int is_double, const void *a, const void *b, void *out,
                long n) {
  Flush flush(!is_double);
  bool done = is_double
      ? Kernels<double>::binary(name, (const complex<double> *)a, (const complex<double> *)b,
                                (complex<double> *)out, n)
      : Kernels<float>::binary(name, (const complex<float> *)a, (const complex<float> *)b,
                               (complex<float> *)out, n);
  return done ? 0 : -1;
}
}
