"""What forms read first in every language: ISO, as the browser's date and time pickers send it
(``<input type="date">``, ``"time"``, ``"datetime-local"``). Each language's ``formats`` adds
its own day-first forms after these."""

DATE_INPUTS = ["%Y-%m-%d"]
TIME_INPUTS = ["%H:%M:%S", "%H:%M:%S.%f", "%H:%M"]
DATETIME_INPUTS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M"]
