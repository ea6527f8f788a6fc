"""Views: check access, call a service (changes) or a report (reads), render.  One module per area."""

from .audit import audit_trail
from .checker import checker, checker_file
from .checkin import checkin, checkin_close, self_checkin
from .display import density
from .drafts import pair_next, round_discard, round_publish, round_swap
from .entries import entry_form, entry_status, event_entries
from .event_audit import event_audit_trail
from .events import event, event_create, event_player_move, event_players, event_settings, front_page
from .fide import fide_mode, fide_mode_leave, integrity_undo
from .help import help_chapter, help_index
from .jobs import check_tournament, job_answer, job_detail
from .manual import pair_by_hand, round_manual
from .paperwork import print_sheet
from .players import (
    forbidden_pair_delete,
    forbidden_pairs,
    pairing_numbers,
    player_delete,
    player_edit,
    player_missed_rounds,
    player_withdraw,
    players,
    players_import,
    trf_import,
)
from .prizes import prizes, prizes_edit
from .ratings import (
    player_lookup,
    rating_check,
    rating_list_delete,
    rating_list_update,
    rating_list_upload,
    rating_lists,
)
from .reports import aro_list, aro_spread_page, crosstable, player_card, standings, standings_csv, trf_export
from .roundrobin import berger
from .rounds import absences, byes_grid, game_rating_result, game_result, round_detail
from .tiebreak_details import tie_details
from .tournaments import (
    dashboard,
    deputies,
    health,
    invitation_answer,
    tournament,
    tournament_create,
    tournament_settings,
)

__all__ = [
    "checker",
    "checker_file",
    "checkin",
    "checkin_close",
    "self_checkin",
    "print_sheet",
    "prizes",
    "prizes_edit",
    "entry_form",
    "entry_status",
    "event_entries",
    "event",
    "event_create",
    "event_player_move",
    "event_players",
    "event_audit_trail",
    "event_settings",
    "front_page",
    "check_tournament",
    "job_answer",
    "job_detail",
    "berger",
    "pairing_numbers",
    "tie_details",
    "player_lookup",
    "rating_check",
    "rating_list_delete",
    "rating_list_update",
    "rating_list_upload",
    "rating_lists",
    "density",
    "pair_by_hand",
    "round_manual",
    "fide_mode",
    "fide_mode_leave",
    "integrity_undo",
    "help_chapter",
    "help_index",
    "absences",
    "byes_grid",
    "aro_list",
    "aro_spread_page",
    "audit_trail",
    "crosstable",
    "dashboard",
    "deputies",
    "invitation_answer",
    "forbidden_pair_delete",
    "forbidden_pairs",
    "game_rating_result",
    "game_result",
    "health",
    "pair_next",
    "player_card",
    "player_delete",
    "player_edit",
    "player_missed_rounds",
    "player_withdraw",
    "players",
    "players_import",
    "round_detail",
    "round_discard",
    "round_publish",
    "round_swap",
    "standings",
    "standings_csv",
    "tournament",
    "tournament_create",
    "tournament_settings",
    "trf_export",
    "trf_import",
]
