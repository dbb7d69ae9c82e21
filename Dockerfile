# compact serve in a small image: a static binary (the first-party plugins
# are embedded) on distroless, running as the non-root user 65532.
#
#   docker build -t compact .
#   docker run --rm -p 8377:8377 -e COMPACT_TOKEN=change-me compact
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
# Not built by CI (no container engine there): see RATIONALE.md.
FROM golang:1.26-bookworm AS build
ARG VERSION=
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags="-s -w${VERSION:+ -X github.com/toolcompact/compact/cmd/compact/internal/cli.version=${VERSION}}" \
      -o /out/compact ./cmd/compact \
 && /out/compact --version

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/compact /usr/local/bin/compact
USER 65532:65532
EXPOSE 8377
ENTRYPOINT ["/usr/local/bin/compact"]
CMD ["serve", "--listen", "0.0.0.0:8377"]
