package store

import (
	"errors"
	"sync"
)

// ErrNotFound is returned for a missing account.
var ErrNotFound = errors.New("not found")

// Store keeps balances.
type Store struct {
	mu  sync.Mutex
	bal map[string]int64
}

// Balance returns an account's balance.
func (s *Store) Balance(id string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.bal[id]
	if !ok {
		return 0, ErrNotFound
	}
	return b, nil
}
