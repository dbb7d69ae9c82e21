package mcpproxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/budget"
)

// Spilling: a tools/call result larger than SpillAbove is not decoded in
// memory. The frame goes to a temporary file as it is read; every long
// string of its result's content[].text and structuredContent is
// unescaped straight from the file into the artifact store, and the
// frame the SDK decodes holds a marker with the handle instead. The
// proxy then reads each such text once, from the store, for the engine.

// DefaultSpillAbove is the frame size from which a tools/call result is
// spilled to the artifact store instead of decoded in memory.
const DefaultSpillAbove = 8 << 20

// spillString is the length of a string (escaped, in bytes) from which it
// is moved to the store when its frame is spilled.
const spillString = 1 << 20

// spillMarker starts a string that stands for a stored one: the marker,
// then the handle.
const spillMarker = "\x00compact-spilled:"

// errFrameTooLarge: one upstream message went over the limit.
var errFrameTooLarge = errors.New("upstream message larger than the configured limit (--max-message)")

// spillConn is an mcp.Connection over a child's stdout and stdin,
// speaking newline-delimited JSON-RPC, that spills large tools/call
// results to the artifact store.
type spillConn struct {
	w       io.WriteCloser
	rc      io.Closer
	store   budget.Store
	limit   int64
	spillAt int64

	writeMu sync.Mutex
	callsMu sync.Mutex
	calls   map[string]bool // ids of outstanding tools/call requests

	incoming  chan readResult
	closed    chan struct{}
	closeOnce sync.Once
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

func newSpillConn(r io.ReadCloser, w io.WriteCloser, store budget.Store, limit, spillAt int64) *spillConn {
	c := &spillConn{w: w, rc: r, store: store, limit: limit, spillAt: spillAt,
		calls: map[string]bool{}, incoming: make(chan readResult), closed: make(chan struct{})}
	go c.readLoop(bufio.NewReaderSize(r, 64<<10))
	return c
}

func idKey(v any) string {
	switch x := v.(type) {
	case string:
		return "s:" + x
	case int64:
		return "n:" + strconv.FormatInt(x, 10)
	case float64:
		return "n:" + strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return "n:" + x.String()
	}
	return fmt.Sprintf("?:%v", v)
}

func (c *spillConn) SessionID() string { return "" }

func (c *spillConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/call" && req.ID.IsValid() {
		c.callsMu.Lock()
		c.calls[idKey(req.ID.Raw())] = true
		c.callsMu.Unlock()
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return errors.New("connection closed")
	default:
	}
	if _, err := c.w.Write(append(b, '\n')); err != nil {
		return err
	}
	return nil
}

func (c *spillConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case r := <-c.incoming:
		return r.msg, r.err
	}
}

func (c *spillConn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		c.writeMu.Lock()
		_ = c.w.Close()
		c.writeMu.Unlock()
		_ = c.rc.Close()
	})
	return nil
}

func (c *spillConn) deliver(msg jsonrpc.Message, err error) bool {
	select {
	case c.incoming <- readResult{msg, err}:
		return true
	case <-c.closed:
		return false
	}
}

func (c *spillConn) readLoop(r *bufio.Reader) {
	for {
		frame, file, err := c.readFrame(r)
		if err != nil {
			c.deliver(nil, err)
			return
		}
		if file != nil {
			msg, err := c.decodeSpilled(file)
			name := file.Name()
			file.Close()
			os.Remove(name)
			if !c.deliver(msg, err) || err != nil {
				return
			}
			continue
		}
		frame = bytes.TrimSpace(frame)
		if len(frame) == 0 {
			continue
		}
		if frame[0] == '[' { // a batch
			var items []json.RawMessage
			if err := json.Unmarshal(frame, &items); err != nil {
				c.deliver(nil, fmt.Errorf("upstream sent an invalid batch: %w", err))
				return
			}
			for _, it := range items {
				msg, err := jsonrpc.DecodeMessage(it)
				if !c.deliver(msg, err) || err != nil {
					return
				}
			}
			continue
		}
		msg, err := jsonrpc.DecodeMessage(frame)
		if !c.deliver(msg, err) || err != nil {
			return
		}
	}
}

// readFrame reads one newline-terminated frame: in memory when it is
// small, in a temporary file from spillAt bytes on.
func (c *spillConn) readFrame(r *bufio.Reader) ([]byte, *os.File, error) {
	var buf []byte
	var file *os.File
	var total int64
	fail := func(err error) ([]byte, *os.File, error) {
		if file != nil {
			file.Close()
			os.Remove(file.Name())
		}
		return nil, nil, err
	}
	for {
		chunk, err := r.ReadSlice('\n')
		total += int64(len(chunk))
		if c.limit > 0 && total > c.limit {
			return fail(errFrameTooLarge)
		}
		if file == nil && c.store != nil && int64(len(buf)+len(chunk)) > c.spillAt {
			f, ferr := os.CreateTemp("", "compact-frame-")
			if ferr != nil {
				return fail(ferr)
			}
			file = f
			if _, werr := file.Write(buf); werr != nil {
				return fail(werr)
			}
			buf = nil
		}
		if file != nil {
			if _, werr := file.Write(chunk); werr != nil {
				return fail(werr)
			}
		} else {
			buf = append(buf, chunk...)
		}
		switch {
		case err == nil:
			return buf, file, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && total > 0:
			return buf, file, nil // a last frame without a newline
		default:
			return fail(err)
		}
	}
}

// decodeSpilled decodes a frame kept in f. A response to an outstanding
// tools/call gets its long strings moved to the store; any other frame
// is decoded in memory as usual.
func (c *spillConn) decodeSpilled(f *os.File) (jsonrpc.Message, error) {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	sc := newScanner(io.NewSectionReader(f, 0, size))
	info, err := sc.scanFrame()
	if err == nil && info.id != "" {
		c.callsMu.Lock()
		ok := c.calls[info.id]
		delete(c.calls, info.id)
		c.callsMu.Unlock()
		if ok && len(info.spans) > 0 {
			frame, err := rewriteSpans(context.Background(), c.store, f, size, info.spans)
			if err == nil {
				return jsonrpc.DecodeMessage(frame)
			}
			// Fall back to decoding in memory: slower, never lossy.
		}
	}
	data, err := io.ReadAll(io.NewSectionReader(f, 0, size))
	if err != nil {
		return nil, err
	}
	return jsonrpc.DecodeMessage(bytes.TrimSpace(data))
}

// rewriteSpans copies the message held in ra (size bytes) with each span
// (the escaped bytes of a long string) replaced by a marker naming the
// artifact that holds the string's text, unescaped straight from ra into
// the store.
func rewriteSpans(ctx context.Context, store budget.Store, ra io.ReaderAt, size int64, spans []span) ([]byte, error) {
	var out bytes.Buffer
	var at int64
	for _, s := range spans {
		if _, err := io.Copy(&out, io.NewSectionReader(ra, at, s.start-at)); err != nil {
			return nil, err
		}
		pr, pw := io.Pipe()
		go func() {
			pw.CloseWithError(unescape(pw, bufio.NewReaderSize(io.NewSectionReader(ra, s.start, s.end-s.start), 64<<10)))
		}()
		h, _, err := store.Put(ctx, pr, budget.Meta{Tool: "mcp upstream"})
		pr.CloseWithError(err)
		if err != nil {
			return nil, err
		}
		m, _ := json.Marshal(spillMarker + string(h))
		out.Write(m[1 : len(m)-1])
		at = s.end
	}
	if _, err := io.Copy(&out, io.NewSectionReader(ra, at, size-at)); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(out.Bytes()), nil
}

// unescape writes the text of a JSON string's escaped bytes (without the
// quotes) to w, as encoding/json would decode it.
func unescape(w io.Writer, r *bufio.Reader) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	for {
		b, err := r.ReadByte()
		if err == io.EOF {
			return bw.Flush()
		}
		if err != nil {
			return err
		}
		if b >= utf8.RuneSelf {
			// As encoding/json: each byte of invalid UTF-8 is U+FFFD.
			r.UnreadByte()
			p, _ := r.Peek(utf8.UTFMax)
			rn, size := utf8.DecodeRune(p)
			if rn == utf8.RuneError && size <= 1 {
				bw.WriteRune(utf8.RuneError)
				r.Discard(1)
				continue
			}
			bw.Write(p[:size])
			r.Discard(size)
			continue
		}
		if b != '\\' {
			bw.WriteByte(b)
			continue
		}
		e, err := r.ReadByte()
		if err != nil {
			return fmt.Errorf("truncated escape: %w", err)
		}
		switch e {
		case '"', '\\', '/':
			bw.WriteByte(e)
		case 'b':
			bw.WriteByte('\b')
		case 'f':
			bw.WriteByte('\f')
		case 'n':
			bw.WriteByte('\n')
		case 'r':
			bw.WriteByte('\r')
		case 't':
			bw.WriteByte('\t')
		case 'u':
			r1, err := readHex4(r)
			if err != nil {
				return err
			}
			// As encoding/json: a high surrogate followed by a low one is
			// one rune; any other surrogate is U+FFFD, and the \u after
			// an unpaired high surrogate is read on its own.
			for {
				if !utf16.IsSurrogate(r1) {
					bw.WriteRune(r1)
					break
				}
				if r1 < 0xDC00 {
					if next, _ := r.Peek(2); len(next) == 2 && next[0] == '\\' && next[1] == 'u' {
						r.Discard(2)
						r2, err := readHex4(r)
						if err != nil {
							return err
						}
						if dec := utf16.DecodeRune(r1, r2); dec != utf8.RuneError {
							bw.WriteRune(dec)
							break
						}
						bw.WriteRune(utf8.RuneError)
						r1 = r2
						continue
					}
				}
				bw.WriteRune(utf8.RuneError)
				break
			}
		default:
			return fmt.Errorf("invalid escape \\%c", e)
		}
	}
}

func readHex4(r *bufio.Reader) (rune, error) {
	var v rune
	for range 4 {
		b, err := r.ReadByte()
		if err != nil {
			return 0, fmt.Errorf("truncated \\u escape: %w", err)
		}
		var d byte
		switch {
		case '0' <= b && b <= '9':
			d = b - '0'
		case 'a' <= b && b <= 'f':
			d = b - 'a' + 10
		case 'A' <= b && b <= 'F':
			d = b - 'A' + 10
		default:
			return 0, fmt.Errorf("invalid \\u escape byte %q", b)
		}
		v = v<<4 | rune(d)
	}
	return v, nil
}

// span is the escaped bytes of one string, between its quotes.
type span struct{ start, end int64 }

type frameInfo struct {
	id     string // idKey of the top-level id, "" when none
	idRaw  []byte // the id's JSON (up to maxKeptLiteral bytes of it)
	method string // the top-level method, "" when none
	spans  []span // long strings under result.content[].text and result.structuredContent
}

// maxKeptLiteral is how much of a member name, or of a top-level id or
// method, the scanner keeps.
const maxKeptLiteral = 256

// scanner walks a JSON value without keeping its strings.
type scanner struct {
	r     *bufio.Reader
	off   int64
	depth int
	// stop, when set, is asked after each top-level member whether the
	// scan may end there (errStopScan).
	stop func(*frameInfo) bool
}

// errStopScan ends a scan early once stop is satisfied.
var errStopScan = errors.New("scan stopped")

// maxScanDepth bounds the nesting the scanner follows (as encoding/json
// does), so that a message of nested brackets cannot exhaust the stack.
const maxScanDepth = 10000

func newScanner(r io.Reader) *scanner { return &scanner{r: bufio.NewReaderSize(r, 64<<10)} }

func (s *scanner) next() (byte, error) {
	b, err := s.r.ReadByte()
	if err == nil {
		s.off++
	}
	return b, err
}

func (s *scanner) nonSpace() (byte, error) {
	for {
		b, err := s.next()
		if err != nil {
			return 0, err
		}
		switch b {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return b, nil
	}
}

// str scans a string whose opening quote was read; it keeps at most keep
// bytes of it and returns the span of its escaped bytes.
func (s *scanner) str(keep int) ([]byte, span, error) {
	sp := span{start: s.off}
	var kept []byte
	for {
		b, err := s.next()
		if err != nil {
			return nil, sp, err
		}
		switch b {
		case '"':
			sp.end = s.off - 1
			return kept, sp, nil
		case '\\':
			if len(kept) < keep {
				kept = append(kept, b)
			}
			b, err = s.next()
			if err != nil {
				return nil, sp, err
			}
		}
		if len(kept) < keep {
			kept = append(kept, b)
		}
	}
}

// value scans one value whose first byte is b. path is the key path of
// the value; strings at a wanted path that are long become spans. When
// raw is not nil, the value's bytes are appended to it (used for ids).
func (s *scanner) value(b byte, path []string, info *frameInfo, raw *[]byte) error {
	if b == '{' || b == '[' {
		s.depth++
		defer func() { s.depth-- }()
		if s.depth > maxScanDepth {
			return fmt.Errorf("byte %d: nested more than %d deep", s.off, maxScanDepth)
		}
	}
	switch b {
	case '{':
		if raw != nil {
			return errors.New("an object where an id was expected")
		}
		c, err := s.nonSpace()
		if err != nil {
			return err
		}
		if c == '}' {
			return nil
		}
		for {
			if c != '"' {
				return fmt.Errorf("byte %d: want a member name", s.off)
			}
			k, _, err := s.str(maxKeptLiteral)
			if err != nil {
				return err
			}
			if c, err = s.nonSpace(); err != nil || c != ':' {
				return fmt.Errorf("byte %d: want ':'", s.off)
			}
			if c, err = s.nonSpace(); err != nil {
				return err
			}
			key := string(k)
			var sub *[]byte
			var idBuf []byte
			if len(path) == 0 && (key == "id" || key == "method") {
				sub = &idBuf
			}
			if err := s.value(c, append(path, key), info, sub); err != nil {
				return err
			}
			if sub != nil && key == "id" {
				info.id = rawIDKey(idBuf)
				info.idRaw = idBuf
			}
			if sub != nil && key == "method" {
				_ = json.Unmarshal(idBuf, &info.method)
			}
			if len(path) == 0 && s.stop != nil && s.stop(info) {
				return errStopScan
			}
			if c, err = s.nonSpace(); err != nil {
				return err
			}
			if c == '}' {
				return nil
			}
			if c != ',' {
				return fmt.Errorf("byte %d: want ',' or '}'", s.off)
			}
			if c, err = s.nonSpace(); err != nil {
				return err
			}
		}
	case '[':
		if raw != nil {
			return errors.New("an array where an id was expected")
		}
		c, err := s.nonSpace()
		if err != nil {
			return err
		}
		if c == ']' {
			return nil
		}
		for {
			if err := s.value(c, append(path, "[]"), info, nil); err != nil {
				return err
			}
			if c, err = s.nonSpace(); err != nil {
				return err
			}
			if c == ']' {
				return nil
			}
			if c != ',' {
				return fmt.Errorf("byte %d: want ',' or ']'", s.off)
			}
			if c, err = s.nonSpace(); err != nil {
				return err
			}
		}
	case '"':
		kept, sp, err := s.str(maxKeptLiteral)
		if err != nil {
			return err
		}
		if raw != nil {
			*raw = append(append(append(*raw, '"'), kept...), '"')
		}
		if sp.end-sp.start >= spillString && wanted(path) {
			info.spans = append(info.spans, sp)
		}
		return nil
	default: // a number, true, false or null: up to a delimiter
		// Kept up to maxKeptLiteral bytes, as strings are: an upstream
		// message of many megabytes may be one long "number".
		if raw != nil {
			*raw = append(*raw, b)
		}
		for {
			p, err := s.r.Peek(1)
			if err != nil || strings.IndexByte(",]} \t\r\n", p[0]) >= 0 {
				return nil
			}
			c, _ := s.next()
			if raw != nil && len(*raw) < maxKeptLiteral {
				*raw = append(*raw, c)
			}
		}
	}
}

// wanted: result.content[].text, and any string in result.structuredContent.
func wanted(path []string) bool {
	if len(path) < 2 || path[0] != "result" {
		return false
	}
	if path[1] == "structuredContent" {
		return true
	}
	return len(path) == 4 && path[1] == "content" && path[2] == "[]" && path[3] == "text"
}

func rawIDKey(raw []byte) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return ""
	}
	return idKey(v)
}

// scanFrame scans a whole frame: one object.
func (s *scanner) scanFrame() (frameInfo, error) {
	var info frameInfo
	b, err := s.nonSpace()
	if err != nil {
		return info, err
	}
	if b != '{' {
		return info, errors.New("not an object")
	}
	if err := s.value(b, nil, &info, nil); err != nil {
		return info, err
	}
	return info, nil
}

// spilledHandle returns the handle a marker string stands for.
func spilledHandle(s string) (budget.Handle, bool) {
	h, ok := strings.CutPrefix(s, spillMarker)
	return budget.Handle(h), ok
}

// readSpilled returns the stored text a marker stands for.
func readSpilled(ctx context.Context, st budget.Store, h budget.Handle) ([]byte, error) {
	rc, m, err := st.Open(ctx, h)
	if err != nil {
		return nil, fmt.Errorf("reading the spilled upstream result %s: %w", h, err)
	}
	defer rc.Close()
	buf := bytes.NewBuffer(make([]byte, 0, m.Bytes))
	if _, err := buf.ReadFrom(rc); err != nil {
		return nil, fmt.Errorf("reading the spilled upstream result %s: %w", h, err)
	}
	return buf.Bytes(), nil
}

// restoreSpilled replaces every marker string in v with the stored text.
func restoreSpilled(ctx context.Context, st budget.Store, v any) (any, error) {
	switch x := v.(type) {
	case string:
		if h, ok := spilledHandle(x); ok {
			b, err := readSpilled(ctx, st, h)
			return string(b), err
		}
	case map[string]any:
		for k, e := range x {
			ne, err := restoreSpilled(ctx, st, e)
			if err != nil {
				return nil, err
			}
			x[k] = ne
		}
	case []any:
		for i, e := range x {
			ne, err := restoreSpilled(ctx, st, e)
			if err != nil {
				return nil, err
			}
			x[i] = ne
		}
	}
	return v, nil
}

var _ mcp.Connection = (*spillConn)(nil)
