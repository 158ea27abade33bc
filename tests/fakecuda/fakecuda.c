/* fakecuda: a CUDA runtime, driver and NVRTC with no GPU, for running CuPy's
 * own Python and Cython code on a machine without one (see README.md).
 *
 * Device memory is host memory (malloc), every copy is memcpy, streams and
 * events are handles that are always done, host callbacks run at once,
 * modules and functions are dummies and a kernel launch does nothing: the
 * values a kernel should have written are garbage.  What CuPy decides before
 * it launches (argument checks, dtypes, shapes, kernel choice, the device of
 * each allocation, streams, DLPack) is CuPy's own.
 *
 * One library, loaded under three names (libcudart.so.13, libcuda.so.1,
 * libnvrtc.so.13: symlinks to one file, so glibc maps it once and the state
 * below is shared).  Runtime functions CuPy links that are not written here
 * are stubs made by build.sh: they print their name and return
 * cudaErrorNotSupported.
 *
 * FAKECUDA_DEVICES: the number of devices (default 1, at most 8).
 * FAKECUDA_MAX_MEMORY: bytes allocated at most (default 2 GiB).
 * FAKECUDA_LOG=1: print each launch and each unimplemented call to stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <pthread.h>
#include <sys/mman.h>
#include <cuda_runtime_api.h>

#define EXPORT __attribute__((visibility("default")))

/* ---------------------------------------------------------------- state */

static int ndev(void) {
    static int n = 0;
    if (!n) {
        const char *s = getenv("FAKECUDA_DEVICES");
        n = s ? atoi(s) : 1;
        if (n < 1) n = 1;
        if (n > 8) n = 8;
    }
    return n;
}
static int logging(void) {
    static int l = -1;
    if (l < 0) { const char *s = getenv("FAKECUDA_LOG"); l = s && *s && *s != '0'; }
    return l;
}
static __thread int cur_dev = 0;
static __thread cudaError_t last_err = cudaSuccess;

/* Allocations: [ptr, ptr + size) on device dev, of a cudaMemoryType. */
struct alloc { char *p; size_t n; int dev; int type; };
static struct alloc *allocs;
static size_t nallocs, capallocs;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static size_t rounded(size_t n) { return n ? (n + 511) / 512 * 512 : 512; }

/* Zeroed memory (a kernel's garbage is then mostly zeros, and sizes read
 * back from one small); past FAKECUDA_MAX_MEMORY bytes in all (default
 * 2 GiB) an allocation is out of memory, as one of a garbage size is. */
static size_t total;
static void *track(size_t n, int dev, int type) {
    static size_t max = 0;
    if (!max) { const char *s = getenv("FAKECUDA_MAX_MEMORY"); max = s ? strtoull(s, NULL, 10) : (size_t)2 << 30; }
    if (n > max || total + n > max) return NULL;
    size_t m = rounded(n);
    char *p;
    if (m >= (1 << 20)) {
        p = mmap(NULL, m, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) return NULL;
    } else {
        p = aligned_alloc(512, m);
        if (!p) return NULL;
        memset(p, 0, m);
    }
    pthread_mutex_lock(&lock);
    if (nallocs == capallocs) {
        capallocs = capallocs ? 2 * capallocs : 256;
        allocs = realloc(allocs, capallocs * sizeof *allocs);
    }
    allocs[nallocs++] = (struct alloc){p, n, dev, type};
    total += n;
    pthread_mutex_unlock(&lock);
    return p;
}
static int untrack(void *p) {
    int found = 0;
    struct alloc a = {0};
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i].p == p) { a = allocs[i]; allocs[i] = allocs[--nallocs]; total -= a.n; found = 1; break; }
    pthread_mutex_unlock(&lock);
    if (found) {
        if (rounded(a.n) >= (1 << 20)) munmap(p, rounded(a.n));
        else free(p);
    }
    return found;
}
static int lookup(const void *p, struct alloc *out) {
    int found = 0;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nallocs; i++)
        if ((const char *)p >= allocs[i].p &&
            (const char *)p < allocs[i].p + (allocs[i].n ? allocs[i].n : 1)) {
            *out = allocs[i]; found = 1; break;
        }
    pthread_mutex_unlock(&lock);
    return found;
}

static cudaError_t ret(cudaError_t e) { if (e) last_err = e; return e; }
EXPORT void fakecuda_unimplemented(const char *name) {
    fprintf(stderr, "fakecuda: %s is not implemented\n", name);
}

/* An H200-like sm_90 device.  Runtime and driver attribute numbers agree. */
static int attr(int a) {
    switch (a) {
    case 1: return 1024;            /* max threads per block */
    case 2: case 3: return 1024;    /* max block dim x, y */
    case 4: return 64;
    case 5: return 2147483647;      /* max grid dim x */
    case 6: case 7: return 65535;
    case 8: return 49152;           /* shared memory per block */
    case 9: return 65536;           /* constant memory */
    case 10: return 32;             /* warp size */
    case 11: return 2147483647;
    case 12: return 65536;          /* registers per block */
    case 13: return 1980000;
    case 14: return 512;
    case 15: return 1;
    case 16: return 132;            /* multiprocessors */
    case 19: return 1;
    case 30: return 512;
    case 31: return 1;
    case 36: return 2619000;
    case 37: return 6144;
    case 38: return 52428800;       /* L2 */
    case 39: return 2048;
    case 40: return 3;
    case 41: return 1;              /* unified addressing */
    case 75: return 9;              /* compute capability 9.0 */
    case 76: return 0;
    case 78: return 1;
    case 81: return 233472;
    case 82: return 65536;
    case 83: return 1;              /* managed memory */
    case 95: return 1;
    case 97: return 232448;
    case 106: return 32;
    case 115: return 1;             /* memory pools */
    default: return 0;
    }
}

/* --------------------------------------------------------------- runtime */

EXPORT const char *cudaGetErrorName(cudaError_t e) {
    switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    default: return "cudaErrorUnknown";
    }
}
EXPORT const char *cudaGetErrorString(cudaError_t e) {
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNotSupported: return "operation not supported (fakecuda)";
    default: return "unknown error";
    }
}
EXPORT cudaError_t cudaGetLastError(void) { cudaError_t e = last_err; last_err = cudaSuccess; return e; }
EXPORT cudaError_t cudaPeekAtLastError(void) { return last_err; }
EXPORT cudaError_t cudaDriverGetVersion(int *v) { *v = 13000; return cudaSuccess; }
EXPORT cudaError_t cudaRuntimeGetVersion(int *v) { *v = 13000; return cudaSuccess; }

EXPORT cudaError_t cudaGetDeviceCount(int *n) { *n = ndev(); return cudaSuccess; }
EXPORT cudaError_t cudaGetDevice(int *d) { *d = cur_dev; return cudaSuccess; }
EXPORT cudaError_t cudaSetDevice(int d) {
    if (d < 0 || d >= ndev()) return ret(cudaErrorInvalidDevice);
    cur_dev = d;
    return cudaSuccess;
}
EXPORT cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
EXPORT cudaError_t cudaDeviceReset(void) { return cudaSuccess; }
EXPORT cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int d) {
    if (d < 0 || d >= ndev()) return ret(cudaErrorInvalidDevice);
    *v = attr((int)a);
    return cudaSuccess;
}
EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d) {
    if (d < 0 || d >= ndev()) return ret(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "NVIDIA H200 (fakecuda)");
    memset(p->uuid.bytes, d + 1, sizeof p->uuid.bytes);
    p->totalGlobalMem = (size_t)141 << 30;
    p->sharedMemPerBlock = attr(8);
    p->regsPerBlock = attr(12);
    p->warpSize = attr(10);
    p->memPitch = attr(11);
    p->maxThreadsPerBlock = attr(1);
    p->maxThreadsDim[0] = attr(2); p->maxThreadsDim[1] = attr(3); p->maxThreadsDim[2] = attr(4);
    p->maxGridSize[0] = attr(5); p->maxGridSize[1] = attr(6); p->maxGridSize[2] = attr(7);
    p->totalConstMem = attr(9);
    p->major = attr(75); p->minor = attr(76);
    p->textureAlignment = attr(14);
    p->multiProcessorCount = attr(16);
    p->canMapHostMemory = 1;
    p->concurrentKernels = 1;
    p->pciBusID = d + 1;
    p->unifiedAddressing = 1;
    p->l2CacheSize = attr(38);
    p->maxThreadsPerMultiProcessor = attr(39);
    p->sharedMemPerMultiprocessor = attr(81);
    p->regsPerMultiprocessor = attr(82);
    p->managedMemory = 1;
    p->sharedMemPerBlockOptin = attr(97);
    p->maxBlocksPerMultiProcessor = attr(106);
    p->memoryPoolsSupported = 1;
    return cudaSuccess;
}
EXPORT cudaError_t cudaDeviceGetPCIBusId(char *id, int len, int d) {
    if (d < 0 || d >= ndev()) return ret(cudaErrorInvalidDevice);
    snprintf(id, len, "0000:%02x:00.0", d + 1);
    return cudaSuccess;
}
EXPORT cudaError_t cudaDeviceCanAccessPeer(int *can, int d, int peer) {
    *can = d != peer && d < ndev() && peer < ndev();
    return cudaSuccess;
}
EXPORT cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags) {
    (void)flags;
    return peer < ndev() ? cudaSuccess : ret(cudaErrorInvalidDevice);
}
EXPORT cudaError_t cudaDeviceGetLimit(size_t *v, enum cudaLimit l) { (void)l; *v = 1024; return cudaSuccess; }
EXPORT cudaError_t cudaDeviceSetLimit(enum cudaLimit l, size_t v) { (void)l; (void)v; return cudaSuccess; }
EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest) {
    if (least) *least = 0;
    if (greatest) *greatest = -5;
    return cudaSuccess;
}

/* memory */
EXPORT cudaError_t cudaMalloc(void **p, size_t n) {
    *p = track(n, cur_dev, cudaMemoryTypeDevice);
    return *p ? cudaSuccess : ret(cudaErrorMemoryAllocation);
}
EXPORT cudaError_t cudaMallocManaged(void **p, size_t n, unsigned int f) {
    (void)f;
    *p = track(n, cur_dev, cudaMemoryTypeManaged);
    return *p ? cudaSuccess : ret(cudaErrorMemoryAllocation);
}
EXPORT cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s) { (void)s; return cudaMalloc(p, n); }
EXPORT cudaError_t cudaMallocFromPoolAsync(void **p, size_t n, cudaMemPool_t m, cudaStream_t s) {
    (void)m; (void)s; return cudaMalloc(p, n);
}
EXPORT cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int f) {
    (void)f;
    *p = track(n, cur_dev, cudaMemoryTypeHost);
    return *p ? cudaSuccess : ret(cudaErrorMemoryAllocation);
}
EXPORT cudaError_t cudaMallocHost(void **p, size_t n) { return cudaHostAlloc(p, n, 0); }
EXPORT cudaError_t cudaFree(void *p) {
    if (p && !untrack(p)) return ret(cudaErrorInvalidValue);
    return cudaSuccess;
}
EXPORT cudaError_t cudaFreeAsync(void *p, cudaStream_t s) { (void)s; return cudaFree(p); }
EXPORT cudaError_t cudaFreeHost(void *p) { return cudaFree(p); }
EXPORT cudaError_t cudaHostRegister(void *p, size_t n, unsigned int f) { (void)p; (void)n; (void)f; return cudaSuccess; }
EXPORT cudaError_t cudaHostUnregister(void *p) { (void)p; return cudaSuccess; }
EXPORT cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned int f) { (void)f; *d = h; return cudaSuccess; }
EXPORT cudaError_t cudaMemGetInfo(size_t *free_, size_t *total) {
    *free_ = (size_t)140 << 30; *total = (size_t)141 << 30;
    return cudaSuccess;
}
EXPORT cudaError_t cudaMemcpy(void *d, const void *s, size_t n, enum cudaMemcpyKind k) {
    (void)k; if (n) memmove(d, s, n); return cudaSuccess;
}
EXPORT cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, enum cudaMemcpyKind k, cudaStream_t st) {
    (void)st; return cudaMemcpy(d, s, n, k);
}
EXPORT cudaError_t cudaMemcpyPeer(void *d, int dd, const void *s, int sd, size_t n) {
    (void)dd; (void)sd; return cudaMemcpy(d, s, n, cudaMemcpyDefault);
}
EXPORT cudaError_t cudaMemcpyPeerAsync(void *d, int dd, const void *s, int sd, size_t n, cudaStream_t st) {
    (void)st; return cudaMemcpyPeer(d, dd, s, sd, n);
}
EXPORT cudaError_t cudaMemcpy2D(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k) {
    (void)k;
    for (size_t i = 0; i < h; i++) memmove((char *)d + i * dp, (const char *)s + i * sp, w);
    return cudaSuccess;
}
EXPORT cudaError_t cudaMemcpy2DAsync(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h, enum cudaMemcpyKind k, cudaStream_t st) {
    (void)st; return cudaMemcpy2D(d, dp, s, sp, w, h, k);
}
EXPORT cudaError_t cudaMemset(void *p, int v, size_t n) { memset(p, v, n); return cudaSuccess; }
EXPORT cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s) { (void)s; return cudaMemset(p, v, n); }
EXPORT cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, struct cudaMemLocation l, unsigned int f, cudaStream_t s) {
    (void)p; (void)n; (void)l; (void)f; (void)s; return cudaSuccess;
}
EXPORT cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p) {
    struct alloc al;
    memset(a, 0, sizeof *a);
    if (!lookup(p, &al)) {          /* plain host memory, as CUDA reports it */
        a->type = cudaMemoryTypeUnregistered;
        a->device = -2;
        a->hostPointer = (void *)p;
        return cudaSuccess;
    }
    a->type = al.type;
    a->device = al.dev;
    a->devicePointer = (void *)p;
    if (al.type != cudaMemoryTypeDevice) a->hostPointer = (void *)p;
    return cudaSuccess;
}

/* streams and events: handles that are always done */
struct stream { int dev; unsigned flags; int prio; };
EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int f, int prio) {
    struct stream *h = malloc(sizeof *h);
    h->dev = cur_dev; h->flags = f; h->prio = prio;
    *s = (cudaStream_t)h;
    return cudaSuccess;
}
EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int f) { return cudaStreamCreateWithPriority(s, f, 0); }
EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithPriority(s, 0, 0); }
static int is_special_stream(cudaStream_t s) { return (uintptr_t)s <= 2; }  /* 0, legacy, per-thread */
EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s) { if (!is_special_stream(s)) free(s); return cudaSuccess; }
EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s) { (void)s; return cudaSuccess; }
EXPORT cudaError_t cudaStreamQuery(cudaStream_t s) { (void)s; return cudaSuccess; }
EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int f) { (void)s; (void)e; (void)f; return cudaSuccess; }
EXPORT cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned int *f) { *f = is_special_stream(s) ? 0 : ((struct stream *)s)->flags; return cudaSuccess; }
EXPORT cudaError_t cudaStreamGetPriority(cudaStream_t s, int *p) { *p = is_special_stream(s) ? 0 : ((struct stream *)s)->prio; return cudaSuccess; }
EXPORT cudaError_t cudaStreamGetDevice(cudaStream_t s, int *d) { *d = is_special_stream(s) ? cur_dev : ((struct stream *)s)->dev; return cudaSuccess; }
EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t s, cudaStreamCallback_t cb, void *u, unsigned int f) {
    (void)f; cb(s, cudaSuccess, u); return cudaSuccess;
}
EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *u) { (void)s; fn(u); return cudaSuccess; }
EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t s, enum cudaStreamCaptureStatus *st) {
    (void)s; *st = cudaStreamCaptureStatusNone; return cudaSuccess;
}
EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int f) { (void)f; *e = (cudaEvent_t)malloc(16); return cudaSuccess; }
EXPORT cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, 0); }
EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e) { free(e); return cudaSuccess; }
EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) { (void)e; (void)s; return cudaSuccess; }
EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e) { (void)e; return cudaSuccess; }
EXPORT cudaError_t cudaEventQuery(cudaEvent_t e) { (void)e; return cudaSuccess; }
EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) { (void)a; (void)b; *ms = 0.0f; return cudaSuccess; }

/* ---------------------------------------------------------------- driver */

typedef int CUresult;
static void *ctx_of(int dev) { return (void *)(uintptr_t)(0x1000 + dev); }
EXPORT CUresult cuGetErrorName(CUresult e, const char **s) { *s = e ? "CUDA_ERROR_NOT_SUPPORTED" : "CUDA_SUCCESS"; return 0; }
EXPORT CUresult cuGetErrorString(CUresult e, const char **s) { *s = e ? "operation not supported (fakecuda)" : "no error"; return 0; }
EXPORT CUresult cuDevicePrimaryCtxRelease_v2(int d) { (void)d; return 0; }
EXPORT CUresult cuCtxGetCurrent(void **c) { *c = ctx_of(cur_dev); return 0; }
EXPORT CUresult cuCtxSetCurrent(void *c) { if (c) cur_dev = (int)((uintptr_t)c - 0x1000); return 0; }
EXPORT CUresult cuCtxCreate_v2(void **c, unsigned int f, int d) { (void)f; *c = ctx_of(d); cur_dev = d; return 0; }
EXPORT CUresult cuCtxDestroy_v2(void *c) { (void)c; return 0; }
EXPORT CUresult cuCtxGetDevice(int *d) { *d = cur_dev; return 0; }
EXPORT CUresult cuStreamGetCtx(void *s, void **c) {
    *c = ctx_of(is_special_stream(s) ? cur_dev : ((struct stream *)s)->dev); return 0;
}
EXPORT CUresult cuLinkCreate_v2(unsigned int n, void *o, void **v, void **st) { (void)n; (void)o; (void)v; *st = malloc(16); return 0; }
EXPORT CUresult cuLinkAddData_v2(void *st, int t, void *d, size_t n, const char *name, unsigned int no, void *o, void **v) {
    (void)st; (void)t; (void)d; (void)n; (void)name; (void)no; (void)o; (void)v; return 0;
}
EXPORT CUresult cuLinkAddFile_v2(void *st, int t, const char *p, unsigned int no, void *o, void **v) {
    (void)st; (void)t; (void)p; (void)no; (void)o; (void)v; return 0;
}
static char empty_cubin[16];
EXPORT CUresult cuLinkComplete(void *st, void **cubin, size_t *n) { (void)st; *cubin = empty_cubin; *n = sizeof empty_cubin; return 0; }
EXPORT CUresult cuLinkDestroy(void *st) { free(st); return 0; }
EXPORT CUresult cuModuleLoad(void **m, const char *f) { (void)f; *m = malloc(16); return 0; }
EXPORT CUresult cuModuleLoadData(void **m, const void *img) { (void)img; *m = malloc(16); return 0; }
EXPORT CUresult cuModuleUnload(void *m) { free(m); return 0; }
EXPORT CUresult cuModuleGetFunction(void **f, void *m, const char *name) { (void)m; *f = strdup(name); return 0; }
EXPORT CUresult cuModuleGetGlobal_v2(void **p, size_t *n, void *m, const char *name) {
    (void)m; (void)name;
    *p = track(256, cur_dev, cudaMemoryTypeDevice);
    memset(*p, 0, 256);
    if (n) *n = 256;
    return 0;
}
EXPORT CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                               unsigned shm, void *s, void **params, void **extra) {
    (void)shm; (void)s; (void)params; (void)extra;
    if (logging())
        fprintf(stderr, "fakecuda: launch %s <<<(%u,%u,%u),(%u,%u,%u)>>> on device %d\n",
                (const char *)f, gx, gy, gz, bx, by, bz, cur_dev);
    return 0;
}
EXPORT CUresult cuLaunchCooperativeKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                                          unsigned shm, void *s, void **params) {
    return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shm, s, params, NULL);
}
EXPORT CUresult cuFuncGetAttribute(int *v, int a, void *f) {
    (void)f;
    *v = a == 0 ? 1024 : a == 4 ? 32 : 0;   /* max threads per block, registers */
    return 0;
}
EXPORT CUresult cuFuncSetAttribute(void *f, int a, int v) { (void)f; (void)a; (void)v; return 0; }
EXPORT CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int bs, size_t shm) {
    (void)f; (void)shm; *n = bs > 0 ? 2048 / bs : 1; return 0;
}
EXPORT CUresult cuOccupancyMaxPotentialBlockSize(int *grid, int *block, void *f, void *cb, size_t shm, int lim) {
    (void)f; (void)cb; (void)shm;
    *block = lim > 0 && lim < 1024 ? lim : 1024; *grid = 132 * 2;
    return 0;
}

/* ----------------------------------------------------------------- NVRTC */

struct prog { char **names; int nnames; };
EXPORT const char *nvrtcGetErrorString(int r) { return r ? "NVRTC_ERROR (fakecuda)" : "NVRTC_SUCCESS"; }
EXPORT int nvrtcVersion(int *major, int *minor) { *major = 13; *minor = 0; return 0; }
static const int archs[] = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121};
EXPORT int nvrtcGetNumSupportedArchs(int *n) { *n = (int)(sizeof archs / sizeof *archs); return 0; }
EXPORT int nvrtcGetSupportedArchs(int *a) { memcpy(a, archs, sizeof archs); return 0; }
EXPORT int nvrtcCreateProgram(void **p, const char *src, const char *name, int nh, const char **h, const char **hn) {
    (void)src; (void)name; (void)nh; (void)h; (void)hn;
    *p = calloc(1, sizeof(struct prog));
    return 0;
}
EXPORT int nvrtcDestroyProgram(void **p) {
    struct prog *g = *p;
    for (int i = 0; i < g->nnames; i++) free(g->names[i]);
    free(g->names); free(g); *p = NULL;
    return 0;
}
EXPORT int nvrtcCompileProgram(void *p, int n, const char **o) { (void)p; (void)n; (void)o; return 0; }
static const char ptx[] = "// fakecuda: no code\n";
EXPORT int nvrtcGetPTXSize(void *p, size_t *n) { (void)p; *n = sizeof ptx; return 0; }
EXPORT int nvrtcGetPTX(void *p, char *out) { (void)p; memcpy(out, ptx, sizeof ptx); return 0; }
EXPORT int nvrtcGetCUBINSize(void *p, size_t *n) { (void)p; *n = sizeof empty_cubin; return 0; }
EXPORT int nvrtcGetCUBIN(void *p, char *out) { (void)p; memcpy(out, empty_cubin, sizeof empty_cubin); return 0; }
EXPORT int nvrtcGetLTOIRSize(void *p, size_t *n) { return nvrtcGetCUBINSize(p, n); }
EXPORT int nvrtcGetLTOIR(void *p, char *out) { return nvrtcGetCUBIN(p, out); }
EXPORT int nvrtcGetProgramLogSize(void *p, size_t *n) { (void)p; *n = 1; return 0; }
EXPORT int nvrtcGetProgramLog(void *p, char *out) { (void)p; out[0] = 0; return 0; }
EXPORT int nvrtcAddNameExpression(void *p, const char *e) {
    struct prog *g = p;
    g->names = realloc(g->names, (g->nnames + 1) * sizeof *g->names);
    g->names[g->nnames++] = strdup(e);
    return 0;
}
EXPORT int nvrtcGetLoweredName(void *p, const char *e, const char **lowered) {
    struct prog *g = p;   /* the expression itself stands for its mangled name */
    for (int i = 0; i < g->nnames; i++)
        if (!strcmp(g->names[i], e)) { *lowered = g->names[i]; return 0; }
    return 7;   /* NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID */
}
