"""Issue 37, item 6: beside Persian digits a middle dot reads as a zero ("رتبهٔ ۲ از ۴ · ۱
برد" reads "of 104"), and a provisional rating showed "۱۵۰۰?" with a Latin question mark."""

from __future__ import annotations

from web.localize import persian_digits_html


def test_a_middle_dot_between_numbers_becomes_the_persian_comma() -> None:
    html = "<p data-my-place>رتبهٔ 2 از 4 · 1 برد</p>"
    assert persian_digits_html(html) == "<p data-my-place>رتبهٔ ۲ از ۴، ۱ برد</p>"


def test_a_provisional_rating_takes_the_persian_question_mark() -> None:
    assert persian_digits_html('<span class="rating">1500?</span>') == (
        '<span class="rating">۱۵۰۰؟</span>'
    )


def test_names_links_and_text_without_digits_are_left_alone() -> None:
    html = '<a href="/x?a=1">Gin · Club</a><bdi>Anna · 2?</bdi>'
    assert persian_digits_html(html) == html
