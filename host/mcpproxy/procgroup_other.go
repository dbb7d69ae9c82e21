//go:build !unix

package mcpproxy

import (
	"os"
	"syscall"
)

// newProcAttr: no process groups here (Windows); the upstream alone is
// ended.
func newProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

// signalGroup ends the upstream process itself: Windows has no signals
// to send, so both steps (terminate, then kill) kill it.
func signalGroup(pid int, _ syscall.Signal) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
