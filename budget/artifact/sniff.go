package artifact

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// sniffLimit is how many leading bytes the sniffer keeps.
const sniffLimit = 64 << 10

// sniffer keeps the first bytes written to it to guess a content type.
type sniffer struct {
	head  []byte
	total int64
}

func (s *sniffer) Write(p []byte) (int, error) {
	if room := sniffLimit - len(s.head); room > 0 {
		s.head = append(s.head, p[:min(room, len(p))]...)
	}
	s.total += int64(len(p))
	return len(p), nil
}

// contentType guesses the media type from the kept bytes: JSON, NDJSON
// (one JSON value a line), or whatever net/http sniffs (text/plain for
// logs and prose).
func (s *sniffer) contentType() string { return sniffContentType(s.head, s.total) }

func sniffContentType(head []byte, total int64) string {
	t := bytes.TrimLeft(head, " \t\r\n")
	if len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		complete := int64(len(head)) == total
		if complete && json.Valid(head) {
			return "application/json"
		}
		// NDJSON: the first line is a whole JSON value and the next line
		// starts another one.
		if i := bytes.IndexByte(t, '\n'); i > 0 && json.Valid(t[:i]) {
			rest := bytes.TrimLeft(t[i+1:], " \t\r\n")
			if len(rest) > 0 && (rest[0] == '{' || rest[0] == '[') {
				return "application/x-ndjson"
			}
		}
		return "application/json"
	}
	if len(head) == 0 {
		return "text/plain; charset=utf-8"
	}
	return http.DetectContentType(head)
}
