package main

import (
	"log"
	"net/http"
	"os"

	"example.com/ledger/api"
	"example.com/ledger/store"
)

func main() {
	s := &store.Store{}
	log.Fatal(http.ListenAndServe(":8080", api.Handler{S: s}))
}
