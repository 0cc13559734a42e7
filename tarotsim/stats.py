"""Small statistics shared by the tournament and the studies (no scipy).

Small statistics shared by the tournament and the studies: Student's t quantile and the mean
with its confidence interval from running sums (no scipy).

The interval of a mean of ``n`` independent values is ``mean ± t(1 - a/2, n - 1) · sd / √n``
with Student's t quantile, so a handful of deals gives the wide interval it deserves
(``t(0.975, 1) = 12.706``) and a large sample the normal one (``t(0.975, ∞) = 1.960``).

The quantile is exact to rounding for small degrees of freedom: the t distribution function
has a closed form for whole degrees of freedom (a finite series in ``θ = atan(t / √ν)``,
Abramowitz & Stegun 26.7.3-4), inverted by bisection on ``θ``. Above :data:`SERIES_MAX_DF`
degrees of freedom the Cornish-Fisher expansion around the normal quantile (A&S 26.7.5, four
terms) is used: its error there is far below 1e-9.
"""

from __future__ import annotations

import math
from statistics import NormalDist

#: Degrees of freedom up to which the quantile inverts the exact distribution function.
SERIES_MAX_DF = 200


def _t_central(theta: float, df: int) -> float:
    """P(|T| <= √df · tan θ) for Student's t with ``df`` (whole) degrees of freedom."""
    c2 = math.cos(theta) ** 2
    s = math.sin(theta)
    if df % 2:  # odd: (2/π)(θ + sin θ (cos θ + 2/3 cos³θ + …))
        if df == 1:
            return 2 * theta / math.pi
        term = total = math.cos(theta)
        for k in range(1, (df - 1) // 2):
            term *= 2 * k / (2 * k + 1) * c2
            total += term
        return 2 / math.pi * (theta + s * total)
    term = total = 1.0  # even: sin θ (1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + …)
    for k in range(1, df // 2):
        term *= (2 * k - 1) / (2 * k) * c2
        total += term
    return s * total


def _cornish_fisher(z: float, df: float) -> float:
    """The t quantile from the normal one ``z``, to the fourth order in 1/df."""
    z2 = z * z
    g1 = (z2 + 1) * z / 4
    g2 = ((5 * z2 + 16) * z2 + 3) * z / 96
    g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384
    g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160
    return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df


def t_quantile(p: float, df) -> float:
    """A quantile of Student's t distribution.

    The ``p`` quantile of Student's t with ``df`` degrees of freedom (a whole number >= 1, or
    ``math.inf`` for the normal distribution).

    Examples
    --------
    >>> import math
    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, math.inf), 3)
    (12.706, 1.96)
    >>> round(t_quantile(0.025, 10), 4)  # symmetric
    -2.2281
    """
    if not 0 < p < 1:
        raise ValueError(f"a quantile needs 0 < p < 1, not {p}")
    if df != math.inf:
        if isinstance(df, bool) or int(df) != df or df < 1:
            raise ValueError(f"degrees of freedom must be a whole number >= 1 or inf, not {df}")
        df = int(df)
    if p < 0.5:  # symmetric
        return -t_quantile(1 - p, df)
    if p == 0.5:
        return 0.0
    if df == math.inf:
        return NormalDist().inv_cdf(p)
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    if df > SERIES_MAX_DF:
        return _cornish_fisher(NormalDist().inv_cdf(p), df)
    target = 2 * p - 1  # P(|T| <= t), which grows with θ in (0, π/2)
    lo, hi = 0.0, math.pi / 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if _t_central(mid, df) < target:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-15:
            break
    return math.sqrt(df) * math.tan((lo + hi) / 2)


def t_critical(n: int, level: float = 0.95) -> float:
    """The two-sided critical value of Student's t for a mean of ``n`` values.

    The two-sided ``level`` critical value for a mean of ``n >= 2`` values (``n - 1`` degrees
    of freedom).

    Examples
    --------
    >>> round(t_critical(2), 3), round(t_critical(30), 3)
    (12.706, 2.045)
    >>> round(t_critical(30, level=0.99), 3)
    2.756
    """
    return t_quantile((1 + level) / 2, n - 1)


def mean_sd(n: int, s: float, s2: float) -> tuple[float, float]:
    """The mean and sample standard deviation from running sums.

    ``(mean, sample standard deviation)`` of ``n`` values from their sum ``s`` and sum of
    squares ``s2`` (nan where undefined: no value, or one value for the deviation).

    Examples
    --------
    The values 1, 2 and 3: their sum is 6, their sum of squares 14:

    >>> mean_sd(3, 6.0, 14.0)
    (2.0, 1.0)
    >>> mean_sd(1, 5.0, 25.0)
    (5.0, nan)
    """
    if n <= 0:
        return math.nan, math.nan
    m = s / n
    if n == 1:
        return m, math.nan
    return m, math.sqrt(max(0.0, (s2 - n * m * m) / (n - 1)))


def mean_ci(n: int, s: float, s2: float, level: float = 0.95) -> tuple[float, float, float]:
    """The mean and its Student t interval from running sums.

    ``(mean, low, high)``: the mean of ``n`` values and its Student t ``level`` interval, from
    their sum and sum of squares. With fewer than two values there is no interval (nan).

    Examples
    --------
    The values 1, 2 and 3: ``2 ± t(0.975, 2) · 1 / √3``:

    >>> mean, low, high = mean_ci(3, 6.0, 14.0)
    >>> mean, round(low, 3), round(high, 3)
    (2.0, -0.484, 4.484)
    """
    m, sd = mean_sd(n, s, s2)
    if n < 2:
        return m, math.nan, math.nan
    half = t_critical(n, level) * sd / math.sqrt(n)
    return m, m - half, m + half


__all__ = ["SERIES_MAX_DF", "mean_ci", "mean_sd", "t_critical", "t_quantile"]
