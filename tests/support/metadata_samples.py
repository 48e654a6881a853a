"""Package metadata and notes as two real distributions ship them, cut short: the PKG-INFO headers
of the sdists Markdown-3.7.tar.gz and cryptography-44.0.0.tar.gz (their lines as published, the
license text, classifiers and requirements shortened, the description cut after its first
lines), and excerpts of Markdown's docs/changelog.md and cryptography's CHANGELOG.rst as their
sdists hold them."""

from __future__ import annotations

MARKDOWN_PKG_INFO = b"""Metadata-Version: 2.1
Name: Markdown
Version: 3.7
Summary: Python implementation of John Gruber's Markdown.
Author: Manfred Stienstra, Yuri Takhteyev
Author-email: Waylan limberg <python.markdown@gmail.com>
Maintainer: Isaac Muse
Maintainer-email: Waylan Limberg <python.markdown@gmail.com>
License: BSD 3-Clause License
        
        Copyright 2007, 2008 The Python Markdown Project (v. 1.7 and later)  
        Copyright 2004, 2005, 2006 Yuri Takhteyev (v. 0.2-1.6b)  
        OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
        
Project-URL: Homepage, https://Python-Markdown.github.io/
Project-URL: Documentation, https://Python-Markdown.github.io/
Project-URL: Repository, https://github.com/Python-Markdown/markdown
Project-URL: Issue Tracker, https://github.com/Python-Markdown/markdown/issues
Project-URL: Changelog, https://python-markdown.github.io/changelog/
Keywords: markdown,markdown-parser,python-markdown,markdown-to-html
Classifier: Development Status :: 5 - Production/Stable
Classifier: Programming Language :: Python :: 3.8
Requires-Python: >=3.8
Description-Content-Type: text/markdown
License-File: LICENSE.md

[Python-Markdown][]
===================

This is a Python implementation of John Gruber's [Markdown][].
"""

CRYPTOGRAPHY_PKG_INFO = b"""Metadata-Version: 2.3
Name: cryptography
Version: 44.0.0
Classifier: Development Status :: 5 - Production/Stable
Classifier: Programming Language :: Python :: 3.7
Requires-Dist: cffi >=1.12 ; platform_python_implementation != 'PyPy'
Requires-Dist: bcrypt >=3.1.5 ; extra == 'ssh'
Provides-Extra: ssh
License-File: LICENSE
Summary: cryptography is a package which provides cryptographic recipes and primitives to Python developers.
Author: The cryptography developers <cryptography-dev@python.org>
Author-email: The Python Cryptographic Authority and individual contributors <cryptography-dev@python.org>
License: Apache-2.0 OR BSD-3-Clause
Requires-Python: >=3.7, !=3.9.0, !=3.9.1
Description-Content-Type: text/x-rst; charset=UTF-8
Project-URL: homepage, https://github.com/pyca/cryptography
Project-URL: documentation, https://cryptography.io/
Project-URL: source, https://github.com/pyca/cryptography/
Project-URL: issues, https://github.com/pyca/cryptography/issues
Project-URL: changelog, https://cryptography.io/en/latest/changelog/

pyca/cryptography
=================
"""

MARKDOWN_CHANGELOG = b"""---
toc_depth: 2
---

# Changelog

All notable changes to this project will be documented in this file.

The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/),
and this project adheres to [Semantic Versioning](https://semver.org/spec/v2.0.0.html).
See the [Contributing Guide](contributing.md) for details.

## [3.6.0] - 2024-03-14

### Changed

#### Refactor TOC Sanitation

* All postprocessors are now run on heading content.
* Footnote references are now stripped from heading content. Fixes #660.

## [3.5.1] - 2023-10-31

### Fixed

* Fix a performance problem with HTML extraction where large HTML input could
  trigger quadratic line counting behavior (#1392).
* Improve and expand type annotations in the code base (#1394).

## [3.5.0] - 2023-10-06

### Added

* Add `permalink_leading` configuration option to the toc extension (#1339)

### Changed

* Add support for cPython version 3.12 (and PyPy 3.10) and drop support for
  Python version 3.7 (#1357).
* Refactor changelog to use the format defined at <https://keepachangelog.com/>.
* Update the list of empty HTML tags (#1353).

### Fixed

* Fix a corner case in admonitions where if an indented code block was provided
  as the first block, the output would be malformed (#1329).

## [3.4.4] - 2023-07-25

### Fixed

* Add a special case for initial `'s` to smarty extension (#1305).
"""

CRYPTOGRAPHY_CHANGELOG = b"""Changelog
=========

.. _v46-0-0:

46.0.0 - 2025-09-16
~~~~~~~~~~~~~~~~~~~

* **BACKWARDS INCOMPATIBLE:** Support for Python 3.7 has been removed.
* Support for OpenSSL < 3.0 is deprecated and will be removed in the next
  release.

.. _v45-0-0:

45.0.0 - 2025-05-17 (YANKED)
~~~~~~~~~~~~~~~~~~~~~~~~~~~~

* Support for Python 3.7 is deprecated and will be removed in the next
  ``cryptography`` release.
* Updated the minimum supported Rust version (MSRV) to 1.74.0, from 1.65.0.

.. _v44-0-0:

44.0.0 - 2024-11-27
~~~~~~~~~~~~~~~~~~~

* **BACKWARDS INCOMPATIBLE:** Dropped support for LibreSSL < 3.9.
* Deprecated Python 3.7 support. Python 3.7 is no longer supported by the
  Python core team. Support for Python 3.7 will be removed in a future
  ``cryptography`` release.
* Updated Windows, macOS, and Linux wheels to be compiled with OpenSSL 3.4.0.
"""
