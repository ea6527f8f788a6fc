from django.urls import path

from . import views

app_name = "pairing"

T = "t/<slug:slug>/"
R = T + "round/<int:number>/"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("health/", views.health, name="health"),
    path("help/", views.help_index, name="help_index"),
    path("display/density/", views.density, name="density"),
    path("help/<slug:chapter>/", views.help_chapter, name="help_chapter"),
    path("new/", views.tournament_create, name="tournament_create"),
    path("ratings/", views.rating_lists, name="rating_lists"),
    path("ratings/<int:pk>/delete/", views.rating_list_delete, name="rating_list_delete"),
    path("invitations/<int:pk>/", views.invitation_answer, name="invitation_answer"),
    path("jobs/<int:pk>/", views.job_detail, name="job"),
    path(T, views.tournament, name="tournament"),
    path(T + "settings/", views.tournament_settings, name="settings"),
    path(T + "audit/", views.audit_trail, name="audit"),
    path(T + "fide-mode/", views.fide_mode, name="fide_mode"),
    path(T + "fide-mode/leave/", views.fide_mode_leave, name="fide_mode_leave"),
    path(T + "check/", views.check_tournament, name="check_tournament"),
    path(T + "fide-mode/events/<int:pk>/undo/", views.integrity_undo, name="integrity_undo"),
    path(T + "deputies/", views.deputies, name="deputies"),
    path(T + "players/", views.players, name="players"),
    path(T + "players/import/", views.players_import, name="players_import"),
    path(T + "players/lookup/", views.player_lookup, name="player_lookup"),
    path(T + "ratings/check/", views.rating_check, name="rating_check"),
    path(T + "berger/", views.berger, name="berger"),
    path(T + "ties/", views.tie_details, name="tie_details"),
    path(T + "players/numbers/", views.pairing_numbers, name="pairing_numbers"),
    path(T + "players/<int:pk>/", views.player_edit, name="player_edit"),
    path(T + "players/<int:pk>/delete/", views.player_delete, name="player_delete"),
    path(T + "players/<int:pk>/withdraw/", views.player_withdraw, name="player_withdraw"),
    path(T + "forbidden-pairs/", views.forbidden_pairs, name="forbidden_pairs"),
    path(T + "forbidden-pairs/<int:pk>/delete/", views.forbidden_pair_delete, name="forbidden_pair_delete"),
    path(T + "import-trf/", views.trf_import, name="trf_import"),
    path(T + "export.trf", views.trf_export, name="trf_export"),
    path(T + "absences/", views.absences, name="absences"),
    path(T + "byes/grid/", views.byes_grid, name="byes_grid"),
    path(T + "pair/", views.pair_next, name="pair_next"),
    path(T + "pair/by-hand/", views.pair_by_hand, name="pair_by_hand"),
    path(R, views.round_detail, name="round"),
    path(R + "publish/", views.round_publish, name="round_publish"),
    path(R + "discard/", views.round_discard, name="round_discard"),
    path(R + "swap/", views.round_swap, name="round_swap"),
    path(R + "manual/", views.round_manual, name="round_manual"),
    path(R + "game/<int:pk>/result/", views.game_result, name="game_result"),
    path(R + "game/<int:pk>/rating/", views.game_rating_result, name="game_rating_result"),
    path(T + "standings/", views.standings, name="standings"),
    path(T + "standings.csv", views.standings_csv, name="standings_csv"),
    path(T + "crosstable/", views.crosstable, name="crosstable"),
    path(T + "aro/", views.aro_list, name="aro"),
    path(T + "player/<int:tpn>/", views.player_card, name="player_card"),
]
