"""``{% qr url %}``: a QR code as inline SVG (segno: pure Python, no image files), for the
printed sheets (the public round page on a wall chart, self check-in on the check-in list)."""

from __future__ import annotations

import segno
from django import template
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag
def qr(data: str, scale: int = 4) -> str:
    code = segno.make(str(data), error="m")
    # a viewBox, no fixed size: the sheet's CSS gives the printed size (sheets.css, .qr-box svg)
    return mark_safe(code.svg_inline(scale=scale, border=2, omitsize=True))  # noqa: S308 - segno's own markup
