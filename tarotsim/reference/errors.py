"""The one exception of the reference engine."""

from __future__ import annotations


class RuleViolation(ValueError):
    """An action the rules forbid (R-PLAY-6, R-POIG-5 and others); the deal is left unchanged.

    ``rule_id`` is the id (docs/rules.md) of the rule broken (``"R-PLAY-4b"``), ``message`` says why in
    words; ``str(exc)`` is ``"<message> (<rule_id>)"``, for instance
    ``"must overtrump: holds T17 above T12 (R-PLAY-4b)"``.

    Examples
    --------
    >>> error = RuleViolation("R-PLAY-4b", "must overtrump: holds T17 above T12")
    >>> print(error)
    must overtrump: holds T17 above T12 (R-PLAY-4b)
    >>> error.rule_id, isinstance(error, ValueError)
    ('R-PLAY-4b', True)
    """

    def __init__(self, rule_id: str, message: str):
        super().__init__(f"{message} ({rule_id})")
        self.rule_id = rule_id
        self.message = message
