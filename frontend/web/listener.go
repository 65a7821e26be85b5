package web

import (
	"bytes"
	"net"
)

// SecureListener wraps the listener a Server's handler is served on so that the responses
// net/http writes by itself — to a malformed request (400), to headers too large (431), to an
// unknown transfer coding (501), none of which reaches a handler — carry the security headers
// too.
func SecureListener(ln net.Listener) net.Listener { return secureListener{ln} }

type secureListener struct{ net.Listener }

func (l secureListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &secureConn{Conn: c}, nil
}

// serverRefusal is how net/http ends the head of a response it writes itself (every one
// of the handler's carries Content-Security-Policy: guard's).
var serverRefusal = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")

type secureConn struct {
	net.Conn
}

func (c *secureConn) Write(b []byte) (int, error) {
	i := bytes.Index(b, serverRefusal)
	if !bytes.HasPrefix(b, []byte("HTTP/1.1 ")) || i < 0 || bytes.Contains(b[:i], []byte("\r\nContent-Security-Policy:")) {
		return c.Conn.Write(b)
	}
	var out bytes.Buffer
	out.Write(b[:i])
	for _, kv := range securityHeaders {
		out.WriteString("\r\n" + kv[0] + ": " + kv[1])
	}
	out.Write(b[i:])
	if _, err := c.Conn.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(b), nil
}
