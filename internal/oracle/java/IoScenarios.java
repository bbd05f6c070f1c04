// Socket I/O on virtual threads: the twins of ../vio_test.go. Package vio (loom's blocking I/O
// that unmounts) is being built; when it lands, its scenarios go here and in vio_test.go:
// a virtual thread blocked in a socket read is WAITING (not RUNNABLE) and leaves its carrier;
// an interrupt closes the socket (SocketException / ClosedByInterruptException) and leaves the
// status set; a read timeout is SocketTimeoutException (loom: os.ErrDeadlineExceeded); a
// thread-per-connection echo server serves N clients on one carrier.
import java.util.*;

final class IoScenarios {
    static void register(Map<String, Oracle.Scenario> m) {
        // none yet: see above
    }
}
