//go:build !unix

package vio

import (
	"net"
	"os"
)

// rawConn is the non-blocking path of a Conn, which needs Unix system calls; elsewhere every
// Conn takes the unmounted path.
type rawConn struct{}

func (r *rawConn) init(c net.Conn, vc *Conn) {}
func (r *rawConn) ok() bool                  { return false }

func (r *rawConn) read(c *Conn, t any, b []byte) (int, error)  { panic("unreachable") }
func (r *rawConn) write(c *Conn, t any, b []byte) (int, error) { panic("unreachable") }

type rawPacket struct{}

func (r *rawPacket) init(pc net.PacketConn, vp *PacketConn) {}
func (r *rawPacket) ok() bool                               { return false }
func (r *rawPacket) readFrom(p *PacketConn, t any, b []byte) (int, net.Addr, error) {
	panic("unreachable")
}

func (r *rawConn) initFile(f *os.File) bool                               { return false }
func (r *rawConn) file(f *File, t any, write bool, b []byte) (int, error) { panic("unreachable") }
