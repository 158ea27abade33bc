"""The test tools' verdicts. The soak's (tests/reliability/soak.py): every part asked for must
have run and passed on every figure it reports (made-up figures; each case read PASS before).
The mutation tool's (tests/mutation.py): each mutant is one change."""

import ast

import pytest

import mutation

from reliability import soak as S


def _good():
    return {"catalogue": {"rc": 0}, "fuzz": {"rc": 0},
            "round_trips_numpy": {"rc": 0, "rss_growth": 0, "live_count_drift": 0},
            "round_trips_torch": {"rc": 0, "rss_growth": 4096, "live_count_drift": 0},
            "threads": {"rc": 0, "errors": [], "exchanges": 5, "live_count_drift": 0,
                        "test_producer_exports_alive": 0, "shared_deleter_calls": 1},
            "shutdown": {"runs": 4, "clean": 4, "exit_codes": ["0"]},
            "torch_busy_pure": {"runs": 2, "clean": 1, "exit_codes": ["-6", "0"]},
            "torch_busy_dltensor": {"runs": 2, "clean": 2, "exit_codes": ["0"]}}


@pytest.mark.parametrize("part, key, value", [
    ("round_trips_numpy", "rc", -6),                  # a child that crashed after printing
    ("round_trips_numpy", "rss_growth", 491_520),    # an object() a round trip, --quick
    ("threads", "live_count_drift", 2228),
    ("threads", "test_producer_exports_alive", 3),
    ("threads", "shared_deleter_calls", -1),          # freed while shared
    ("threads", "exchanges", 0),
    ("torch_busy_dltensor", "exit_codes", ["-11", "0"]),  # a SIGSEGV is not PyTorch's abort
])
def test_a_figure_out_of_bounds_fails(part, key, value):
    figures = _good()
    assert S.verdict(figures, list(S.PARTS), S.QUICK) == []
    figures[part][key] = value
    assert [why.split(":")[0] for why in S.verdict(figures, list(S.PARTS), S.QUICK)] == [part]


def test_a_part_that_did_not_run_fails_and_an_unknown_part_is_refused():
    figures = _good()
    del figures["threads"]
    assert S.verdict(figures, ["threads"], S.QUICK) == ["threads: did not run"]
    with pytest.raises(SystemExit):
        S.main(["--quick", "--parts", "leak,thread"])  # (misspelt: ran nothing, PASS)


def test_each_of_a_nested_and_or_is_a_mutant_of_its_own():
    # (both started at one column: one site, twice, each mutating both at once)
    tree = ast.parse("y = a and b or c")
    bools = [s for s in mutation.sites(tree) if s[2] == "bool"]
    assert len(set(bools)) == 2
    mutants = {ast.unparse(mutation._Mutate(s).visit(ast.parse("y = a and b or c")))
               for s in bools}
    assert mutants == {"y = (a and b) and c", "y = (a or b) or c"}
