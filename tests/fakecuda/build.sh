#!/usr/bin/env bash
# Builds the fake CUDA layer and a venv holding CuPy 14.2's real wheel on it.
# See README.md.  Usage: bash tests/fakecuda/build.sh   (FAKECUDA_DIR, default
# /tmp/fakecuda; CUPY_SOURCE, a CuPy git checkout, else CuPy's sdist is fetched;
# WHEELS, a folder holding the wheels, else PyPI).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${FAKECUDA_DIR:-/tmp/fakecuda}
cupy_version=14.2.0
cuda=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$dir/lib" "$dir/build"

# 1. The venv: CuPy's wheel and the Cython it was built with (system packages
#    seen, so dltensor's test dependencies come from the system Python).
if [ ! -x "$dir/venv/bin/python" ]; then
    python3 -m venv --system-site-packages "$dir/venv"
fi
pip_from=()
[ -n "${WHEELS:-}" ] && pip_from=(--no-index --find-links "$WHEELS")
"$dir/venv/bin/pip" install -q "${pip_from[@]}" "cupy-cuda13x==$cupy_version" "Cython>=3.2,<3.3"

# 2. CuPy's sources of that version (runtime.pyx is compiled; cuBLAS's,
#    cuSOLVER's and cuFFT's declarations are read by gen_libs.py).
src=$dir/build/src
if [ ! -f "$src/cupy/cuda/cufft.pyx" ]; then
    rm -rf "$src" && mkdir -p "$src/cupy/cuda"
    if [ -n "${CUPY_SOURCE:-}" ]; then
        git -C "$CUPY_SOURCE" archive "v$cupy_version" cupy_backends cupy/cuda/cufft.pyx | tar -x -C "$src"
    else
        "$dir/venv/bin/pip" download -q --no-deps --no-binary :all: "cupy==$cupy_version" -d "$dir/build"
        tar -xzf "$dir/build/cupy-$cupy_version.tar.gz" -C "$dir/build"
        cp -r "$dir/build/cupy-$cupy_version/cupy_backends" "$src/"
        cp "$dir/build/cupy-$cupy_version/cupy/cuda/cufft.pyx" "$src/cupy/cuda/"
    fi
fi

# 3. CuPy's runtime module, compiled as CuPy's build does but linked to the
#    fake libcudart instead of CUDA's static one (the wheel's cannot be
#    redirected: its cudart is inside it).  Driver and NVRTC are dlopened by
#    name, so the wheel's own modules are kept for those.
py=$dir/venv/bin/python
(cd "$src" && "$dir/venv/bin/cython" -3 --cplus -X binding=False -X c_api_binop_methods=True \
    -X embedsignature=True -X freethreading_compatible=True -X warn.deprecated.IF=False \
    -E CUPY_USE_CUDA_PYTHON=False -E CUPY_CUFFT_STATIC=False -E CUPY_CYTHON_VERSION=3 \
    -E CUPY_CUDA_VERSION=13000 -E CUPY_HIP_VERSION=0 cupy_backends/cuda/api/runtime.pyx)
pyinc=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
g++ -O1 -fPIC -w -c "$src/cupy_backends/cuda/api/runtime.cpp" -o "$dir/build/runtime.o" \
    -I"$src/cupy_backends/cuda/api" -I"$src/cupy_backends/cuda" -I"$src/cupy_backends" -I"$src" \
    -I"$cuda/include" -I"$pyinc" -DCUPY_NO_NVTX
gcc -O1 -fPIC -fvisibility=hidden -Wall -c "$here/fakecuda.c" -o "$dir/build/fakecuda.o" -I"$cuda/include"

# 4. Every cuda* function runtime.o calls that fakecuda.c lacks: a stub that
#    says so and returns cudaErrorNotSupported.
comm -23 <(nm -u "$dir/build/runtime.o" | awk '$2 ~ /^cuda/ {print $2}' | sort -u) \
         <(nm --defined-only "$dir/build/fakecuda.o" | awk '{print $3}' | sort -u) |
    awk 'BEGIN {print "void fakecuda_unimplemented(const char *);"}
         {printf "__attribute__((visibility(\"default\"))) int %s(void) { fakecuda_unimplemented(\"%s\"); return 801; }\n", $1, $1}' \
    > "$dir/build/stubs.c"
gcc -fPIC -c "$dir/build/stubs.c" -o "$dir/build/stubs.o"
gcc -shared -o "$dir/lib/libfakecuda.so" "$dir/build/fakecuda.o" "$dir/build/stubs.o" \
    -Wl,-soname,libcudart.so.13 -lpthread
for name in libcudart.so.13 libcuda.so.1 libnvrtc.so.13; do
    ln -sf libfakecuda.so "$dir/lib/$name"
done

site=$("$py" -c 'import cupy_backends, os; print(os.path.dirname(cupy_backends.__file__))')
target=$(ls "$site"/cuda/api/runtime.cpython-*.so)
[ -f "$target.wheel" ] || cp "$target" "$target.wheel"
g++ -shared -o "$target" "$dir/build/runtime.o" "$dir/lib/libfakecuda.so" -Wl,-rpath,"$dir/lib"

# 5. cuBLAS, cuSOLVER and cuFFT: every function CuPy's modules link, written
#    by gen_libs.py from CuPy's declarations (no work; handles, workspace
#    sizes, infos written).  One library under the names CuPy's modules and
#    cuda-pathfinder load (cuBLASLt, cuSPARSE and nvJitLink only as
#    dependencies: nothing of theirs is called; CuPy's cusparse module
#    itself does not load).
for m in cupy_backends/cuda/libs/cublas cupy_backends/cuda/libs/cusolver cupy/cuda/cufft cupyx/_cusolver; do
    nm -D --undefined-only "$site"/../$m.cpython-*.so
done | awk '{sub(/@.*/, "", $2); print $2}' | grep -E '^cu(blas|solver|fft)' | sort -u > "$dir/build/libs.txt"
python3 "$here/gen_libs.py" "$src" "$dir/build/libs.txt" > "$dir/build/libs.c"
gcc -O1 -fPIC -fvisibility=hidden -Wall -Wno-unused-parameter -shared -o "$dir/lib/libfakecudalibs.so" \
    "$dir/build/libs.c" -Wl,-soname,libcublas.so.13
for name in libcublas.so.13 libcublasLt.so.13 libcusolver.so.12 libcusparse.so.12 libcufft.so.12 libnvJitLink.so.13; do
    ln -sf libfakecudalibs.so "$dir/lib/$name"
done
echo "fakecuda built in $dir: $(grep -c 'int cuda' "$dir/build/stubs.c") runtime functions stubbed," \
     "$(grep -c ^EXPORT "$dir/build/libs.c") cuBLAS/cuSOLVER/cuFFT functions faked"
