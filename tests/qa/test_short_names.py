"""A held plugin or namespace package goes by its own part and its name with spaces ("xdist",
"pytest cov", "ruamel"), never by a word any package may hold (qa.question.othernames)."""

from __future__ import annotations

from qa.question.products import named
from qa.question.othernames import short_names

HELD = ("pytest-xdist", "pytest-cov", "ruamel.yaml", "pytest-mock", "typing-extensions", "flask-login", "anyio")


def test_the_names_people_give_plugins_and_namespace_packages() -> None:
    names = short_names(HELD)
    assert names["xdist"] == "pytest-xdist" and names["pytest cov"] == "pytest-cov"
    assert names["ruamel"] == "ruamel.yaml" and names["ruamel yaml"] == "ruamel.yaml"
    # a part that is a product of its own, a generic word or too short names no package
    for word in ("mock", "extensions", "login", "cov", "pytest", "yaml", "typing", "flask"):
        assert word not in names, word
    # two held products of one namespace: the namespace names neither
    assert "zope" not in short_names(("zope.interface", "zope.event"))
    assert short_names(("zope.interface",))["zope"] == "zope.interface"


def test_a_question_naming_them_so_is_about_the_held_product() -> None:
    for question, product in (("when did xdist add a worker_id fixture?", "pytest-xdist"),
                              ("when did pytest cov add markdown coverage reports", "pytest-cov"),
                              ("when did ruamel start keeping flow style sets?", "ruamel.yaml"),
                              ("does pytest mock still spy on async functions?", "pytest-mock")):
        assert [n.product for n in named(question, HELD)] == [product], question
    assert [n.product for n in named("which pytest release added the tmp_path fixture?", HELD)] == [None]


def test_english_words_and_a_plugin_beside_its_parent_name_nothing() -> None:
    held = ("pytest", "pytest-timeout", "pydantic-settings", "django-filter", "pytest-order", "pytest-check",
            "pytest-socket", "chart.js", "video.js", "python-dateutil", "pytest-xdist")
    names = short_names(held)
    for word in ("timeout", "settings", "filter", "order", "check", "socket", "chart", "video"):
        assert word not in names, word
    assert names["xdist"] == "pytest-xdist"
    assert [n.product for n in named("which pytest version added the xdist worker_id?", held)] == ["pytest"]
    assert [n.product for n in named("which pydantic release changed settings loading?", held)] == [None]  # pydantic
    assert [n.product for n in named("does dateutil support Python 3.13?", held, other_names={
        "python-dateutil": ("dateutil",)})] == ["python-dateutil"]
