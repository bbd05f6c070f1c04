// Package vio is a stub of loom's vio package for loomvet's tests.
package vio

import (
	"context"
	"net"
	"net/http"
)

func Listen(network, address string) (net.Listener, error)                       { return net.Listen(network, address) }
func Dial(network, address string) (net.Conn, error)                             { return net.Dial(network, address) }
func DialContext(ctx context.Context, network, address string) (net.Conn, error) { return nil, nil }
func WrapConn(c net.Conn) net.Conn                                               { return c }
func WrapListener(l net.Listener) net.Listener                                   { return l }
func Transport(base http.RoundTripper) http.RoundTripper                         { return base }
func Handler(h http.Handler) http.Handler                                        { return h }
