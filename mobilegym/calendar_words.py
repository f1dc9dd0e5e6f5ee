"""Calendar words as the phone's texts write them: English month and weekday names and their abbreviations, the
Chinese weekday characters and their 周一 / 星期一 forms. Weekdays are in ``date.weekday()`` order (Monday first),
months in calendar order. Defined here once for the simulator, the apps, the task suites, the judge and the eval
harness (this module imports nothing of the project)."""
from __future__ import annotations

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
MONTH_ABBRS = tuple(month[:3] for month in MONTHS)  # "Jan" .. "Dec"
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKDAY_ABBRS = tuple(day[:3] for day in WEEKDAYS)  # "Mon" .. "Sun"
WEEKDAY_CHARS = "一二三四五六日"  # one character a weekday: 周一, 星期一 ..
WEEKDAYS_ZH = tuple(f"周{char}" for char in WEEKDAY_CHARS)  # "周一" .. "周日"
WEEKDAYS_ZH_FULL = tuple(f"星期{char}" for char in WEEKDAY_CHARS)  # "星期一" .. "星期日"
WEEKDAY_PAIRS = tuple(zip(WEEKDAY_ABBRS, WEEKDAYS_ZH))  # ("Mon", "周一") .. ("Sun", "周日")
