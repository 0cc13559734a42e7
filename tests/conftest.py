import os

from hypothesis import HealthCheck, settings

# A fixed profile for CI: reproducible, no deadline (jitted code compiles on first call).
settings.register_profile(
    "ci", max_examples=50, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
