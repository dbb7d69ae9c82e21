package report

import (
	"fmt"
	"strings"

	"example.com/ledger/store"
)

// Line formats one line.
func Line(s *store.Store, id string) string {
	b, err := s.Balance(id)
	if err != nil {
		return fmt.Sprintf("%s: %v", id, err)
	}
	return strings.ToUpper(id) + ": " + fmt.Sprint(b)
}

// Lines formats many.
func Lines(s *store.Store, ids []string) []string {
	var out []string
	for _, id := range ids {
		out = append(out, Line(s, id))
	}
	return out, nil
}
