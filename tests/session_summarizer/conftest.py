"""Puts the session-summarizer plugin folder on sys.path so tests import its logic package in-process."""

import os
import sys

PLUGIN_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "plugins", "session-summarizer"))
if PLUGIN_DIR not in sys.path:
    sys.path.insert(0, PLUGIN_DIR)
