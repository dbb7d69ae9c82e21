package cli

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair (Linux): the master to read what
// the program wrote, the slave as the program's stdout.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		m.Close()
		t.Skipf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		m.Close()
		t.Skipf("ptsname: %v", e)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("open slave: %v", err)
	}
	t.Cleanup(func() { s.Close(); m.Close() })
	return m, s
}

// TestTerminalOutputEscapesControls: on a terminal, text output shows
// control characters escaped (an ESC sequence in a tool output cannot
// clear the screen or retitle the window); piped output stays exact. On
// the old code the raw ESC bytes reached the terminal.
func TestTerminalOutputEscapesControls(t *testing.T) {
	t.Setenv(envRegistry, "")
	t.Setenv(envStore, "off")
	in := "build ok\x1b[2J\x1b]0;pwned\x07 done\n"
	master, slave := openPTY(t)
	var errb bytes.Buffer
	if code := Main([]string{"run", "--tool", "x"}, strings.NewReader(in), slave, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	master.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 4096)
	n, _ := master.Read(buf)
	got := string(buf[:n])
	if strings.Contains(got, "\x1b") || strings.Contains(got, "\x07") || !strings.Contains(got, `build ok\x1b[2J\x1b]0;pwned\x07 done`) {
		t.Fatalf("terminal got %q", got)
	}
	// A pipe gets the bytes exactly.
	out, _, code := execCLI(t, []byte(in), "run", "--tool", "x")
	if code != ExitOK || out != in {
		t.Fatalf("piped output %q, want %q", out, in)
	}
}
