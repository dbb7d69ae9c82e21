package mcpproxy

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// dieWithParent asks the kernel to SIGKILL the upstream when compact
// dies, even by SIGKILL or a crash, where no code of ours runs to end
// it. Linux sends the signal when the thread that started the child
// exits, so children are started on one thread that never exits (see
// start).
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

var spawner struct {
	once sync.Once
	reqs chan spawnReq
}

type spawnReq struct {
	cmd  *exec.Cmd
	done chan error
}

// start starts cmd on the spawner thread: a goroutine locked to its
// thread for the life of the process, so that the thread (whose exit
// would kill the child, see dieWithParent) lives as long as compact.
func start(cmd *exec.Cmd) error {
	spawner.once.Do(func() {
		spawner.reqs = make(chan spawnReq)
		go func() {
			runtime.LockOSThread() // never unlocked: the thread never exits
			for r := range spawner.reqs {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	spawner.reqs <- spawnReq{cmd: cmd, done: done}
	return <-done
}
