"""The Django admin: the site's administrator looks at everything, changes little.

Results, pairings, players, byes and settings are changed in the app, where every change
is checked, locked against a concurrent one and written to the tournament's audit trail.
An edit here would bypass all three (a result corrected in the admin would neither
complete its round nor appear in the trail), so those models are read-only.  What only
the administrator can do is here: hand a tournament to another owner, set its deputies,
delete it; owner and deputy changes are logged in the tournament's audit trail; make a
one-time device pass for an account locked out by failed logins (users' actions).
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db import transaction
from django.utils.translation import gettext as _

from arbiter_site.accounts import device_pass_path

from .models import AuditAction, AuditEntry, Bye, Game, Player, Round, Tournament


class ReadOnlyMixin:
    """Viewed in the admin, changed only in the app."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class PlayerInline(ReadOnlyMixin, admin.TabularInline):
    model = Player
    extra = 0
    fields = ["tpn", "title", "name", "rating", "rating_provisional", "federation", "withdrawn_from_round"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Owner and deputies are editable (logged in the audit trail); the rest is read-only
    here and set on the tournament's settings page."""

    list_display = ["name", "slug", "place", "start_date", "rounds", "owner", "public", "ranking_frozen"]
    list_filter = ["public"]
    search_fields = ["name", "slug", "place"]
    filter_horizontal = ["deputies"]
    inlines = [PlayerInline]
    editable = ("owner", "deputies")

    def has_add_permission(self, request) -> bool:
        return False  # created in the app, which draws the initial colour and logs it

    def get_deleted_objects(self, objs, request):
        """A tournament goes with its players, rounds, byes and trail, although none of
        those can be deleted one by one here."""
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.get_fields() if f.concrete and f.name not in self.editable]

    @staticmethod
    def _people(t: Tournament) -> dict:
        return {"owner": t.owner.get_username(), "deputies": t.deputy_names()}

    def save_model(self, request, obj, form, change) -> None:
        # before the row and its deputies are written (save_related writes the deputies)
        obj._audit_before = self._people(Tournament.objects.get(pk=obj.pk))
        super().save_model(request, obj, form, change)

    @transaction.atomic
    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        t = form.instance
        before, after = t._audit_before, self._people(t)
        changed = [k for k in before if before[k] != after[k]]
        if changed:
            AuditEntry.log(
                t, request.user, AuditAction.DEPUTY if changed == ["deputies"] else AuditAction.SETTINGS,
                "Changed in the site admin: " + " and ".join(changed) + ".", obj=t, label=t.name,
                before={k: before[k] for k in changed}, after={k: after[k] for k in changed},
            )


@admin.register(Player)
class PlayerAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["name", "tournament", "tpn", "title", "rating", "federation", "withdrawn_from_round"]
    list_filter = ["tournament"]
    search_fields = ["name", "fide_id"]


class GameInline(ReadOnlyMixin, admin.TabularInline):
    model = Game
    extra = 0
    fields = ["board", "white", "black", "result"]


@admin.register(Round)
class RoundAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "published_at", "manual_changes", "paired_by"]
    list_filter = ["status", "tournament"]
    inlines = [GameInline]
    exclude = ["explanation"]


@admin.register(Bye)
class ByeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["player", "tournament", "round_number", "kind"]
    list_filter = ["kind", "tournament"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The trail is written by the changes themselves and never edited."""

    list_display = ["at", "tournament", "user", "action", "label", "detail"]
    list_filter = ["action", "tournament"]


# ---------------------------------------------------------------- accounts: a device pass


@admin.action(description=_("Make a one-time device pass (log in on a new device past a lock-out)"))
def make_device_pass(modeladmin, request, queryset):
    for user in queryset:
        modeladmin.message_user(request, _("Device pass for %(name)s (one hour, once): %(url)s") % {
            "name": user.get_username(), "url": request.build_absolute_uri(device_pass_path(user))})


class ArbiterUserAdmin(UserAdmin):
    actions = [*(UserAdmin.actions or []), make_device_pass]


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), ArbiterUserAdmin)
