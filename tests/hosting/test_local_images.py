"""scripts/local_images.py (`make local-images`): the parts that run without Docker.

The images themselves are built by CI's compose stage with this script, every run."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import local_images  # noqa: E402

NAMES = {"PYTHON_BASE": "dubov-local/python:3.11", "POSTGRES_IMAGE": "dubov-local/postgres:15",
         "PROXY_IMAGE": "dubov-local/nginx:1.22"}


def test_the_names_replace_the_example_s_commented_lines_and_keep_everything_else(tmp_path):
    env = tmp_path / ".env"
    env.write_text((ROOT / ".env.example").read_text() + "DJANGO_SECRET_KEY=kept-as-it-was\n")
    local_images.write_env(env, NAMES)
    lines = env.read_text().splitlines()
    for variable, image in NAMES.items():
        assert lines.count(f"{variable}={image}") == 1
        assert not any(line.startswith(f"# {variable}=") for line in lines)
    assert "DJANGO_SECRET_KEY=kept-as-it-was" in lines
    assert "SITE_URL=https://chess.example.org" in lines
    # run again (REFRESH): the same lines, nothing added
    before = env.read_text()
    local_images.write_env(env, NAMES)
    assert env.read_text() == before


def test_a_set_line_wins_over_a_commented_one_and_a_missing_env_is_made_from_the_example(tmp_path):
    env = tmp_path / ".env"
    env.write_text("# PROXY_IMAGE=nginx:1.27\nPROXY_IMAGE=my/nginx:1\n")
    local_images.write_env(env, {"PROXY_IMAGE": "dubov-local/nginx:1.22"})
    assert env.read_text().splitlines() == ["# PROXY_IMAGE=nginx:1.27", "PROXY_IMAGE=dubov-local/nginx:1.22"]
    fresh = tmp_path / "new.env"
    local_images.write_env(fresh, NAMES)
    assert "POSTGRES_PASSWORD=" in fresh.read_text() and "PYTHON_BASE=dubov-local/python:3.11" in fresh.read_text()


def test_the_debian_base_has_the_security_and_updates_sources_and_is_upgraded():
    dockerfile = (ROOT / "docker" / "local" / "debian.Dockerfile").read_text()
    assert "%s %s-updates main" in dockerfile and "%s %s-security main" in dockerfile
    assert "apt-get -y upgrade" in dockerfile
    assert local_images.IMAGES["dubov-local/python:3.11"][2] == "PYTHON_BASE"


def test_the_python_image_s_extra_ca_folder_always_exists(monkeypatch, tmp_path):
    """The admin's finding: copying CI's recipe failed on `COPY extra-ca/` when the
    folder did not exist; the script makes it, empty when the machine has no extra CA."""
    contexts = []

    def fake_run(*command, **kwargs):
        context = Path(command[-1])
        contexts.append(sorted(p.relative_to(context).as_posix() for p in context.rglob("*")))

    monkeypatch.setattr(local_images, "_run", fake_run)
    monkeypatch.setattr(local_images, "image_id", lambda image: None)
    monkeypatch.setattr(local_images, "image_label", lambda image, label: None)
    monkeypatch.setattr(local_images, "EXTRA_CA", tmp_path / "no-such-folder")
    assert local_images.build("dubov-local/python:3.11", "python.Dockerfile", [], "base", {}) is True
    assert contexts == [["Dockerfile", "extra-ca"]]
