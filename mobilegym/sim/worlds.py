"""The worlds a simulated phone's ``reset_state(seed)`` can load."""

# the seed's generated world, or the fixed canonical world of the apps' defaults.json
WORLDS = ("generated", "canonical")
