# CI's stand-in for python:3.11-slim (no registry can be reached from CI): Debian
# bookworm's Python 3.11 in a virtual environment at /usr/local/python, first on PATH, so
# that `python` and `pip` mean what they mean in the official image.
# Built by scripts/ci-compose-stack.sh FROM the local Debian base it makes with debootstrap,
# with the certificate authorities the CI machine itself trusts (extra-ca/, copied from
# /usr/local/share/ca-certificates by the script: the machine's network may re-sign TLS).
ARG DEBIAN_BASE=dubov-ci/debian:bookworm
FROM ${DEBIAN_BASE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && python3 -m venv /usr/local/python
COPY extra-ca/ /usr/local/share/ca-certificates/
RUN update-ca-certificates >/dev/null
ENV PATH=/usr/local/python/bin:$PATH \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    LANG=C.UTF-8
CMD ["python"]
