"""pytest configuration: the tests import the installed `boardlab` package
(scripts/python-env builds it into .venv)."""
