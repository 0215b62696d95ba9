"""Playing in another language in a real browser: a Belote deal in Russian, an
Open Blot deal in Armenian (against bots, by clicking), and switching language
from the header and back."""

from __future__ import annotations

import re

from tests.browser.pages import SiteDB, TablePage, sign_up

BOT_DELAY_MS = 150


def switch_language(page, code: str) -> None:
    """Pick a language in the header's switcher (its script submits the form). On
    a phone the switcher is in the header's menu: open it first.

    The page must have loaded first: after a form's redirect the new page's
    elements are there before its deferred script runs, and a change made then
    submits nothing."""
    page.wait_for_load_state("load")
    select = page.locator("header select[name=language]")
    if not select.is_visible():
        page.locator("[data-menu-button]").click()
    with page.expect_navigation():
        select.select_option(code)
    assert page.locator("html").get_attribute("lang") == code


def create_table(page, variant: str, others: list[str]) -> int:
    """The create form, whatever the page's language (buttons found by role in the form)."""
    page.goto(f"/tables/new/?variant={variant}")
    for index, level in enumerate(others, start=1):
        page.locator(f"select[name=seat_{index}]").select_option(level)
    page.locator("form.table-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    return int(re.search(r"/tables/(\d+)/$", page.url).group(1))


def assert_result_and_scores_in(page, db: SiteDB, table_id: int, words: dict[str, str]) -> None:
    """Deal 1's result and the score table are on the page, in the page's language."""
    result = db.deal(table_id, 1)["result"]
    assert words["result"] in page.locator("#deal-result h3").inner_text()
    headers = page.locator("#deal-result table.breakdown th").all_inner_texts()
    assert words["card points"] in headers and words["deal points"] in headers
    row = page.locator(
        "#deal-result table.breakdown tr", has=page.locator(f"th:text-is('{words['deal points']}')")
    )
    assert [c.strip() for c in row.locator("td").all_inner_texts()] == [
        str(p) for p in result["deal_points"]
    ]
    assert words["score table"] in page.locator("#score-table summary").inner_text()
    assert page.locator("#score-table tbody tr").count() >= 1
    text = page.locator("#table-root").inner_text()
    for english in ("Score table", "Card points", "Deal points", "Trump", "result"):
        assert english not in text


def test_it_plays_a_belote_deal_in_russian(new_page, site_db):
    page = new_page()
    sign_up(page)
    switch_language(page, "ru")
    table_id = create_table(page, "belote", ["easy", "easy", "easy"])
    site_db.set_bot_delay(table_id, BOT_DELAY_MS)
    tp = TablePage(page, table_id, site_db).wait_live()
    assert page.locator("html").get_attribute("lang") == "ru"
    assert "Раздача 1" in page.locator("#table-root .table-head .deal-no").inner_text()
    assert "Как играть в белот" in page.locator("main").inner_text()

    tp.play()

    assert_result_and_scores_in(
        page,
        site_db,
        table_id,
        {
            "result": "Итог раздачи 1",
            "card points": "Очки за карты",
            "deal points": "Очки за раздачу",
            "score table": "Таблица счёта",
        },
    )
    tp.assert_clean()


def test_it_plays_an_open_blot_deal_in_armenian(new_page, site_db):
    page = new_page()
    sign_up(page)
    switch_language(page, "hy")
    table_id = create_table(page, "open_blot", ["easy"])
    site_db.set_bot_delay(table_id, BOT_DELAY_MS)
    tp = TablePage(page, table_id, site_db).wait_live()
    assert "Խաղափուլ 1" in page.locator("#table-root .table-head .deal-no").inner_text()
    stacks = page.locator("#table-root .stacks").first.get_attribute("aria-label")
    assert stacks.startswith("Կույտեր\u055d ")  # a label: no ending glued onto the name

    tp.play()

    assert_result_and_scores_in(
        page,
        site_db,
        table_id,
        {
            "result": "Խաղափուլ 1-ի արդյունքը",
            "card points": "Խաղաքարտերի միավորներ",
            "deal points": "Խաղափուլի միավորներ",
            "score table": "Հաշվի աղյուսակ",
        },
    )
    tp.assert_clean()


def test_it_switches_language_from_the_header_and_back(new_page):
    page = new_page()
    page.goto("/rules/open-blot/")
    assert page.locator("h1").inner_text() == "How to play Open Blot"

    switch_language(page, "ka")
    assert page.url.endswith("/rules/open-blot/")  # the same page, now in Georgian
    assert page.locator("h1").inner_text() == "როგორ ვითამაშოთ ღია ბლოტი"
    page.goto("/")
    assert page.locator("main h1").inner_text() == "ლობი"  # remembered (cookie)

    switch_language(page, "en")
    assert page.locator("main h1").inner_text() == "Lobby"
