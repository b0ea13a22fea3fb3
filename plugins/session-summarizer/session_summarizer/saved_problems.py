"""The problems an editor reports right after an agent saves a file (Cline's and Roo Code's "New problems
detected after saving the file:"), read as a check that ran on the save: each error line with its file.

The export lists them under the tool's result, by file: the file's path on a line, then `- [Mypy Error] Line
26: …`, `- [ts Error] Line 3: …`, `- [Pylint Warning] …`. Warnings are not errors the session met; an error
line keeps its file, since a save often breaks another file (a route that imports what was renamed).
"""

import re
from typing import List

_HEADER = re.compile(r"(?im)^new problems detected after saving the file:[ \t]*$")
_PROBLEM = re.compile(r"^[-*][ \t]+\[([^\]\n]{1,40})\][ \t]+(.+)$")
_PROBLEMS = 20


def problems_after_save(body: str) -> List[str]:
    """The error lines the editor reported after a save ("Error (Pylint, chats.py line 40): …"), in order."""
    header = _HEADER.search(body)
    if header is None:
        return []
    found: List[str] = []
    where = ""
    for line in body[header.end():].split("\n"):
        stripped = line.strip()
        if not stripped:
            continue
        problem = _PROBLEM.match(stripped)
        if problem is None:
            if " " in stripped or stripped.endswith(":"):
                break  # the problems end where other words start
            where = stripped  # the file the next problems are in
            continue
        checker, detail = problem.group(1), problem.group(2).strip()
        if "error" in checker.lower():
            # "Error (Mypy, search.py line 81): …": the shape a tool's error line has, with who said it and where.
            numbered = re.match(r"(?i)line (\d+):\s*(.*)$", detail)
            at = ", ".join(part for part in (checker.replace("Error", "").strip(), where.rsplit("/", 1)[-1]
                                             + (" line " + numbered.group(1) if numbered and where else "")) if part)
            message = numbered.group(2) if numbered else detail
            found.append("Error (" + at + "): " + message if at else "Error: " + message)
        if len(found) >= _PROBLEMS:
            break
    return found
