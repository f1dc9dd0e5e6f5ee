"""What the judge reads of the phone's state document: paths, diffs, the initial state, side effects, templating."""
