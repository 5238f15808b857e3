from django.contrib.auth import views as auth_views
from django.urls import path

from web.desk import (
    amend,
    cash,
    disputes,
    entries,
    federations,
    pairs,
    prints,
    roster,
    rounds,
    seasons,
    setup,
    sheet,
    signin,
)

T = "<int:tournament_id>/"
R = T + "rounds/<int:number>/"
TABLE = R + "tables/<int:table>/"
S = "clubs/<int:club_id>/seasons/<int:season_id>/"

urlpatterns = [
    # A username and password, or a player's one-time code from the desk.
    path("login/", signin.DeskLoginView.as_view(), name="desk-login"),
    path("password/", signin.password_set, name="desk-password"),
    # Staff's way back in, apart from the players' codes: manage.py staff_signin_link.
    path("login/staff/<str:token>/", signin.staff_signin, name="desk-staff-signin"),
    path("logout/", auth_views.LogoutView.as_view(next_page="/desk/login/"), name="desk-logout"),
    path("", setup.desk_home, name="desk-home"),
    path("matches/<uuid:match_id>/", rounds.match_desk, name="desk-match"),
    path("new/", setup.tournament_new, name="desk-tournament-new"),
    # A club's seasons (web/desk/seasons.py).
    path("clubs/<int:club_id>/seasons/", seasons.club_seasons, name="desk-club-seasons"),
    path(S, seasons.season_desk, name="desk-season"),
    path(S + "standings.xlsx", seasons.season_xlsx, name="desk-season-xlsx"),
    path(S + "standings.csv", seasons.season_csv, name="desk-season-csv"),
    # Federations: the member list and its import, the monthly rating reports (issue 39).
    path("federations/", federations.federation_list, name="desk-federations"),
    path(
        "federations/<int:federation_id>/members/",
        federations.federation_members_desk,
        name="desk-federation-members",
    ),
    path(
        "federations/<int:federation_id>/reports/",
        federations.federation_reports_desk,
        name="desk-federation-report",
    ),
    path(T, setup.tournament_desk, name="desk-tournament"),
    path(T + "walk-in/", setup.walk_in, name="desk-walk-in"),
    path(T + "language/", setup.tournament_language_set, name="desk-tournament-language"),
    path(T + "zone/", setup.tournament_zone_set, name="desk-tournament-zone"),
    path(T + "walk-in/similar/", setup.walk_in_similar, name="desk-walk-in-similar"),
    path(T + "paste/", setup.paste_names, name="desk-paste"),
    path(T + "add/", setup.add_player, name="desk-add-player"),
    path(T + "check-in/", setup.check_in, name="desk-check-in"),
    path(T + "check-in/<int:player_id>/", setup.check_in_player, name="desk-check-in-player"),
    path(T + "check-in/all/", roster.check_in_all, name="desk-check-in-all"),
    path(T + "check-in/<int:player_id>/undo/", roster.check_in_undo, name="desk-check-in-undo"),
    path(T + "players/<int:player_id>/withdraw/", roster.withdraw, name="desk-withdraw"),
    path(T + "member/", roster.member_new, name="desk-member-new"),
    path(T + "login-codes/print/", roster.login_codes_print, name="desk-login-codes-print"),
    path(
        T + "players/<int:player_id>/login-code/",
        setup.login_code_issue,
        name="desk-login-code",
    ),
    path(T + "players/<int:player_id>/data/", roster.member_data, name="desk-member-data"),
    path(T + "start/", setup.start, name="desk-start"),
    path(T + "entries/", entries.entries, name="desk-entries"),
    path(T + "entries/rules/", entries.entry_rules, name="desk-entry-rules"),
    path(T + "cash/", cash.cash_sheet, name="desk-cash"),
    path(T + "cash.xlsx", cash.cash_xlsx, name="desk-cash-xlsx"),
    path(T + "cash/<int:player_id>/", cash.cash_record, name="desk-cash-record"),
    path(T + "entries/<int:player_id>/<slug:action>/", entries.entry_act, name="desk-entry-act"),
    path(T + "standings/print/", prints.print_standings, name="desk-print-standings"),
    path(T + "bracket/", prints.print_bracket, name="desk-bracket"),
    path(T + "pairs-apart/", pairs.forbidden_pairs, name="desk-forbidden-pairs"),
    path(T + "pairs-apart/remove/", pairs.forbidden_pair_remove, name="desk-forbidden-pair-remove"),
    path(T + "standings.csv", prints.standings_csv, name="desk-standings-csv"),
    path(T + "results.csv", prints.results_csv, name="desk-results-csv"),
    path(T + "exchange.hgx", prints.exchange_file, name="desk-exchange"),
    path(T + "tournament.xlsx", prints.tournament_xlsx, name="desk-standings-xlsx"),
    path(T + "scoresheet/blank/", prints.print_blank, name="desk-print-blank"),
    path(T + "disputes/", disputes.dispute_list, name="desk-disputes"),
    path(
        T + "disputes/<uuid:match_id>/<int:number>/",
        disputes.dispute_view,
        name="desk-dispute",
    ),
    path(R, rounds.round_view, name="desk-round"),
    path(R + "repair/", rounds.round_repair, name="desk-round-repair"),
    path(R + "by-hand/", pairs.round_pairings_by_hand, name="desk-round-by-hand"),
    path(R + "pair-next/", rounds.round_pair_next, name="desk-round-pair-next"),
    path(R + "clock/", rounds.round_clock_start, name="desk-round-clock"),
    path(R + "results/take/", rounds.round_results_take, name="desk-round-results-take"),
    path(R + "pairings/print/", prints.print_pairings, name="desk-print-pairings"),
    path(R + "slips/print/", prints.print_slips, name="desk-print-slips"),
    path(TABLE, rounds.table_view, name="desk-table"),
    path(TABLE + "sheet/", sheet.sheet_view, name="desk-sheet"),
    path(TABLE + "sheet/check/", sheet.sheet_check, name="desk-sheet-check"),
    path(TABLE + "hands/<int:hand>/", rounds.hand_correct, name="desk-hand"),
    path(TABLE + "entries/<int:entry_id>/", rounds.entry_decide, name="desk-entry-decide"),
    path(TABLE + "entries/<int:entry_id>/amend/", amend.entry_amend, name="desk-entry-amend"),
    path(TABLE + "print/", prints.print_scoresheet, name="desk-print-scoresheet"),
]
