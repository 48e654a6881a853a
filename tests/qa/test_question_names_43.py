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


# The other names a held product's own metadata gives it (corpus.metadata), as a corpus carries them.
OTHERS = {"Markdown": ("Python-Markdown", "Python-Markdown/markdown"), "cryptography": ("pyca/cryptography",),
          "lxml": ("lxml/lxml",)}
HELD = ("Markdown", "cryptography", "lxml")


class _Catalogue:
    releases = ("3.5.0", "3.6.0", "44.0.0", "45.0.0", "46.0.0", "6.0.0")
    products = HELD
    other_names = OTHERS


def test_a_held_product_goes_by_the_names_its_metadata_gives() -> None:
    found = named("which pyca/cryptography release dropped Python 3.7?", HELD, other_names=OTHERS)
    assert [(n.typed, n.product) for n in found] == [("pyca/cryptography", "cryptography")]
    assert [n.product for n in named("what changed in Python-Markdown/markdown 3.6?", HELD, other_names=OTHERS)] == [
        "Markdown"]
    # without the metadata's names, "pyca/cryptography" is only "cryptography"'s word
    assert not [n for n in named("is pyca/cryptography fast?", HELD) if n.typed.startswith("pyca")]
    # the owner alone is no name: pyca owns bcrypt and pynacl too
    assert not [n for n in named("what changed in pyca 42.0?", HELD, other_names=OTHERS) if n.held]
    # a name not held is still declined, the compound of a held one too
    (lxml_html_clean,) = named("what changed in lxml_html_clean 0.4.6?", HELD, other_names=OTHERS)
    assert not lxml_html_clean.held


def test_a_name_from_metadata_is_kept_only_when_it_names_that_product_alone() -> None:
    from qa.question.products import held_names

    names = held_names(("opencv-python", "app", "widget", "gadget"), {
        "opencv-python": ("opencv", "opencv/opencv-python"),  # OpenCV is a product of its own
        "app": ("select", "python", "which"),  # a common word, a platform, a word of questions
        "widget": ("acme/tools",), "gadget": ("acme/tools",)})  # one repository, two products: neither's
    assert names.get("opencv/opencv-python") == "opencv-python"
    assert not {"opencv", "select", "python", "which", "acme/tools"} & set(names)


def test_a_question_naming_the_other_name_is_read_as_naming_the_product() -> None:
    from qa.question.mentions import scan

    seen = scan("which pyca/cryptography release dropped Python 3.7?", _Catalogue())
    assert seen.text == "which cryptography release dropped Python 3.7?" and seen.named == ("cryptography",)
    assert seen.parsed.which_release and seen.parsed.releases == () and "pyca" not in seen.parsed.topic
    seen = scan("what changed in Python-Markdown/markdown 3.5?", _Catalogue())
    assert (seen.named, seen.parsed.releases, seen.foreign) == (("Markdown",), ("3.5",), ())
    assert scan("what changed in lxml_html_clean 0.4?", _Catalogue()).foreign == ("lxml_html_clean",)
