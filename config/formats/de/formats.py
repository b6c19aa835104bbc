"""German dates and times in one style: "12. Dezember 2026", "12.12.2026, 12:30", "12:30"
(the same style as the English formats beside it: day first, 24-hour clock)."""

from config.formats import picker

DATE_FORMAT = "j. F Y"  # 12. Dezember 2026
DATETIME_FORMAT = "j. F Y, H:i"  # 12. Dezember 2026, 12:30
TIME_FORMAT = "H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j. F"
SHORT_DATE_FORMAT = "d.m.Y"  # 12.12.2026
SHORT_DATETIME_FORMAT = "d.m.Y, H:i"  # 12.12.2026, 12:30
FIRST_DAY_OF_WEEK = 1
# What forms read: what the pickers send (ISO), then day before month.
DATE_INPUT_FORMATS = [*picker.DATE_INPUTS, "%d.%m.%Y", "%d.%m.%y"]
TIME_INPUT_FORMATS = picker.TIME_INPUTS
DATETIME_INPUT_FORMATS = [*picker.DATETIME_INPUTS, "%d.%m.%Y %H:%M:%S", "%d.%m.%Y %H:%M"]
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "."
NUMBER_GROUPING = 3
