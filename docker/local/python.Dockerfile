# Stand-in for python:3.11-slim built from Debian's packages (`make local-images`, for a
# server without Docker Hub, and CI): bookworm's Python 3.11 in a virtual environment at
# /usr/local/python, first on PATH, so that `python` and `pip` mean what they mean in the
# official image.  Built by scripts/local_images.py FROM its Debian base (security and
# updates sources, upgraded), with the certificate authorities the building machine itself
# trusts: extra-ca/ holds a copy of /usr/local/share/ca-certificates/*.crt, made by the
# script (empty when there are none), for networks that re-sign TLS (pip goes through them).
ARG DEBIAN_BASE=dubov-local/debian:bookworm
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
