# SPDX-License-Identifier: GPL-2.0
"""The VM runner's two channels to the user: stdout for the run (say),
stderr for '# ' lines about the setup (pcengine.log); and the small
files of its work directory."""


def say(text=''):
    print(text, flush=True)


def read(path):
    """A small file's text without its last newline; None if unreadable."""
    try:
        with open(path) as f:
            return f.read().rstrip('\n')
    except OSError:
        return None
