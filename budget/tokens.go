package budget

import (
	"fmt"
	"strings"
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// Encodings NewCounter knows.
const (
	EncodingO200k  = "o200k_base"
	EncodingCL100k = "cl100k_base"
	// DefaultEncoding is used when none is named.
	DefaultEncoding = EncodingO200k
)

var (
	loaderOnce sync.Once
	encMu      sync.Mutex
	encCache   = map[string]*tiktoken.Tiktoken{}
)

// NewCounter returns an exact token counter for encoding ("o200k_base",
// the default when encoding is "", or "cl100k_base"). The vocabularies are
// compiled into the binary: nothing is downloaded. Counters are cached and
// safe for concurrent use.
func NewCounter(encoding string) (Counter, error) {
	if encoding == "" {
		encoding = DefaultEncoding
	}
	if encoding != EncodingO200k && encoding != EncodingCL100k {
		return nil, fmt.Errorf("token encoding %q: unknown (want %s or %s)", encoding, EncodingO200k, EncodingCL100k)
	}
	loaderOnce.Do(func() { tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader()) })
	encMu.Lock()
	defer encMu.Unlock()
	enc, ok := encCache[encoding]
	if !ok {
		var err error
		enc, err = tiktoken.GetEncoding(encoding)
		if err != nil {
			return nil, fmt.Errorf("token encoding %s: %w", encoding, err)
		}
		encCache[encoding] = enc
	}
	return &tikCounter{enc: enc, name: encoding}, nil
}

type tikCounter struct {
	enc  *tiktoken.Tiktoken
	name string
}

// countChunk is the size of the pieces Count encodes one at a time, to
// bound the memory the tokenizer takes on long texts.
const countChunk = 64 << 10

// Count counts text's tokens, with special-token text counted as
// ordinary text. Long text is encoded in pieces split after a newline
// that is followed by a character other than white space or '/': no
// pre-tokenizer piece of o200k_base or cl100k_base spans such a point, so
// the sum is exact (TestCountChunked checks it).
func (c *tikCounter) Count(text string) int {
	n := 0
	for len(text) > countChunk {
		cut := chunkCut(text)
		if cut < 0 {
			break
		}
		n += len(c.enc.EncodeOrdinary(text[:cut]))
		text = text[cut:]
	}
	if text == "" {
		return n
	}
	return n + len(c.enc.EncodeOrdinary(text))
}

// chunkCut finds a split point at or after countChunk, or -1.
func chunkCut(text string) int {
	from := countChunk
	for from < len(text) {
		i := strings.IndexByte(text[from:], '\n')
		if i < 0 {
			return -1
		}
		at := from + i + 1
		if at >= len(text) {
			return -1
		}
		switch text[at] {
		case ' ', '\t', '\r', '\n', '\v', '\f', '/':
			from = at
			continue
		}
		if text[at] >= 0x80 {
			// Unicode white space could follow; be safe.
			from = at
			continue
		}
		return at
	}
	return -1
}

// Encoding names the encoding.
func (c *tikCounter) Encoding() string { return c.name }
