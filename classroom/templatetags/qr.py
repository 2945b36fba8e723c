"""QR codes as inline SVG (segno), so badges and the projector work offline and print sharp."""

from __future__ import annotations

import segno
from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def qr_svg(data: str, label: str = "") -> SafeString:
    """A scalable QR code; CSS gives it its size. ``label`` names it for screen readers."""
    svg = segno.make(data, error="m").svg_inline(
        scale=1, border=2, omitsize=True, svgclass="qr", title=label or None
    )
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label or data)}" ', 1)
    return mark_safe(svg)  # noqa: S308 - segno's output, with the label escaped above
