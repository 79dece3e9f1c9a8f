"""Every supported Python in a fresh virtual environment, installed as the README says:
the sample answered, the kernels compiled ahead of time, the default suite passed (and,
on the oldest, mypy with the package alone).

    nox                    # every Python below that the machine has (CI: each must be there)
    nox -p 3.12            # one of them
"""

import shutil

import nox

PYTHONS = ["3.10", "3.11", "3.12", "3.13"]  # as pyproject.toml's classifiers say
nox.options.default_venv_backend = "venv"  # the README's `python3 -m venv`
nox.options.sessions = ["tests"]


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    session.install(".")
    answers = session.run("bitknights", "solve", "sample.txt", silent=True) or ""
    if answers.split() != ["7", "-1"]:
        session.error(f"the sample's answers are {answers!r}, not 7 and -1")
    if shutil.which("cc"):  # with a C compiler the install compiled every kernel
        with session.chdir(session.create_tmp()):  # (outside the checkout: the installed copy)
            session.run("python", "-m", "bitknights.native", "--check")
    if session.python == PYTHONS[0]:  # type-checked with the package alone (no test extras)
        session.install("mypy")
        session.run("mypy")
    session.install(".[test]")
    session.run("python", "-m", "pytest", "-q", *session.posargs)
