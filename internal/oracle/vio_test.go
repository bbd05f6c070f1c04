package oracle_test

// Socket I/O on virtual threads: the twins of java/IoScenarios.java. Package vio (loom's
// blocking I/O that unmounts) is being built by another helper; when it lands, its scenarios go
// here and in java/IoScenarios.java, on loopback sockets: a virtual thread blocked in a socket
// read is WAITING and leaves its carrier (a second virtual thread runs on the one carrier); an
// interrupt closes the socket, the read fails with an error that is both thread.ErrInterrupted
// and net.ErrClosed (Java: SocketException / ClosedByInterruptException) and the status stays
// set; a read deadline is os.ErrDeadlineExceeded (Java: SocketTimeoutException); a
// thread-per-connection echo server on virtual threads serves every client.
func ioScenarios() []scenario {
	const suite = "IoScenarios"
	_ = suite
	return nil
}
