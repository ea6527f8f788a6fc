# Russian dates as Russian arbiters write them on screen and on paper: 27.11.2026
# (one way throughout, as the English 27 Nov 2026; issue 21, rough edge 8).
DATE_FORMAT = "d.m.Y"
DATETIME_FORMAT = "d.m.Y H:i"
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
YEAR_MONTH_FORMAT = "m.Y"
