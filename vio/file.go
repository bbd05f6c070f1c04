package vio

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/loomgo/loom/internal/rt"
	"github.com/loomgo/loom/thread"
)

// File is an [os.File] whose blocking calls are fit for virtual threads: it ports
// java.nio.channels.FileChannel (and the file streams) used by a virtual thread. Get one from
// [Open], [Create], [OpenFile] or [NewFile]; [ReadFile] and [WriteFile] are the one-call forms.
//
// A regular file cannot be waited for: its reads and writes block in the kernel. As the JDK does
// for file I/O, a virtual thread keeps its carrier during such a call and the scheduler lends a
// temporary carrier meanwhile (up to MaxPoolSize), so the other virtual threads go on; the thread
// stays RUNNABLE. Pipes, FIFOs and terminals (what [os.Pipe] and a process's stdin/stdout give)
// are pollable: on them Read and Write unmount the thread while they would block, exactly as a
// [Conn] does.
//
// Interrupting a thread blocked in a File call, or calling one with the interrupt status set,
// closes the File; the call returns a [*fs.PathError] wrapping [ErrClosedByInterrupt] and the
// interrupt status stays set, as FileChannel's ClosedByInterruptException (a regular file's read
// already under way in the kernel finishes first). On platform threads and goroutines loom did
// not start, the calls are the [os.File]'s.
type File struct {
	endpoint
	f        *os.File
	pollable bool    // Go's poller waits for it (a pipe, FIFO, terminal)
	raw      rawConn // the pollable path; zero for regular files
}

// fileHow is how a virtual thread waits in a call on a regular file: it keeps its carrier and
// the scheduler compensates (measured: see vio/doc.go, "Files").
var fileHow = rt.IOCompensated

// NewFile returns f as a vio [*File]; the File owns f. NewFile(nil) panics with
// [thread.ErrNilArgument].
func NewFile(f *os.File) *File {
	if f == nil {
		panic(fmt.Errorf("%w: vio.NewFile(nil)", thread.ErrNilArgument))
	}
	vf := &File{f: f}
	vf.init(vf, f.Close, "read", "write")
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		vf.pollable = vf.raw.initFile(f)
	}
	return vf
}

// Open opens the named file for reading, as [os.Open]. The open itself is a file call (opening a
// FIFO waits for its writer). It ports FileChannel.open(path) / new FileInputStream.
func Open(name string) (*File, error) { return OpenFile(name, os.O_RDONLY, 0) }

// Create creates or truncates the named file, as [os.Create].
func Create(name string) (*File, error) {
	return OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// OpenFile opens the named file with the given flags and permissions, as [os.OpenFile].
func OpenFile(name string, flag int, perm os.FileMode) (*File, error) {
	var f *os.File
	var err error
	w := &rt.IOWait{Op: "open", Blocker: name, Interrupt: func(any) {}} // an open cannot be cut short
	call(w, fileHow, func() { f, err = os.OpenFile(name, flag, perm) })
	if err != nil {
		return nil, err
	}
	return NewFile(f), nil
}

// ReadFile reads the named file, as [os.ReadFile], with the calls of a vio [*File]: an interrupt
// closes the file and ReadFile returns [ErrClosedByInterrupt]. It ports Files.readAllBytes.
func ReadFile(name string) ([]byte, error) {
	f, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 512
	if fi, err := f.f.Stat(); err == nil && fi.Size() > 0 && int64(int(fi.Size())) == fi.Size() {
		size = int(fi.Size()) + 1
	}
	data := make([]byte, 0, size)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return data, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// WriteFile writes data to the named file, creating it with perm if needed and truncating it
// otherwise, as [os.WriteFile], with the calls of a vio [*File]. It ports Files.write.
func WriteFile(name string, data []byte, perm os.FileMode) error {
	f, err := OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err1 := f.Close(); err1 != nil && err == nil {
		err = err1
	}
	return err
}

// OSFile returns the [os.File] f wraps.
func (f *File) OSFile() *os.File { return f.f }

// Name returns the name of the file, as presented to Open.
func (f *File) Name() string { return f.f.Name() }

// Read reads up to len(b) bytes, as [os.File.Read]: at the end of the file it returns 0, [io.EOF].
// See [File] for how it blocks and what an interrupt does. It ports FileChannel.read.
func (f *File) Read(b []byte) (int, error) {
	return f.io(&f.rwait, "read", b, func() (int, error) { return f.f.Read(b) })
}

// Write writes all of b, as [os.File.Write]. See [File]. It ports FileChannel.write.
func (f *File) Write(b []byte) (int, error) {
	return f.io(&f.wwait, "write", b, func() (int, error) { return f.f.Write(b) })
}

// WriteString is Write of a string.
func (f *File) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

// ReadAt reads len(b) bytes at offset off, as [os.File.ReadAt]. It ports FileChannel.read(dst,
// position).
func (f *File) ReadAt(b []byte, off int64) (int, error) {
	return f.io(&f.rwait, "read", nil, func() (int, error) { return f.f.ReadAt(b, off) })
}

// WriteAt writes b at offset off, as [os.File.WriteAt]. It ports FileChannel.write(src,
// position).
func (f *File) WriteAt(b []byte, off int64) (int, error) {
	return f.io(&f.wwait, "write", nil, func() (int, error) { return f.f.WriteAt(b, off) })
}

// Sync commits the file to stable storage, as [os.File.Sync] (FileChannel.force(true)).
func (f *File) Sync() error {
	_, err := f.io(&f.wwait, "sync", nil, func() (int, error) { return 0, f.f.Sync() })
	return err
}

// Truncate changes the size of the file, as [os.File.Truncate] (FileChannel.truncate).
func (f *File) Truncate(size int64) error {
	_, err := f.io(&f.wwait, "truncate", nil, func() (int, error) { return 0, f.f.Truncate(size) })
	return err
}

// ReadDir reads the directory f, as [os.File.ReadDir].
func (f *File) ReadDir(n int) ([]os.DirEntry, error) {
	var ds []os.DirEntry
	_, err := f.io(&f.rwait, "readdirent", nil, func() (int, error) {
		var err error
		ds, err = f.f.ReadDir(n)
		return 0, err
	})
	return ds, err
}

// Seek sets the offset for the next Read or Write, as [os.File.Seek] (FileChannel.position).
func (f *File) Seek(offset int64, whence int) (int64, error) { return f.f.Seek(offset, whence) }

// Stat returns the file's FileInfo, as [os.File.Stat].
func (f *File) Stat() (os.FileInfo, error) { return f.f.Stat() }

// Close closes the file; calls blocked on a pollable file return [os.ErrClosed].
func (f *File) Close() error { return f.close() }

// SetDeadline sets the read and write deadlines of a pollable file, as [os.File.SetDeadline].
func (f *File) SetDeadline(t time.Time) error {
	f.setDeadlines(true, true, t)
	return f.f.SetDeadline(t)
}

// SetReadDeadline sets the read deadline of a pollable file.
func (f *File) SetReadDeadline(t time.Time) error {
	f.setDeadlines(true, false, t)
	return f.f.SetReadDeadline(t)
}

// SetWriteDeadline sets the write deadline of a pollable file.
func (f *File) SetWriteDeadline(t time.Time) error {
	f.setDeadlines(false, true, t)
	return f.f.SetWriteDeadline(t)
}

// SyscallConn returns the [os.File]'s raw connection.
func (f *File) SyscallConn() (syscall.RawConn, error) { return f.f.SyscallConn() }

// io runs a call on the file for the current thread, registered as w: through the pollable path
// if b is given and the file has one, else around the os.File call fn.
func (f *File) io(w *rt.IOWait, op string, b []byte, fn func() (int, error)) (int, error) {
	t, mounted := rt.IOCurrent()
	if t == nil {
		return fn()
	}
	prev := rt.IOBegin(t, w)
	defer rt.IOEnd(t, prev)
	var n int
	var err error
	switch {
	case mounted && f.raw.ok() && b != nil && (len(b) > 0 || w == &f.wwait):
		n, err = f.raw.file(f, t, w == &f.wwait, b)
	case mounted && f.pollable:
		rt.IOPark(t, how(w == &f.rwait && f.rdl.Load() || w == &f.wwait && f.wdl.Load()))
		n, err = fn()
	case mounted:
		rt.IOPark(t, fileHow)
		fallthrough
	default:
		n, err = fn()
	}
	if err != nil && f.byInterruptOf(t) {
		err = &fs.PathError{Op: op, Path: f.f.Name(), Err: ErrClosedByInterrupt}
	}
	return n, err
}
