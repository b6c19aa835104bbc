"""English dates and times in one style (British order, 24-hour clock), never the US mix of
"12/05/2026", "12:30 a.m." and "Dec. 12, 2026" that Django's defaults give."""

from config.formats import picker

DATE_FORMAT = "j F Y"  # 12 December 2026
DATETIME_FORMAT = "j F Y, H:i"  # 12 December 2026, 12:30
TIME_FORMAT = "H:i"  # 12:30
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "j M Y"  # 12 Dec 2026
SHORT_DATETIME_FORMAT = "j M Y, H:i"  # 12 Dec 2026, 12:30
FIRST_DAY_OF_WEEK = 1  # Monday
# What forms read: what the pickers send (ISO), then day before month.
DATE_INPUT_FORMATS = [*picker.DATE_INPUTS, "%d/%m/%Y", "%d.%m.%Y", "%d %b %Y", "%d %B %Y"]
TIME_INPUT_FORMATS = picker.TIME_INPUTS
DATETIME_INPUT_FORMATS = [*picker.DATETIME_INPUTS, "%d/%m/%Y %H:%M:%S", "%d/%m/%Y %H:%M"]
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
