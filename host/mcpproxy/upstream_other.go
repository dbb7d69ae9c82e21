//go:build !linux

package mcpproxy

import (
	"os/exec"
	"syscall"
)

// dieWithParent is Linux's parent-death signal; elsewhere an upstream
// outlives a compact that is killed outright.
func dieWithParent(*syscall.SysProcAttr) {}

// start starts cmd.
func start(cmd *exec.Cmd) error { return cmd.Start() }
