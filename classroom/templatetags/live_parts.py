"""``{% livepart "name" id value… %}…{% endlivepart %}``: a part of a live page that a page's
socket draws again only when one of the values after its slot changed (see
``classroom.pages.parts``). The values must be everything the part shows; the language is
added by the cache. Without a ``live_parts`` cache in the context the part renders as usual.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import template

from classroom.pages.parts import CACHE_VARIABLE, PartCache

if TYPE_CHECKING:
    from django.template.base import FilterExpression, NodeList, Parser, Token
    from django.template.context import Context

register = template.Library()


class LivePartNode(template.Node):
    def __init__(
        self,
        name: FilterExpression,
        ident: FilterExpression,
        shows: list[FilterExpression],
        nodelist: NodeList,
    ) -> None:
        self.name = name
        self.ident = ident
        self.shows = shows
        self.nodelist = nodelist

    def render(self, context: Context) -> str:
        cache = context.get(CACHE_VARIABLE)
        if not isinstance(cache, PartCache):
            return self.nodelist.render(context)
        slot = (self.name.resolve(context), self.ident.resolve(context))
        shows = [value.resolve(context) for value in self.shows]
        return cache.part(slot, shows, lambda: self.nodelist.render(context))


@register.tag("livepart")
def livepart(parser: Parser, token: Token) -> LivePartNode:
    bits = token.split_contents()
    if len(bits) < 4:
        raise template.TemplateSyntaxError(
            f"{bits[0]} takes a name, an id and at least one value the part shows"
        )
    name, ident, *shows = (parser.compile_filter(bit) for bit in bits[1:])
    nodelist = parser.parse(("endlivepart",))
    parser.delete_first_token()
    return LivePartNode(name, ident, shows, nodelist)
