"""Team events (issue 39): club sides playing team matches of N boards, each board a
Hollywood match, in a team round robin or a team Swiss. Event-sourced as individual
tournaments are: the stream "team-event-<id>" (tournaments.teams.domain decides and folds
it), read models rebuilt from it (tournaments.teams.projections)."""
