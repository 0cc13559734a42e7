"""tarotsim.stats: Student's t quantile without scipy, and the mean with its interval."""

import math
import random
from statistics import NormalDist

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarotsim import stats
from tarotsim.stats import SERIES_MAX_DF, mean_ci, mean_sd, t_critical, t_quantile

# Student's t quantiles from the printed tables (Fisher & Yates; Abramowitz & Stegun 26.10),
# to the digits given there.
TABLE = [
    (0.975, 1, 12.706), (0.975, 2, 4.303), (0.975, 3, 3.182), (0.975, 5, 2.571), (0.975, 10, 2.228),
    (0.975, 29, 2.045), (0.975, 30, 2.042), (0.975, 60, 2.000), (0.975, 120, 1.980),
    (0.975, math.inf, 1.960), (0.995, 1, 63.657), (0.995, 5, 4.032), (0.995, 30, 2.750),
    (0.995, 120, 2.617), (0.95, 1, 6.314), (0.95, 4, 2.132), (0.95, 20, 1.725), (0.90, 8, 1.397),
]


@pytest.mark.parametrize("p,df,expected", TABLE)
def test_t_quantile_matches_the_printed_tables(p, df, expected):
    assert round(t_quantile(p, df), 3) == expected


def test_t_quantile_is_the_normal_one_at_infinity_and_cornish_fisher_joins_the_series():
    assert t_quantile(0.975, math.inf) == NormalDist().inv_cdf(0.975)
    for p in (0.9, 0.975, 0.995, 0.9995):
        # at the switch the exact series and the expansion agree, and the quantile keeps falling
        below, above = t_quantile(p, SERIES_MAX_DF), t_quantile(p, SERIES_MAX_DF + 1)
        assert abs(below - stats._cornish_fisher(NormalDist().inv_cdf(p), SERIES_MAX_DF)) < 1e-9
        assert t_quantile(p, SERIES_MAX_DF - 1) - below > below - above > 0


@given(p=st.floats(min_value=0.5005, max_value=0.9995), df=st.integers(min_value=1, max_value=400))
def test_t_quantile_properties(p, df):
    """Symmetric, above the normal quantile, falling with the degrees of freedom; and for the
    series range the distribution function gives p back."""
    q = t_quantile(p, df)
    assert t_quantile(1 - p, df) == pytest.approx(-q, rel=1e-12)
    assert q > NormalDist().inv_cdf(p) - 1e-12
    assert t_quantile(p, df + 1) < q
    if df <= SERIES_MAX_DF:
        assert stats._t_central(math.atan(q / math.sqrt(df)), df) == pytest.approx(2 * p - 1, abs=1e-12)


@pytest.mark.parametrize("p,df", [(0, 3), (1, 3), (1.2, 3), (0.9, 0), (0.9, 2.5), (0.9, -1), (0.9, True)])
def test_t_quantile_refuses_what_it_cannot_answer(p, df):
    with pytest.raises(ValueError):
        t_quantile(p, df)


def test_t_quantile_median_and_closed_forms():
    assert t_quantile(0.5, 7) == 0.0
    assert t_quantile(0.975, 1) == pytest.approx(math.tan(math.pi * 0.475), rel=1e-15)
    assert t_critical(2) == t_quantile(0.975, 1) and t_critical(31, 0.99) == t_quantile(0.995, 30)


@pytest.mark.slow
def test_mean_ci_is_the_t_interval_and_covers_the_mean_95_percent_of_the_time():
    values = [3.0, 7.0, 8.0, 12.0]
    n, s, s2 = len(values), sum(values), sum(v * v for v in values)
    m, sd = mean_sd(n, s, s2)
    assert m == 7.5 and sd == pytest.approx(math.sqrt(sum((v - m) ** 2 for v in values) / 3))
    mean, low, high = mean_ci(n, s, s2)
    assert mean == m and high - mean == pytest.approx(3.182446305 * sd / 2, rel=1e-9)
    # coverage on small normal samples: the t interval keeps 95%, the normal one would not (~88%)
    rng = random.Random(1)
    trials, covered = 4000, 0
    for _ in range(trials):
        xs = [rng.gauss(10, 3) for _ in range(4)]
        _, lo, hi = mean_ci(4, sum(xs), sum(x * x for x in xs))
        covered += lo <= 10 <= hi
    assert 0.935 < covered / trials < 0.965


def test_mean_ci_without_enough_values_has_no_interval():
    assert all(math.isnan(x) for x in mean_ci(0, 0.0, 0.0))
    m, lo, hi = mean_ci(1, 5.0, 25.0)
    assert m == 5.0 and math.isnan(lo) and math.isnan(hi)
    assert math.isnan(mean_sd(1, 5.0, 25.0)[1])
