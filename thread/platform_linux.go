package thread

import "syscall"

// processLimit returns the soft RLIMIT_NPROC of the process (a Linux thread is a process to
// that limit), or 0 if it cannot be read or is unlimited.
func processLimit() int {
	const rlimitNproc = 6 // RLIMIT_NPROC on Linux
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(rlimitNproc, &rl); err != nil || rl.Cur == 0 || rl.Cur > 1<<30 {
		return 0
	}
	return int(rl.Cur)
}
