package simnet

import "syscall"

// sysProcAttr kills a child when the test binary dies, so no node outlives it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
