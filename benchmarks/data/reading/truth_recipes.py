"""How TRUTH files here were drawn from the notes themselves (not from relnotes' reading).

Each notes file was read by eye first; the recipe below names the way that file writes its release
headings (the underline character of its release titles, its Markdown heading level, or the line
shape of a file without markup), and a version pattern pulls the number from each such heading.
Rerun to regenerate TRUTH (``python benchmarks/data/reading/truth_recipes.py``); then check the
lists by eye again against the files. A version whose heading a file writes twice (ruamel.yaml's
two ``[0.19.0, ...]:``) is listed once, at its first: one release (the reader warns of the repeat).
Nothing here imports the project.
"""

import re
from pathlib import Path

HERE = Path(__file__).parent
VERSION = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+)+(?:[.-]?(?:alpha|beta|a|b|rc|c|post|dev)\d*)*|\d{1,3}(?=\s|$|:|\)))")
ADORN = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")

# file -> ("under", char) | ("atx", level) | ("line", regex with group 1) | ("series", level) | ("title",) | ("none",)
# ("series", L): ATX headings of level L and L + 1 that are a version alone; a level-L one whose next
# non-blank line is such a level-(L + 1) heading names a series of releases, not a release.
RECIPES = {
    "acorn-8.19.0/CHANGELOG.md": ("atx", 2),  # "## 8.19.0 (2026-10-05)"
    "anyio-4.16.0/docs/versionhistory.rst": ("line", r"^\*\*(\d+(?:\.\d+)+\w*)\*\*"),  # "**4.16.0**", "**1.0.0rc1**"
    "arrow-1.4.0/CHANGELOG.rst": ("under", "-"),
    "async-3.2.6/CHANGELOG.md": ("atx", 1),  # "# v3.2.5" over "## Bug fixes"
    "auto-changelog-2.7.0/CHANGELOG.md": ("line", r"^#{3,4} \[?v(\d+(?:\.\d+)+)"),  # "#### [v2.7.0](compare-url)", majors "### [v2.0.0](url)", "#### v0.0.1"; not "### Changelog"
    "axios-1.21.1/CHANGELOG.md": ("line", r"^#{1,2} \[?v?(\d+(?:\.\d+)+(?:-beta\.\d+)?)[]\s]"),  # "## v1.21.0 — October 21, 2026", "# [1.13.0](url) (2025-10-27)"; not "## 🚀 New Features"
    "beautifulsoup4-4.15.0/NEWS.txt": ("line", r"^= (\d+(?:\.\d+)+\w*) "),  # "= 4.15.0 (20260607)", "= 4.6.0 (20170507) =", "= 3.0.7a ="; not "= Between 1.2 and 2.0 ="
    "bleach-6.4.0/CHANGES.txt": ("under", "-"),
    "cffi-2.1.1/doc/source/whatsnew.rst": ("under", "=-"),
    "chardet-7.7.0/docs/changelog.rst": ("under", "-"),  # "charade 1.0.1" and "chardet 1.0.1": one 1.0.1
    "charset-normalizer-3.5.3/CHANGELOG.md": ("atx", 2),
    "colorama-0.4.6/CHANGELOG.rst": ("line", r"^(\d+(?:\.\d+)+)(?: |$)"),
    "connect-3.7.0/HISTORY.md": ("line", r"^(\d+(?:\.\d+)+(?:-rc\.\d+)?) / \d{4}-\d\d-\d\d$"),  # History.md of npm: "3.7.0 / 2019-05-17" over "=====", "3.0.0-rc.2 / 2014-05-04"
    "configobj-5.0.9/CHANGES.rst": ("under", '"'),
    "cryptography-50.0.2/CHANGELOG.rst": ("under", "~"),
    "decorator-5.3.1/CHANGES.md": ("atx", 2),
    "dnspython-1.15.0/ChangeLog.txt": ("line", r"^\s+\* \(Version (\d+(?:\.\d+)+\w*) released\)$"),  # GNU ChangeLog: an entry's "<TAB>* (Version 1.14.0 released)", older ones indented by spaces
    "ecdsa-0.19.2/NEWS.txt": ("line", r"^\* Release (\d+(?:\.\d+)+(?:-beta\d+)?) \("),  # "* Release 0.19.1 (13 Mar 2025)", "* Release 0.18.0-beta2 (05 Jan 2022)"; sections "New API:", "Bug fixes:" below
    "esprima-4.0.1/ChangeLog.txt": ("line", r"^\d{4}-\d\d-\d\d: Version (\d+(?:\.\d+)+)$"),  # "2018-06-17: Version 4.0.1" over indented items
    "feathersjs-feathers-5.0.50/CHANGELOG.md": ("line", r"^#{1,2} \[v?(\d+(?:\.\d+)+(?:-[\w.]+)?)\]"),  # lerna: "## [5.0.50](url) (date)", "# [5.0.0-pre.34](url) (date)", "## [v4.5.11](url)"
    "feedparser-6.0.14/NEWS.txt": ("line", r"^(\d+(?:\.\d+)+(?:b|fc)?\d*) - "),  # "6.0.14 - 30 July 2026", "3.0fc1 - 4/23/2004 - MAP - made ...", "4.0 - MAP - ..."
    "filelock-4.3.2/docs/changelog.rst": ("under", "*"),
    "git-cliff-2.14.2/CHANGELOG.md": ("line", r"^## \[(\d+(?:\.\d+)+)\]"),  # git-cliff: "## [2.14.2](compare-url) - 2026-09-18", "## [0.1.0] - 2021-08-12"; not "## ❤️ New Contributors" beside them
    "greenlet-3.5.6/CHANGES.rst": ("under", "="),
    "h11-0.16.0/docs/source/changes.rst": ("under", "-"),
    "handlebars-4.7.10/release-notes.md": ("line", r"^## v?(\d+(?:\.\d+)+(?:-[\w.]+)?) "),  # "## v4.7.10 - October 5th, 2026", "## v4.1.2-0 - ...", "## v1.0.12 / 1.0.0 - ..."
    "hatch-1.18.2/docs/history/hatch.md": ("line", r"^## \[(\d+(?:\.\d+)+)\]\("),  # MkDocs: "## [1.18.2](url) - 2026-10-27 ## {: #hatch-v1.18.2 }"; "## Unreleased" is none
    "hatch-1.18.2/docs/history/hatchling.md": ("line", r"^## \[(\d+(?:\.\d+)+)\]\("),  # "## [1.29.0](url) - date ## {: #hatchling-v1.29.0 }"; "## Unreleased" is none
    "html5lib-1.1/CHANGES.rst": ("under", "~"),
    "httplib2-0.32.1/CHANGELOG.txt": ("line", r"^(\d+(?:\.\d+)+)(?: Rev \d+)?$"),  # "0.32.1" alone at the margin, "0.1 Rev 86"
    "idna-3.20/HISTORY.md": ("atx", 2),
    "iniconfig-2.3.1/CHANGELOG.txt": ("under", "="),
    "invoke-3.0.3/sites/www/changelog.rst": ("line", r"^- :release:`(\d+(?:\.\d+)+) <"),  # Sphinx releases: "- :release:`3.0.3 <2026-04-07>`" items over "- :bug:`742` ..."; "<2014.01.28>"
    "jedi-0.20.1/CHANGELOG.rst": ("under", "+"),
    "jupyter_client-8.10.0/CHANGELOG.md": ("series", 2),  # github-activity: "## 8.10.0" over "([Full Changelog](url))"; "## 5.0" over "### 5.0.1", "### 5.0.0" is a series
    "lxml-6.2.0/CHANGES.txt": ("under", "="),
    "lxml-html-clean-0.4.6/CHANGES.rst": ("under", "="),
    "markdown-3.11.3/docs/changelog.md": ("atx", 2),
    "markdown-it-py-4.3.0/CHANGELOG.md": ("atx", 2),  # "## 4.3.0 - 2026-11-10"
    "minimist-1.2.8/CHANGELOG.md": ("atx", 2),  # "## [v1.2.8](compare-url) - 2023-02-09"
    "mistune-3.4.0/docs/changes.rst": ("under", "-"),
    "mkdocstrings-1.0.8/CHANGELOG.md": ("line", r"^## \[(\d+(?:\.\d+)+)\]\("),  # git-changelog: "## [1.0.8](url) - 2026-10-19" over "<small>[Compare with 1.0.7](url)</small>"; not "## Packaging" in 0.13.5
    "mock-5.2.0/CHANGELOG.rst": ("under", "-"),  # "2.0.0 and earlier" is 2.0.0's heading
    "moment-2.31.0/CHANGELOG.md": ("atx", 3),  # "### 2.31.0", "### 2.19.0 [See full changelog](url)"; its "## Features" sit inside releases
    "multidict-7.2.1/CHANGES.rst": ("under", "="),
    "mutagen-1.48.1/NEWS.txt": ("under", "-"),  # reST with no extension: ".. _release-1.48.1:" over "1.48.1 - 2026-06-25", older "1.38 - 2017.06.01"
    "nan-2.30.0/CHANGELOG.md": ("atx", 3),  # "### 2.30.0 Oct 18 2026"; not the bold "**Version 2.30.0: current Node ...**"
    "netaddr-1.3.0/CHANGELOG.rst": ("line", r"^Release: (\d+(?:\.\d+)+)$"),  # overlined and underlined "Release: 1.3.0" over "Date: 2024-05-28"; "NEXT_NETADDR_VERSION" is none
    "nltk-3.10.4/ChangeLog.txt": ("line", r"^Version (\d+(?:\.\d+)+(?:[ab]\d+)?)(?: \((rc\d+)\))? \d{4}-\d\d-\d\d$"),  # "Version 3.10.4 2026-10-20", "Version 0.8b2 2007-06-26"; "Version 2.0.1 (rc1) 2011-04-11" is 2.0.1rc1
    "openai-3.63.0/CHANGELOG.md": ("line", r"^## \[?(\d+(?:\.\d+)+)[] ]"),  # release-please: "## [3.63.0](compare-url) (2026-12-03)", older "## 1.1.2 (2023-11-08)" over "Full Changelog: [v1.1.1...v1.1.2](url)"
    "parso-0.8.7/CHANGELOG.rst": ("under", "+"),
    "pexpect-4.9.0/doc/history.rst": ("under", "`"),  # "Version 4.9" over backticks
    "prompt_toolkit-3.0.53/CHANGELOG.txt": ("under", "-"),
    "psutil-7.2.2/HISTORY.rst": ("under", "="),
    "psycopg2-2.9.13/NEWS.txt": ("line", r"^What's new in psycopg (\d+(?:\.\d+)+)(?: (b)eta (\d+))?$"),  # reST: "What's new in psycopg 2.9.13" over "^^^", "... 2.9" over "---" (a release, with 2.8.7 ... under it), "... 2.0 beta 7" is 2.0b7; "Current release" is none; 2.0.9 and 1.99.3 written twice
    "pyasn1-0.6.5/CHANGES.rst": ("under", "-"),  # "Revision 0.6.5, released 26-10-2026", "Revision 0.0.13b"
    "pycurl-7.49.0/ChangeLog.txt": ("under", "-"),  # "Version 7.49.0 [requires libcurl-7.19.0 or better] - 2026-10-26", "Version 7.16.0 [no public release]", "Version 7.12"; GNU entries below 0.4.7 none
    "pycparser-3.12/OLDER_CHANGES.txt": ("line", r"^\+ Version (\d+(?:\.\d+)+) \("),  # "+ Version 2.09.1 (2012.12.29)"
    "pyflakes-4.1.0/NEWS.rst": ("line", r"^(\d+(?:\.\d+)+) \("),
    "pygments-2.21.0/CHANGES.txt": ("under", "-"),
    "pyjwt-2.15.1/CHANGELOG.rst": ("under", "-"),
    "python-dateutil-4.0.0/NEWS.txt": ("under", "="),
    "python-dotenv-1.2.4/CHANGELOG.md": ("atx", 2),
    "python-slugify-9.2.0/CHANGELOG.md": ("atx", 2),  # "## 9.0.0 — unreleased" is 9.0.0's heading
    "pyopenssl-26.4.0/doc/ChangeLog_old.txt": ("line", r"^\t\* (?:Release |Released version |Version |Initial release \()(\d+(?:\.\d+)+\w*)"),  # GNU ChangeLog: an entry's "<TAB>* Release 0.15", "* Released version 0.6.", "* Version 0.5. Yay!", "* Initial release (0.1, ...)"; not "* Fix a regression present in 0.15"
    "pymongo-4.20.1/doc/changelog.rst": ("under", "-"),  # "Changes in Version 4.20.1 (2026/11/19)"; "Bug fixes" over "...." inside
    "pyrsistent-0.20.0/CHANGES.txt": ("line", r"^v?(\d+(?:\.\d+)+)[, ]"),  # "0.20.0, 2023-10-25", "v0.14.3, 2018-06-11", "0.17.2 (yanked ...), 2020-09-09", "0.19.0 - Never released ..."; not "Revision history", "TODO"
    "pyyaml-6.0.4/CHANGES.txt": ("line", r"^(\d+(?:\.\d+)+) \("),  # "6.0.4 (2026-11-20)" alone, older ones underlined too
    "qs-6.17.1/CHANGELOG.md": ("atx", 2),  # "## **6.17.1**", "## [**6.17.0**](url)"
    "react-router-7.18.7/CHANGELOG.md": ("atx", 2),  # changesets: "## 7.18.7", "## v7.0.0" over "### Patch Changes"
    "rsa-4.9.1/CHANGELOG.md": ("atx", 2),  # "## Version 4.9 - release 2022-07-20", "## Version 4.4 & 4.6 - released 2020-06-12" (its first)
    "ruamel.yaml-0.19.1/CHANGES.txt": ("line", r"^\[(\d+(?:\.\d+)+)[,-]"),  # "[0.19.0, 2025-12-31]:", "[0.10.6-0.10.9, ...]:"
    "rxjs-7.8.2/CHANGELOG.md": ("line", r"^#{1,3} \[(\d+(?:\.\d+)+(?:-[\w.-]+)?)\]"),  # "# [7.0.0](url) (date)", "## [7.8.2](url) (date)", "# [7.0.0-beta.15](url)", "# [6.0.0-uncanny-rc.7](url)", "# [0.0.0-prealpha.3](url)", after <a name>
    "scriv-1.8.0/CHANGELOG.rst": ("under", "-"),  # scriv: ".. _changelog-1.8.0:" over "1.8.0 — 2025-12-29"; "Unreleased" is none
    "semver-3.1.2/CHANGELOG.rst": ("under", "="),
    "simplejson-4.3.0/CHANGES.txt": ("line", r"^Version (\d+(?:\.\d+)+\w*) released"),
    "six-1.17.0/CHANGES.txt": ("under", "-"),
    "standard-version-9.5.0/CHANGELOG.md": ("line", r"^#{1,3} \[?(\d+(?:\.\d+)+)\]?[ (]"),  # "## [9.5.0](url) (2022-05-15)", "### [9.3.1](url) (date)" beside "### Bug Fixes", "# 1.0.0 (2016-04-04)"
    "starlette-1.10.0/docs/release-notes.md": ("atx", 2),
    "tabulate-0.10.0/CHANGELOG.txt": ("line", r"^- (\d+(?:\.\d+)+):"),
    "termcolor-3.3.0/CHANGES.md": ("atx", 2),
    "tomlkit-0.15.3/CHANGELOG.md": ("atx", 2),
    "towncrier-26.9.0/NEWS.rst": ("under", "="),  # "towncrier 26.9.0 (2026-09-04)", "Towncrier 24.8.0 (...)", "towncrier 17.1.0"; title "Release notes" over "#"
    "trio-0.35.0/docs/source/history.rst": ("under", "-"),
    "twisted-26.10.0/NEWS.rst": ("under", "="),  # towncrier: "twisted 26.10.0 (2026-10-30)", "Twisted 23.8.0. (date)", "Twisted Core 17.1.0 (date)" then "Twisted Conch 17.1.0 (date)"...: one 17.1.0
    "unidecode-1.4.0/ChangeLog.txt": ("line", r"^\d{4}-\d\d-\d\d\tunidecode (\d+(?:\.\d+)+)$"),  # "2025-04-24<TAB>unidecode 1.4.0"
    "waitress-3.0.2/CHANGES.txt": ("under", "-"),
    "waitress-3.0.2/HISTORY.txt": ("under", "-"),
    "watchdog-7.1.1/changelog.rst": ("under", "~"),
    "wcwidth-0.9.4/docs/history.rst": ("line", r"^(\d+(?:\.\d+)+)(?: \.\. \S+)? \*"),  # "0.2.1 .. 0.2.5 *2020-06-23*": its first
    "websocket-client-1.9.2/ChangeLog.txt": ("line", r"^- v?(\d+(?:\.\d+)+)\s*$"),  # "- 1.9.2", "- v0.20.0", items below
    "wrapt-2.5.2/RELEASE.rst": ("none",),
    "yarl-1.25.1/CHANGES.rst": ("under", "="),
    "zipp-4.1.2/NEWS.rst": ("under", "="),
}
for n in range(0, 7):
    RECIPES[f"markdown-3.11.3/docs/change_log/release-2.{n}.md"] = ("title",)


def headings(path: Path, recipe: tuple) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    kind = recipe[0]
    found = []
    for i, line in enumerate(lines):
        text = None
        if kind == "under":
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if line.strip() and not ADORN.match(line) and ADORN.match(nxt) and nxt[0] in recipe[1]:
                text = line
        elif kind == "atx":
            m = re.match(r"^(#+) (.*)", line)
            if m and len(m.group(1)) == recipe[1]:
                text = m.group(2)
        elif kind == "series":
            m = re.match(r"^(#+) v?(\d+(?:\.\d+)+\w*)$", line)
            if m and len(m.group(1)) in (recipe[1], recipe[1] + 1):
                after = next((x for x in lines[i + 1:] if x.strip()), "")
                if len(m.group(1)) == recipe[1] and re.match("#" * (recipe[1] + 1) + r" v?\d+(?:\.\d+)+\w*$", after):
                    continue  # a series heading over its releases
                found.append(m.group(2))
        elif kind == "line":
            m = re.match(recipe[1], line)
            if m:
                found.append("".join(g for g in m.groups() if g))  # more groups spell one version: "2.0", "b", "7"
        if text is not None:
            text = re.sub(r"<[^>]*>", "", text)  # a link's target is no heading text
            m = VERSION.search(text)
            if m and not re.search(r"\band newer\b", text):
                apart = re.match(r" (alpha|beta|rc) ?(\d+)\b", text[m.end():])  # six's "1.0 beta 1" is 1.0b1
                found.append(m.group(1) + ({"alpha": "a", "beta": "b"}.get(apart[1], apart[1]) + apart[2] if apart else ""))
    if kind == "title":
        m = re.search(r"Python-Markdown (\d+\.\d+) Release Notes", "\n".join(lines))
        found.append(m.group(1))
    return found


def main() -> None:
    by_package: dict[str, list[str]] = {}
    for rel, recipe in sorted(RECIPES.items()):
        package, _, inner = rel.partition("/")
        versions = list(dict.fromkeys(headings(HERE / rel, recipe)))  # a version written twice is one release
        by_package.setdefault(package, []).append(f"# {inner}\n" + "".join(v + "\n" for v in versions))
    for package, blocks in by_package.items():
        (HERE / package / "TRUTH").write_text("".join(blocks))


if __name__ == "__main__":
    main()
