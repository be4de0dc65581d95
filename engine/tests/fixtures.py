# SPDX-License-Identifier: GPL-2.0
"""The saved consoles under engine/tests/consoles (see README.rst there)."""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
CONSOLES = os.path.join(HERE, 'consoles')
ROOT = os.path.dirname(os.path.dirname(HERE))


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def text(path):
    return read(path).decode('utf-8', 'surrogateescape')


def names():
    return sorted(n for n in os.listdir(CONSOLES)
                  if os.path.isfile(os.path.join(CONSOLES, n, 'meta')))


def meta(name):
    """The fixture's meta file: series, name, rc, guest_timeout."""
    found = {}
    for line in text(os.path.join(CONSOLES, name, 'meta')).split():
        key, value = line.split('=', 1)
        found[key] = value
    found['rc'] = int(found['rc'])
    return found


def path(name, *parts):
    return os.path.join(CONSOLES, name, *parts)


def write(path, data=b'', mode=0o644):
    """DATA (text or bytes) into PATH, its directories made, with MODE."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(data.encode() if isinstance(data, str) else data)
    os.chmod(path, mode)
