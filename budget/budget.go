package budget

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/toolcompact/compact/schemas"
)

// Sentinel errors. Wrap them with %w and test with errors.Is.
var (
	// ErrCannotFit: no level could make the output fit its budget. The
	// wrapping error (*FitError) carries the numbers.
	ErrCannotFit = errors.New("cannot fit budget")
	// ErrNotFound: no artifact has that handle.
	ErrNotFound = errors.New("artifact not found")
	// ErrExpired: the artifact existed but its retention has run out.
	ErrExpired = errors.New("artifact expired")
	// ErrCountMismatch: a transform did not account for every record.
	ErrCountMismatch = errors.New("record count mismatch")
)

// Counter counts tokens exactly in one encoding.
type Counter interface {
	// Count returns the number of tokens of text. Special-token text such
	// as "<|endoftext|>" is counted as ordinary text.
	Count(text string) int
	// Encoding names the encoding, such as "o200k_base".
	Encoding() string
}

// Rules are the declarative rules of one tool, adapted by the host from
// its registry entry.
type Rules struct {
	// Tool is the registry entry's name.
	Tool string
	// Records are jq-style paths of the record collections; when empty
	// they are detected.
	Records []string
	// Keep and Drop are field paths ("a.b", "items[].id", "*_url").
	Keep, Drop []string
	// StringsMax shortens longer strings, with a visible marker; 0 keeps
	// them whole.
	StringsMax int
	// Format is "json", "table" or "auto".
	Format string
	// Budget is the tool's token budget; 0 means the caller's.
	Budget int
	// Pin is a jq predicate selecting rows that must stay visible.
	Pin string
	// Identity are field paths relative to a record that name it (the
	// registry's identity); the first one the records have wins over the
	// detected identity at the artifact level.
	Identity []string
	// Index are field paths relative to a record that the artifact
	// level's index shows after each record's identity (the registry's
	// index); empty means the view picks them.
	Index []string
	// Sort are the keys the artifact level's index lists records by
	// (the registry's sort): field paths, "-" first for the largest
	// first; empty means the records' own order.
	Sort []string
	// Store is "always" to store the original even when level 1 fits.
	Store string
	// Defaults applies the built-in lossy-but-listed cleanups (null and
	// empty values, constant columns, long opaque ids, *_url links).
	Defaults bool
}

// Request is one tool output handed to a Compactor.
type Request struct {
	Tool        string
	Input       []byte
	ContentType string
	// Budget is the token budget the output must fit.
	Budget int
	Rules  Rules
	// Args are the tool's call arguments as JSON, when known.
	Args []byte
	// Shape, when set, is DetectShape's result for Input (the pipeline
	// passes it so that level 1 does not detect twice). Compactors may
	// ignore it.
	Shape *Shape
}

// Output is what a Compactor made of a Request.
type Output struct {
	Content     []byte
	ContentType string
	// Declared is the compactor's own account of the records it kept.
	// The pipeline never trusts it: it counts the input itself, checks
	// the declared counts, and counts the output where it can.
	Declared []schemas.DeclaredCollection
	// Actions lists what the compactor removed or changed.
	Actions []schemas.Action
}

// Compactor is level 1: a plugin or the declarative rules.
type Compactor interface {
	Compact(ctx context.Context, req Request) (Output, error)
}

// Handle is a short content-derived name of a stored artifact.
type Handle string

// Meta describes a stored artifact.
type Meta struct {
	Tool        string               `json:"tool,omitempty"`
	Created     time.Time            `json:"created"`
	ContentType string               `json:"content_type,omitempty"`
	Bytes       int64                `json:"bytes"`
	SHA256      string               `json:"sha256"`
	Collections []schemas.Collection `json:"collections,omitempty"`
}

// Spooled is an input already written into an artifact store while it was
// read (a pipe spooled to disk; artifact.DirStore.Spool): storing it as an
// artifact needs no second write. When Input.Spooled is set, level 2 (and
// store: always) store the input by Commit instead of Store.Put. It must
// hold exactly Input.Data's bytes.
type Spooled interface {
	Commit(ctx context.Context, m Meta) (Handle, Meta, error)
}

// Store keeps full outputs behind handles (level 2).
type Store interface {
	// Put stores the bytes of r and returns their handle. Storing the
	// same bytes twice returns the same handle.
	Put(ctx context.Context, r io.Reader, m Meta) (Handle, Meta, error)
	// Open returns the exact stored bytes, verified against their hash.
	// It fails with ErrNotFound or ErrExpired.
	Open(ctx context.Context, h Handle) (io.ReadCloser, Meta, error)
}
