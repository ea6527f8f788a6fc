"""The arbiter site (Django project). The release, as in CHANGELOG.md and the git tag vX.Y.Z."""

__version__ = "1.0.0"
