package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestReleaseConfig checks .goreleaser.yaml against the repository
// (goreleaser itself is not built by CI; see RATIONALE.md and
// TestGoreleaserCheck): the build's
// main package and the variable its -X flag sets exist, every platform of
// the issue is built, and archives carry LICENSE, checksums and an SBOM.
func TestReleaseConfig(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Version int `yaml:"version"`
		Builds  []struct {
			Main    string   `yaml:"main"`
			Env     []string `yaml:"env"`
			Ldflags []string `yaml:"ldflags"`
			Goos    []string `yaml:"goos"`
			Goarch  []string `yaml:"goarch"`
		} `yaml:"builds"`
		Archives []struct {
			Files []string `yaml:"files"`
		} `yaml:"archives"`
		Checksum struct {
			Algorithm string `yaml:"algorithm"`
		} `yaml:"checksum"`
		Sboms []struct {
			Artifacts string `yaml:"artifacts"`
		} `yaml:"sboms"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Version != 2 || len(cfg.Builds) != 1 {
		t.Fatalf("config: %+v", cfg)
	}
	b := cfg.Builds[0]
	if st, err := os.Stat(filepath.Join(root, b.Main, "main.go")); err != nil || st.IsDir() {
		t.Errorf("builds[0].main %s: %v", b.Main, err)
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if !slices.Contains(b.Goos, goos) {
			t.Errorf("goos lacks %s", goos)
		}
	}
	for _, arch := range []string{"amd64", "arm64"} {
		if !slices.Contains(b.Goarch, arch) {
			t.Errorf("goarch lacks %s", arch)
		}
	}
	if !slices.Contains(b.Env, "CGO_ENABLED=0") {
		t.Error("builds are not static (CGO_ENABLED=0)")
	}
	x := regexp.MustCompile(`-X (\S+)\.(\w+)=`).FindStringSubmatch(strings.Join(b.Ldflags, " "))
	if x == nil {
		t.Fatal("no -X version flag")
	}
	pkgDir := filepath.Join(root, strings.TrimPrefix(x[1], module+"/"))
	found := false
	files, _ := filepath.Glob(filepath.Join(pkgDir, "*.go"))
	for _, f := range files {
		src, _ := os.ReadFile(f)
		if regexp.MustCompile(`(?m)^var ` + x[2] + ` string`).Match(src) {
			found = true
		}
	}
	if !found {
		t.Errorf("-X %s.%s: no such string variable in %s", x[1], x[2], pkgDir)
	}
	if len(cfg.Archives) == 0 || !slices.Contains(cfg.Archives[0].Files, "LICENSE") {
		t.Error("archives lack LICENSE")
	}
	if cfg.Checksum.Algorithm != "sha256" || len(cfg.Sboms) == 0 {
		t.Errorf("checksum %q, sboms %v", cfg.Checksum.Algorithm, cfg.Sboms)
	}
	if _, err := os.Stat(filepath.Join(root, "LICENSE")); err != nil {
		t.Error(err)
	}
}

// TestGoreleaserCheck runs `goreleaser check` on .goreleaser.yaml where
// goreleaser is installed (go install
// github.com/goreleaser/goreleaser/v2@v2.15.1); CI does not build it
// (17 minutes here; RATIONALE.md "Releases"), so it skips there too.
func TestGoreleaserCheck(t *testing.T) {
	gr, err := exec.LookPath("goreleaser")
	if err != nil {
		t.Skip("goreleaser is not installed (go install github.com/goreleaser/goreleaser/v2@v2.15.1)")
	}
	cmd := exec.Command(gr, "check")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("goreleaser check: %v\n%s", err, out)
	}
}

// TestDockerfile checks the Dockerfile's text (TestContainerImage builds
// and runs the image where podman is installed):
// the build image's Go release is the one go.mod asks for, the image runs
// compact serve as a non-root user, and the listen address is one the
// sidecar accepts only with a token.
func TestDockerfile(t *testing.T) {
	root := filepath.Join("..", "..")
	df, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	mod, _ := os.ReadFile(filepath.Join(root, "go.mod"))
	goLine := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if goLine == nil || !strings.Contains(string(df), "FROM golang:"+string(goLine[1])) {
		t.Errorf("Dockerfile does not build with Go %s (go.mod)", goLine[1])
	}
	// The version variable the image's -X sets is the one goreleaser sets
	// (a misspelt one links silently and --version says "(devel)").
	for _, want := range []string{"USER 65532", "FROM scratch", `"serve"`, "CGO_ENABLED=0", "./cmd/compact", "ARG VERSION", "cli.version=${VERSION}", "--allowed-host"} {
		if !strings.Contains(string(df), want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
}
