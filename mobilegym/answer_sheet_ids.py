"""What the grounded judge and the AnswerSheet app agree on: the app's id and its names on the launcher.

Both sides import it from here (the judge asks the agent to open the app by name; the app shows that
name), so neither imports the other.
"""
ANSWER_SHEET = "answer_sheet"
SHEET_LABELS = {"en": "AnswerSheet", "zh": "答题卡"}
HARNESS_APPS = (ANSWER_SHEET,)  # apps of the harness, not the owner's: no task chains them, no interruption comes from them
