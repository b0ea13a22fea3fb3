"""A plugin's own tests folder: must not be copied into a bundle."""
