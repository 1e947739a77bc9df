package gitrepo

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/transport"
)

// Credential is an access token saved for one remote host, as git's credential store
// keeps one: a protocol and a host, with its port unless it is the protocol's default.
type Credential struct {
	// Protocol is "https", or "http" for a loopback host (a local test server).
	Protocol string `toml:"protocol" json:"protocol"`
	// Host is the host name or address, with ":port" unless the port is the default.
	Host  string `toml:"host" json:"host"`
	Token string `toml:"token" json:"-"`
	// AllowHTTP lets the token go over plain HTTP; only to a loopback host.
	AllowHTTP bool `toml:"allow_http,omitempty" json:"allow_http"`
}

// ErrCredentialHost means a token was to be saved for something that is not an
// HTTPS (or loopback HTTP) host.
var ErrCredentialHost = errors.New("a token is saved for an HTTPS host")

// ParseCredentialHost reads where a token is for: a remote's URL
// ("https://github.com/me/notes.git") or its protocol and host ("https://github.com",
// "http://127.0.0.1:8080"); a bare host name means HTTPS. It returns the protocol and
// the host as Credential holds them. Plain HTTP is accepted only for a loopback host
// and only with allowHTTP, since anyone on the way reads what it carries.
func ParseCredentialHost(s string, allowHTTP bool) (protocol, host string, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", "", fmt.Errorf("%w: give the remote's address, such as https://github.com", ErrCredentialHost)
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return "", "", fmt.Errorf("%w: %q is not a remote's address (such as https://github.com)", ErrCredentialHost, s)
	}
	protocol = strings.ToLower(u.Scheme)
	port := 0
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port <= 0 || port > 65535 {
			return "", "", fmt.Errorf("%w: %q has no valid port", ErrCredentialHost, s)
		}
	}
	host = hostPort(u.Hostname(), port, protocol)
	switch {
	case protocol == "https":
	case protocol == "http" && !loopback(u.Hostname()):
		return "", "", fmt.Errorf("%w: %s is plain HTTP, where anyone on the way reads the token; use the HTTPS address (plain HTTP is allowed for this machine's own 127.0.0.1 or localhost only)", ErrCredentialHost, s)
	case protocol == "http" && !allowHTTP:
		return "", "", fmt.Errorf("%w: %s is plain HTTP; tick \"allow plain HTTP\" to send the token to this machine's own server over it", ErrCredentialHost, s)
	case protocol == "http":
	default:
		return "", "", fmt.Errorf("%w: %s is %s, not HTTPS (SSH remotes sign in with the SSH agent)", ErrCredentialHost, s, protocol)
	}
	return protocol, host, nil
}

// URL returns the credential's "protocol://host".
func (c Credential) URL() string { return c.Protocol + "://" + c.Host }

// tokenFor returns the token saved for ep's protocol and host, or "". Plain HTTP gets
// one only when its credential allows it and the host is a loopback address.
func tokenFor(ep *transport.Endpoint, creds []Credential) string {
	host := endpointHost(ep)
	for _, c := range creds {
		if c.Token == "" || !strings.EqualFold(c.Protocol, ep.Protocol) || !strings.EqualFold(c.Host, host) {
			continue
		}
		if ep.Protocol == "http" && !(c.AllowHTTP && loopback(ep.Host)) {
			continue
		}
		return c.Token
	}
	return ""
}

// endpointHost returns an endpoint's host as credentials name it: lower case, with
// ":port" unless the port is the protocol's default.
func endpointHost(ep *transport.Endpoint) string { return hostPort(ep.Host, ep.Port, ep.Protocol) }

func hostPort(host string, port int, protocol string) string {
	host = strings.ToLower(strings.Trim(host, "[]"))
	if port == 0 || protocol == "https" && port == 443 || protocol == "http" && port == 80 {
		if strings.Contains(host, ":") {
			return "[" + host + "]"
		}
		return host
	}
	return net.JoinHostPort(host, strconv.Itoa(port))
}

// loopback reports whether host is this machine: localhost or a loopback address.
func loopback(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// How a push or pull signs in to a remote, as SignInFor reports it.
const (
	// SignInToken: the token saved for the remote's protocol and host.
	SignInToken = "token"
	// SignInHelper: git's credential helper is asked (HTTPS without a saved token).
	SignInHelper = "helper"
	// SignInSSH: the SSH agent or the user's key file.
	SignInSSH = "ssh"
	// SignInNone: nothing is sent (plain HTTP without an allowed token).
	SignInNone = "none"
	// SignInLocal: a folder or file:// remote, which needs none.
	SignInLocal = "local"
)

// SignInFor says how a push or pull to rawURL signs in with creds: one of the SignIn
// constants, and for SignInToken the "protocol://host" of the credential used.
func SignInFor(rawURL string, creds []Credential) (kind, credential string) {
	ep, err := transport.NewEndpoint(rawURL)
	if err != nil {
		return SignInNone, ""
	}
	switch ep.Protocol {
	case "http", "https":
		if tokenFor(ep, creds) != "" {
			return SignInToken, ep.Protocol + "://" + endpointHost(ep)
		}
		if ep.Protocol == "https" {
			return SignInHelper, ""
		}
		return SignInNone, ""
	case "ssh":
		return SignInSSH, ""
	}
	return SignInLocal, ""
}
