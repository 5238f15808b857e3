"""A federation of the installation's clubs (issue 39): its member list (federation id,
name, club, birth year, country) imported from CSV/XLSX and linked to the clubs' players
with the desk's similar-name matching (tournaments.ratings.selectors.names)."""
