#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-rst.py - parse each reStructuredText file given with
# docutils, as Sphinx would before rendering it, and print every warning
# or error (malformed tables, unbalanced inline markup, bad indentation).
# The Sphinx-only directives Documentation/ uses (kernel-doc, toctree) are
# accepted without being expanded: scripts/check-docs.sh checks what
# kernel-doc finds.  Exits non-zero if any file has a problem.
#
# Usage: scripts/check-rst.py FILE.rst...
import io
import sys

import docutils.core
from docutils.parsers.rst import Directive, directives


class Accepted(Directive):
    """A directive docutils alone does not know: taken as it stands."""
    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = None

    def run(self):
        return []


class AnyOption(dict):
    """Every option name is valid, with any value."""
    def __contains__(self, key):
        return True

    def __getitem__(self, key):
        return directives.unchanged


Accepted.option_spec = AnyOption()
for name in ('kernel-doc', 'toctree'):
    directives.register_directive(name, Accepted)

bad = 0
for path in sys.argv[1:]:
    with open(path, encoding='utf-8') as f:
        text = f.read()
    stream = io.StringIO()
    docutils.core.publish_doctree(
        text, source_path=path,
        settings_overrides={'warning_stream': stream, 'report_level': 2,
                            'halt_level': 5})
    problems = stream.getvalue()
    if problems:
        sys.stdout.write(problems)
        bad = 1
sys.exit(bad)
