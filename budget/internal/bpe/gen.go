//go:build ignore

// gen writes o200k_base.bin and cl100k_base.bin from the .tiktoken files
// of github.com/pkoukk/tiktoken-go-loader (the vocabularies the reference
// tokenizer uses), found through the module cache, so that this package
// does not import the loader:
//
//	go run gen.go
//
// A .bin file is the vocabulary in rank order: the count n of tokens as a
// little-endian uint32, then n bytes holding each token's length, then
// the tokens' bytes one after another. TestVocabularyMatchesReference (in
// package budget) checks that they hold exactly the loader's ranks.
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/pkoukk/tiktoken-go-loader").Output()
	if err != nil {
		log.Fatalf("go list the loader module: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "assets")
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		if err := convert(filepath.Join(dir, name+".tiktoken"), name+".bin"); err != nil {
			log.Fatal(err)
		}
	}
}

func convert(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	var toks [][]byte
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return fmt.Errorf("%s:%d: want a token and a rank", in, line)
		}
		tok, err := base64.StdEncoding.DecodeString(fields[0])
		if err != nil {
			return fmt.Errorf("%s:%d: %w", in, line, err)
		}
		rank, err := strconv.Atoi(fields[1])
		if err != nil || rank != len(toks) {
			return fmt.Errorf("%s:%d: rank %q, want %d (ranks must run from 0 without gaps)", in, line, fields[1], len(toks))
		}
		if len(tok) == 0 || len(tok) > 255 {
			return fmt.Errorf("%s:%d: token of %d bytes", in, line, len(tok))
		}
		toks = append(toks, tok)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	buf := binary.LittleEndian.AppendUint32(nil, uint32(len(toks)))
	for _, t := range toks {
		buf = append(buf, byte(len(t)))
	}
	for _, t := range toks {
		buf = append(buf, t...)
	}
	return os.WriteFile(out, buf, 0o644)
}
