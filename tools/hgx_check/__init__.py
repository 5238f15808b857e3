"""The checks of tools/check_exchange.py, one module per kind of file: team.py (HGX 1),
individual.py (HGX 2), brackets.py (HGX 3), and what they share (common.py). Standard
library only; check_exchange.py loads this package by its path."""
