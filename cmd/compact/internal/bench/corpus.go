package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ErrNoOutputs is returned by LoadOutputs for a directory with neither
// outputs nor questions files.
var ErrNoOutputs = errors.New("no outputs")

// LoadOutputs loads a corpus the way a team has its own data: every
// questions file of dir (as LoadCorpus does) and every other output file
// of dir that no questions file names, with no questions. An output
// without questions is compacted for tool (the registry's default entry
// when tool is "default") and fed as its content says: one JSON value, a
// sequence of JSON values, or text lines. The bench then measures tokens,
// savings, validity and counts for it, and the answerable shares only
// where there are questions. Hidden files, README files, directories and
// non-regular files are skipped. Errors of all files are reported at once.
func LoadOutputs(dir, tool string) ([]*QuestionFile, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("corpus %s: not a directory", dir)
	}
	files, err := LoadCorpus(dir)
	if err != nil && !errors.Is(err, ErrEmptyCorpus) {
		return nil, err
	}
	named := map[string]bool{}
	for _, qf := range files {
		named[filepath.Clean(qf.OutputPath)] = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", dir, err)
	}
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || strings.HasSuffix(name, QuestionsSuffix) ||
			strings.HasPrefix(strings.ToUpper(name), "README") || !e.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, name)
		if named[filepath.Clean(p)] {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("corpus: %w", err))
			continue
		}
		files = append(files, &QuestionFile{Path: p, OutputPath: p, Output: name, Tool: tool, Input: DetectInput(data)})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("corpus %s: %w (want output files, and optionally <name>%s beside them)", dir, ErrNoOutputs, QuestionsSuffix)
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].Output < files[j].Output })
	return files, nil
}

// DetectInput says how an output without a questions file is read: json
// when it is exactly one JSON value, values when it is a sequence of
// them (JSON Lines, concatenated values), lines otherwise.
func DetectInput(data []byte) Input {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return InputLines
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	n := 0
	for {
		var v json.RawMessage
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			return InputLines
		}
		n++
	}
	if n == 1 {
		return InputJSON
	}
	return InputValues
}
