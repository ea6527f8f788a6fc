"""A section's categories, prizes and prize rules, and the publication of its prize list."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ..models import AuditAction, AuditEntry, Category, Prize, PrizeSettings, Tournament

RULES = ("sharing", "one_prize", "rounding", "currency", "club_best")


def as_text(t: Tournament) -> dict:
    """The categories and prizes as the form's lines (also the audit trail's values)."""
    cats = list(Category.objects.filter(section=t).order_by("pk"))
    lines = []
    for c in cats:
        rest = {"under": str(c.age), "over": str(c.age), "rating": f"{c.rating_min or ''}-{c.rating_max or ''}",
                "fed": c.value, "club": c.value}.get(c.kind, "")
        lines.append(f"{c.name}: {c.kind} {rest}".strip())
    prizes = list(Prize.objects.filter(section=t).select_related("category").order_by("category_id", "place"))
    groups: dict[str, list[str]] = {}
    for p in prizes:
        groups.setdefault(p.category.name if p.category else "place", []).append(f"{p.amount}")
    ordered = (["place"] if "place" in groups else []) + [c.name for c in cats if c.name in groups]
    return {"categories": "\n".join(lines), "prizes": "\n".join(f"{k}: {', '.join(groups[k])}" for k in ordered)}


def save(t: Tournament, data: dict, user) -> None:
    """Replace the section's categories and prizes by the form's, and its rules."""
    with transaction.atomic():
        t.lock()
        before = as_text(t)
        s = PrizeSettings.objects.filter(section=t).first() or PrizeSettings(section=t)
        rules_before = {f: str(getattr(s, f)) for f in RULES}
        Prize.objects.filter(section=t).delete()
        Category.objects.filter(section=t).delete()
        made = {c["name"]: Category.objects.create(section=t, **c) for c in data["categories"]}
        for name, amounts in data["prize_lists"]:
            for place, amount in enumerate(amounts, start=1):
                Prize.objects.create(section=t, category=made[name] if name else None, place=place, amount=amount)
        for f in RULES:
            setattr(s, f, data[f])
        s.save()
        after = as_text(t)
        rules_after = {f: str(getattr(s, f)) for f in RULES}
        changed = {k: before[k] for k in before if before[k] != after[k]} | {
            k: rules_before[k] for k in RULES if rules_before[k] != rules_after[k]}
        if changed:
            AuditEntry.log(t, user, AuditAction.PRIZES, "Prizes changed: " + ", ".join(changed), label=t.name,
                           before=changed, after={k: (after | rules_after)[k] for k in changed})


def publish(t: Tournament, user, on: bool) -> bool:
    with transaction.atomic():
        t.lock()
        s = PrizeSettings.objects.filter(section=t).first() or PrizeSettings(section=t)
        if bool(s.published_at) == on:
            return False
        s.published_at = timezone.now() if on else None
        s.save()
        AuditEntry.log(t, user, AuditAction.PRIZES, "Prize list published." if on else "Prize list withdrawn.",
                       label=t.name, after={"published": on})
    return True
