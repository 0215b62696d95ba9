"""The live table's Jinja drawing escapes exactly as Django does, so a frame's
bytes do not depend on which engine drew it."""

from __future__ import annotations

from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy
from hypothesis import given
from hypothesis import strategies as st

from games.live.draw.drawing import Trusted, draw, escape


@given(st.one_of(st.text(), st.integers(), st.none(), st.booleans()))
def test_it_escapes_any_value_as_django_does(value) -> None:
    assert str(escape(value)) == str(conditional_escape(value))


def test_it_keeps_markup_and_translates_lazy_text_before_escaping() -> None:
    assert str(escape(mark_safe("<b>it's</b>"))) == "<b>it's</b>"
    assert str(escape(gettext_lazy("Don't"))) == "Don&#x27;t"


@given(st.text())
def test_it_fills_a_trusted_sentence_with_escaped_values(name) -> None:
    sentence = Trusted("<b>%(name)s</b> won.") % {"name": name}
    assert str(sentence) == f"<b>{conditional_escape(name)}</b> won."


def test_it_draws_a_template_with_djangos_escaping() -> None:
    html = draw("live/error.html", {"message": "It's <gone> & \"done\""})
    assert "It&#x27;s &lt;gone&gt; &amp; &quot;done&quot;" in html
