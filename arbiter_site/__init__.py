"""The arbiter site (Django project). The release, as in CHANGELOG.md and the git tag vX.Y.Z: one
source, pairing/engine/version.py, which the free checker's distribution prints too."""

from pairing.engine.version import VERSION as __version__  # noqa: F401
