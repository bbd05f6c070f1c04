package vio_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/loomgo/loom/thread"
	"github.com/loomgo/loom/vio"
)

func TestReadFileWriteFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	data := make([]byte, 100_000)
	for i := range data {
		data[i] = byte(i)
	}
	runVirtual(t, nil, func() {
		if err := vio.WriteFile(name, data, 0o600); err != nil {
			t.Error(err)
			return
		}
		got, err := vio.ReadFile(name)
		if err != nil || string(got) != string(data) {
			t.Errorf("ReadFile: %d bytes, %v; want the %d written", len(got), err, len(data))
		}
		_, err = vio.ReadFile(name + ".missing")
		_, oserr := os.ReadFile(name + ".missing")
		if !errors.Is(err, fs.ErrNotExist) || err.Error() != oserr.Error() {
			t.Errorf("ReadFile of a missing file: %v; want %v", err, oserr)
		}
	})
}

func TestFileCallsMatchOSFile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	runVirtual(t, nil, func() {
		f, err := vio.Create(name)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		f.WriteString("hello, world")
		f.WriteAt([]byte("HELLO"), 0)
		if err := f.Sync(); err != nil {
			t.Error(err)
		}
		b := make([]byte, 5)
		if n, err := f.ReadAt(b, 7); n != 5 || string(b) != "world" || err != nil {
			t.Errorf("ReadAt = %d %q %v", n, b, err)
		}
		if _, err := f.Seek(0, 0); err != nil {
			t.Error(err)
		}
		if n, err := f.Read(b); n != 5 || string(b) != "HELLO" || err != nil {
			t.Errorf("Read = %d %q %v", n, b, err)
		}
		if err := f.Truncate(5); err != nil {
			t.Error(err)
		}
		if fi, err := f.Stat(); err != nil || fi.Size() != 5 {
			t.Errorf("Stat = %v, %v", fi, err)
		}
		f.Seek(0, 2)
		if n, err := f.Read(b); n != 0 || err == nil || err.Error() != "EOF" {
			t.Errorf("Read at the end = %d, %v; want io.EOF", n, err)
		}
		d, err := vio.Open(filepath.Dir(name))
		if err != nil {
			t.Error(err)
			return
		}
		defer d.Close()
		if ents, err := d.ReadDir(-1); len(ents) != 1 || ents[0].Name() != "f" || err != nil {
			t.Errorf("ReadDir = %v, %v", ents, err)
		}
	})
}

func TestFileInterruptBeforeReadClosesIt(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	os.WriteFile(name, []byte("data"), 0o600)
	runVirtual(t, nil, func() {
		f, err := vio.Open(name)
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		thread.Current().Interrupt()
		_, err = f.Read(make([]byte, 4))
		var pe *fs.PathError
		if !isInterruptClose(err) || !errors.As(err, &pe) || pe.Op != "read" || pe.Path != name {
			t.Errorf("Read with the interrupt status set: %v; want a *fs.PathError wrapping ErrClosedByInterrupt", err)
		}
		if !thread.Interrupted() {
			t.Error("interrupt status cleared")
		}
		if _, err := f.OSFile().Read(make([]byte, 1)); !errors.Is(err, os.ErrClosed) {
			t.Errorf("file not closed by the interrupt: %v", err)
		}
	})
}
