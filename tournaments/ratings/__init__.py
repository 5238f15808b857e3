"""Club life across evenings: Glicko-2 ratings and season tables, both projections of the
tournaments' and matches' events (one rating period per finished tournament of a club),
and the clubs' API. A Django app of its own (label `ratings`) inside `tournaments`."""
