"""Names and numbers in questions that real notes tripped (issue 43): a platform's versions are no
releases, a package named after a held one is another package, a held one goes by its language's name."""

from __future__ import annotations

from qa.question.products import named
from qa.question.releases import find_releases

KNOWN = ("6.2.0", "6.0.0", "3.9.0", "3.8.0", "12.4")


def test_the_versions_after_a_platform_are_the_platforms() -> None:
    assert find_releases("does lxml support Python 3.8 and 3.9?", KNOWN, ("lxml",)).releases == ()
    assert find_releases("was Python 3.8 and 3.9 support dropped in 6.0?", KNOWN, ("lxml",)).releases == ("6.0",)
    assert find_releases("CUDA 12.4, 12.6 or 12.8 in 3.9?", KNOWN, ("lxml",)).releases == ("3.9",)
    assert find_releases("what changed in 3.9 for Python 3.12 users?", KNOWN, ("lxml",)).releases == ("3.9",)


def test_a_package_named_after_a_held_one_is_not_it() -> None:
    for question in ("what changed in lxml_html_clean 0.4.6?", "does lxml_html_clean strip iframes?",
                     "is lxml-html-clean safe?"):
        (found,) = named(question, ("lxml",))
        assert not found.held and found.typed.startswith("lxml")
    assert [n.product for n in named("is lxml-based parsing faster in lxml 6.2?", ("lxml",))] == ["lxml"]


def test_a_held_product_goes_by_its_language_s_name() -> None:
    assert [n.product for n in named("what changed in Python-Markdown 3.11?", ("markdown",))] == ["markdown"]
    query = find_releases("what changed in Python-Markdown 3.11?", ("3.11.0",), ("markdown",))
    assert query.releases == ("3.11",) and query.products == ("markdown",) and "Python" not in query.topic
    assert [n.product for n in named("what changed in pyca/cryptography 50.0.0?", ("cryptography",))] == ["cryptography"]
