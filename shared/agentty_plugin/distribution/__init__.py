"""Build-time distribution tools (bundle, install, link, export); never copied into a bundle, never imported by plugins.

Standard library only, so that `python3 -m agentty_plugin bundle` works from a bare checkout with any
Python that has pip.
"""
