import os

import pytest
from hypothesis import HealthCheck, settings

# A fixed profile for CI: reproducible, no deadline (jitted code compiles on first call).
settings.register_profile(
    "ci", max_examples=50, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def cli(capsys):
    """Run ``tarotsim ARGS...`` in the test process.

    ``cli(*args)`` returns ``(exit code, standard output, standard error)``; the arguments may be
    paths or numbers.
    """
    from tarotsim.cli import main

    def run(*argv):
        with pytest.raises(SystemExit) as exc:
            main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return exc.value.code, out, err

    return run
