# The Debian base of the local images (scripts/local_images.py, `make local-images`):
# debootstrap's minimal system, imported as it is, then given the suite's security and
# updates sources (debootstrap writes the release itself only) and upgraded from them, so
# every image built on it starts with Debian's current security fixes.  Run
# `make local-images REFRESH=1` again to take newer fixes (it rebuilds this layer).
ARG ROOTFS=dubov-local/debian-rootfs:bookworm
FROM ${ROOTFS}
ARG SUITE=bookworm
ARG MIRROR=http://deb.debian.org/debian
ARG SECURITY_MIRROR=http://deb.debian.org/debian-security
RUN printf 'deb %s %s main\ndeb %s %s-updates main\ndeb %s %s-security main\n' \
        "$MIRROR" "$SUITE" "$MIRROR" "$SUITE" "$SECURITY_MIRROR" "$SUITE" > /etc/apt/sources.list \
    && apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get -y upgrade \
    && apt-get clean \
    && rm -rf /var/lib/apt/lists/*
ENV LANG=C.UTF-8
CMD ["bash"]
