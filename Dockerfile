# compact serve in a small image: the static binary (the first-party
# plugins are embedded), a passwd naming the non-root user 65532, its
# empty home, /tmp and the CA certificates, on an empty base (FROM
# scratch; docker/rootfs.sh lays it out), running as 65532.
#
#   docker build -t compact .
#   docker run --rm -p 8377:8377 -e COMPACT_TOKEN=change-me compact
#
# (podman works the same: podman build -t compact . ; podman run ...)
#
# The sidecar listens on all interfaces inside the container, which it
# does only with a token: without COMPACT_TOKEN it refuses to start and
# says so. Artifacts and the plugin compilation cache live under
# /home/nonroot/.cache (mount a volume there to keep them).
#
# The sidecar answers only requests whose Host names loopback, the listen
# address or an allowed host (DNS-rebinding guard): behind a service name
# (compose, Kubernetes), add it, e.g.
#   docker run ... compact serve --listen 0.0.0.0:8377 --allowed-host compact
# The version --version prints comes from the build argument VERSION:
#   docker build --build-arg VERSION=v1.2.3 -t compact .
# The final stage needs no base image: cmd/compact TestContainerImage
# builds it with podman from a binary built on the host (the build stage's
# golang image cannot be pulled there) and runs it; see docs/install.md.
FROM golang:1.26-bookworm AS build
ARG VERSION=
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags="-s -w${VERSION:+ -X github.com/toolcompact/compact/cmd/compact/internal/cli.version=${VERSION}}" \
      -o /out/compact ./cmd/compact \
 && /out/compact --version \
 && sh docker/rootfs.sh /out/compact /rootfs

FROM scratch
COPY --from=build /rootfs/root/ /
COPY --from=build --chown=65532:65532 /rootfs/home/ /home/
USER 65532:65532
ENV HOME=/home/nonroot
WORKDIR /home/nonroot
EXPOSE 8377
ENTRYPOINT ["/usr/local/bin/compact"]
CMD ["serve", "--listen", "0.0.0.0:8377"]
