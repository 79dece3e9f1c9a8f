"""A small SVG/XHTML builder on :mod:`xml.etree.ElementTree`, and the picture types.

Markup is built as elements, never by pasting strings, so every text and attribute value is
escaped by the serializer.  Attribute names are keyword arguments with ``_`` for ``-`` and a
trailing ``_`` dropped (``class_="sq"``, ``data_square="c3"``, ``font_size=28``); numbers are
written short (``140``, ``12.5``) and ``None`` leaves an attribute out:

>>> e = el("text", "a<b", class_="coord", x=12.5, y=40.0, font_size=28, fill=None)
>>> markup(e)
'<text class="coord" x="12.5" y="40" font-size="28">a&lt;b</text>'

:class:`SvgPicture` and :class:`HtmlPicture` are strings that a notebook displays as a
picture (the idea of python-chess's ``SvgWrapper``): every str operation still works, and
their ``repr`` is one short line instead of the whole markup.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeAlias

SVG_NS = "http://www.w3.org/2000/svg"

Attr: TypeAlias = "str | int | float | None"


def num(x: float) -> str:
    """A coordinate as short text: integers without a fraction, else at most two decimals.

    >>> num(140.0), num(12.5), num(1 / 3)
    ('140', '12.5', '0.33')
    """
    x = round(float(x), 2)
    return str(int(x)) if x.is_integer() else f"{x:.2f}".rstrip("0")


def _attrs(attrs: dict[str, Attr]) -> dict[str, str]:
    return {
        k.rstrip("_").replace("_", "-"): v if isinstance(v, str) else num(v)
        for k, v in attrs.items()
        if v is not None
    }


def el(tag: str, text: str | None = None, /, **attrs: Attr) -> ET.Element:
    """A new element ``tag`` holding ``text`` with ``attrs`` (see the module docstring)."""
    e = ET.Element(tag, _attrs(attrs))
    e.text = text
    return e


def sub(parent: ET.Element, tag: str, text: str | None = None, /, **attrs: Attr) -> ET.Element:
    """:func:`el`, appended to ``parent``; returns the new element."""
    e = el(tag, text, **attrs)
    parent.append(e)
    return e


def svg_root(width: float, height: float, units_w: float, units_h: float, cls: str) -> ET.Element:
    """An ``<svg>`` document element ``width`` x ``height`` pixels showing the viewBox
    ``units_w`` x ``units_h``; text in it uses the viewer's own ``sans-serif``."""
    return el(
        "svg",
        xmlns=SVG_NS,
        width=width,
        height=height,
        viewBox=f"0 0 {num(units_w)} {num(units_h)}",
        class_=cls,
        role="img",
        font_family="sans-serif",
    )


def markup(e: ET.Element) -> str:
    """``e`` and everything in it as text (no XML declaration; empty elements as ``<x />``)."""
    return ET.tostring(e, encoding="unicode")


class SvgPicture(str):
    """An SVG document (a ``str``) that shows itself as a picture in a notebook."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {len(self):,} characters of SVG>"


class HtmlPicture(str):
    """An XHTML fragment (a ``str``) that shows itself in a notebook.

    >>> HtmlPicture("<p>hi</p>")
    <HtmlPicture: 9 characters of HTML>
    """

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {len(self):,} characters of HTML>"


def svg_picture(root: ET.Element) -> SvgPicture:
    return SvgPicture(markup(root))


def html_picture(root: ET.Element) -> HtmlPicture:
    return HtmlPicture(markup(root))


__all__ = [
    "SVG_NS",
    "HtmlPicture",
    "SvgPicture",
    "el",
    "html_picture",
    "markup",
    "num",
    "sub",
    "svg_picture",
    "svg_root",
]
