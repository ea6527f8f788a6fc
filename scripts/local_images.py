"""``make local-images``: the three base images of docker-compose.yml built from Debian's
packages, for a server that cannot (or may not) pull from Docker Hub, and for CI.

    sudo make local-images              # or: sudo python3 scripts/local_images.py
    sudo make local-images REFRESH=1    # again, to take Debian's newer security fixes

1. ``debootstrap --variant=minbase`` makes a minimal Debian system (bookworm) from the
   Debian mirror, imported as ``dubov-local/debian-rootfs:bookworm``;
2. ``dubov-local/debian:bookworm`` adds the security and updates sources to it and
   upgrades (docker/local/debian.Dockerfile): debootstrap alone knows the release only;
3. on that base, from Debian's packages (docker/local/): ``dubov-local/python:3.11``
   (for PYTHON_BASE), ``dubov-local/postgres:15`` (POSTGRES_IMAGE), ``dubov-local/nginx:1.22``
   (PROXY_IMAGE);
4. the three names are written into ``.env`` (``--env-file``; created from .env.example when
   missing, other lines kept), so that ``docker compose up -d --build`` uses them.

An image whose Dockerfile, files and parent are unchanged is kept (a label holds their
hash); REFRESH (``--refresh``) rebuilds the upgrade layer and so everything on it.  Needs
root (debootstrap), Docker, and the Debian mirror over http; standard library only, so it
runs with the system's python3.  CI (scripts/compose_stack_check.py) builds its images
with this same script.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCAL = ROOT / "docker" / "local"
SUITE = "bookworm"
ROOTFS_IMAGE = f"dubov-local/debian-rootfs:{SUITE}"
DEBIAN_IMAGE = f"dubov-local/debian:{SUITE}"
# image: (Dockerfile in docker/local, other files of its build context, .env variable)
IMAGES = {
    "dubov-local/python:3.11": ("python.Dockerfile", [], "PYTHON_BASE"),
    "dubov-local/postgres:15": ("postgres.Dockerfile", ["postgres-entrypoint.sh"], "POSTGRES_IMAGE"),
    "dubov-local/nginx:1.22": ("nginx.Dockerfile", [], "PROXY_IMAGE"),
}
HASH_LABEL = "dubov.local.hash"
EXTRA_CA = Path("/usr/local/share/ca-certificates")


class BuildFailed(Exception):
    pass


def say(text: str) -> None:
    print(f"local-images: {text}", flush=True)


def _run(*command: str, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise BuildFailed(f"{' '.join(command)} exited {result.returncode}:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}")
    return result


def image_id(image: str) -> str | None:
    found = subprocess.run(["docker", "image", "inspect", "--format", "{{.Id}}", image], capture_output=True, text=True)
    return found.stdout.strip() if found.returncode == 0 else None


def image_label(image: str, label: str) -> str | None:
    found = subprocess.run(["docker", "image", "inspect", "--format", f'{{{{index .Config.Labels "{label}"}}}}', image],
                           capture_output=True, text=True)
    return found.stdout.strip() if found.returncode == 0 else None


def rootfs_image(cache: Path, mirror: str) -> None:
    """debootstrap's minimal system, imported once (the upgrade layer above keeps it current)."""
    if image_id(ROOTFS_IMAGE):
        say(f"{ROOTFS_IMAGE}: kept")
        return
    if shutil.which("debootstrap") is None:
        raise BuildFailed("debootstrap is not installed (Debian/Ubuntu: apt install debootstrap)")
    rootfs = cache / f"rootfs-{SUITE}"
    if not (rootfs / "etc" / "debian_version").exists():
        shutil.rmtree(rootfs, ignore_errors=True)
        cache.mkdir(parents=True, exist_ok=True)
        say(f"debootstrap {SUITE} from {mirror} (a few minutes)...")
        _run("debootstrap", "--variant=minbase", SUITE, str(rootfs), mirror)
    tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
    imported = subprocess.run(["docker", "import", "-", ROOTFS_IMAGE], stdin=tar.stdout, capture_output=True, text=True)
    tar.wait()
    if imported.returncode != 0 or tar.returncode != 0:
        raise BuildFailed(f"docker import failed: {imported.stderr}")
    say(f"{ROOTFS_IMAGE}: imported from {rootfs}")


def _context_hash(context: Path, parent: str | None) -> str:
    digest = hashlib.sha256((parent or "").encode())
    for path in sorted(context.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(context).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def build(image: str, dockerfile: str, files: list[str], parent: str, build_args: dict[str, str],
          no_cache: bool = False) -> bool:
    """Build ``image`` from docker/local/<dockerfile> unless its hash label is current.
    True when it was (re)built."""
    context = Path(tempfile.mkdtemp(prefix="dubov-local-image-"))
    try:
        shutil.copy(LOCAL / dockerfile, context / "Dockerfile")
        for name in files:
            shutil.copy(LOCAL / name, context / name)
        if dockerfile == "python.Dockerfile":
            # always there, so that the Dockerfile's COPY never fails; the machine's own CAs
            (context / "extra-ca").mkdir()
            for ca in sorted(EXTRA_CA.glob("*.crt")):
                shutil.copy(ca, context / "extra-ca" / ca.name)
        parent_id = image_id(parent)
        wanted = _context_hash(context, parent_id + repr(sorted(build_args.items())) if parent_id else None)
        if not no_cache and image_label(image, HASH_LABEL) == wanted:
            say(f"{image}: kept (unchanged)")
            return False
        args = [f"--build-arg={key}={value}" for key, value in build_args.items()]
        _run("docker", "build", "-q", *(["--no-cache"] if no_cache else []), *args,
             "--label", f"{HASH_LABEL}={wanted}", "-t", image, str(context))
        say(f"{image}: built")
        return True
    finally:
        shutil.rmtree(context, ignore_errors=True)


def build_all(cache: Path, mirror: str, security_mirror: str, refresh: bool = False) -> dict[str, str]:
    """Every image; returns {.env variable: image name}."""
    rootfs_image(cache, mirror)
    build(DEBIAN_IMAGE, "debian.Dockerfile", [], ROOTFS_IMAGE,
          {"ROOTFS": ROOTFS_IMAGE, "SUITE": SUITE, "MIRROR": mirror, "SECURITY_MIRROR": security_mirror},
          no_cache=refresh)
    names = {}
    for image, (dockerfile, files, variable) in IMAGES.items():
        build(image, dockerfile, files, DEBIAN_IMAGE, {"DEBIAN_BASE": DEBIAN_IMAGE})
        names[variable] = image
    return names


def write_env(env_file: Path, names: dict[str, str]) -> None:
    """Set the variables in ``env_file``, keeping every other line (a commented-out line
    of the same variable is replaced in place)."""
    if not env_file.exists():
        shutil.copy(ROOT / ".env.example", env_file)
        say(f"{env_file} created from .env.example: fill in its required settings")
    lines = env_file.read_text().splitlines()
    for variable, image in names.items():
        setting = f"{variable}={image}"
        set_line = [i for i, line in enumerate(lines) if line.split("=", 1)[0].strip() == variable]
        commented = [i for i, line in enumerate(lines)
                     if line.startswith("#") and "=" in line and line.lstrip("# ").split("=", 1)[0] == variable]
        if set_line or commented:
            lines[(set_line or commented)[0]] = setting
        else:
            lines.append(setting)
    env_file.write_text("\n".join(lines) + "\n")
    say(f"{env_file}: " + ", ".join(f"{k}={v}" for k, v in names.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-file", type=Path, default=ROOT / ".env", help="where to write the names (default: .env)")
    parser.add_argument("--no-env", action="store_true", help="build only, write nothing")
    parser.add_argument("--refresh", action="store_true", help="upgrade the Debian base again (newer security fixes)")
    parser.add_argument("--mirror", default=os.environ.get("DEBIAN_MIRROR", "http://deb.debian.org/debian"))
    parser.add_argument("--security-mirror",
                        default=os.environ.get("DEBIAN_SECURITY_MIRROR", "http://deb.debian.org/debian-security"))
    parser.add_argument("--cache", type=Path, default=Path(os.environ.get("DUBOV_LOCAL_CACHE", "/var/cache/dubov-local")),
                        help="where debootstrap's system is kept between runs")
    args = parser.parse_args(argv)
    if shutil.which("docker") is None:
        say("docker is not installed (Debian: apt install docker.io)")
        return 1
    try:
        names = build_all(args.cache, args.mirror, args.security_mirror, refresh=args.refresh)
    except BuildFailed as exc:
        say(f"failed: {exc}")
        return 1
    if not args.no_env:
        write_env(args.env_file, names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
