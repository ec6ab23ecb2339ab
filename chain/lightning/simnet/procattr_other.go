//go:build !linux

package simnet

import "syscall"

// sysProcAttr is the default elsewhere (no parent-death signal); Close stops the nodes.
func sysProcAttr() *syscall.SysProcAttr { return nil }
