"""Trainer integrations: TRL's ``environment_factory`` (:mod:`.trl`) and verl's agent loop (:mod:`.verl`).

Each imports its trainer lazily, so ``import mobilegym.trainers`` needs neither installed.
"""
