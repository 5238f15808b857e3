"""Signed webhooks of a tournament's events (issue 13).

Organisers register endpoints per tournament; every event of the tournament's stream that
an endpoint asked for becomes one `Delivery` row (an outbox, filled past each endpoint's
cursor), sent by a Celery job after commit, at least once, signed with the endpoint's
secret. Modules: `models`, `signing` (the signature and its verification recipe), `guard`
(no private addresses), `selectors`, `services`, `sending` (one HTTP attempt), `tasks`,
`receivers`, `serializers`, `apis`, `admin`.
"""
