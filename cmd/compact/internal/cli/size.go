package cli

import (
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/toolcompact/compact/registry"
)

// parseSize is how every size flag and config setting of the command
// line is read: registry.ParseBytes, the one size parser of compact
// ("64MiB", "10MB", "512KiB" or a byte count; no negative sizes).
func parseSize(s string) (int64, error) { return registry.ParseBytes(s) }

// sizeFlag is a flag.Value for a byte size read by parseSize.
type sizeFlag struct{ p *int64 }

// String renders the size as parseSize reads it.
func (f sizeFlag) String() string {
	if f.p == nil {
		return "0"
	}
	return registry.FormatSize(*f.p)
}

// Set parses s.
func (f sizeFlag) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*f.p = n
	return nil
}

// byteSize is a size in a YAML config file: "64MiB" or a byte count, read
// by parseSize like the flag of the same name.
type byteSize int64

// UnmarshalYAML reads a scalar with parseSize; errors name the line.
func (b *byteSize) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want a size such as 64MiB, 10MB or a byte count", n.Line)
	}
	v, err := parseSize(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*b = byteSize(v)
	return nil
}

// checkBudget is the one validation of a --budget value (and of a
// config file's budget): a positive number of tokens.
func checkBudget(n int) error {
	if n <= 0 {
		return fmt.Errorf("must be a positive number of tokens, got %d", n)
	}
	return nil
}

// budgetFlag is a flag.Value for --budget: a positive number of tokens.
// 0 and negative numbers are the same mistake and get the same answer.
type budgetFlag struct{ p *int }

// String renders the budget.
func (f budgetFlag) String() string {
	if f.p == nil {
		return "0"
	}
	return strconv.Itoa(*f.p)
}

// Set parses s as a positive number of tokens.
func (f budgetFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("not a number of tokens: %q", s)
	}
	if err := checkBudget(n); err != nil {
		return err
	}
	*f.p = n
	return nil
}

// sizeText is a flag.Value for a size kept as its text (for flags whose
// range is checked after parsing): the syntax is checked by parseSize
// when the flag is set, so a bad size is refused in the same words as
// every other size flag, before anything else runs.
type sizeText struct{ p *string }

// String returns the text.
func (f sizeText) String() string {
	if f.p == nil {
		return ""
	}
	return *f.p
}

// Set checks s with parseSize and keeps it.
func (f sizeText) Set(s string) error {
	if _, err := parseSize(s); err != nil {
		return err
	}
	*f.p = s
	return nil
}
