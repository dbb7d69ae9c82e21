package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/s3blob"

	"github.com/toolcompact/compact/internal/s3server"
)

// TestReplicasOnRealS3 runs two `compact serve` replicas on one bucket of
// a real S3 server (versitygw over a directory, see internal/s3server for
// why this server), as a team would behind a load balancer:
//
//   - an artifact written through replica A is read, byte for byte, and
//     queried (jq, search) through replica B;
//   - a collection by A's side (`compact store gc` on the same bucket,
//     quota of 1 byte, the artifact aged past the grace period on the
//     server's disk) while B is in the middle of downloading it (B's
//     connection to the server is held after the first MiB of the
//     object) keeps it (busy), and B's answer is complete; on the old
//     code the collector removed it under B (evicted 1, gone afterwards);
//   - replica C, killed (SIGKILL) at several moments of a request that
//     stores a 24 MB output, leaves no partial object: every object in
//     the bucket hashes to its name, every handle names a stored object,
//     and B still serves all that was stored before; what C left (its
//     complete uploads under tmp/, its read announcements) goes at the
//     next collection after the grace period.
func TestReplicasOnRealS3(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the compact binary and runs an S3 server")
	}
	srv := s3server.Start(t, "artifacts")
	store := srv.BucketURL("artifacts")
	bin := buildCompact(t)
	home, work := t.TempDir(), t.TempDir()
	env := []string{"HOME=" + home}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "COMPACT_") || strings.HasPrefix(k, "AWS_") || k == "HOME" || k == "XDG_CACHE_HOME" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, srv.Env(t.TempDir())...)

	// B reaches the server through a proxy that can hold a download.
	gate := newHoldProxy(t, strings.TrimPrefix(srv.Endpoint, "http://"))
	storeB := strings.Replace(store, url.QueryEscape(srv.Endpoint), url.QueryEscape("http://"+gate.addr), 1)

	a := startReplica(t, bin, work, env, store)
	b := startReplica(t, bin, work, env, storeB)

	// Written through A.
	pods, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captured", "kubectl-pods.json"))
	if err != nil {
		t.Fatal(err)
	}
	art := a.compact(t, "kubectl.pods", pods)
	if art.SHA256 != sha256Hex(pods) || art.Bytes != int64(len(pods)) {
		t.Fatalf("A stored %+v, want the %d bytes of the sample", art, len(pods))
	}
	// Read and queried through B.
	code, body, hdr := b.get(t, "/v1/artifacts/"+art.Handle)
	if code != 200 || !bytes.Equal(body, pods) || hdr.Get("X-Compact-SHA256") != art.SHA256 {
		t.Fatalf("B's read of A's artifact: %d, %d bytes (want %d)", code, len(body), len(pods))
	}
	var doc struct{ Items []json.RawMessage }
	json.Unmarshal(pods, &doc)
	code, body, _ = b.get(t, "/v1/artifacts/"+art.Handle+"?jq="+url.QueryEscape(".items | length"))
	if code != 200 || !bytes.Contains(body, []byte(fmt.Sprint(len(doc.Items)))) {
		t.Fatalf("B's jq query: %d %s, want %d items", code, body, len(doc.Items))
	}
	code, body, _ = b.get(t, "/v1/artifacts/"+art.Handle+"?q=kube-system&limit=3")
	if code != 200 || !bytes.Contains(body, []byte("kube-system")) {
		t.Fatalf("B's search: %d %.300s", code, body)
	}

	// compact store stats on the bucket.
	var usage struct{ Artifacts int }
	json.Unmarshal([]byte(runCompact(t, bin, work, env, "store", "stats", "--store", store, "--json")), &usage)
	if usage.Artifacts != 1 {
		t.Errorf("store stats on the bucket: %d artifacts, want 1", usage.Artifacts)
	}

	// A's collector while B downloads a big artifact.
	big := bigOutput(0, 6<<20)
	bigArt := a.compact(t, "app.log", big)
	ageArtifact(t, filepath.Join(srv.Root, "artifacts"), bigArt.SHA256, time.Hour)
	gate.arm(1 << 20)
	type answer struct {
		code int
		body []byte
	}
	got := make(chan answer, 1)
	go func() {
		code, body, _ := b.get(t, "/v1/artifacts/"+bigArt.Handle)
		got <- answer{code, body}
	}()
	select {
	case <-gate.held:
	case <-time.After(30 * time.Second):
		t.Fatal("B's download was never held")
	}
	gcOut := runCompact(t, bin, work, env, "store", "gc", "--store", store, "--store-max-bytes", "1", "--json")
	var st struct{ Evicted, Busy int }
	json.Unmarshal([]byte(gcOut), &st)
	gate.release()
	ans := <-got
	if ans.code != 200 || !bytes.Equal(ans.body, big) {
		t.Fatalf("B's download during A's collection: %d, %d bytes of %d", ans.code, len(ans.body), len(big))
	}
	t.Logf("collection during B's download: %s", strings.Join(strings.Fields(gcOut), " "))
	if st.Busy < 1 || st.Evicted != 0 {
		t.Fatalf("collection during B's download: %s; want the artifact kept as busy", gcOut)
	}
	if code, body, _ := b.get(t, "/v1/artifacts/"+bigArt.Handle); code != 200 || !bytes.Equal(body, big) {
		t.Fatalf("after the collection: %d", code)
	}
	// With nobody reading it, the same collection removes it (the aging
	// worked), and B says so.
	runCompact(t, bin, work, env, "store", "gc", "--store", store, "--store-max-bytes", "1")
	if code, body, _ := b.get(t, "/v1/artifacts/"+bigArt.Handle); code != 410 {
		t.Fatalf("after a collection with no reader: %d %.200s, want 410", code, body)
	}

	// Replica C killed while storing; A and B go on.
	srv.SetEnv(t)
	bucket, err := blob.OpenBucket(context.Background(), store)
	if err != nil {
		t.Fatal(err)
	}
	defer bucket.Close()
	// Each kill comes when the server's disk shows a stage of the store
	// (a part of the multipart upload, the complete upload under tmp/,
	// the read announcement, the object in place), or at once.
	stages := []struct {
		name string
		seen func(f string) bool
	}{
		{"at once", nil},
		{"a part uploaded", func(f string) bool { return strings.HasPrefix(f, ".sgwtmp/multipart/") }},
		{"the upload complete in tmp/", func(f string) bool { return strings.HasPrefix(f, "tmp/") }},
		{"the read announced", func(f string) bool { return strings.HasPrefix(f, "readers/") }},
	}
	before := map[string]bool{}
	for _, f := range srv.Files(t, "artifacts") {
		before[f] = true
	}
	tombstones := map[string]bool{bigArt.SHA256: true}
	for i, stage := range stages {
		c := startReplica(t, bin, work, env, store)
		payload := bigOutput(i+1, 24<<20)
		done := make(chan struct{})
		go func() {
			defer close(done)
			req, _ := http.NewRequest("POST", c.base+"/v1/compact", bytes.NewReader(compactBody(t, "app.log", payload)))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if stage.seen != nil {
					t.Logf("C answered %d %.300s", resp.StatusCode, b)
				}
			}
		}()
		reached := stage.seen == nil
		for !reached {
			select {
			case <-done:
				t.Fatalf("C finished the store before %s was seen", stage.name)
			default:
			}
			for _, f := range srv.Files(t, "artifacts") {
				if !before[f] && stage.seen(f) {
					reached = true
				}
			}
			if !reached {
				time.Sleep(2 * time.Millisecond)
			}
		}
		c.kill()
		<-done
		checkBucket(t, bucket, "C killed "+stage.name, tombstones)
		for _, f := range srv.Files(t, "artifacts") {
			before[f] = true
		}
	}
	// What the killed replica left (complete uploads under tmp/, read
	// announcements) goes at the next collection once older than the
	// grace period (1 h; aged on the server's disk here).
	then := time.Now().Add(-2 * time.Hour)
	for _, f := range srv.Files(t, "artifacts") {
		if strings.HasPrefix(f, "tmp/") || strings.HasPrefix(f, "readers/") {
			os.Chtimes(filepath.Join(srv.Root, "artifacts", f), then, then)
		}
	}
	gcOut = runCompact(t, bin, work, env, "store", "gc", "--store", store, "--json")
	for _, f := range srv.Files(t, "artifacts") {
		if strings.HasPrefix(f, "tmp/") || strings.HasPrefix(f, "readers/") || strings.HasPrefix(f, "doomed/") {
			t.Errorf("left after the collection: %s (%s)", f, strings.Join(strings.Fields(gcOut), " "))
		}
	}
	if code, body, _ := b.get(t, "/v1/artifacts/"+art.Handle); code != 200 || !bytes.Equal(body, pods) {
		t.Fatalf("B after the kills: %d", code)
	}
}

// checkBucket: every object is whole (hashes to its name), every handle
// names a stored object or one of the tombstones (removed by the
// collector, answered 410).
func checkBucket(t *testing.T, bucket *blob.Bucket, when string, tombstones map[string]bool) {
	t.Helper()
	ctx := context.Background()
	it := bucket.List(&blob.ListOptions{Prefix: "objects/"})
	objects := map[string]bool{}
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(o.Key, "objects/")
		if strings.HasSuffix(name, ".json") {
			continue
		}
		b, err := bucket.ReadAll(ctx, o.Key)
		if err != nil {
			t.Fatal(err)
		}
		if sha256Hex(b) != name {
			t.Errorf("%s: %s holds %d bytes that hash to %s: a partial object", when, o.Key, len(b), sha256Hex(b)[:12])
		}
		objects[name] = true
	}
	var all []string
	it = bucket.List(&blob.ListOptions{})
	for {
		o, err := it.Next(ctx)
		if err != nil {
			break
		}
		all = append(all, strings.SplitN(o.Key, "/", 2)[0])
	}
	t.Logf("%s: %d objects; keys by prefix: %v", when, len(objects), countWords(all))
	it = bucket.List(&blob.ListOptions{Prefix: "handles/"})
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := bucket.ReadAll(ctx, o.Key)
		sum := strings.TrimSpace(string(b))
		if len(sum) != 64 || !strings.HasPrefix(sum, strings.TrimPrefix(o.Key, "handles/")) {
			t.Errorf("%s: handle %s holds %q", when, o.Key, b)
		}
		if !objects[sum] && !tombstones[sum] {
			t.Errorf("%s: handle %s names %s, which is not stored", when, o.Key, sum[:12])
		}
	}
}

func countWords(ws []string) map[string]int {
	m := map[string]int{}
	for _, w := range ws {
		m[w]++
	}
	return m
}

var buildOnce struct {
	sync.Once
	bin string
	err error
	out []byte
}

// TestMain removes the binary buildCompact built (about 50 MB a run in
// the system's temporary directory, left behind by every run before).
func TestMain(m *testing.M) {
	code := m.Run()
	if buildOnce.bin != "" {
		os.RemoveAll(filepath.Dir(buildOnce.bin))
	}
	os.Exit(code)
}

// buildCompact builds the binary once per test process, in a directory
// TestMain removes.
func buildCompact(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "compact-bin-")
		if err != nil {
			buildOnce.err = err
			return
		}
		buildOnce.bin = filepath.Join(dir, "compact")
		cmd := exec.Command("go", "build", "-o", buildOnce.bin, ".")
		buildOnce.out, buildOnce.err = cmd.CombinedOutput()
	})
	if buildOnce.err != nil {
		t.Fatalf("go build: %v\n%s", buildOnce.err, buildOnce.out)
	}
	return buildOnce.bin
}

func runCompact(t *testing.T, bin, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("compact %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// replica is one `compact serve` process.
type replica struct {
	base   string
	cmd    *exec.Cmd
	exited chan struct{}
	log    *bytes.Buffer
}

func startReplica(t *testing.T, bin, dir string, env []string, store string) *replica {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	r := &replica{base: "http://" + addr, exited: make(chan struct{}), log: &bytes.Buffer{}}
	r.cmd = exec.Command(bin, "serve", "--listen", addr, "--store", store)
	r.cmd.Dir, r.cmd.Env = dir, env
	r.cmd.Stdout, r.cmd.Stderr = r.log, r.log
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.cmd.Wait(); close(r.exited) }()
	t.Cleanup(r.kill)
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(r.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return r
			}
		}
		select {
		case <-r.exited:
			t.Fatalf("compact serve exited:\n%s", r.log)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("compact serve did not answer within 60 s:\n%s", r.log)
		}
	}
}

func (r *replica) kill() {
	r.cmd.Process.Kill()
	<-r.exited
}

type artifactRef struct {
	Handle string
	SHA256 string
	Bytes  int64
}

func compactBody(t *testing.T, tool string, content []byte) []byte {
	b, err := json.Marshal(map[string]any{"tool": tool, "content": string(content), "budget": 500})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// compact posts content and returns the artifact the answer names.
func (r *replica) compact(t *testing.T, tool string, content []byte) artifactRef {
	t.Helper()
	resp, err := http.Post(r.base+"/v1/compact", "application/json", bytes.NewReader(compactBody(t, tool, content)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var res struct{ Artifact *artifactRef }
	body, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(body, &res); err != nil || resp.StatusCode != 200 || res.Artifact == nil {
		t.Fatalf("POST /v1/compact: %d %v %.300s\n%s", resp.StatusCode, err, body, r.log)
	}
	return *res.Artifact
}

func (r *replica) get(t *testing.T, path string) (int, []byte, http.Header) {
	resp, err := http.Get(r.base + path)
	if err != nil {
		t.Errorf("GET %s: %v", path, err)
		return 0, nil, nil
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Errorf("GET %s: %v", path, err)
	}
	return resp.StatusCode, b, resp.Header
}

// bigOutput is n bytes of distinct JSON log lines (seed makes them
// differ between calls).
func bigOutput(seed, n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, `{"ts":"2026-11-25T10:%02d:%02dZ","level":"info","seed":%d,"seq":%d,"msg":"request served","path":"/api/v1/items/%d","ms":%d}`+"\n",
			i/60%60, i%60, seed, i, i%977, i%313)
	}
	return b.Bytes()
}

// holdProxy forwards TCP connections to a server and, once armed, holds
// the first connection whose answer passes a number of bytes until
// released: a download in progress, stopped in the middle.
type holdProxy struct {
	addr     string
	armed    atomic.Int64 // bytes after which to hold; 0: never
	gen      atomic.Int64 // counts arm calls: answers are counted from the last
	held     chan struct{}
	released chan struct{}
	once     sync.Once
}

func newHoldProxy(t *testing.T, upstream string) *holdProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	p := &holdProxy{addr: ln.Addr().String(), held: make(chan struct{}), released: make(chan struct{})}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c, upstream)
		}
	}()
	return p
}

func (p *holdProxy) arm(after int64) { p.armed.Store(after); p.gen.Add(1) }

func (p *holdProxy) release() { close(p.released) }

func (p *holdProxy) serve(c net.Conn, upstream string) {
	defer c.Close()
	u, err := net.Dial("tcp", upstream)
	if err != nil {
		return
	}
	defer u.Close()
	go func() { io.Copy(u, c); u.(*net.TCPConn).CloseWrite() }()
	buf := make([]byte, 32<<10)
	var n, gen int64
	for {
		k, err := u.Read(buf)
		if k > 0 {
			if g := p.gen.Load(); g != gen {
				gen, n = g, 0
			}
			n += int64(k)
			if after := p.armed.Load(); after > 0 && n > after {
				held := false
				p.once.Do(func() { held = true; p.armed.Store(0); close(p.held) })
				if held {
					<-p.released
				}
			}
			if _, werr := c.Write(buf[:k]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// ageArtifact makes the artifact sum look stored age ago, on the S3
// server's disk (the posix backend serves a file's mtime as the
// object's): past the collector's grace period for fresh objects.
func ageArtifact(t *testing.T, bucketDir, sum string, age time.Duration) {
	t.Helper()
	then := time.Now().Add(-age)
	metaFile := filepath.Join(bucketDir, "objects", sum+".json")
	b, err := os.ReadFile(metaFile)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["created"] = then.UTC().Format(time.RFC3339Nano)
	nb, _ := json.Marshal(m)
	if err := os.WriteFile(metaFile, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{metaFile, filepath.Join(bucketDir, "objects", sum)} {
		if err := os.Chtimes(f, then, then); err != nil {
			t.Fatal(err)
		}
	}
}
