"""The probe's logic package (copied into the bundle as plugin code)."""
