// Command nmprog is a small program whose symbol table (go tool nm) names
// many error types: go:itab.*os.SyscallError,error, OnceValue[...] and
// the like, captured by testdata/gen/capture.sh as go-nm-nmprog.txt.
package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
)

var parse = sync.OnceValue(func() error {
	_, err := strconv.Atoi(os.Getenv("N"))
	return err
})

func main() {
	if err := parse(); err != nil && !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
