package api

import (
	"encoding/json"
	"net/http"

	"example.com/ledger/store"
)

// Handler serves balances.
type Handler struct{ S *store.Store }

func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	b, err := h.S.Balance(id)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	var cents int = b
	json.NewEncoder(w).Encode(map[string]any{"id": id, "cents": cents})
}
