"""Python tasks: the task base classes, parameters, class validation, BaseApp and their episodes."""
