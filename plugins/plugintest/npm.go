package plugintest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ExampleGroupBy is the directory, relative to the repository root, of the
// AssemblyScript example plugin.
const ExampleGroupBy = "plugins/examples/groupby"

// BuildNPM builds the npm-based plugin in dir (a folder with package.json,
// package-lock.json and a "build" script taking asc's --outFile) and
// returns the path of the cached .wasm, keyed by a hash of its sources,
// asconfig.json and package-lock.json.
//
// When dir has no node_modules (npm ci has not run), the test is skipped
// with a message, unless the environment variable CI is set: then it
// fails, because CI must build every example.
func BuildNPM(tb testing.TB, dir string) string {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		msg := fmt.Sprintf("plugintest: %s has no node_modules: run `npm ci` there to build this plugin", dir)
		if os.Getenv("CI") != "" {
			tb.Fatal(msg)
		}
		tb.Skip(msg)
	}
	key := "npm\x00" + dir
	mu.Lock()
	b, ok := builds[key]
	if !ok {
		b = &buildOnce{}
		builds[key] = b
	}
	mu.Unlock()
	b.once.Do(func() { b.path, b.err = npmBuild(dir) })
	if b.err != nil {
		tb.Fatalf("plugintest: %v", b.err)
	}
	return b.path
}

func npmBuild(dir string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "npm\x00")
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "build") {
			return filepath.SkipDir
		}
		name := d.Name()
		if d.IsDir() || !(strings.HasSuffix(name, ".ts") || strings.HasSuffix(name, ".json")) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "file %s %d\x00", filepath.ToSlash(rel), len(data))
		h.Write(data)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", dir, err)
	}
	cache, err := CacheDir()
	if err != nil {
		return "", err
	}
	out := filepath.Join(cache, "npm-"+hex.EncodeToString(h.Sum(nil))[:32]+".wasm")
	if st, err := os.Stat(out); err == nil && st.Size() > 0 {
		return out, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	tmp := out + fmt.Sprintf(".%d.tmp", os.Getpid())
	cmd := exec.Command("npm", "run", "--silent", "build", "--", "--outFile", tmp)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stdout = &stderr
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("npm run build in %s: %w\n%s", dir, err, stderr.Bytes())
	}
	if err := os.Rename(tmp, out); err != nil {
		return "", err
	}
	return out, nil
}
