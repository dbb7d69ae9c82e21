//go:build unix

package mcpproxy

import "syscall"

// newProcAttr starts an upstream in a process group of its own, so that
// signalGroup reaches the processes it starts too.
func newProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// signalGroup sends sig to the upstream's process group.
func signalGroup(pid int, sig syscall.Signal) error { return syscall.Kill(-pid, sig) }
