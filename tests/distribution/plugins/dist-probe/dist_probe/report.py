"""Formats what the probe found."""


def describe(greeting: str, module_file: str) -> str:
    return f"{greeting} (from {module_file})"
