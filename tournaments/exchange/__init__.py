"""The results exchange file (HGX, issue 39): a finished event's players, rounds, pairings,
dealers and results in a versioned fixed-field text format modelled on FIDE's TRF, written
from a team event or an individual tournament (a bracket's too), read into another
installation, and checked by tools/check_exchange.py (docs/explanation/exchange-format.md)."""
