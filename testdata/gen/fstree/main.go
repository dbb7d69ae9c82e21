// Command fstree prints a directory tree as one nested JSON document, the
// shape a file-system tool (an MCP filesystem server's directory_tree, or
// `tree -J`) returns: every node has a name, a type, a size, a mode and a
// modification time, and a directory has its children, sorted by name.
//
// Usage: go run ./testdata/gen/fstree DIR > testdata/captured/fs-tree.json
package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"
)

type node struct {
	Name     string  `json:"name"`
	Type     string  `json:"type"`
	Size     int64   `json:"size"`
	Mode     string  `json:"mode"`
	Modified string  `json:"modified"`
	Children []*node `json:"children,omitempty"`
}

func walk(path string, info fs.FileInfo) (*node, error) {
	n := &node{
		Name:     info.Name(),
		Type:     "file",
		Size:     info.Size(),
		Mode:     info.Mode().String(),
		Modified: info.ModTime().UTC().Format(time.RFC3339),
	}
	if !info.IsDir() {
		return n, nil
	}
	n.Type = "directory"
	n.Children = []*node{}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		ci, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("stat %s: %w", filepath.Join(path, e.Name()), err)
		}
		c, err := walk(filepath.Join(path, e.Name()), ci)
		if err != nil {
			return nil, err
		}
		n.Children = append(n.Children, c)
	}
	return n, nil
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fstree DIR")
		os.Exit(2)
	}
	info, err := os.Stat(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "fstree:", err)
		os.Exit(1)
	}
	root, err := walk(os.Args[1], info)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fstree:", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		fmt.Fprintln(os.Stderr, "fstree:", err)
		os.Exit(1)
	}
}
