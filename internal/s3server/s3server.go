// Package s3server starts a real S3-compatible server on loopback for the
// tests of the shared artifact store: Versity's S3 gateway (versitygw,
// Apache-2.0) over its posix backend, a directory of the test's.
//
// Why versitygw and not the in-memory fake (gofakes3) the unit tests
// use: the fake answers in the test's own process and implements what
// its authors chose; a replica test must go through a server that other
// people run in production, with its own HTTP stack, multipart uploads,
// conditional writes (If-None-Match, which the store's handle index
// relies on), ListObjectsV2 and CopyObject. Why versitygw and not
// SeaweedFS (which the issue suggested): both are real S3 servers built
// from Go modules that the module proxy serves, but versitygw installs
// with a plain `go install` (no replace directives), built here in 140 s
// from an empty module and build cache (download included) into a 61 MB
// binary (-s -w), and serves a plain directory; SeaweedFS needs a scratch
// module (its replace directives make `go install` refuse it), took
// about 7 minutes on 2 idle cores by the account (34 minutes here
// at nice 19 on the shared machine) into a 164 MB binary (-s -w), and
// runs a master, a volume server and a filer behind its S3 gateway. CI
// time is the budget that decides (see .ci/run).
//
// The binary is found through $COMPACT_TEST_VERSITYGW, then versitygw on
// PATH, then the cache that .ci/run fills (CacheBinary). Where it is
// absent, Start skips the test with the command that installs it, except
// under CI=1, where it fails.
package s3server

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Version is the versitygw release the tests are written against; .ci/run
// installs this version.
const Version = "v1.8.0"

// Module is the package that go install builds.
const Module = "github.com/versity/versitygw/cmd/versitygw"

// Credentials of the single account the test servers run with.
const (
	AccessKey = "compact-test"
	SecretKey = "compact-test-secret"
	Region    = "us-east-1"
)

// CacheBinary is where .ci/run keeps the binary it builds, outside the
// checkout and keyed by version: $XDG_CACHE_HOME (or ~/.cache)
// /compact-ci/versitygw-<Version>/versitygw.
func CacheBinary() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "compact-ci", "versitygw-"+Version, "versitygw")
}

// Binary returns the path of the versitygw binary, or "" with the reason.
func Binary() (string, string) {
	if p := os.Getenv("COMPACT_TEST_VERSITYGW"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Sprintf("$COMPACT_TEST_VERSITYGW: %v", err)
		}
		return p, ""
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, ""
	}
	if p := CacheBinary(); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p, ""
		}
	}
	return "", fmt.Sprintf("no S3 server to test against: versitygw is not on PATH nor at %s "+
		"(.ci/run builds it: GOBIN=%s go install %s@%s)", CacheBinary(), filepath.Dir(CacheBinary()), Module, Version)
}

// Server is a versitygw process serving a directory of the test's.
type Server struct {
	// Endpoint is the server's base URL, http://127.0.0.1:PORT.
	Endpoint string
	// Root is the directory whose subdirectories are the buckets.
	Root string
	cmd  *exec.Cmd
	log  *bytes.Buffer
}

// Start starts a server with the given buckets, stopped when t ends. It
// skips t where versitygw is absent, unless $CI is set: then it fails.
func Start(t testing.TB, buckets ...string) *Server {
	t.Helper()
	bin, why := Binary()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	root := t.TempDir()
	for _, b := range buckets {
		if err := os.Mkdir(filepath.Join(root, b), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	addr := freePort(t)
	s := &Server{Endpoint: "http://" + addr, Root: root, log: &bytes.Buffer{}}
	s.cmd = exec.Command(bin, "--port", addr, "--access", AccessKey, "--secret", SecretKey, "--region", Region, "posix", root)
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	s.cmd.Env = append(os.Environ(), "VGW_LOG_LEVEL=silent")
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		<-exited
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(s.Endpoint + "/")
		if err == nil {
			resp.Body.Close()
			return s
		}
		select {
		case err := <-exited:
			t.Fatalf("versitygw exited: %v\n%s", err, s.log)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("versitygw did not answer on %s within 30 s\n%s", addr, s.log)
		}
	}
}

func freePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// BucketURL is the store URL (gocloud.dev/blob s3://) of bucket on this
// server; the credentials come from Env (or SetEnv).
func (s *Server) BucketURL(bucket string) string {
	return "s3://" + bucket + "?endpoint=" + url.QueryEscape(s.Endpoint) +
		"&use_path_style=true&disable_https=true&region=" + Region
}

// Env is the environment a client process needs besides its own: the
// account's keys, the region, and no shared AWS config of the machine's.
func (s *Server) Env(dir string) []string {
	return []string{
		"AWS_ACCESS_KEY_ID=" + AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + SecretKey,
		"AWS_REGION=" + Region,
		"AWS_CONFIG_FILE=" + filepath.Join(dir, "no-aws-config"),
		"AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(dir, "no-aws-credentials"),
		"AWS_EC2_METADATA_DISABLED=true",
	}
}

// SetEnv sets Env in the test's own process (for clients in the test).
func (s *Server) SetEnv(t testing.TB) {
	t.Helper()
	for _, kv := range s.Env(t.TempDir()) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// Files lists the files under bucket on the server's disk (path
// relative to the bucket), for tests that check what a crash left.
func (s *Server) Files(t testing.TB, bucket string) []string {
	t.Helper()
	var out []string
	dir := filepath.Join(s.Root, bucket)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}
