#!/usr/bin/env bash
# Run SciPy's array API tests (those its installed wheel ships) with dltensor as the backend
# SciPy calls array_api_strict: a stand-in module of that name, made here, hands out
# dltensor's functions, so dltensor gets the skips SciPy gives array-api-strict by name.
#
#   conformance/consumers.sh [extra pytest args]        (about 3 minutes with -n 2)
#
# Environment: SUITE (the package to test, default scipy; e.g. scipy.special), PYTHON.
# docs/interop.md ("Array API consumers") keeps the figures; rerun after any change a
# consumer could see (a new attribute, an answer's type).
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python}"
suite="${SUITE:-scipy}"
if ! "$python" -c "import scipy.conftest" 2>/dev/null; then
  echo "consumers: no SciPy with its tests in this environment; not run."
  exit 0
fi
shim="$(mktemp -d)"
trap 'rm -rf "$shim"' EXIT
mkdir "$shim/array_api_strict"
cat > "$shim/array_api_strict/__init__.py" <<'EOF'
# dltensor under array-api-strict's name (for SciPy's test backends only).
import dltensor
__version__ = "2.6.1"  # (SciPy asks for 2.3 or later)


def set_array_api_strict_flags(**flags):
    pass  # (dltensor is 2025.12 only)


served = 0  # names looked up here: that SciPy's tests asked dltensor, not array-api-strict


def __getattr__(name):
    global served
    served += 1
    return getattr(dltensor, name)
EOF
# A plugin, so imported before SciPy's conftest puts site-packages ahead on sys.path.
cat > "$shim/dltensor_as_array_api_strict.py" <<'EOF'
import array_api_strict


def pytest_terminal_summary(terminalreporter):
    if array_api_strict.served:  # (none in pytest-xdist's controller: its workers test)
        terminalreporter.write_line(f"consumers: SciPy's tests asked dltensor for "
                                    f"{array_api_strict.served} names as array_api_strict")
EOF
cd "$shim" || exit 2
PYTHONPATH="$shim:$repo" "$python" -c "import array_api_strict as s, dltensor as d
assert s.asarray is d.asarray and s.__name__ == 'array_api_strict'
print('consumers: array_api_strict is dltensor', d.__version__, 'from', d.__file__)" || exit 2
SCIPY_ARRAY_API=1 PYTHONPATH="$shim:$repo${PYTHONPATH:+:$PYTHONPATH}" "$python" -m pytest \
  -p dltensor_as_array_api_strict -p no:cacheprovider --pyargs "$suite" -m array_api_backends \
  -k array_api_strict -q -rf --continue-on-collection-errors "$@"
