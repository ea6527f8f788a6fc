"""Long tables in pages: a 9,999-player standings, crosstable or pairing list is 50 pages
of 200 lines (``?page=N``), not one page of megabytes.  A table of up to PAGE_ROWS lines
stays one page, as before."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import Http404, HttpRequest, QueryDict

PAGE_ROWS = 200


@dataclass(frozen=True)
class Page:
    number: int  # 1-based
    pages: int
    start: int  # index of the first line shown (0-based)
    total: int
    items: Sequence
    query: str  # the page's other parameters (``round=3&``), to carry in every link

    @property
    def end(self) -> int:
        return self.start + len(self.items)

    @property
    def split(self) -> bool:
        return self.pages > 1

    def link(self, number: int) -> str:
        return f"?{self.query}page={number}"

    @property
    def previous(self) -> str:
        return self.link(self.number - 1) if self.number > 1 else ""

    @property
    def next(self) -> str:
        return self.link(self.number + 1) if self.number < self.pages else ""

    @property
    def nearby(self) -> list[tuple[int, str]]:
        """(number, link) of the first and last page and those around this one; 0 for a gap."""
        shown = sorted({1, self.pages, *range(max(1, self.number - 2), min(self.pages, self.number + 2) + 1)})
        out: list[tuple[int, str]] = []
        for n in shown:
            if out and n - out[-1][0] > 1:
                out.append((0, ""))
            out.append((n, self.link(n)))
        return out


def page_number(request: HttpRequest) -> int:
    """``?page=N`` (1 without it); 404 for anything but a whole number from 1."""
    raw = request.GET.get("page", "")
    if raw == "":
        return 1
    if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
        raise Http404("No such page.")
    return int(raw)


def page_of(request: HttpRequest | None, items: Sequence, size: int | None = None, number: int | None = None) -> Page:
    """The lines of ``items`` that page ``?page=N`` shows (``number``: that page instead;
    ``request`` may then be None), ``size`` lines a page (PAGE_ROWS); 404 past the last
    page (an empty table has one, empty, page)."""
    size = size or PAGE_ROWS
    number = page_number(request) if number is None else number
    total = items.count() if isinstance(items, QuerySet) else len(items)
    pages = max(1, -(-total // size))
    if number > pages:
        raise Http404("No such page.")
    start = (number - 1) * size
    query = request.GET.copy() if request is not None else QueryDict(mutable=True)
    query.pop("page", None)
    query.pop("find", None)
    encoded = query.urlencode()
    return Page(number, pages, start, total, items[start:start + size], f"{encoded}&" if encoded else "")


def page_holding(index: int, size: int | None = None) -> int:
    """The page on which line ``index`` (0-based) is."""
    return index // (size or PAGE_ROWS) + 1
