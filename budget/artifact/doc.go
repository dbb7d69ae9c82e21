// Package artifact keeps full tool outputs behind short handles (level 2
// of the budget pipeline) so that nothing the model does not see is lost.
//
// Artifacts are content-addressed by SHA-256. The model sees a handle: the
// shortest prefix of the hex digest, at least 12 digits long, that no other
// artifact shares. Handles are recorded in an index when they are issued
// and are resolved by exact lookup, never by prefix search, so a colliding
// artifact that arrives later gets a longer handle and can never make an
// issued handle ambiguous. A reference may address a sub-value of the
// artifact with a jq path: "a1b2c3d4e5f6.items[3].name" (see ParseRef).
//
// Two implementations share the budget.Store interface:
//
//   - DirStore, a local directory (the default is
//     $XDG_CACHE_HOME/compact/artifacts): atomic writes (temporary file,
//     fsync, rename, fsync of the directory), hash-verified reads, a
//     sidecar JSON file of metadata, and a garbage collector for a TTL and
//     a size quota that never removes a file being written or read (file
//     locks plus in-process leases).
//   - BlobStore, a shared object store through gocloud.dev/blob (file://,
//     mem://, s3://), so that sidecars of many agent replicas can share
//     artifacts.
//
// Open picks one of them from a path or URL.
package artifact
