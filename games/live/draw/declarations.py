"""Declarations and announcements at the live table: the combinations the viewer
may declare (buttons), those declared so far (Open Blot's declarations and
Belote's announcements) and the belote and rebelote said."""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext

from engine.cards import mask_of
from engine.declarations import Declaration
from games.labels import kind_label
from games.live.draw import auction, drawing
from games.live.draw.cards import card_view, code_view, move_vals
from games.live.draw.viewing import DealSeen, sentence

_ = drawing.text

#: Belote's names for the combinations Open Blot's engine module finds.
BELOTE_KINDS = {"terz": "tierce", "fifty": "cinquante", "hundred": "cent", "four": "carre"}


def announced_views(seen: DealSeen, names: dict[int, str]) -> list[dict[str, Any]]:
    """Belote's announcements made so far, with their cards to draw once shown."""
    announced = auction.announced(seen.obs, names)
    for a in announced:
        a["card_views"] = [card_view(c) for c in a["cards"]]
    return announced


def declarations_context(
    seen: DealSeen, names: dict[int, str], announced: list[dict[str, Any]]
) -> dict[str, Any]:
    """The announcements (``announced``, from :func:`announced_views`), the
    viewer's declare buttons, the declarations made and the belotes said."""
    obs = seen.obs
    return {
        "announced": announced,
        "announce": [
            {
                "label": kind_label(_declaration_kind(a, obs.variant)),
                "kind": _declaration_kind(a, obs.variant),
                "codes": " ".join(a.to_dict()["cards"]),
                "cards": [code_view(c) for c in a.to_dict()["cards"]],
                "vals": move_vals(
                    {
                        "type": "declare",
                        "cards": " ".join(a.to_dict()["cards"]),
                        "version": seen.version,
                    }
                ),
            }
            for a in seen.legal
            if a.type == "declare"
        ],
        "declarations": [
            {
                "name": names.get(d.seat),
                "kind": d.kind,
                "points": d.points,
                "sentence": sentence(
                    ngettext(
                        "%(name)s: %(kind)s, %(points)s point.",
                        "%(name)s: %(kind)s, %(points)s points.",
                        d.points,
                    ),
                    name=names.get(d.seat),
                    kind=kind_label(d.kind),
                    points=d.points,
                ),
                "cards": [card_view(c) for c in d.cards],
            }
            for d in obs.declarations
        ],
        "announcements": [
            {"name": names.get(s), "word": _("Belote") if w == "belote" else _("Rebelote")}
            for s, w in obs.announcements
        ],
    }


def _declaration_kind(action: Any, variant: str) -> str:
    kind = Declaration(action.seat, mask_of(action.cards), 0).kind
    return BELOTE_KINDS.get(kind, kind) if variant == "belote" else kind
