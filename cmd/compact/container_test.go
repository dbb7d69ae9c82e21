package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/plugins/builtin"
)

// TestContainerImage builds the image of the Dockerfile and runs it with
// podman. The build stage's golang image cannot be pulled where CI runs
// (no container registry is reachable), so the test builds what that
// stage builds, on the host with the same command (a static binary,
// CGO_ENABLED=0 -trimpath -s -w, laid out by docker/rootfs.sh), and
// builds the Dockerfile's final stage (FROM scratch) as written, with
// its COPY --from=build reading that layout instead. Then, with the
// image's empty HOME (user 65532) and working directory:
//
//   - `compact --version` answers and `compact plugins --json` lists the
//     first-party plugins as embedded with the SHA-256 of the committed
//     modules;
//   - `compact run` applies them to the README's sample and the two
//     plugins' samples (stdin), within the budget;
//   - `compact serve` (the image's default command) refuses to listen on
//     all interfaces without a token, and with COMPACT_TOKEN answers
//     /healthz and a compaction through a published port, whose artifact
//     it then serves.
//
// podman runs here with --runtime runc and explicit rlimits: in this
// sandbox crun 1.8 refuses the cgroup layout ("cgroups in hybrid mode not
// supported") and podman's default nofile/nproc limits exceed the hard
// limits (setrlimit: operation not permitted). Skips without podman,
// unless $CI is set (.ci/run installs podman and runc).
func TestContainerImage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the compact binary and an image")
	}
	podman, err := exec.LookPath("podman")
	if err != nil {
		msg := "podman is not installed (apt-get install podman runc; .ci/run does it)"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	root := filepath.Join("..", "..")
	df, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}

	// What the build stage does.
	ctxDir := t.TempDir()
	bin := filepath.Join(t.TempDir(), "compact")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./cmd/compact")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if !strings.Contains(string(df), "CGO_ENABLED=0 go build -trimpath") || !strings.Contains(string(df), "sh docker/rootfs.sh /out/compact /rootfs") {
		t.Fatal("the Dockerfile's build stage no longer builds as this test does: update both")
	}
	if out, err := exec.Command("sh", filepath.Join(root, "docker", "rootfs.sh"), bin, filepath.Join(ctxDir, "rootfs")).CombinedOutput(); err != nil {
		t.Fatalf("rootfs.sh: %v\n%s", err, out)
	}
	// The final stage as written, reading the layout from the context.
	final := string(df[bytes.LastIndex(df, []byte("\nFROM "))+1:])
	if !strings.HasPrefix(final, "FROM scratch\n") {
		t.Fatalf("the final stage is not FROM scratch:\n%s", final)
	}
	copyFrom := regexp.MustCompile(`(?m)^COPY --from=build ((?:--chown=\S+ )?)/rootfs/`)
	if len(copyFrom.FindAllString(final, -1)) != 2 {
		t.Fatalf("the final stage does not copy /rootfs/root and /rootfs/home from the build stage:\n%s", final)
	}
	final = copyFrom.ReplaceAllString(final, "COPY ${1}rootfs/")
	if err := os.WriteFile(filepath.Join(ctxDir, "Containerfile"), []byte(final), 0o644); err != nil {
		t.Fatal(err)
	}
	var suffix [6]byte
	rand.Read(suffix[:])
	image := "localhost/compact-test:" + hex.EncodeToString(suffix[:])
	if out, err := exec.Command(podman, "build", "-q", "-t", image, "-f", filepath.Join(ctxDir, "Containerfile"), ctxDir).CombinedOutput(); err != nil {
		t.Fatalf("podman build: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command(podman, "rmi", "-f", image).Run() })
	if out, err := exec.Command(podman, "image", "inspect", "--format", "{{.Config.User}} {{.Size}}", image).Output(); err == nil {
		f := strings.Fields(string(out))
		t.Logf("image %s: user %s, %s bytes", image, f[0], f[1])
		if f[0] != "65532:65532" {
			t.Errorf("the image runs as %q, want 65532:65532", f[0])
		}
	}

	runFlags := []string{"run", "--rm", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=4096:4096"}
	if runc, err := exec.LookPath("runc"); err == nil {
		runFlags = append([]string{"--runtime", runc}, runFlags...)
	}
	run := func(stdin []byte, flags []string, args ...string) (string, string, error) {
		cmd := exec.Command(podman, append(append(append(append([]string{}, runFlags...), flags...), image), args...)...)
		if stdin != nil {
			cmd.Stdin = bytes.NewReader(stdin)
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}

	out, errs, err := run(nil, nil, "--version")
	if err != nil || !strings.HasPrefix(out, "compact ") || !strings.Contains(out, "embedded plugins: logs") {
		t.Fatalf("--version in the container: %v %q %q", err, out, errs)
	}
	out, errs, err = run(nil, nil, "plugins", "--json")
	if err != nil {
		t.Fatalf("plugins: %v\n%s", err, errs)
	}
	if errs != "" {
		t.Errorf("plugins wrote to stderr (the empty HOME's cache should be writable): %s", errs)
	}
	var infos []struct{ Path, Source, SHA256, Status string }
	json.Unmarshal([]byte(out), &infos)
	embedded := 0
	for _, pi := range infos {
		name, _ := strings.CutPrefix(pi.Path, "builtin:")
		if wasm, ok := builtin.Wasm(name); ok && pi.Source == "embedded" && pi.Status == "loaded" && pi.SHA256 == sha256Hex(wasm) {
			embedded++
		}
	}
	if embedded != 2 {
		t.Errorf("plugins in the container: %s, want logs and restlist embedded", out)
	}

	captured := filepath.Join(root, "testdata", "captured")
	for _, c := range []struct{ tool, file, plugin string }{
		{"kubectl.pods", "kubectl-pods.json", ""},
		{"github.issues", "github-issues.json", "builtin:restlist"},
		{"logs.dpkg", "dpkg-log.txt", "builtin:logs"},
	} {
		input, err := os.ReadFile(filepath.Join(captured, c.file))
		if err != nil {
			t.Fatal(err)
		}
		out, errs, err := run(input, []string{"-i"}, "run", "--json", "--tool", c.tool, "--budget", "2000", "-")
		if err != nil {
			t.Fatalf("run %s in the container: %v\n%s", c.file, err, errs)
		}
		var res struct {
			Actions []struct{ Kind, Target string }
			Tokens  struct{ After int }
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("run %s: %v\n%.500s", c.file, err, out)
		}
		ran := c.plugin == ""
		for _, a := range res.Actions {
			if strings.HasPrefix(a.Kind, "plugin_") {
				t.Errorf("run %s: %s %s", c.file, a.Kind, a.Target)
			}
			ran = ran || (a.Kind == "plugin" && a.Target == c.plugin)
		}
		if !ran || res.Tokens.After > 2000 {
			t.Errorf("run %s in the container: plugin %s ran %v, %d tokens", c.file, c.plugin, ran, res.Tokens.After)
		}
	}

	// The default command without a token: refused, and says why.
	if _, errs, err := run(nil, nil); err == nil || !strings.Contains(errs, "token") {
		t.Errorf("serve on all interfaces without a token: %v %q", err, errs)
	}
	// With one, through a published port.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	name := "compact-test-" + hex.EncodeToString(suffix[:])
	serve := exec.Command(podman, append(append([]string{}, runFlags...), "--name", name, "-p", fmt.Sprintf("127.0.0.1:%d:8377", port), "-e", "COMPACT_TOKEN=test-token", image)...)
	var slog bytes.Buffer
	serve.Stdout, serve.Stderr = &slog, &slog
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { serve.Wait(); close(exited) }()
	t.Cleanup(func() {
		exec.Command(podman, "rm", "-f", name).Run()
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			serve.Process.Kill()
		}
	})
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		select {
		case <-exited:
			t.Fatalf("compact serve in the container exited:\n%s", &slog)
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("compact serve in the container did not answer within 60 s:\n%s", &slog)
		}
	}
	pods, err := os.ReadFile(filepath.Join(captured, "kubectl-pods.json"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"tool": "kubectl.pods", "content": json.RawMessage(pods), "budget": 2000})
	call := func(method, path string, body []byte) (int, []byte) {
		req, _ := http.NewRequest(method, base+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer test-token")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	code, answer := call("POST", "/v1/compact", body)
	var res struct {
		Tokens   struct{ After int }
		Artifact *struct{ Handle, SHA256 string }
	}
	if err := json.Unmarshal(answer, &res); err != nil || code != 200 || res.Artifact == nil || res.Tokens.After > 2000 {
		t.Fatalf("POST /v1/compact to the container: %d %v %.300s\n%s", code, err, answer, &slog)
	}
	if code, got := call("GET", "/v1/artifacts/"+res.Artifact.Handle, nil); code != 200 || sha256Hex(got) != res.Artifact.SHA256 {
		t.Fatalf("GET the artifact from the container: %d, %d bytes", code, len(got))
	}
	if code, _ := call("GET", "/v1/artifacts/"+res.Artifact.Handle+"?jq=.items%7Clength", nil); code != 200 {
		t.Fatalf("jq on the artifact in the container: %d", code)
	}
}
