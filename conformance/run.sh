#!/usr/bin/env bash
# Run the array API conformance suite (data-apis/array-api-tests) against dltensor at 2025.12.
#
#   ARRAY_API_TESTS_DIR=/path/to/array-api-tests conformance/run.sh [extra pytest args]
#
# Test paths among the arguments (array_api_tests/test_sorting_functions.py, relative to the
# checkout) run those alone; else the whole suite runs.
#
# The checkout needs its `array-api` submodule (the spec) at the commit the suite pins:
#   git clone https://github.com/data-apis/array-api-tests && cd array-api-tests
#   git submodule update --init && pip install -r requirements.txt
# Environment: MAX_EXAMPLES (default 100), DLTENSOR_DEVICE (e.g. cuda:0 to run on a GPU),
# PYTHON (the interpreter, default python).
# Expected failures live in conformance/xfails.txt (xfails-cuda.txt on a GPU), one test id per line with its reason
# in a comment above it; the goal is for that file to be empty.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
suite="${ARRAY_API_TESTS_DIR:-}"
if [ -z "$suite" ]; then
  echo "conformance: no array-api-tests checkout given (set ARRAY_API_TESTS_DIR); not run."
  exit 0
fi
if [ ! -d "$suite/array_api_tests" ] || [ ! -d "$suite/array-api/spec" ]; then
  echo "conformance: $suite is not an array-api-tests checkout with its array-api spec" >&2
  exit 2
fi
suite_given=$(cd "$suite" && pwd -L)  # (absolute, through any symlink as given)
cd "$suite" && cd "$(pwd -P)" || exit 2
export ARRAY_API_TESTS_MODULE=dltensor ARRAY_API_TESTS_VERSION=2025.12
export PYTHONPATH="$repo${PYTHONPATH:+:$PYTHONPATH}"
# On a GPU, expected failures that are the suite's, not dltensor's, are listed apart; and
# deadlines are off (CuPy compiles each kernel on first use, 0.1-0.5 s).
xfails="$here/xfails.txt"
case "${DLTENSOR_DEVICE:-cpu}" in cuda*|gpu*) xfails="$here/xfails-cuda.txt" ;; esac
# The whole suite, unless test paths inside it are given (array_api_tests/test_x.py[::...]);
# the path after --ignore or --deselect is none (the suite less it, not its meta_tests/ too)
# (a test path given as ./array_api_tests/... or absolute, through the checkout's path as
# given or its physical one, is taken relative to the checkout: pytest would collect a
# symlinked checkout's conftest.py twice)
targets=(array_api_tests/)
args=()
prev=
for arg in "$@"; do
  case "$prev" in --ignore|--ignore-glob|--deselect) ;; *)
    case "$arg" in
      ./array_api_tests/?*) arg=${arg#./} ;;
      "$suite_given"/array_api_tests/?*) arg=${arg#"$suite_given"/} ;;
      "$PWD"/array_api_tests/?*) arg=${arg#"$PWD"/} ;;
    esac
    case "$arg" in array_api_tests/?*) targets=() ;; esac ;; esac
  args+=("$arg")
  prev=$arg
done
exec "${PYTHON:-python}" -m pytest ${targets[@]+"${targets[@]}"} -p no:cacheprovider -q --disable-warnings \
  --disable-deadline --max-examples "${MAX_EXAMPLES:-100}" --rootdir=. --xfails-file="$xfails" -rfX \
  ${args[@]+"${args[@]}"}
