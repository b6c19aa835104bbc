"""The dress rehearsal: a whole championship on the real stack (see docs/rehearsal.md).

Tooling, not a Django app: ``python -m rehearsal.run [--short]``.
"""
