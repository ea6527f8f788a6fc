from django.contrib import admin

from .models import AuditEntry, Bye, Game, Player, Round, Tournament


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0
    fields = ["tpn", "title", "name", "rating", "rating_provisional", "federation", "withdrawn_from_round"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "place", "start_date", "rounds", "owner", "public", "ranking_frozen"]
    list_filter = ["public"]
    search_fields = ["name", "slug", "place"]
    filter_horizontal = ["deputies"]
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "tpn", "title", "rating", "federation", "withdrawn_from_round"]
    list_filter = ["tournament"]
    search_fields = ["name", "fide_id"]


class GameInline(admin.TabularInline):
    """Boards are written by pairing (with their seats); the admin only corrects results."""

    model = Game
    extra = 0
    fields = ["board", "white", "black", "result"]
    readonly_fields = ["board", "white", "black"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "published_at", "manual_changes"]
    list_filter = ["status", "tournament"]
    inlines = [GameInline]
    exclude = ["explanation"]


@admin.register(Bye)
class ByeAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "round_number", "kind"]
    list_filter = ["kind", "tournament"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "tournament", "user", "action", "label", "detail"]
    list_filter = ["action", "tournament"]
    readonly_fields = [
        "at", "tournament", "user", "action", "object_type", "object_id", "label", "before", "after", "detail"
    ]

    def has_add_permission(self, request) -> bool:
        return False  # the trail is written by the changes themselves

    def has_change_permission(self, request, obj=None) -> bool:
        return False
