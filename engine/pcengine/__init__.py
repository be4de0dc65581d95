# SPDX-License-Identifier: GPL-2.0
"""provoke-crash's host engine: the console protocol, the console parser,
the verdict on a case and the KTAP report (see each module)."""
