"""The shared kernel: errors, database helpers, API plumbing. Depends on no app of ours."""
