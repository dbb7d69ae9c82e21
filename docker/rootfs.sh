#!/bin/sh
# Lays out the whole file system of the compact image in DIR: DIR/root
# holds what root owns (the static binary, a passwd and group naming the
# non-root user 65532, a world-writable /tmp for the spools of artifact
# reads, the CA certificates for an s3:// store over HTTPS) and DIR/home
# the empty home of user 65532 (the Dockerfile copies it with --chown).
# Nothing else: the image is FROM scratch, so this is all it holds.
#
#   sh docker/rootfs.sh BINARY DIR
#
# The Dockerfile's build stage runs it; cmd/compact TestContainerImage
# runs it on the host to build the same image from a local binary.
set -eu
bin=$1
dir=$2
certs=/etc/ssl/certs/ca-certificates.crt
[ -f "$certs" ] || { echo "rootfs.sh: no $certs (install ca-certificates)" >&2; exit 1; }
rm -rf "$dir"
mkdir -p "$dir/home/nonroot"
chmod 0700 "$dir/home/nonroot"
dir=$dir/root
mkdir -p "$dir/usr/local/bin" "$dir/etc/ssl/certs" "$dir/home" "$dir/tmp"
cp "$bin" "$dir/usr/local/bin/compact"
chmod 0755 "$dir/usr/local/bin/compact"
cp "$certs" "$dir/etc/ssl/certs/ca-certificates.crt"
printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >"$dir/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' >"$dir/etc/group"
chmod 1777 "$dir/tmp"
