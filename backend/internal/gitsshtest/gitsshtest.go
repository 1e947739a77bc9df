// Package gitsshtest serves bare git repositories over SSH for tests: a real SSH
// server (golang.org/x/crypto/ssh) on 127.0.0.1 that lets in one public key and runs
// git's own upload-pack and receive-pack for the commands clients send, as a hosting
// service does.
package gitsshtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh"
)

// Server is an SSH server over the bare repositories of one folder.
type Server struct {
	// Addr is host:port.
	Addr string
	// HostKey is the server's public key, for a known_hosts line.
	HostKey ssh.PublicKey

	root string
	ln   net.Listener
	wg   sync.WaitGroup
}

// Start serves the bare repositories under root to clients that sign in with the
// private key of allowed (any user name). It stops when the test ends.
func Start(t testing.TB, root string, allowed ssh.PublicKey) *Server {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &ssh.ServerConfig{PublicKeyCallback: func(_ ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
		if string(key.Marshal()) == string(allowed.Marshal()) {
			return &ssh.Permissions{}, nil
		}
		return nil, errors.New("unknown public key")
	}}
	cfg.AddHostKey(signer)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Addr: ln.Addr().String(), HostKey: signer.PublicKey(), root: root, ln: ln}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.serve(c, cfg)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.wg.Wait()
	})
	return s
}

// URL returns the ssh:// URL of the repository NAME.git under the server's root.
func (s *Server) URL(name string) string { return "ssh://git@" + s.Addr + "/" + name + ".git" }

// KnownHostsLine is the line of a known_hosts file that trusts the server.
func (s *Server) KnownHostsLine() string {
	host, port, _ := net.SplitHostPort(s.Addr)
	return fmt.Sprintf("[%s]:%s %s", host, port, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(s.HostKey))))
}

func (s *Server) serve(c net.Conn, cfg *ssh.ServerConfig) {
	defer c.Close()
	conn, chans, reqs, err := ssh.NewServerConn(c, cfg)
	if err != nil {
		return
	}
	defer conn.Close()
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			nc.Reject(ssh.UnknownChannelType, "sessions only")
			continue
		}
		ch, requests, err := nc.Accept()
		if err != nil {
			return
		}
		s.session(ch, requests)
	}
}

// session runs the one git command a client's exec request names.
func (s *Server) session(ch ssh.Channel, requests <-chan *ssh.Request) {
	defer ch.Close()
	for req := range requests {
		if req.Type != "exec" || len(req.Payload) < 4 {
			req.Reply(req.Type == "env", nil)
			continue
		}
		n := binary.BigEndian.Uint32(req.Payload)
		if int(n) > len(req.Payload)-4 {
			req.Reply(false, nil)
			return
		}
		command := string(req.Payload[4 : 4+n])
		name, arg, _ := strings.Cut(command, " ")
		repo := filepath.Join(s.root, filepath.FromSlash(strings.Trim(arg, "'/")))
		if (name != "git-upload-pack" && name != "git-receive-pack") || !strings.HasPrefix(repo, s.root+string(filepath.Separator)) {
			req.Reply(false, nil)
			return
		}
		req.Reply(true, nil)
		cmd := exec.Command("git", strings.TrimPrefix(name, "git-"), repo)
		cmd.Stdout, cmd.Stderr = ch, ch.Stderr()
		stdin, err := cmd.StdinPipe() // closed by Wait, unlike a copy Wait would wait for
		if err != nil {
			return
		}
		go func() {
			io.Copy(stdin, ch)
			stdin.Close()
		}()
		code := uint32(0)
		if err := cmd.Run(); err != nil {
			code = 1
			io.WriteString(ch.Stderr(), err.Error()+"\n")
		}
		ch.SendRequest("exit-status", false, binary.BigEndian.AppendUint32(nil, code))
		return
	}
}
