"""Demo and practice code, never used by the production apps: bots that play matches, a
simulated tournament, and `load_demo` for `make run`."""
