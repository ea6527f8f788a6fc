"""The arbiter team: the chief arbiter invites deputies by username, the invited account
accepts or declines, the chief arbiter removes a deputy or withdraws an invitation.

Nothing here tells the chief arbiter whether an account exists (audit finding 10): an
invitation is stored for the username as typed, and only the account of that name sees
it.  Every change is in the tournament's audit trail.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from ..models import AuditAction, AuditEntry, DeputyInvitation, Tournament


class Refused(Exception):
    """The change was not made; the message says why."""


def _log(tournament: Tournament, user, text: str, before: dict, after: dict) -> None:
    AuditEntry.log(tournament, user, AuditAction.DEPUTY, text, obj=tournament, label=tournament.name,
                   before=before, after=after)


def _team(tournament: Tournament) -> dict:
    return {
        "deputies": tournament.deputy_names(),
        "invited": sorted(tournament.invitations.values_list("username", flat=True)),
    }


def invite(tournament: Tournament, chief, username: str) -> str:
    """Invite ``username``; returns the sentence to show.  Raises :class:`Refused` for
    the chief arbiter's own name or a name already on the team (both are on the page)."""
    with transaction.atomic():
        t = tournament.lock()
        if username == t.owner.get_username():
            raise Refused(gettext("The chief arbiter is already in charge."))
        if username in t.deputy_names():
            raise Refused(gettext("%(name)s is already a deputy.") % {"name": username})
        before = _team(t)
        _, created = DeputyInvitation.objects.get_or_create(tournament=t, username=username,
                                                            defaults={"invited_by": chief})
        if created:
            _log(t, chief, f"{username} invited to be a deputy.", before, _team(t))
    return (
        gettext("Invitation for %(name)r saved. When the account of that name next opens its list of "
                "tournaments, it can accept; it becomes a deputy then.") % {"name": username}
    )


def withdraw_invitation(tournament: Tournament, chief, username: str) -> str:
    with transaction.atomic():
        t = tournament.lock()
        before = _team(t)
        deleted, _ = DeputyInvitation.objects.filter(tournament=t, username=username).delete()
        if not deleted:
            raise Refused(gettext("There is no invitation for %(name)r.") % {"name": username})
        _log(t, chief, f"Invitation for {username} withdrawn.", before, _team(t))
    return gettext("Invitation for %(name)r withdrawn.") % {"name": username}


def remove(tournament: Tournament, chief, username: str) -> str:
    with transaction.atomic():
        t = tournament.lock()
        deputy = t.deputies.filter(username=username).first()
        if deputy is None:
            raise Refused(gettext("%(name)s is not a deputy of this tournament.") % {"name": username})
        before = _team(t)
        t.deputies.remove(deputy)
        _log(t, chief, f"{username} is no longer a deputy.", before, _team(t))
    return gettext("%(name)s removed.") % {"name": username}


def invitations_for(user):
    """The open invitations of a signed-in account."""
    return DeputyInvitation.objects.filter(username=user.get_username()).select_related("tournament",
                                                                                       "tournament__owner")


def answer(invitation: DeputyInvitation, user, accept: bool) -> str:
    """The invited account accepts (and becomes a deputy) or declines; either way the
    invitation is gone."""
    with transaction.atomic():
        t = invitation.tournament.lock()
        before = _team(t)
        deleted, _ = DeputyInvitation.objects.filter(pk=invitation.pk, username=user.get_username()).delete()
        if not deleted:
            raise Refused(gettext("This invitation was withdrawn meanwhile."))
        if accept:
            t.deputies.add(user)
            _log(t, user, f"{user.get_username()} accepted and is now a deputy.", before, _team(t))
            return gettext("You are now a deputy arbiter of %(name)s.") % {"name": t.name}
        _log(t, user, f"{user.get_username()} declined to be a deputy.", before, _team(t))
        return gettext("Invitation to %(name)s declined.") % {"name": t.name}
